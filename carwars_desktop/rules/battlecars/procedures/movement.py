"""Procedures: speed selection, three-point turn, cornering, skid test (§2.3–§2.5)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from carwars_desktop.dice import DiceSource
from carwars_desktop.procedures import (
    BoolInput,
    Chart,
    ChoiceInput,
    DiceNeed,
    IntInput,
    Odds,
    Procedure,
    Refusal,
    Result,
    SheetChange,
    Step,
    Values,
)
from carwars_desktop.rules.battlecars.cite import bc
from carwars_desktop.rules.battlecars.movement import (
    RULE_CORNER,
    RULE_SPEED,
    SpeedRange,
    corner_check,
    speed_range,
    three_point_turn,
)
from carwars_desktop.rules.battlecars.options import options_from
from carwars_desktop.rules.battlecars.procedures.common import (
    RULESET,
    car_input,
    certain,
    clear_points_input,
    decisions,
    odds_line,
    outcomes,
    refuse,
    speed_of,
    speed_override,
    surface_input,
)
from carwars_desktop.rules.battlecars.sheet import CarSheet
from carwars_desktop.rules.battlecars.skid import (
    RULE_SKID,
    SkidCause,
    drift_distribution,
    drift_row,
    facing_distribution,
    resolve_skid,
    skid_probabilities,
    speed_difference,
)
from carwars_desktop.rules.battlecars.tables import (
    CONTINUE_FACINGS,
    CORNER_ANGLES,
    DIE,
    REVERSE_MAX,
)
from carwars_desktop.rules.battlecars.terms import Direction, Kind, Surface, Weapon

SKID_DECISIONS = ("bc_d10_cap_sd", "bc_d11_fallback_facing", "bc_d12_turn_to_intended")


# --- speed --------------------------------------------------------------------------------
def _speed_resolve(values: Values, dice: DiceSource) -> Result:
    sheet: CarSheet = values["vehicle"]
    new = values["speed"]
    direction = Direction(values["direction"])
    limits = speed_range(sheet, direction, Surface(values["surface"]), options_from(values))
    steps = list(limits.steps)
    if limits.allows(new):
        steps.append(Step(f"speed {new} {direction.value} is within {limits.low}–{limits.high}",
                          RULE_SPEED))
        after = replace(sheet, previous_speed=sheet.speed, speed=new, direction=direction)
        return Result(f"speed {new} {direction.value}: allowed", steps, True,
                      [SheetChange("vehicle", after, f"speed {sheet.speed} → {new} "
                                                 f"{direction.value}")],
                      _speed_values(values, limits), label="allowed")
    why = limits.refusal or f"outside {limits.low}–{limits.high}"
    steps.append(Step(f"speed {new} {direction.value}: {why}", RULE_SPEED))
    return Result(steps=steps, values=_speed_values(values, limits),
                  refusal=Refusal(why, RULE_SPEED,
                                  f"speed {new} {direction.value}: not allowed ({why})"))


def _speed_values(values: Values, limits: SpeedRange) -> dict[str, int]:
    """The numbers the speed explanation states: the range, the car's limits after damage."""
    sheet: CarSheet = values["vehicle"]
    surface = Surface(values["surface"])
    return {"low": limits.low, "high": limits.high, "from_speed": sheet.speed,
            "max_acceleration": sheet.max_acceleration(surface),
            "max_deceleration": sheet.max_deceleration(surface),
            "max_speed": sheet.max_speed(options_from(values)),
            "reverse_max": REVERSE_MAX[surface], "speed": values["speed"],
            "acceleration_bonus": int(sheet.working(Kind.SUPER_CHARGER)),
            "deceleration_bonus": int(sheet.working(Kind.POWER_BRAKES))}


def _speed_odds(values: Values) -> Odds:
    sheet: CarSheet = values["vehicle"]
    surface = Surface(values["surface"])
    options = options_from(values)
    ranges = [speed_range(sheet, d, surface, options) for d in Direction]
    direction = Direction(values["direction"])
    allowed = speed_range(sheet, direction, surface, options).allows(values["speed"])
    return certain("allowed" if allowed else "not allowed",
                   f"from {sheet.speed} {sheet.direction.value}: "
                   + "; ".join(str(r) for r in ranges))


SPEED = Procedure(
    id="battlecars.speed",
    aliases={"car": "vehicle"},
    title="Speed selection (acceleration, deceleration, reverse)",
    ruleset=RULESET,
    rule=bc("§2.3 · §3.1"),
    summary="Check a secretly chosen new speed against the acceleration, deceleration, max "
            "speed and reverse limits, and record it.",
    inputs=(car_input(), IntInput("speed", "New speed", 0, 0, 30),
            ChoiceInput("direction", "Direction", tuple(d.value for d in Direction),
                        Direction.FORWARD.value),
            surface_input())
    + decisions("bc_d24_stack_reductions", "bc_d25_cap_at_max_speed",
                "bc_d44_previous_speed_zero", "bc_d48_reverse_limits"),
    resolve_fn=_speed_resolve,
    odds_fn=_speed_odds,
)


