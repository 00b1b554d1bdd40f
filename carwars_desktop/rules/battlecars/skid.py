"""The skid test: Speed Difference, Drift Table, tyre damage, final facing (digest §2.5)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction

from carwars_desktop.dice import DiceSource, Distribution, die
from carwars_desktop.procedures import Step
from carwars_desktop.rules.battlecars.cite import bc
from carwars_desktop.rules.battlecars.damage import damage_tyre, effects_text, working_tyres
from carwars_desktop.rules.battlecars.options import DEFAULT_OPTIONS, Options
from carwars_desktop.rules.battlecars.sheet import CarSheet
from carwars_desktop.rules.battlecars.tables import (
    CONTINUE_FACINGS,
    DIE,
    DRIFT,
    DRIFT_MAX_SD,
    FINAL_FACING_FALLBACK,
    FINAL_FACING_MODIFIERS,
    MARKER_SD,
    DieRoll,
    DriftRow,
)
from carwars_desktop.rules.battlecars.terms import Weapon

RULE_SKID = bc("§2.5")


@dataclass(frozen=True)
class SkidCause:
    label: str
    sd: int
    rule: str
    table_sd: int | None = None
    """A marker's SD from the table (Oil 5), before the car's speed may exceed it."""

    def to_json(self) -> dict[str, object]:
        return {"cause": self.label, "sd": self.sd, "table_sd": self.table_sd}


def marker_sd(marker: Weapon, speed: int) -> int:
    """Oil 5, Smoke 3, Spikes 2 — or the car's speed if greater (§2.5 step 2, §3.3)."""
    return max(MARKER_SD[marker], speed)


def speed_difference(speed: int, corner_excess: int = 0,
                     markers: tuple[Weapon, ...] = (), driver_killed: bool = False
                     ) -> tuple[int, tuple[SkidCause, ...]]:
    """The SD of every cause present, and the greatest (§2.5 step 2)."""
    causes: list[SkidCause] = []
    if corner_excess > 0:
        causes.append(SkidCause(f"corner: speed − safe speed = {corner_excess}", corner_excess,
                                bc("§2.5 step 2")))
    for marker in markers:
        if marker in MARKER_SD:
            causes.append(SkidCause(f"{marker.label}: max({MARKER_SD[marker]}, speed {speed}) = "
                                    f"{marker_sd(marker, speed)}", marker_sd(marker, speed),
                                    bc("§2.12 · §3.3"), MARKER_SD[marker]))
    if driver_killed:
        causes.append(SkidCause(f"driver killed: SD = speed {speed}", speed, bc("§2.16")))
    return max((c.sd for c in causes), default=0), tuple(causes)


def drift_row(sd: int, options: Options = DEFAULT_OPTIONS) -> DriftRow:
    """The Drift Table column for ``sd`` ≥ 1. BC-D10: above 8 use column 8 (alternative:
    extend the pattern, 1d8 − (9 − SD), tyre damage 2)."""
    if sd <= DRIFT_MAX_SD:
        return DRIFT[sd - 1]
    if options.bc_d10_cap_sd:
        return DRIFT[-1]
    return DriftRow(sd, DieRoll(1, sd - 9), DRIFT[-1].tyre_damage)


def facing_modifier(speed: int) -> int:
    """§2.5 step 5: +1 at speed 4, +2 at 5–6, +3 at 7–9 (BC-D39: and above)."""
    for row in FINAL_FACING_MODIFIERS:
        if speed >= row.low and (row.high is None or speed <= row.high):
            return row.modifier
    return 0


def drift_distribution(row: DriftRow) -> Distribution:
    if row.distance is None:
        return Distribution.constant(0)
    modifier = row.distance.modifier
    return die(DIE).map(lambda face: max(0, face + modifier))


def facing_distribution(speed: int) -> Distribution:
    return die(DIE) + facing_modifier(speed)


@dataclass(frozen=True)
class SkidResult:
    sheet: CarSheet
    sd: int
    drift: int
    collided: bool
    facing: int | None
    continues: bool
    steps: tuple[Step, ...]
    details: dict[str, object] = field(default_factory=dict)
    """The numbers the steps state, for a Result's ``values`` (see :func:`resolve_skid`)."""

    @property
    def outcome(self) -> str:
        if self.collided:
            return f"drifted {self.drift} into the obstruction: resolve the crash or ram"
        if self.continues:
            return f"final facing {self.facing}: the car completes its move"
        return f"final facing {self.facing}: speed 0, the car moves no further this Turn"

    @property
    def label(self) -> str:
        """The outcome of :func:`skid_probabilities` this skid is."""
        if self.collided:
            return "drifts into the obstruction"
        return "continues" if self.continues else "stops"


