"""Procedures: dropping a passive marker, driving onto markers (§2.4 step 4, §2.12)."""

from __future__ import annotations

from fractions import Fraction

from carwars_desktop.dice import DiceSource, die
from carwars_desktop.procedures import (
    BoolInput,
    ChoiceInput,
    DiceNeed,
    Odds,
    Procedure,
    Result,
    SheetChange,
    TextInput,
    Values,
)
from carwars_desktop.rules.battlecars.cite import bc
from carwars_desktop.rules.battlecars.damage import working_tyres
from carwars_desktop.rules.battlecars.options import options_from
from carwars_desktop.rules.battlecars.passives import (
    RULE_PASSIVE,
    DropLine,
    drop_passive,
    drop_problems,
    enter_markers,
)
from carwars_desktop.rules.battlecars.procedures.common import (
    RULESET,
    car_input,
    certain,
    clear_points_input,
    decisions,
    refuse,
    speed_of,
    speed_override,
)
from carwars_desktop.rules.battlecars.procedures.movement import (
    SKID_DECISIONS,
    skid_dice,
    skid_odds,
)
from carwars_desktop.rules.battlecars.sheet import CarSheet
from carwars_desktop.rules.battlecars.skid import speed_difference
from carwars_desktop.rules.battlecars.tables import (
    DIE,
    MARKER_SD,
    MARKER_TYRE_DAMAGE,
    MINE_INTERIOR_DAMAGE,
)
from carwars_desktop.rules.battlecars.terms import PASSIVES, Weapon


# --- drop ---------------------------------------------------------------------------------
def _drop_problems(values: Values) -> list[str]:
    return drop_problems(values["vehicle"], values["mount"], Weapon(values["weapon"]),
                         values["point_blocked"], values["point_has_marker"],
                         options_from(values))


def _drop_resolve(values: Values, dice: DiceSource) -> Result:
    sheet: CarSheet = values["vehicle"]
    weapon = Weapon(values["weapon"])
    after, steps = drop_passive(sheet, values["mount"], weapon, DropLine(values["line"]))
    return Result(f"{weapon.label} dropped from {values['mount']}", steps, True,
                  [SheetChange("vehicle", after, f"{weapon.label} counter left {values['mount']}")],
                  label="dropped")


DROP = Procedure(
    id="battlecars.drop",
    aliases={"car": "vehicle"},
    title="Drop passive weapon (smoke, oil, spikes, mines)",
    ruleset=RULESET,
    rule=bc("§2.9 · §2.12", "BC-D27"),
    summary="One round per pod per Turn onto the nearest unoccupied point along one of the "
            "pod's three lines.",
    inputs=(car_input(), TextInput("mount", "Pod", "Pod C", help="the pod dropping it"),
            ChoiceInput("weapon", "Marker", tuple(w.value for w in PASSIVES),
                        Weapon.OIL.value),
            ChoiceInput("line", "Line", tuple(d.value for d in DropLine), DropLine.BARREL.value,
                        help="the pod's barrel line or 45° either side"),
            BoolInput("point_blocked", "Nearest point occupied", False,
                      help="a car, pedestrian, wreck, building or tree is on it"),
            BoolInput("point_has_marker", "Nearest point holds a marker", False))
    + decisions("bc_d27_marker_occupies"),
    resolve_fn=_drop_resolve,
    odds_fn=lambda values: certain("dropped", "no dice: the marker lands on the nearest point"),
    check_fn=lambda values: refuse(_drop_problems(values)),
)


# --- drive onto markers -------------------------------------------------------------------
def _markers(values: Values) -> tuple[Weapon, ...]:
    return tuple(w for w in (Weapon.MINES, Weapon.SPIKES, Weapon.OIL, Weapon.SMOKE)
                 if values[w.value])


def _passive_sd(values: Values) -> int:
    if values["drifting"]:
        return 0
    sheet: CarSheet = values["vehicle"]
    skidding = tuple(m for m in _markers(values) if m in MARKER_SD)
    return speed_difference(speed_of(values, sheet), markers=skidding)[0]