# --- three-point turn ---------------------------------------------------------------------
def _turn_resolve(values: Values, dice: DiceSource) -> Result:
    sheet: CarSheet = values["vehicle"]
    refusal = three_point_turn(sheet)
    if refusal is not None:
        return Result(f"no three-point turn: {refusal}", [Step(refusal, RULE_SPEED)], False,
                      label="not allowed")
    return Result("three-point turn: rotate to face any direction; speed stays 0",
                  [Step(f"{sheet.name} at speed 0 rotates on its point to face any direction; "
                        "its speed stays 0, and it may fire from this point",
                        RULE_SPEED.more("step 5 · §2.9"))], True, values={"speed": sheet.speed},
                  label="allowed")


THREE_POINT_TURN = Procedure(
    id="battlecars.three_point_turn",
    aliases={"car": "vehicle"},
    title="Three-point turn",
    ruleset=RULESET,
    rule=bc("§2.3 step 5"),
    summary="A car at speed 0 rotates on its point to face any direction.",
    inputs=(car_input(),),
    resolve_fn=_turn_resolve,
    odds_fn=lambda values: certain("allowed" if three_point_turn(values["vehicle"]) is None
                                   else "not allowed", "speed 0 needed"),
)


# --- cornering ----------------------------------------------------------------------------
def _corner(values: Values) -> tuple[CarSheet, int, int]:
    sheet: CarSheet = values["vehicle"]
    speed = speed_of(values, sheet)
    check = corner_check(sheet, int(values["angle"]), Surface(values["surface"]), speed)
    return sheet, speed, check.speed_difference


def _corner_resolve(values: Values, dice: DiceSource) -> Result:
    sheet, speed, sd = _corner(values)
    angle = int(values["angle"])
    check = corner_check(sheet, angle, Surface(values["surface"]), speed)
    steps = [Step("at most one corner per point, turning costs no movement; the first point of "
                  "a move is always straight", RULE_CORNER.more("", "BC-D36")), check.step()]
    if not check.skids:
        return Result(f"{angle}° corner at speed {speed}: safe", steps, True,
                      values={"safe_speed": check.safe, "sd": 0, "angle": angle, "speed": speed},
                      label="safe")
    steps.append(Step(f"skid test before turning: the car is placed on the corner point, not "
                      f"yet turned; SD {sd}", RULE_SKID.more("step 1")))
    skid = resolve_skid(sheet, sd, speed, dice, values["clear_points"], angle, False,
                        options_from(values))
    steps += skid.steps
    return Result(f"{angle}° corner at speed {speed} (safe {check.safe}): skid — {skid.outcome}",
                  steps, skid.continues,
                  [SheetChange("vehicle", skid.sheet, _skid_summary(sheet, skid.sheet))],
                  {"safe_speed": check.safe, "sd": sd, "drift": skid.drift,
                   "facing": skid.facing, "angle": angle} | skid.details, label=skid.label)


def _skid_summary(before: CarSheet, after: CarSheet) -> str:
    tyres = sum(after.component_hits) - sum(before.component_hits)
    parts = [f"speed {after.speed}"]
    if tyres:
        parts.append(f"{tyres} tyre damage")
    return ", ".join(parts)


def skid_odds(sd: int, speed: int, clear: int | None, driver_killed: bool,
               values: Values, prefix: str) -> Odds:
    options = options_from(values)
    odds = skid_probabilities(sd, speed, clear, driver_killed, options)
    odds = {label: p for label, p in odds.items() if p}
    drift = drift_distribution(drift_row(sd, options))
    facing = facing_distribution(speed)
    # Decision (digest battlecars.md §2.5 steps 4 and 7, §2.16 step 2): the car continues
    # only when the drift meets no obstruction (else step 5 is skipped, a Crash or Ram, speed
    # 0) AND the final facing is 1–4 (and its driver is alive). The chart's region is the
    # final facing roll alone (the digest's "speed 5–6: 1/4"), a conditional probability; the
    # procedure's P(success) is P(continues), what a resolution reports (e.g. SD 6, 3 clear
    # points, speed 6: 3/4 × 1/4 = 3/16).
    return Odds(outcomes=outcomes(odds),
                summary=f"{prefix}SD {sd}: " + odds_line(odds),
                need=None,
                chart=Chart("final facing (1d8 + speed modifier)", facing,
                            frozenset(v for v in facing.values() if v in CONTINUE_FACINGS),
                            "final facing"),
                expected=(("drift", drift.mean()), ("P(any drift)", drift.p_ge(1))),
                success=odds.get("continues", Fraction(0)))