def resolve_skid(sheet: CarSheet, sd: int, speed: int, dice: DiceSource,
                 clear_points: int | None = None, intended_corner: int | None = None,
                 driver_killed: bool = False, options: Options = DEFAULT_OPTIONS) -> SkidResult:
    """§2.5 steps 3–7 for an SD ≥ 1. ``clear_points``: points the car can drift before an
    obstruction (``None`` = open ground)."""
    steps: list[Step] = []
    row = drift_row(sd, options)
    capped = " (BC-D10: SD above 8 uses column 8)" if sd > DRIFT_MAX_SD and \
        options.bc_d10_cap_sd else ""
    if row.distance is None:
        drift = 0
        steps.append(Step(f"Drift Table SD {sd}: no drift, no tyre damage", RULE_SKID))
    else:
        face = dice.roll(DIE, 1, "drift")[0]
        drift = max(0, face + row.distance.modifier)
        steps.append(Step(f"Drift Table SD {sd}{capped}: {row.distance} → rolled {face} → drift "
                          f"{drift} point{'s' if drift != 1 else ''}"
                          + (" (negative counts as 0, BC-D1)" if face + row.distance.modifier < 0
                             else ""), bc("§2.5 step 3 · §3.4")))
    collided = clear_points is not None and drift > clear_points
    if drift:
        if collided:
            steps.append(Step(f"the drift meets an obstruction after {clear_points} clear "
                              f"point{'s' if clear_points != 1 else ''}: the car stops on the "
                              "point before it — resolve battlecars.crash or battlecars.ram "
                              "(a skidding car is the rammer, BC-D41)", bc("§2.5 step 4")))
        else:
            steps.append(Step(f"the car drifts {drift} straight on in the direction it faces; "
                              "it cannot fire while drifting, and the drift does not use up its "
                              "movement (BC-D13)", bc("§2.5 step 4")))
    before = sheet
    tyres: list[dict[str, object]] = []
    if row.tyre_damage:
        for tyre in working_tyres(sheet):
            sheet, covered = damage_tyre(sheet, tyre, row.tyre_damage)
            tyres.append({"tyre": tyre, "taken": row.tyre_damage, "covered": covered})
            steps.append(Step(f"{tyre} takes {row.tyre_damage} → {covered} covered",
                              bc("§2.5 step 4 · §3.4")))
        effects = effects_text(before, sheet, options)
        if effects:
            steps.append(Step(effects, bc("§1.3")))
    facing: int | None = None
    modifier: int | None = None
    continues = False
    if collided:
        sheet = replace(sheet, speed=0)
    else:
        modifier = facing_modifier(speed)
        face = dice.roll(DIE, 1, "final facing")[0]
        facing = face + modifier
        mod_text = f" +{modifier} for speed {speed}" if modifier else ""
        fallback = (f" (BC-D11 fallback: {FINAL_FACING_FALLBACK[facing]})"
                    if options.bc_d11_fallback_facing else "")
        steps.append(Step(f"final facing: rolled {face}{mod_text} → {facing}{fallback}",
                          bc("§2.5 steps 5–6", "BC-D11")))
        continues = facing in CONTINUE_FACINGS and not driver_killed
        if facing in CONTINUE_FACINGS and driver_killed:
            steps.append(Step(f"{facing} is 1–4, but nobody drives the car on",
                              bc("§2.16 step 2")))
        elif continues:
            corner = ""
            if intended_corner is not None and options.bc_d12_turn_to_intended:
                corner = (f", turning the intended {intended_corner}° corner without another "
                          "test (BC-D12)")
            steps.append(Step(f"{facing} is 1–4: the car must complete its move{corner}",
                              bc("§2.5 step 7")))
        else:
            steps.append(Step(f"{facing} is 5–11: speed 0 at once, no further move this Turn",
                              bc("§2.5 step 7")))
            sheet = replace(sheet, speed=0)
    if driver_killed and sheet.speed:
        steps.append(Step("the driver is dead: after the skid the car's speed becomes 0",
                          bc("§2.16 step 2")))
        sheet = replace(sheet, speed=0)
    details: dict[str, object] = {
        "speed": speed, "drift_modifier": None if row.distance is None else row.distance.modifier,
        "tyre_damage": tyres, "max_speed_before": before.max_speed(options),
        "max_speed_after": sheet.max_speed(options), "facing_modifier": modifier,
        "facing_fallback": FINAL_FACING_FALLBACK[facing] if facing is not None
        and options.bc_d11_fallback_facing else None,
        "continue_facings": {"low": min(CONTINUE_FACINGS), "high": max(CONTINUE_FACINGS)},
        "stop_facings": {"low": max(CONTINUE_FACINGS) + 1, "high": max(FINAL_FACING_FALLBACK)},
        "speed_after": sheet.speed}
    return SkidResult(sheet, sd, drift, collided, facing, continues, tuple(steps), details)


def skid_probabilities(sd: int, speed: int, clear_points: int | None,
                       driver_killed: bool = False, options: Options = DEFAULT_OPTIONS
                       ) -> dict[str, Fraction]:
    """Exact: the car continues, stops, or drifts into an obstruction (sums to 1)."""
    drift = drift_distribution(drift_row(sd, options))
    collide = Fraction(0) if clear_points is None else drift.p_ge(clear_points + 1)
    go_on = Fraction(0) if driver_killed else \
        facing_distribution(speed).p_where(lambda v: v in CONTINUE_FACINGS)
    return {"continues": (1 - collide) * go_on, "stops": (1 - collide) * (1 - go_on),
            "drifts into the obstruction": collide}
