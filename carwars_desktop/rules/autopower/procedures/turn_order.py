"""autopower.draw_order and autopower.first_player: who draws first, who plays first.

AUTOpower §2.2 steps 2 and 4; AP-D16 (a 2d6 roll-off once every stat ties),
AP-D24 (more than two cars: descending Speed, kept all game), AP-D27.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from carwars_desktop.dice import DiceSource
from carwars_desktop.procedures import DiceNeed, Odds, Outcome, Procedure, Result, Step, Values
from carwars_desktop.rules.autopower.procedures.common import (
    AP_D27,
    ONE_BIG_DECK,
    RULESET,
    car_input,
)
from carwars_desktop.rules.autopower.sheet import CarSheet
from carwars_desktop.rules.autopower.tables import DICE_COUNT, DICE_SIDES, rule
from carwars_desktop.rules.autopower.turns import (
    break_tie,
    draw_order_key,
    first_turn_key,
    tied_groups,
)

CARS = ("car_a", "car_b", "car_c", "car_d")

Key = Callable[[CarSheet], tuple[int, ...]]


def _cars(values: Values) -> list[tuple[str, CarSheet]]:
    return [(name, values[name]) for name in CARS if values[name] is not None]


def _key(values: Values, first_turn: bool) -> Key:
    if first_turn:
        after = bool(values["ap_d27_speed_after_armor_penalty"])
        return lambda sheet: first_turn_key(sheet, after)
    return draw_order_key


def _key_text(sheet: CarSheet, first_turn: bool, values: Values) -> str:
    car = sheet.car
    stats = f"E{car.energy} F{car.fighting} S{car.strength} I{car.iq}"
    if first_turn:
        speed = sheet.seen_speed(bool(values["ap_d27_speed_after_armor_penalty"]))
        return f"{sheet.name}: Speed {speed}, {stats}"
    return f"{sheet.name}: {stats}"


def _order(values: Values, dice: DiceSource, first_turn: bool) -> Result:
    cars = _cars(values)
    section = "2.2"
    decisions = ("AP-D16", "AP-D24", "AP-D27") if first_turn else ("AP-D16",)
    what = "higher Speed goes first, ties by E, F, S, I" if first_turn \
        else "higher Energy draws first, ties by F, S, I"
    steps = [Step(f"{what}: " + "; ".join(_key_text(s, first_turn, values) for _, s in cars),
                  rule(section, *decisions))]
    if not first_turn and not values["one_big_deck"]:
        steps.append(Step("own decks: every player draws seven from his deck at once",
                          rule("2.2")))
        return Result(outcome="own decks: no draw order", steps=steps,
                      values={"order": [s.name for _, s in cars]})
    order: list[CarSheet] = []
    for group in tied_groups([s for _, s in cars], _key(values, first_turn)):
        if len(group) > 1:
            steps.append(Step(f"{' and '.join(s.name for s in group)} tie on every stat"
                              + (" and Speed" if first_turn else ""), rule(section, "AP-D16")))
        order += break_tie(group, dice, steps)
    names = [s.name for s in order]
    if first_turn:
        outcome = f"{names[0]} takes the first turn; order {', '.join(names)}"
        steps.append(Step(f"turn order {', '.join(names)}, kept whatever happens to speeds",
                          rule(section, "AP-D24")))
    else:
        outcome = f"{names[0]} draws first; order {', '.join(names)}"
        steps.append(Step(f"draw order {', '.join(names)}", rule(section)))
    return Result(outcome=outcome, steps=steps, values={"order": names})


def _odds(values: Values, first_turn: bool) -> Odds:
    cars = _cars(values)
    if not first_turn and not values["one_big_deck"]:
        return Odds((Outcome("own decks: no draw order", Fraction(1)),),
                    "own decks: everybody draws at once")
    top = tied_groups([s for _, s in cars], _key(values, first_turn))[0]
    outcomes = tuple(
        Outcome(f"{sheet.name} ({name}) first",
                Fraction(1, len(top)) if any(sheet is s for s in top) else Fraction(0))
        for name, sheet in cars)
    if len(top) == 1:
        summary = f"{top[0].name} goes first: no roll"
    else:
        summary = f"{len(top)} cars tie: a 2d6 roll-off, each 1/{len(top)} (AP-D16)"
    return Odds(outcomes, summary)


def _dice(values: Values, first_turn: bool) -> list[DiceNeed]:
    cars = _cars(values)
    if not first_turn and not values["one_big_deck"]:
        return []
    return [DiceNeed(f"tie-break roll for {sheet.name}", DICE_COUNT, DICE_SIDES,
                     "tied on every stat; again while tied", repeat=True)
            for group in tied_groups([s for _, s in cars], _key(values, first_turn))
            if len(group) > 1 for sheet in group]


def _procedure(first_turn: bool) -> Procedure:
    cars = (car_input("car_a", "First car"), car_input("car_b", "Second car"),
            car_input("car_c", "Third car", optional=True),
            car_input("car_d", "Fourth car", optional=True))
    return Procedure(
        id="autopower.first_player" if first_turn else "autopower.draw_order",
        title=("Who goes first (higher Speed, ties down the stats)" if first_turn
               else "Who draws first (One Big Deck: higher Energy, ties down the stats)"),
        ruleset=RULESET,
        rule=rule("2.2"),
        summary=("After the opening plays the higher Speed takes the first turn; ties by E, F, "
                 "S, I, then a 2d6 roll-off; the order is kept all game." if first_turn
                 else "With One Big Deck the higher Energy draws first; ties by F, S, I, then a "
                      "2d6 roll-off."),
        inputs=(*cars, AP_D27 if first_turn else ONE_BIG_DECK),
        resolve_fn=lambda values, dice: _order(values, dice, first_turn),
        odds_fn=lambda values: _odds(values, first_turn),
        dice_fn=lambda values: _dice(values, first_turn),
    )


DRAW_ORDER = _procedure(first_turn=False)
FIRST_PLAYER = _procedure(first_turn=True)