def _corner_odds(values: Values) -> Odds:
    sheet, speed, sd = _corner(values)
    if sd <= 0:
        return certain("safe", f"speed {speed} ≤ safe speed {speed - sd}: no skid test")
    return skid_odds(sd, speed, values["clear_points"], False, values,
                      f"speed {speed} > safe {speed - sd} → ")


def _corner_dice(values: Values) -> list[DiceNeed]:
    sd = _corner(values)[2]
    return skid_dice(sd, values) if sd > 0 else []


def skid_dice(sd: int, values: Values) -> list[DiceNeed]:
    needs = []
    if drift_row(sd, options_from(values)).distance is not None:
        needs.append(DiceNeed("drift", 1, DIE))
    needs.append(DiceNeed("final facing", 1, DIE, "unless the drift meets an obstruction"))
    return needs


CORNER = Procedure(
    id="battlecars.corner",
    aliases={"car": "vehicle"},
    title="Cornering (safe speed, skid test)",
    ruleset=RULESET,
    rule=bc("§2.4 · §3.2"),
    summary="Compare the speed with the safe speed for a 45°, 90° or 135° corner; above it, "
            "resolve the skid test.",
    inputs=(car_input(), ChoiceInput("angle", "Corner", tuple(str(a) for a in CORNER_ANGLES),
                                     "90", help="degrees"),
            surface_input(help="road or grass at the corner point (BC-D31)"),
            speed_override(), clear_points_input()) + decisions(*SKID_DECISIONS),
    resolve_fn=_corner_resolve,
    odds_fn=_corner_odds,
    dice_fn=_corner_dice,
)


# --- skid test ----------------------------------------------------------------------------
def _skid_sd(values: Values) -> tuple[CarSheet, int, int, tuple[SkidCause, ...]]:
    sheet: CarSheet = values["vehicle"]
    speed = speed_of(values, sheet)
    markers = tuple(w for w in (Weapon.SMOKE, Weapon.OIL, Weapon.SPIKES) if values[w.value])
    sd, causes = speed_difference(speed, values["corner_excess"], markers,
                                  values["driver_killed"])
    return sheet, speed, sd, causes


def _skid_check(values: Values) -> None:
    _, _, sd, _ = _skid_sd(values)
    refuse(["no cause of a skid: give a corner excess, a marker or a killed driver"]
           if sd <= 0 else [])


def _skid_resolve(values: Values, dice: DiceSource) -> Result:
    sheet, speed, sd, causes = _skid_sd(values)
    steps = [Step(f"SD from {cause.label}", RULE_SKID.more("step 2 · §3.3"))
             for cause in causes]
    if len(causes) > 1:
        steps.append(Step(f"several causes on one point: the greatest, SD {sd}",
                          RULE_SKID.more("step 2")))
    corner = values["intended_corner"]
    skid = resolve_skid(sheet, sd, speed, dice, values["clear_points"],
                        None if corner == "none" else int(corner), values["driver_killed"],
                        options_from(values))
    steps += skid.steps
    return Result(skid.outcome, steps, skid.continues,
                  [SheetChange("vehicle", skid.sheet, _skid_summary(sheet, skid.sheet))],
                  {"sd": sd, "drift": skid.drift, "facing": skid.facing,
                   "collided": skid.collided, "sd_causes": [c.to_json() for c in causes]}
                  | skid.details, label=skid.label)


def _skid_odds_fn(values: Values) -> Odds:
    _, speed, sd, _ = _skid_sd(values)
    return skid_odds(sd, speed, values["clear_points"], values["driver_killed"], values, "")


SKID = Procedure(
    id="battlecars.skid",
    aliases={"car": "vehicle"},
    title="Skid test (drift, tyre damage, final facing)",
    ruleset=RULESET,
    rule=bc("§2.5 · §3.3 · §3.4"),
    summary="Speed Difference from a corner, Smoke, Oil, Spikes or a killed driver; Drift "
            "Table; tyre damage; final facing; continue or stop.",
    inputs=(car_input(), speed_override(),
            IntInput("corner_excess", "Corner: speed − safe speed", 0, 0, 30,
                     help="for a corner taken above its safe speed"),
            BoolInput("smoke", "Drove onto Smoke", False),
            BoolInput("oil", "Drove onto Oil", False),
            BoolInput("spikes", "Drove onto Spikes", False,
                      help="SD only: Spikes' tyre damage is in battlecars.passive"),
            BoolInput("driver_killed", "Driver killed while moving", False),
            ChoiceInput("intended_corner", "Intended corner", ("none", "45", "90", "135"),
                        "none", help="the corner the car meant to turn (BC-D12)"),
            clear_points_input()) + decisions(*SKID_DECISIONS),
    resolve_fn=_skid_resolve,
    odds_fn=_skid_odds_fn,
    dice_fn=lambda values: skid_dice(_skid_sd(values)[2], values),
    check_fn=_skid_check,
)

