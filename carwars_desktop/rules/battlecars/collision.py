"""Crashes and rams: relative velocity, area, Crash/Ram Damage Table, stun (§2.6–§2.8)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from carwars_desktop.dice import DiceSource, Distribution, dice_sum
from carwars_desktop.procedures import Step
from carwars_desktop.rules.battlecars.chance import DicePicker
from carwars_desktop.rules.battlecars.cite import bc
from carwars_desktop.rules.battlecars.damage import DamageReport, aftermath, record_damage
from carwars_desktop.rules.battlecars.options import DEFAULT_OPTIONS, Options
from carwars_desktop.rules.battlecars.pieces import Absorbed, ObstacleSheet, PedestrianSheet
from carwars_desktop.rules.battlecars.sheet import CarSheet
from carwars_desktop.rules.battlecars.tables import (
    CRASH_DAMAGE,
    CRASH_OBSTACLE_DAMAGE,
    CRASH_TABLE_MAX_RV,
    DIE,
    SIDE_RAM_AREA,
    STUN_RV,
    DieRoll,
)
from carwars_desktop.rules.battlecars.terms import Block, Direction, Line, Side, Source

RULE_CRASH = bc("§2.6")
RULE_RAM = bc("§2.7")
RULE_DAMAGE = bc("§2.8")


class Approach(StrEnum):
    """BC-D15: the face of the target struck, from the rammer's line of approach."""

    FRONT = "front"
    FRONT_45 = "front-45"
    LEFT_SIDE = "left-side"
    RIGHT_SIDE = "right-side"
    REAR_45 = "rear-45"
    REAR = "rear"


class RamKind(StrEnum):
    HEAD_ON = "head-on"
    SIDE = "side"
    SHUNT = "shunt"


def ram_kind(approach: Approach) -> RamKind:
    """BC-D15: 45° off the front counts as head-on, 45° off the rear as a shunt."""
    if approach in (Approach.FRONT, Approach.FRONT_45):
        return RamKind.HEAD_ON
    if approach in (Approach.REAR, Approach.REAR_45):
        return RamKind.SHUNT
    return RamKind.SIDE


def relative_velocity(kind: RamKind, rammer_speed: int, target_speed: int) -> int:
    """§2.8 step 1: head-on the sum, side the rammer's speed, shunt the difference."""
    if kind is RamKind.HEAD_ON:
        return rammer_speed + target_speed
    if kind is RamKind.SIDE:
        return rammer_speed
    return abs(rammer_speed - target_speed)


