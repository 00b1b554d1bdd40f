"""Passive weapons: dropping markers and driving onto them (digest §2.4 step 4, §2.12)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum

from carwars_desktop.dice import DiceSource
from carwars_desktop.procedures import Step
from carwars_desktop.rules.battlecars.chance import DicePicker, live_entries
from carwars_desktop.rules.battlecars.cite import bc
from carwars_desktop.rules.battlecars.damage import (
    aftermath,
    damage_tyre,
    effects_text,
    record_interior,
    working_tyres,
)
from carwars_desktop.rules.battlecars.options import DEFAULT_OPTIONS, Options
from carwars_desktop.rules.battlecars.sheet import CarSheet
from carwars_desktop.rules.battlecars.skid import SkidResult, resolve_skid, speed_difference
from carwars_desktop.rules.battlecars.tables import (
    DIE,
    MARKER_SD,
    MARKER_TYRE_DAMAGE,
    MINE_INTERIOR_DAMAGE,
    MINE_SECTION,
)
from carwars_desktop.rules.battlecars.terms import Facing, Kind, Line, Source, Weapon

RULE_PASSIVE = bc("§2.12")


class DropLine(StrEnum):
    """One of the pod's 3 lines: its barrel line or 45° either side (§2.10 step 2)."""

    BARREL = "barrel"
    LEFT_45 = "left-45"
    RIGHT_45 = "right-45"


def drop_problems(sheet: CarSheet, mount: str, weapon: Weapon, point_blocked: bool,
                  point_has_marker: bool, options: Options = DEFAULT_OPTIONS) -> list[str]:
    """Why this marker may not be dropped now (empty when it may)."""
    problems: list[str] = []
    blocked = sheet.cannot_act()
    if blocked is not None:
        problems.append(f"{blocked}: no dropping")
    if not weapon.is_passive:
        problems.append(f"{weapon.label} is a missile weapon: fire it with battlecars.fire")
    try:
        component = sheet.card.component(mount)
    except KeyError:
        return problems + [f"{sheet.name} has no {mount!r}"]
    if component.kind is not Kind.POD:
        problems.append(f"{mount} is a {component.kind.value}: passives are dropped from pods")
    elif weapon not in sheet.load(mount):
        problems.append(f"{mount} holds no {weapon.label}")
    if component.facing is Facing.FRONT:
        problems.append(f"{mount} fires out of the front: no passive weapons there (§1.4)")
    if mount in sheet.drops_this_turn:
        problems.append(f"{mount} has already dropped a round this Turn (one per pod, §2.9)")
    if point_blocked:
        problems.append("the nearest point on that line is occupied (car, pedestrian, wreck, "
                        "building or tree): markers go only onto an unoccupied point (BC-D27)")
    if point_has_marker and options.bc_d27_marker_occupies:
        problems.append("the nearest point already holds a marker, which makes it occupied "
                        "(BC-D27 alternative)")
    return problems


def drop_passive(sheet: CarSheet, mount: str, weapon: Weapon, line: DropLine
                 ) -> tuple[CarSheet, tuple[Step, ...]]:
    after = sheet.without_round(mount, weapon)
    after = replace(after, drops_this_turn=after.drops_this_turn + (mount,))
    return after, (
        Step(f"{sheet.name} drops {weapon.label} from {mount} onto the nearest point along its "
             f"{line.value} line", RULE_PASSIVE.more("", "BC-D27")),
        Step("the counter leaves the pod; the marker has no effect until a car drives onto it",
             RULE_PASSIVE),
    )


@dataclass(frozen=True)
class MarkerResult:
    sheet: CarSheet
    sd: int
    skid: SkidResult | None
    steps: tuple[Step, ...]
    details: dict[str, object] = field(default_factory=dict)
    """The numbers the steps state, for a Result's ``values`` (see :func:`enter_markers`)."""