def _passive_resolve(values: Values, dice: DiceSource) -> Result:
    sheet: CarSheet = values["vehicle"]
    corner = values["intended_corner"]
    result = enter_markers(sheet, _markers(values), speed_of(values, sheet), dice,
                           values["drifting"], values["clear_points"],
                           None if corner == "none" else int(corner), options_from(values))
    outcome = result.skid.outcome if result.skid is not None else "no skid test"
    changed = sum(result.sheet.component_hits) - sum(sheet.component_hits)
    return Result(f"{', '.join(m.label for m in _markers(values))}: {outcome}", result.steps,
                  None if result.skid is None else result.skid.continues,
                  [SheetChange("vehicle", result.sheet, f"{changed} damage, speed "
                                                    f"{result.sheet.speed}")],
                  {"sd": result.sd} | result.details,
                  label="no skid test" if result.skid is None else result.skid.label)


def _mean(modifier: int) -> Fraction:
    return die(DIE).map(lambda v: max(0, v + modifier)).mean()


def _passive_odds(values: Values) -> Odds:
    sheet: CarSheet = values["vehicle"]
    markers = _markers(values)
    expected: list[tuple[str, Fraction]] = []
    if Weapon.MINES in markers or Weapon.SPIKES in markers:
        expected.append(("damage per tyre and marker", _mean(MARKER_TYRE_DAMAGE.modifier)))
    if Weapon.MINES in markers:
        expected.append(("mine interior damage", _mean(MINE_INTERIOR_DAMAGE.modifier)))
    sd = _passive_sd(values)
    if sd <= 0:
        odds = certain("no skid test", "Mines cause no skid; markers crossed while drifting "
                                       "cause none (BC-D14)")
    else:
        odds = skid_odds(sd, speed_of(values, sheet), values["clear_points"], False, values,
                          "skid test ")
    return Odds(odds.outcomes, odds.summary, odds.modifiers, odds.need, odds.chart,
                odds.expected + tuple(expected))


def _passive_dice(values: Values) -> list[DiceNeed]:
    sheet: CarSheet = values["vehicle"]
    markers = _markers(values)
    tyres = len(working_tyres(sheet))
    needs: list[DiceNeed] = []
    if Weapon.MINES in markers:
        needs += [DiceNeed("mine damage per working tyre", tyres, DIE),
                  DiceNeed("mine section", 1, DIE),
                  DiceNeed("hit location", 1, DIE, "again for a destroyed component",
                           repeat=True),
                  DiceNeed("mine interior damage", 1, DIE),
                  DiceNeed("hit location", 1, DIE, "per carried-over hit", repeat=True)]
    if Weapon.SPIKES in markers:
        needs.append(DiceNeed("spikes damage per working tyre", 1, DIE,
                              f"for each of the {tyres} tyres left after the mines", repeat=True))
    sd = _passive_sd(values)
    if sd > 0:
        needs += skid_dice(sd, values)
    return needs


PASSIVE = Procedure(
    id="battlecars.passive",
    aliases={"car": "vehicle"},
    title="Drive onto markers (mines, spikes, oil, smoke)",
    ruleset=RULESET,
    rule=RULE_PASSIVE.more("· §2.4 step 4", "BC-D42"),
    summary="Mines (tyres 1d8−3 each, interior 1d8−2 ignoring armour), then Spikes (tyres "
            "1d8−3 each), then one skid test at the greatest SD of Oil 5, Smoke 3, Spikes 2 or "
            "the speed.",
    inputs=(car_input(), speed_override(),
            BoolInput("mines", "Mines", False), BoolInput("spikes", "Spikes", False),
            BoolInput("oil", "Oil", False), BoolInput("smoke", "Smoke", False),
            BoolInput("drifting", "Crossed while drifting", False,
                      help="BC-D14: damage applies but no new skid test"),
            ChoiceInput("intended_corner", "Intended corner", ("none", "45", "90", "135"),
                        "none"),
            clear_points_input()) + decisions(*SKID_DECISIONS),
    resolve_fn=_passive_resolve,
    odds_fn=_passive_odds,
    dice_fn=_passive_dice,
    check_fn=lambda values: refuse([] if _markers(values) else ["tick at least one marker"]),
)
