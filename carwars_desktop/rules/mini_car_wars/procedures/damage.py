"""mini.damage — apply one hit's damage to a side of a vehicle (Mini Car Wars §2.11–§2.12).

Used for damage held until everyone has fired (§2.2) and for any other hit.
Give the damage, or a number of d6 to roll. Dice, in order: the damage dice
(if asked); 1d6 interior roll if the damage gets past the armor.
"""

from __future__ import annotations

from carwars_desktop.dice import DiceSource, Distribution, dice_sum
from carwars_desktop.procedures import (
    ChoiceInput,
    DiceNeed,
    InputError,
    IntInput,
    Odds,
    Procedure,
    Result,
    SheetChange,
    Step,
    Values,
    percent,
)
from carwars_desktop.rules.kernel.refusal import refuse
from carwars_desktop.rules.mini_car_wars.damage import ALLOCATION, apply_damage, needs_interior_roll
from carwars_desktop.rules.mini_car_wars.model import Side
from carwars_desktop.rules.mini_car_wars.outcomes import Attempt, damage_odds
from carwars_desktop.rules.mini_car_wars.procedures.common import (
    D5,
    D20,
    RULESET,
    SIDE_KEYS,
    get_sheet,
    rules_from,
    sheet_input,
)


def _check(values: Values) -> None:
    if (values["damage"] is None) == (values["dice"] is None):
        raise InputError("damage: give either the damage or the number of dice to roll")
    sheet = get_sheet(values, "vehicle")
    if not sheet.can_be_targeted(Side(values["side"])):
        raise refuse(f"side: {sheet.name} has no turret, so its top cannot be hit (§2.9)",
                     "Mini Car Wars §2.9")


def _damage_distribution(values: Values) -> Distribution:
    if values["dice"] is not None:
        return dice_sum(values["dice"], 6)
    return Distribution.constant(values["damage"])


def _resolve(values: Values, dice: DiceSource) -> Result:
    sheet = get_sheet(values, "vehicle")
    side = Side(values["side"])
    steps: list[Step] = []
    damage = values["damage"]
    if damage is None:
        faces = dice.roll(6, values["dice"], "damage")
        damage = sum(faces)
        steps.append(Step(f"damage {values['dice']}d6: {' '.join(map(str, faces))} = {damage}",
                          ALLOCATION))
    roll = dice.roll(6, 1, "interior location")[0] \
        if needs_interior_roll(sheet, damage, side) else None
    new, report = apply_damage(sheet, damage, side, roll, rules_from(values))
    steps += report.steps
    summary = (f"{new.name}: {damage} damage to the {side.label}; armor {new.armor}, "
               f"power plant {new.power_plant}")
    return Result(outcome=f"{damage} damage to {sheet.name}'s {side.label}", steps=steps,
                  success=None, effects=[SheetChange("vehicle", new, summary)],
                  values={"damage": damage, "report": report})


def _odds(values: Values) -> Odds:
    sheet = get_sheet(values, "vehicle")
    side = Side(values["side"])
    distribution = _damage_distribution(values)
    result = damage_odds(sheet, side, [Attempt(1, 1, distribution)])
    worst = result.outcomes[0]
    likeliest = max(result.outcomes, key=lambda o: o.probability)
    return Odds(outcomes=result.outcomes,
                summary=f"{sheet.name}, {side.label}: worst possible {worst.label} "
                        f"({percent(worst.probability)}); most likely {likeliest.label} "
                        f"({percent(likeliest.probability)})",
                expected=result.expected)


def _dice(values: Values) -> list[DiceNeed]:
    needs = [] if values["dice"] is None else [DiceNeed("damage", values["dice"], 6)]
    if Side(values["side"]) is not Side.TOP:
        needs.append(DiceNeed("interior location", 1, 6, "if the damage gets past the armor"))
    return needs


DAMAGE = Procedure(
    id="mini.damage",
    title="Apply damage to a side (allocation)",
    ruleset=RULESET,
    rule="Mini Car Wars §2.11–§2.12",
    summary="Side (or top) armor, weapons lost with their side, one interior roll, "
            "pass-through to the opposite side, and the consequences.",
    inputs=(
        sheet_input("vehicle", "Vehicle hit"),
        ChoiceInput("side", "Side hit", SIDE_KEYS, Side.FRONT.value),
        IntInput("damage", "Damage (hits)", None, 0, 1000, optional=True,
                 help="the damage already rolled (e.g. held from mini.fire)"),
        IntInput("dice", "…or dice to roll (d6)", None, 1, 100, optional=True),
        D5, D20,
    ),
    resolve_fn=_resolve,
    odds_fn=_odds,
    dice_fn=_dice,
    check_fn=_check,
)