def _tyre_rolls(sheet: CarSheet, marker: Weapon, dice: DiceSource, options: Options,
                steps: list[Step], tyres: list[dict[str, object]]) -> CarSheet:
    before = sheet
    for tyre in working_tyres(sheet):
        what = "mine" if marker is Weapon.MINES else marker.label.lower()
        face = dice.roll(DIE, 1, f"{what} damage per working tyre ({tyre})")[0]
        points = max(0, face + MARKER_TYRE_DAMAGE.modifier)
        sheet, covered = damage_tyre(sheet, tyre, points)
        tyres.append({"marker": marker.label, "tyre": tyre, "damage": points, "covered": covered})
        steps.append(Step(f"{marker.label}: {tyre} takes {MARKER_TYRE_DAMAGE}: rolled {face} → "
                          f"{points}, {covered} covered (no carry-over between tyres)",
                          RULE_PASSIVE))
    effects = effects_text(before, sheet, options)
    if effects:
        steps.append(Step(effects, bc("§1.3")))
    return sheet


def _mines(sheet: CarSheet, dice: DiceSource, options: Options, steps: list[Step],
           tyres: list[dict[str, object]], record: list[dict[str, object]]) -> CarSheet:
    sheet = _tyre_rolls(sheet, Weapon.MINES, dice, options, steps, tyres)
    face = dice.roll(DIE, 1, "mine section")[0]
    section = MINE_SECTION[face]
    steps.append(Step(f"Mines, interior ignoring armour: section die {face} → {section.value}",
                      RULE_PASSIVE))
    if not live_entries(sheet, section):
        steps.append(Step(f"the {section.value} section has no live component left: the "
                          "interior damage has no effect (Reading)", RULE_PASSIVE))
        return sheet
    picker = DicePicker(dice)
    first = picker.pick(sheet, section, f"hit location ({section.value})")
    damage_face = dice.roll(DIE, 1, "mine interior damage")[0]
    points = max(0, damage_face + MINE_INTERIOR_DAMAGE.modifier)
    steps.append(Step(f"hit location → {first[0]}; damage {MINE_INTERIOR_DAMAGE}: rolled "
                      f"{damage_face} → {points}", RULE_PASSIVE))
    sheet, report = record_interior(sheet, section, points, Line.RIGHT_ANGLE, Source.MINES,
                                    picker, options, first=first)
    steps += report.steps
    record.append(report.to_json())
    missiles = [w for _, w in report.counters_hit]
    if missiles:
        steps.append(Step(f"counters hit by the mine are destroyed without a roll: "
                          f"{', '.join(w.label for w in missiles)}", bc("§2.14", "BC-D21")))
    return sheet


def enter_markers(sheet: CarSheet, markers: tuple[Weapon, ...], speed: int, dice: DiceSource,
                  drifting: bool = False, clear_points: int | None = None,
                  intended_corner: int | None = None, options: Options = DEFAULT_OPTIONS
                  ) -> MarkerResult:
    """BC-D42: Mines damage, then Spikes tyre damage, then one skid test at the greatest SD."""
    steps: list[Step] = []
    start = sheet
    tyres: list[dict[str, object]] = []
    record: list[dict[str, object]] = []
    if Weapon.MINES in markers:
        sheet = _mines(sheet, dice, options, steps, tyres, record)
    if Weapon.SPIKES in markers:
        sheet = _tyre_rolls(sheet, Weapon.SPIKES, dice, options, steps, tyres)
    steps += aftermath(start, sheet, options)
    details: dict[str, object] = {
        "marker_tyre_damage": tyres, "mine_record": record[0] if record else None,
        "marker_max_speed_before": start.max_speed(options),
        "marker_max_speed_after": sheet.max_speed(options)}
    skidding = tuple(m for m in markers if m in MARKER_SD)
    sd, causes = speed_difference(speed, markers=skidding)
    if not skidding:
        return MarkerResult(sheet, 0, None, tuple(steps), details)
    if drifting:
        steps.append(Step("crossed while drifting: no new skid test (BC-D14)", bc("", "BC-D14")))
        return MarkerResult(sheet, 0, None, tuple(steps), details)
    for cause in causes:
        steps.append(Step(f"SD from {cause.label}", cause.rule))
    if len(causes) > 1:
        steps.append(Step(f"several on one point: the greatest, SD {sd}",
                          bc("§2.5 step 2", "BC-D42")))
    skid = resolve_skid(sheet, sd, speed, dice, clear_points, intended_corner, False, options)
    details["sd_causes"] = [c.to_json() for c in causes]
    return MarkerResult(skid.sheet, sd, skid, tuple(steps) + skid.steps, details | skid.details)