def crash_damage(rv: int, options: Options = DEFAULT_OPTIONS) -> tuple[DieRoll | None, bool]:
    """The Crash/Ram Damage Table row for ``rv`` and whether it stuns (§3.5).

    BC-D18: RV 0 does no damage; above 18 the pattern continues (⌊(RV+2)/5⌋ dice +
    (RV+2) mod 5) and stuns (alternative: use the RV 18 row).
    """
    if rv <= 0:
        return None, False
    if rv <= CRASH_TABLE_MAX_RV:
        row = CRASH_DAMAGE[rv - 1]
        return row.damage, row.stun
    if not options.bc_d18_extend_table:
        row = CRASH_DAMAGE[-1]
        return row.damage, row.stun
    return DieRoll((rv + 2) // 5, (rv + 2) % 5), True


def crash_damage_distribution(rv: int, options: Options = DEFAULT_OPTIONS) -> Distribution:
    roll, _ = crash_damage(rv, options)
    if roll is None:
        return Distribution.constant(0)
    return (dice_sum(roll.count, DIE) + roll.modifier).map(lambda v: max(0, v))


def roll_damage(rv: int, dice: DiceSource, purpose: str,
                options: Options = DEFAULT_OPTIONS) -> tuple[int, Step]:
    roll, stun = crash_damage(rv, options)
    if roll is None:
        return 0, Step(f"RV {rv}: no damage (BC-D18)", RULE_DAMAGE.more("", "BC-D18"))
    faces = dice.roll(DIE, roll.count, purpose)
    raw = sum(faces) + roll.modifier
    amount = max(0, raw)
    extended = " (BC-D18 extension)" if rv > CRASH_TABLE_MAX_RV else ""
    return amount, Step(f"RV {rv}: {roll}{extended} → rolled {' + '.join(map(str, faces))}"
                        f"{f' {roll.modifier:+d}' if roll.modifier else ''} = {amount}"
                        + (" (floored at 0, BC-D1)" if raw < 0 else "")
                        + (" · RV ≥ 14: driver stunned" if stun else ""),
                        RULE_DAMAGE.more("step 3 · §3.5"))


def impact_block(sheet: CarSheet) -> tuple[Block, Line]:
    """The rammer or crashing car is damaged on its front, or its rear if reversing."""
    if sheet.direction is Direction.REVERSE:
        return Block.REAR, Line.FROM_REAR
    return Block.FRONT, Line.FROM_FRONT


@dataclass(frozen=True)
class CrashResult:
    car: CarSheet
    obstacle: ObstacleSheet | None
    sheltering: PedestrianSheet | None
    damage: int
    report: DamageReport
    stunned: bool
    steps: tuple[Step, ...]


def resolve_crash(car: CarSheet, speed: int, dice: DiceSource,
                  obstacle: ObstacleSheet | None = None,
                  sheltering: PedestrianSheet | None = None,
                  options: Options = DEFAULT_OPTIONS) -> CrashResult:
    """§2.6: stop before the obstruction, which takes 1; RV = own speed on the front/rear."""
    steps = [Step(f"{car.name} stays on the point before the obstruction; its speed becomes 0 "
                  "and its Turn ends", RULE_CRASH)]
    if obstacle is not None:
        obstacle, absorbed = obstacle.absorb(CRASH_OBSTACLE_DAMAGE)
        steps.append(Step(_obstacle_text(obstacle, absorbed), RULE_CRASH.more("step 3")))
        if absorbed.surplus and sheltering is not None:
            sheltering, wound = sheltering.wound(absorbed.surplus)
            steps.append(Step(f"the surplus {absorbed.surplus} goes to {sheltering.name} in "
                              f"cover: {wound.taken} taken" + (" — killed" if sheltering.dead
                                                               else ""), bc("§1.5")))
    rv = speed
    block, line = impact_block(car)
    steps.append(Step(f"crash: RV = the car's speed = {rv}; damage on its {block.value}",
                      RULE_DAMAGE.more("steps 1–2")))
    amount, step = roll_damage(rv, dice, "crash damage", options)
    steps.append(step)
    _, stun = crash_damage(rv, options)
    after, report = record_damage(car, block, amount, line, Source.COLLISION, DicePicker(dice),
                                  options)
    steps += report.steps
    after = replace(after, speed=0, stunned=after.stunned or stun)
    steps += aftermath(car, after, options)
    if stun:
        steps.append(Step(f"the driver of {car.name} is stunned until the end of the Round",
                          RULE_DAMAGE.more("step 4", "BC-D17")))
    return CrashResult(after, obstacle, sheltering, amount, report, stun, tuple(steps))


def _obstacle_text(obstacle: ObstacleSheet, absorbed: Absorbed) -> str:
    if absorbed.taken:
        return (f"the {obstacle.name} takes {absorbed.taken} damage automatically "
                f"({obstacle.hits}/{obstacle.capacity})")
    return (f"the {obstacle.name} is already full ({obstacle.capacity}): the extra point has "
            "no effect on it; it still blocks (BC-D43)")


@dataclass(frozen=True)
class RamResult:
    rammer: CarSheet
    target: CarSheet
    kind: RamKind
    rv: int
    target_area: Block
    target_damage: int
    rammer_damage: int
    target_report: DamageReport
    rammer_report: DamageReport
    stunned: tuple[str, ...]
    steps: tuple[Step, ...]


def ram_target_area(approach: Approach, face: int | None) -> tuple[Block, Line]:
    """The struck face: front, rear, or a side area from the 1d8 roll (§2.8 step 2)."""
    kind = ram_kind(approach)
    if kind is RamKind.HEAD_ON:
        return Block.FRONT, Line.FROM_FRONT
    if kind is RamKind.SHUNT:
        return Block.REAR, Line.FROM_REAR
    assert face is not None
    side = Side.LEFT if approach is Approach.LEFT_SIDE else Side.RIGHT
    return Block.side_block(side, SIDE_RAM_AREA[face]), Line.RIGHT_ANGLE


def resolve_ram(rammer: CarSheet, target: CarSheet, approach: Approach, rammer_speed: int,
                target_speed: int, dice: DiceSource, options: Options = DEFAULT_OPTIONS
                ) -> RamResult:
    """§2.7–§2.8: classify (BC-D15), RV, area, one damage roll (BC-D16), stun, speeds 0."""
    kind = ram_kind(approach)
    rv = relative_velocity(kind, rammer_speed, target_speed)
    steps = [Step(f"{rammer.name} stays on the point before {target.name} (a skidding car is "
                  "the rammer, BC-D41)", RULE_RAM.more("step 1")),
             Step(f"{approach.value} approach → {kind.value} ram (BC-D15); RV = "
                  + _rv_text(kind, rammer_speed, target_speed, rv),
                  RULE_RAM.more("step 2 · §2.8 step 1"))]
    face: int | None = None
    if kind is RamKind.SIDE:
        face = dice.roll(DIE, 1, "side-ram area")[0]
    area, line = ram_target_area(approach, face)
    if face is not None:
        steps.append(Step(f"side ram area: rolled {face} → {area.label}",
                          RULE_DAMAGE.more("step 2", "BC-D47")))
    else:
        steps.append(Step(f"{target.name} is struck on its {area.value}: no location roll",
                          RULE_DAMAGE.more("step 2", "BC-D47")))
    amount, step = roll_damage(rv, dice, "ram damage", options)
    steps.append(step)
    if kind is RamKind.HEAD_ON:
        own = amount
        share = f"head-on: {rammer.name} takes the same {own}"
    else:
        own = amount // 2
        share = f"{kind.value} ram: {rammer.name} takes half, rounded down: {own}"
    if not options.bc_d16_one_roll:
        own_roll, own_step = roll_damage(rv, dice, "rammer's ram damage", options)
        steps.append(own_step)
        own = own_roll if kind is RamKind.HEAD_ON else own_roll // 2
        share = f"BC-D16 alternative: {rammer.name} rolls its own → {own}"
    steps.append(Step(share, RULE_DAMAGE.more("step 3", "BC-D16")))
    picker = DicePicker(dice)
    steps.append(Step(f"{target.name} records {amount}:", RULE_DAMAGE.more("step 5")))
    target_after, target_report = record_damage(target, area, amount, line, Source.COLLISION,
                                                 picker, options)
    steps += target_report.steps
    own_block, own_line = impact_block(rammer)
    steps.append(Step(f"{rammer.name} records {own} on its {own_block.value}:",
                      RULE_DAMAGE.more("step 5")))
    rammer_after, rammer_report = record_damage(rammer, own_block, own, own_line,
                                                Source.COLLISION, picker, options)
    steps += rammer_report.steps
    _, stun = crash_damage(rv, options)
    rammer_stun = stun and options.bc_d17_stun_all
    stunned = tuple(name for name, hit in ((target.name, stun), (rammer.name, rammer_stun))
                    if hit)
    if stun:
        steps.append(Step(f"RV {rv} ≥ {STUN_RV}: stunned until the end of the Round: "
                          f"{', '.join(stunned)}", RULE_DAMAGE.more("step 4", "BC-D17")))
    target_after = replace(target_after, speed=0, stunned=target_after.stunned or stun)
    rammer_after = replace(rammer_after, speed=0, stunned=rammer_after.stunned or rammer_stun)
    steps += aftermath(target, target_after, options) + aftermath(rammer, rammer_after, options)
    steps.append(Step(f"both speeds become 0; {rammer.name} moves no further this Turn. "
                      f"If {target.name} has not moved this Round it keeps its Turn and may "
                      "accelerate from 0; otherwise it starts next Round from 0 (a stunned "
                      "driver does not move this Round)", RULE_RAM.more("step 4", "BC-D50")))
    return RamResult(rammer_after, target_after, kind, rv, area, amount, own, target_report,
                     rammer_report, stunned, tuple(steps))


def _rv_text(kind: RamKind, rammer_speed: int, target_speed: int, rv: int) -> str:
    if kind is RamKind.HEAD_ON:
        return f"{rammer_speed} + {target_speed} = {rv}"
    if kind is RamKind.SIDE:
        return f"the rammer's speed {rv}"
    return f"|{rammer_speed} − {target_speed}| = {rv}"
