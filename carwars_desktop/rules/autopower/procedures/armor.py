"""autopower.armor: Strength cards as armor, the 10E cap and the speed penalty.

AUTOpower §2.5; AP-D8 (the cap counts added Strength only), AP-D23 (the cards
stay), AP-D27.
"""

from __future__ import annotations

from fractions import Fraction

from carwars_desktop.dice import DiceSource
from carwars_desktop.procedures import (
    Modifier,
    Odds,
    Outcome,
    Procedure,
    Result,
    Step,
    Values,
    plan_of,
)
from carwars_desktop.rules.autopower.armor import play_armor
from carwars_desktop.rules.autopower.cards import cards_text
from carwars_desktop.rules.autopower.procedures.common import (
    RULESET,
    car_input,
    cards,
    cards_input,
    change,
    planned,
)
from carwars_desktop.rules.autopower.sheet import CarSheet
from carwars_desktop.rules.autopower.tables import rule


def _plan(values: Values) -> tuple[CarSheet, list[Step]]:
    return play_armor(values["vehicle"], cards(values, "cards"))


def _resolve(values: Values, dice: DiceSource) -> Result:
    sheet, steps = plan_of(values, _plan)
    return Result(outcome=f"{sheet.name}: Armor {sheet.armor}, Speed {sheet.speed}", steps=steps,
                  effects=[change("vehicle", sheet, f"{sheet.name}: Strength in play "
                                                f"{cards_text(sheet.strength_in_play)}, Armor "
                                                f"{sheet.armor}, Speed {sheet.speed}")],
                  values={"armor": sheet.armor, "added_armor": sheet.added_armor,
                          "speed_penalty": sheet.speed_penalty, "speed": sheet.speed})


def _odds(values: Values) -> Odds:
    sheet, _ = plan_of(values, _plan)
    label = f"Armor {sheet.armor}, Speed {sheet.speed}"
    modifiers = (Modifier(f"base S{sheet.car.strength}", sheet.car.strength, rule("2.5")),
                 Modifier(f"Strength cards {cards_text(sheet.strength_in_play)}",
                          sheet.added_armor, rule("2.5", "AP-D8")),
                 Modifier("speed penalty", -sheet.speed_penalty, rule("2.5")))
    return Odds((Outcome(label, Fraction(1)),), f"{label}: no roll", modifiers,
                expected=(("Armor", Fraction(sheet.armor)), ("Speed", Fraction(sheet.speed))))


ARMOR = Procedure(
    id="autopower.armor",
    aliases={"car": "vehicle"},
    title="Armor (play Strength cards, speed penalty)",
    ruleset=RULESET,
    rule=rule("2.5"),
    summary="Strength cards from the hand add to S for good; the added total stays ≤ 10E and "
            "every full 10 of it costs 1 Speed.",
    inputs=(car_input("vehicle", "Car"),
            cards_input("cards", "Strength cards played", "values such as 5, 6")),
    resolve_fn=_resolve,
    odds_fn=_odds,
    plan_fn=planned(_plan),
)
