"""mini.control — a control roll on the Control Table (Mini Car Wars §2.6–§2.7, §3.4).

For a wounded driver (MCW-D5) or any other cause; a maneuver's own roll is made
by mini.maneuver and the hazards' by mini.hazard. Dice, in order: 2d6 control
roll; 1d6 for the fishtail corner if the result fishtails.
"""

from __future__ import annotations

from carwars_desktop.dice import DiceSource
from carwars_desktop.procedures import (
    ChoiceInput,
    DiceNeed,
    Odds,
    Procedure,
    Result,
    SheetChange,
    Values,
    odds_text,
)
from carwars_desktop.rules.mini_car_wars.cite import mcw
from carwars_desktop.rules.mini_car_wars.control import (
    CONTROL_RULE,
    control_chart,
    control_modifiers,
    control_outcomes,
    no_effect_chance,
    roll_control,
)
from carwars_desktop.rules.mini_car_wars.model import ControlResult
from carwars_desktop.rules.mini_car_wars.procedures.common import (
    D2,
    D3,
    RULESET,
    get_sheet,
    refused,
    refused_odds,
    rules_from,
    sheet_input,
)
from carwars_desktop.rules.mini_car_wars.sheet import MiniSheet

CONTROL_DICE = [DiceNeed("control roll", 2, 6),
                DiceNeed("fishtail corner", 1, 6, "on Fishtail or Fishtail and Skid")]


def control_result(sheet: MiniSheet, dice: DiceSource, why: str, values: Values) -> Result:
    """Roll and apply a control roll for ``sheet`` (shared by mini.control and mini.hazard)."""
    if sheet.wrecked:
        return refused(f"{sheet.name} is already a wreck", CONTROL_RULE)
    outcome = roll_control(sheet, dice, why, rules_from(values))
    safe = outcome.result is ControlResult.NO_EFFECT
    return Result(outcome=f"{outcome.total} → {outcome.result.value}", steps=outcome.steps,
                  success=safe,
                  effects=[SheetChange("vehicle", outcome.sheet,
                                       f"{sheet.name}: {outcome.result.value}")],
                  values={"natural": outcome.natural, "total": outcome.total,
                          "result": outcome.result.value, "speed": sheet.speed,
                          "modifier": outcome.total - outcome.natural},
                  label=outcome.result.value)


def control_odds(sheet: MiniSheet) -> Odds:
    if sheet.wrecked:
        return refused_odds(f"{sheet.name} is already a wreck")
    stack = control_modifiers(sheet.speed, sheet.is_cycle)
    bonus = sum(m.value for m in stack)
    return Odds(outcomes=control_outcomes(sheet.speed, sheet.is_cycle),
                summary=f"2d6 {bonus:+d}: no effect on {10 - bonus} or less · "
                        f"{odds_text(no_effect_chance(sheet.speed, sheet.is_cycle))}",
                modifiers=stack, chart=control_chart(sheet.speed, sheet.is_cycle))


REASONS = ("wounded driver", "other")


def _resolve(values: Values, dice: DiceSource) -> Result:
    reason = values["reason"]
    why = f"{reason} (MCW-D5)" if reason == "wounded driver" else reason
    return control_result(get_sheet(values, "vehicle"), dice, why, values)


CONTROL = Procedure(
    id="mini.control",
    title="Control roll (Control Table)",
    ruleset=RULESET,
    rule=mcw("§2.6–§2.7, §3.4"),
    summary="2d6 + 1 per full 20 mph (+2 for a cycle) on the Control Table; fishtail, skid "
            "(skips the next move) or crash and burn applied to the sheet.",
    inputs=(
        sheet_input("vehicle", "Vehicle"),
        ChoiceInput("reason", "Why", REASONS, REASONS[0],
                    help="a wounded driver rolls once (MCW-D5)"),
        D2, D3,
    ),
    resolve_fn=_resolve,
    odds_fn=lambda values: control_odds(get_sheet(values, "vehicle")),
    dice_fn=lambda values: CONTROL_DICE,
)
