"""Procedures: crash into an obstruction, ram another car (§2.6–§2.8, §3.5)."""

from __future__ import annotations

from fractions import Fraction

from carwars_desktop.dice import DiceSource, Distribution
from carwars_desktop.procedures import (
    Chart,
    ChoiceInput,
    DiceNeed,
    Odds,
    Procedure,
    Result,
    SheetChange,
    Values,
)
from carwars_desktop.rules.battlecars.cite import bc
from carwars_desktop.rules.battlecars.collision import (
    Approach,
    RamKind,
    crash_damage,
    crash_damage_distribution,
    impact_block,
    ram_kind,
    ram_target_area,
    relative_velocity,
    resolve_crash,
    resolve_ram,
)
from carwars_desktop.rules.battlecars.options import options_from
from carwars_desktop.rules.battlecars.outcomes import car_damage_odds, car_outcome
from carwars_desktop.rules.battlecars.procedures.common import (
    RULESET,
    car_input,
    decisions,
    obstacle_input,
    odds_line,
    outcomes,
    pedestrian_input,
    speed_of,
    speed_override,
)
from carwars_desktop.rules.battlecars.sheet import CarSheet
from carwars_desktop.rules.battlecars.tables import DIE, SIDE_RAM_AREA, STUN_RV
from carwars_desktop.rules.battlecars.terms import Source

DAMAGE_DECISIONS = ("bc_d18_extend_table", "bc_d22_interior_only", "bc_d24_stack_reductions")


def _damage_needs(roll_count: int, purpose: str) -> list[DiceNeed]:
    needs = [DiceNeed(purpose, roll_count, DIE)] if roll_count else []
    needs.append(DiceNeed("hit location", 1, DIE, "per interior hit once the armour is "
                                                  "breached; again for a destroyed component",
                          repeat=True))
    return needs


# --- crash --------------------------------------------------------------------------------
def _crash_dice(values: Values) -> list[DiceNeed]:
    roll, _ = crash_damage(speed_of(values, values["vehicle"]), options_from(values))
    return _damage_needs(0 if roll is None else roll.count, "crash damage")


def _formula_values(rv: int, values: Values) -> dict[str, object]:
    """The damage formula an RV gives (``2d8+1``): ``damage_formula``, its ``damage_dice``
    (d8s) and ``damage_modifier``; None when the RV does no damage."""
    roll, _ = crash_damage(rv, options_from(values))
    if roll is None:
        return {"damage_formula": None, "damage_dice": 0, "damage_modifier": 0}
    return {"damage_formula": str(roll), "damage_dice": roll.count,
            "damage_modifier": roll.modifier}


def _crash_resolve(values: Values, dice: DiceSource) -> Result:
    car: CarSheet = values["vehicle"]
    speed = speed_of(values, car)
    result = resolve_crash(car, speed, dice, values["obstacle"], values["sheltering"],
                           options_from(values))
    effects = [SheetChange("vehicle", result.car, f"{result.damage} crash damage, speed 0"
                           + (", stunned" if result.stunned else ""))]
    if result.obstacle is not None:
        effects.append(SheetChange("obstacle", result.obstacle,
                                   f"{result.obstacle.hits}/{result.obstacle.capacity} hits"))
    if result.sheltering is not None and result.sheltering != values["sheltering"]:
        effects.append(SheetChange("sheltering", result.sheltering,
                                   f"damage {result.sheltering.damage}/3"))
    return Result(f"crash at RV {speed}: {result.damage} damage"
                  + (", driver stunned" if result.stunned else ""), result.steps,
                  None, effects, {"rv": speed, "damage": result.damage,
                                  "stunned": result.stunned,
                                  **_formula_values(speed, values),
                                  "damage_record": result.report.to_json(),
                                  "speed_after": result.car.speed},
                  label=car_outcome(car, result.car, result.report.amount,
                                    result.report.armour))


def _crash_odds(values: Values) -> Odds:
    car: CarSheet = values["vehicle"]
    speed = speed_of(values, car)
    options = options_from(values)
    damage = crash_damage_distribution(speed, options)
    block, line = impact_block(car)
    odds = car_damage_odds(car, block, line, Source.COLLISION, damage, options)
    roll, stun = crash_damage(speed, options)
    return Odds(outcomes=outcomes(odds),
                summary=f"RV {speed}: {roll or 'no damage'} on the {block.value}"
                        + (" · driver stunned" if stun else "") + " · " + odds_line(odds),
                chart=Chart(f"crash damage at RV {speed}", damage, x_label="damage"),
                expected=(("damage", damage.mean()),))


CRASH = Procedure(
    id="battlecars.crash",
    aliases={"car": "vehicle"},
    title="Crash into a tree, building or wreck",
    ruleset=RULESET,
    rule=bc("§2.6 · §2.8 · §3.5"),
    summary="The car stops before the obstruction, which takes 1; RV = its speed on the "
            "Crash/Ram Damage Table; stunned from RV 14.",
    inputs=(car_input(), speed_override("speed", "Speed (RV)"),
            obstacle_input(optional=True),
            pedestrian_input("sheltering", "Pedestrian in cover", optional=True,
                             help="takes any surplus the obstacle cannot absorb"))
    + decisions(*DAMAGE_DECISIONS),
    resolve_fn=_crash_resolve,
    odds_fn=_crash_odds,
    dice_fn=lambda values: _crash_dice(values),
)


