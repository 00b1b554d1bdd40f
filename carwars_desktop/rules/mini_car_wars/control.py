"""The control roll and its loss-of-control results (Mini Car Wars §2.6, §2.7, §3.4).

Decisions: MCW-D2 (no carry-over of a skid), MCW-D3 (skid geometry), MCW-D4
(fishtail before skid).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from carwars_desktop.dice import DiceSource, Distribution, dice_sum
from carwars_desktop.procedures import Chart, Modifier, Outcome, Step
from carwars_desktop.rules.kernel.formatting import signed
from carwars_desktop.rules.mini_car_wars.decisions import DEFAULT_RULES, MiniRules
from carwars_desktop.rules.mini_car_wars.model import ControlResult
from carwars_desktop.rules.mini_car_wars.sheet import MiniSheet
from carwars_desktop.rules.mini_car_wars.tables import (
    CONTROL_CYCLE_BONUS,
    CONTROL_EFFECTS,
    CONTROL_SPEED_STEP,
    CONTROL_TABLE,
    FISHTAIL_SIDE,
)

CONTROL_RULE = "Mini Car Wars §2.6"
TABLE_RULE = "Mini Car Wars §3.4"
RESULTS_RULE = "Mini Car Wars §2.7"


def control_modifiers(speed: int, is_cycle: bool) -> tuple[Modifier, ...]:
    """+1 per full 20 mph of speed, +2 for a motorcycle (§2.6)."""
    stack = [Modifier(f"speed {speed} mph", speed // CONTROL_SPEED_STEP, CONTROL_RULE)]
    if is_cycle:
        stack.append(Modifier("motorcycle", CONTROL_CYCLE_BONUS, CONTROL_RULE))
    return tuple(stack)


def control_bonus(speed: int, is_cycle: bool) -> int:
    return sum(m.value for m in control_modifiers(speed, is_cycle))


def control_result(total: int) -> ControlResult:
    """Read a modified total on the Control Table (§3.4): bands in ascending order."""
    for band in CONTROL_TABLE:
        if band.high is None or total <= band.high:
            return band.result
    return CONTROL_TABLE[-1].result


def control_distribution(speed: int, is_cycle: bool) -> Distribution:
    return dice_sum(2, 6) + control_bonus(speed, is_cycle)


def control_outcomes(speed: int, is_cycle: bool) -> tuple[Outcome, ...]:
    """Exact probability of each Control Table result (all five, summing to 1)."""
    distribution = control_distribution(speed, is_cycle)
    ways: dict[ControlResult, int] = dict.fromkeys(ControlResult, 0)
    for total, count in distribution.ways.items():
        ways[control_result(total)] += count
    return tuple(Outcome(result.value, Fraction(ways[result], distribution.total))
                 for result in ControlResult)


def control_chart(speed: int, is_cycle: bool) -> Chart:
    distribution = control_distribution(speed, is_cycle)
    safe = frozenset(v for v in distribution.values()
                     if control_result(v) is ControlResult.NO_EFFECT)
    return Chart("control roll (2d6 + modifiers)", distribution, safe)


def no_effect_chance(speed: int, is_cycle: bool) -> Fraction:
    return control_outcomes(speed, is_cycle)[0].probability


@dataclass(frozen=True)
class ControlOutcome:
    """A control roll made and applied to the sheet."""

    sheet: MiniSheet
    result: ControlResult
    natural: int
    total: int
    steps: tuple[Step, ...]


def fishtail_corner(roll: int) -> str:
    for faces, corner in FISHTAIL_SIDE:
        if roll in faces:
            return corner
    raise ValueError(f"fishtail roll {roll} is not a d6 face")


def roll_control(sheet: MiniSheet, dice: DiceSource, why: str,
                 rules: MiniRules = DEFAULT_RULES) -> ControlOutcome:
    """Roll 2d6 on the Control Table for ``sheet`` and apply the result (§2.6–§2.7).

    Dice, in order: 2d6 control roll; 1d6 fishtail corner if the result fishtails.
    """
    stack = control_modifiers(sheet.speed, sheet.is_cycle)
    dice_values = dice.roll(6, 2, "control roll")
    natural = sum(dice_values)
    total = natural + sum(m.value for m in stack)
    result = control_result(total)
    mods = " ".join(f"{signed(m.value)} ({m.label})" for m in stack)
    steps = [Step(f"control roll ({why}): {natural} {mods} = {total} → {result.value}",
                  f"{CONTROL_RULE}, {TABLE_RULE}")]
    new = sheet
    if result is ControlResult.NO_EFFECT:
        steps.append(Step(CONTROL_EFFECTS[result], RESULTS_RULE))
    if result.fishtails:
        corner = fishtail_corner(dice.roll(6, 1, "fishtail corner")[0])
        steps.append(Step(f"fishtail: hold one front corner, move the {corner} corner 2 squares "
                          "(½\") sideways" + (" — then the skid (MCW-D4)" if result.skids else ""),
                          RESULTS_RULE))
    if result.skids:
        start = ("from where the maneuver ended, keeping its facing (MCW-D3)"
                 if rules.d3_skid_from_post_maneuver else "from the phase-start position")
        steps.append(Step(f"skid: move 1\" in the direction it was heading at the start of the "
                          f"phase, {start}", RESULTS_RULE))
        if sheet.moves_left > 0:
            new = replace(new, skip_next_move=True)
            steps.append(Step(f"it skips its next phase of movement (phase "
                              f"{sheet.phases_used + 1})", RESULTS_RULE))
        elif rules.d2_skid_carries_over:
            new = replace(new, skip_next_move=True)
            steps.append(Step("no move left this turn: the skip carries into the next turn "
                              "(MCW-D2 alternative)", RESULTS_RULE))
        else:
            steps.append(Step("no move left this turn: nothing carries into the next turn "
                              "(MCW-D2)", RESULTS_RULE))
    if result is ControlResult.CRASH_AND_BURN:
        new = sheet.crashed_and_burned()
        steps.append(Step(f"{CONTROL_EFFECTS[result]} {sheet.name} is a wreck at 0 mph.",
                          RESULTS_RULE))
    return ControlOutcome(new, result, natural, total, tuple(steps))
