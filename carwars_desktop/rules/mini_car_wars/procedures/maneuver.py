"""mini.maneuver — a vehicle's move in one phase: straight or a maneuver (Mini Car Wars §2.5).

The first maneuver of a turn is free; each later one needs a control roll made
after the maneuver (§2.6). A pending skid makes the vehicle skip this move
(§2.7). Dice, in order: 2d6 control roll and 1d6 fishtail corner, when needed.
"""

from __future__ import annotations

from dataclasses import replace

from carwars_desktop.dice import DiceSource
from carwars_desktop.procedures import (
    ChoiceInput,
    DiceNeed,
    Odds,
    Procedure,
    Result,
    SheetChange,
    Step,
    Values,
)
from carwars_desktop.rules.mini_car_wars.cite import mcw
from carwars_desktop.rules.mini_car_wars.control import roll_control
from carwars_desktop.rules.mini_car_wars.model import ControlResult, Maneuver
from carwars_desktop.rules.mini_car_wars.procedures.common import (
    D2,
    D3,
    RULESET,
    certain,
    get_sheet,
    refused,
    refused_odds,
    rules_from,
    sheet_input,
)
from carwars_desktop.rules.mini_car_wars.procedures.control import CONTROL_DICE, control_odds
from carwars_desktop.rules.mini_car_wars.sheet import MiniSheet
from carwars_desktop.rules.mini_car_wars.tables import MANEUVERS

RULE = mcw("§2.5")


def _refusal(sheet: MiniSheet, maneuver: Maneuver) -> str | None:
    if sheet.wrecked:
        return f"{sheet.name} is a wreck"
    if sheet.speed == 0:
        return f"{sheet.name} is not moving this turn"
    if sheet.moves_left == 0:
        return (f"{sheet.name} has no move left this turn (at {sheet.speed} mph it moves in "
                f"phases 1–{sheet.moves_this_turn})")
    if sheet.skip_next_move:
        return None
    if maneuver is not Maneuver.STRAIGHT and sheet.uncontrolled:
        return (f"the driver is {sheet.driver.state.value}: the vehicle goes straight ahead "
                "with no maneuvers (§2.12)")
    spec = MANEUVERS[maneuver]
    if spec.only_at_speed is not None and sheet.speed != spec.only_at_speed:
        return f"a {maneuver.value} is allowed only at {spec.only_at_speed} mph"
    return None


def _move(values: Values) -> tuple[MiniSheet, Maneuver, str | None]:
    """The vehicle, its move, and why the rules refuse it (``None``: allowed)."""
    sheet = get_sheet(values, "vehicle")
    maneuver = Maneuver(values["maneuver"])
    return sheet, maneuver, _refusal(sheet, maneuver)


def _needs_roll(sheet: MiniSheet, maneuver: Maneuver) -> bool:
    return maneuver is not Maneuver.STRAIGHT and sheet.maneuvers >= 1 \
        and not sheet.skip_next_move


def _resolve(values: Values, dice: DiceSource) -> Result:
    sheet, maneuver, reason = _move(values)
    if reason is not None:
        return refused(reason, RULE)
    phase = sheet.phases_used + 1
    moved = replace(sheet, phases_used=phase)
    if sheet.skip_next_move:
        moved = replace(moved, skip_next_move=False)
        return Result(outcome=f"phase {phase}: skipped (skid)",
                      steps=[Step(f"phase {phase}: {sheet.name} skips this move — it was spent "
                                  "skidding", mcw("§2.7"))],
                      effects=[SheetChange("vehicle", moved, f"{sheet.name}: skipped phase "
                                                             f"{phase}")])
    direction = " (in reverse)" if sheet.reverse else ""
    steps = [Step(f"phase {phase}: {maneuver.value}{direction} — {MANEUVERS[maneuver].execution}",
                  RULE)]
    if maneuver is Maneuver.STRAIGHT:
        return Result(outcome=f"phase {phase}: straight", steps=steps, success=True,
                      effects=[SheetChange("vehicle", moved, f"{sheet.name}: moved straight")])
    count = sheet.maneuvers + 1
    moved = replace(moved, maneuvers=count)
    if count == 1:
        steps.append(Step("first maneuver this turn: free, no control roll", RULE))
        return Result(outcome=f"phase {phase}: {maneuver.value}, no control roll", steps=steps,
                      success=True,
                      effects=[SheetChange("vehicle", moved, f"{sheet.name}: {maneuver.value}")])
    steps.append(Step(f"maneuver {count} this turn: control roll after the maneuver",
                      mcw("§2.5–§2.6")))
    outcome = roll_control(moved, dice, f"maneuver {count}", rules_from(values))
    steps += outcome.steps
    return Result(outcome=f"phase {phase}: {maneuver.value}, control {outcome.total} → "
                          f"{outcome.result.value}", steps=steps,
                  success=outcome.result is ControlResult.NO_EFFECT,
                  effects=[SheetChange("vehicle", outcome.sheet,
                                       f"{sheet.name}: {maneuver.value}, "
                                       f"{outcome.result.value}")],
                  values={"natural": outcome.natural, "total": outcome.total,
                          "result": outcome.result.value})


def _odds(values: Values) -> Odds:
    sheet, maneuver, reason = _move(values)
    if reason is not None:
        return refused_odds(reason)
    if sheet.skip_next_move:
        return certain("skipped (skid)", "this move is lost to the skid")
    if not _needs_roll(sheet, maneuver):
        return certain("no control roll", "straight move or the turn's free maneuver")
    return control_odds(replace(sheet, phases_used=sheet.phases_used + 1))


def _dice(values: Values) -> list[DiceNeed]:
    sheet, maneuver, reason = _move(values)
    if reason is None and _needs_roll(sheet, maneuver):
        return CONTROL_DICE
    return []


MANEUVER = Procedure(
    id="mini.maneuver",
    title="Move or maneuver (drift, swerve, pivot; control roll)",
    ruleset=RULESET,
    rule=mcw("§2.5–§2.7"),
    summary="The vehicle's next move this turn: straight, drift, swerve or pivot; the first "
            "maneuver is free, later ones need a control roll; a skid skips the next move.",
    inputs=(
        sheet_input("vehicle", "Vehicle"),
        ChoiceInput("maneuver", "Move", tuple(m.value for m in Maneuver), Maneuver.STRAIGHT.value),
        D2, D3,
    ),
    resolve_fn=_resolve,
    odds_fn=_odds,
    dice_fn=_dice,
)