# --- ram ----------------------------------------------------------------------------------
def _ram_setup(values: Values) -> tuple[CarSheet, CarSheet, Approach, int]:
    rammer: CarSheet = values["rammer"]
    target: CarSheet = values["target"]
    approach = Approach(values["approach"])
    rv = relative_velocity(ram_kind(approach), speed_of(values, rammer, "rammer_speed"),
                           speed_of(values, target, "target_speed"))
    return rammer, target, approach, rv


def _ram_resolve(values: Values, dice: DiceSource) -> Result:
    rammer, target, approach, _ = _ram_setup(values)
    result = resolve_ram(rammer, target, approach, speed_of(values, rammer, "rammer_speed"),
                         speed_of(values, target, "target_speed"), dice, options_from(values))
    stun = f", stunned: {', '.join(result.stunned)}" if result.stunned else ""
    return Result(f"{result.kind.value} ram at RV {result.rv}: {target.name} takes "
                  f"{result.target_damage}, {rammer.name} {result.rammer_damage}{stun}",
                  result.steps, None,
                  [SheetChange("target", result.target, f"{result.target_damage} ram damage on "
                               f"{result.target_area.label}, speed 0"),
                   SheetChange("rammer", result.rammer, f"{result.rammer_damage} ram damage, "
                               "speed 0")],
                  {"kind": result.kind.value, "rv": result.rv,
                   "target_damage": result.target_damage,
                   "rammer_damage": result.rammer_damage,
                   **_formula_values(result.rv, values),
                   "rammer_speed": speed_of(values, rammer, "rammer_speed"),
                   "target_speed": speed_of(values, target, "target_speed"),
                   "stun_rv": STUN_RV, "target_record": result.target_report.to_json(),
                   "rammer_record": result.rammer_report.to_json(),
                   "speed_after": result.rammer.speed},
                  label=car_outcome(target, result.target, result.target_report.amount,
                                    result.target_report.armour))


def _ram_odds(values: Values) -> Odds:
    rammer, target, approach, rv = _ram_setup(values)
    options = options_from(values)
    damage = crash_damage_distribution(rv, options)
    kind = ram_kind(approach)
    faces: list[int | None] = list(SIDE_RAM_AREA) if kind is RamKind.SIDE else [None]
    odds: dict[str, Fraction] = {}
    for face in faces:
        area, line = ram_target_area(approach, face)
        for label, p in car_damage_odds(target, area, line, Source.COLLISION, damage,
                                        options).items():
            odds[label] = odds.get(label, Fraction(0)) + p / len(faces)
    share: Distribution = damage if kind is RamKind.HEAD_ON else damage.map(lambda v: v // 2)
    roll, stun = crash_damage(rv, options)
    return Odds(outcomes=outcomes(odds),
                summary=f"{kind.value} ram, RV {rv}: {roll or 'no damage'}"
                        + (f" · RV ≥ {STUN_RV}: stunned" if stun else "")
                        + f" · {target.name}: " + odds_line(odds),
                chart=Chart(f"ram damage at RV {rv}", damage, x_label="damage"),
                expected=(("target damage", damage.mean()), ("rammer damage", share.mean())))


def _ram_dice(values: Values) -> list[DiceNeed]:
    _, _, approach, rv = _ram_setup(values)
    options = options_from(values)
    needs = []
    if ram_kind(approach) is RamKind.SIDE:
        needs.append(DiceNeed("side-ram area", 1, DIE))
    roll, _ = crash_damage(rv, options)
    if roll is not None:
        needs.append(DiceNeed("ram damage", roll.count, DIE))
        if not options.bc_d16_one_roll:
            needs.append(DiceNeed("rammer's ram damage", roll.count, DIE, "BC-D16 alternative"))
    needs.append(DiceNeed("hit location", 1, DIE, "per interior hit (target, then rammer), "
                                                  "again for a destroyed component",
                          repeat=True))
    return needs


RAM = Procedure(
    id="battlecars.ram",
    title="Ram (head-on, side, shunt)",
    ruleset=RULESET,
    rule=bc("§2.7 · §2.8 · §3.5"),
    summary="Classify the ram by the face struck, find the RV, roll the area for a side ram "
            "and one damage roll; the rammer takes half in a side ram or shunt.",
    inputs=(car_input("rammer", "Rammer"), car_input("target", "Target"),
            ChoiceInput("approach", "Face of the target struck",
                        tuple(a.value for a in Approach), Approach.FRONT.value,
                        help="front/front-45: head-on; left-side/right-side: side ram; "
                             "rear/rear-45: shunt (BC-D15)"),
            speed_override("rammer_speed", "Rammer's speed"),
            speed_override("target_speed", "Target's speed"))
    + decisions("bc_d16_one_roll", "bc_d17_stun_all", *DAMAGE_DECISIONS),
    resolve_fn=_ram_resolve,
    odds_fn=_ram_odds,
    dice_fn=_ram_dice,
)
