"""mini.collision — a crash: collision speed, damage dice, allocation, speeds after (§2.8).

Decisions MCW-D6 (cycles do a third), D7 (averages up to 10 mph), D8 (dice per
vehicle, applied like weapon damage), D24 (placement), D31 (fixed objects).
Dice, in order: the mover's damage dice, the other vehicle's damage dice, then
one 1d6 interior roll for each vehicle whose damage gets past its armor.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from carwars_desktop.dice import DiceSource, Distribution, dice_sum
from carwars_desktop.procedures import (
    Chart,
    ChoiceInput,
    DiceNeed,
    InputError,
    Odds,
    Outcome,
    Procedure,
    Result,
    SheetChange,
    Step,
    Values,
    plan_of,
)
from carwars_desktop.rules.mini_car_wars.cite import mcw
from carwars_desktop.rules.mini_car_wars.collision import (
    collision_speed,
    cycle_share,
    damage_dice,
    speeds_after,
    thirds_apply,
)
from carwars_desktop.rules.mini_car_wars.damage import apply_damage, needs_interior_roll
from carwars_desktop.rules.mini_car_wars.decisions import MiniRules
from carwars_desktop.rules.mini_car_wars.model import CollisionKind, Side
from carwars_desktop.rules.mini_car_wars.outcomes import (
    Attempt,
    categories_of,
    damage_label,
    damage_odds,
)
from carwars_desktop.rules.mini_car_wars.procedures.common import (
    BODY_SIDE_KEYS,
    D5,
    D6_ROUNDING,
    D6_WHICHEVER,
    D20,
    D31,
    RULESET,
    certain,
    get_optional_sheet,
    get_sheet,
    rules_from,
    sheet_input,
)
from carwars_desktop.rules.mini_car_wars.sheet import MiniSheet
from carwars_desktop.rules.mini_car_wars.tables import COLLISIONS

RULE = mcw("§2.8")
NO_DAMAGE = "no damage"
"""The odds outcome of a crash too slow for any damage dice."""


def _sides(values: Values) -> tuple[Side, Side | None]:
    kind = CollisionKind(values["kind"])
    rule = COLLISIONS[kind]
    mover = Side(values["mover_side"]) if values["mover_side"] else rule.striker_side
    other: Side | None = None
    if values["other_side"]:
        other = Side(values["other_side"])
    elif kind is not CollisionKind.FIXED_OBJECT:
        other = rule.struck_side
    return mover, other


@dataclass(frozen=True)
class _Crash:
    """What check, resolve, odds and dice all read of a collision: the vehicles, the
    sides struck, the collision speed and the damage dice each vehicle takes."""

    kind: CollisionKind
    rules: MiniRules
    mover: MiniSheet
    other: MiniSheet | None
    mover_side: Side
    other_side: Side | None
    speed: int
    dice: int


def _plan(values: Values) -> _Crash:
    kind = CollisionKind(values["kind"])
    mover, other = get_sheet(values, "mover"), get_optional_sheet(values, "other")
    cs = collision_speed(kind, mover.speed, 0 if other is None else other.speed)
    return _Crash(kind, rules_from(values), mover, other, *_sides(values), cs, damage_dice(cs))


def _check(values: Values) -> None:
    kind = CollisionKind(values["kind"])
    fixed = kind is CollisionKind.FIXED_OBJECT
    if fixed and values["other"] is not None:
        raise InputError("other: a fixed object has no record sheet; leave it out")
    if not fixed and values["other"] is None:
        raise InputError(f"other: a {kind.value} collision needs the other vehicle")
    if kind is CollisionKind.T_BONE and not values["other_side"]:
        raise InputError("other_side: say which side of the struck vehicle was hit (T-bone)")


def _reduced(values: Values, damaged_by: MiniSheet | None, hitter_moved: bool) -> bool:
    return damaged_by is not None and thirds_apply(damaged_by.is_cycle, hitter_moved,
                                                   rules_from(values))


def _speed_text(kind: CollisionKind, mover: MiniSheet, other: MiniSheet | None, cs: int) -> str:
    if kind is CollisionKind.SAME_DIRECTION and other is not None:
        return f"same direction: CS = {max(mover.speed, other.speed)} − " \
               f"{min(mover.speed, other.speed)} = {cs} mph"
    if kind is CollisionKind.HEAD_ON and other is not None:
        return f"head-on: CS = {mover.speed} + {other.speed} = {cs} mph"
    if kind is CollisionKind.T_BONE:
        return f"T-bone: CS = the most recent mover's speed = {cs} mph"
    return f"fixed object: CS = own speed = {cs} mph"


def _take(sheet: MiniSheet, roll_faces: tuple[int, ...], reduced: bool, rules: MiniRules,
          hitter: str) -> tuple[int, Step]:
    total = sum(roll_faces)
    shown = " ".join(map(str, roll_faces)) or "none"
    if reduced:
        damage = cycle_share(total, rules.d6_cycle_rounding)
        return damage, Step(f"{sheet.name} takes {len(roll_faces)}d6: {shown} = {total}, but "
                            f"{hitter} is a cycle: a third, rounded "
                            f"{rules.d6_cycle_rounding.value} → {damage} (MCW-D6)",
                            mcw("§2.8, §3.6"))
    return total, Step(f"{sheet.name} takes {len(roll_faces)}d6: {shown} = {total}", RULE)


def _resolve(values: Values, dice: DiceSource) -> Result:
    crash = plan_of(values, _plan)
    kind, rules, mover, other = crash.kind, crash.rules, crash.mover, crash.other
    mover_side, other_side, cs, count = crash.mover_side, crash.other_side, crash.speed, crash.dice
    steps = [Step(f"{_speed_text(kind, mover, other, cs)} → {count} dice of damage each "
                  "(rolled separately, MCW-D8)", RULE)]
    mover_faces = dice.roll(6, count, f"collision damage ({mover.name})")
    other_faces = dice.roll(6, count, f"collision damage ({other.name})") if other else ()
    mover_damage, step = _take(mover, mover_faces, _reduced(values, other, False), rules,
                               other.name if other else "")
    steps.append(step)
    other_damage = 0
    if other is not None:
        other_damage, step = _take(other, other_faces, _reduced(values, mover, True), rules,
                                   mover.name)
        steps.append(step)
    new_mover, new_other = mover, other
    mover_roll = dice.roll(6, 1, f"interior location ({mover.name})")[0] \
        if needs_interior_roll(mover, mover_damage, mover_side) else None
    other_roll = None
    if other is not None and other_side is not None and \
            needs_interior_roll(other, other_damage, other_side):
        other_roll = dice.roll(6, 1, f"interior location ({other.name})")[0]
    if mover_damage:
        new_mover, report = apply_damage(mover, mover_damage, mover_side, mover_roll, rules)
        steps += report.steps
    if other is not None and other_side is not None and other_damage:
        new_other, report = apply_damage(other, other_damage, other_side, other_roll, rules)
        steps += report.steps
    after = speeds_after(kind, mover.speed, 0 if other is None else other.speed, rules)
    steps += _after_steps(kind, after, rules)
    damaged_mover = new_mover
    new_mover = _at_speed(new_mover, after[0])
    effects = [SheetChange("mover", new_mover, f"{mover.name}: {mover_damage} collision damage "
                                               f"to the {mover_side.label}, {after[0]} mph",
                           categories_of(mover, new_mover, mover_side))]
    if other is not None and new_other is not None and other_side is not None:
        new_other = _at_speed(new_other, after[1])
        effects.append(SheetChange("other", new_other,
                                   f"{new_other.name}: {other_damage} collision damage to the "
                                   f"{other_side.label}, {after[1]} mph",
                                   categories_of(other, new_other, other_side)))
    outcome = f"CS {cs} mph: {mover.name} takes {mover_damage}" + (
        f", {other.name} takes {other_damage}" if other else "")
    label = NO_DAMAGE if count == 0 else _label(
        mover.name, damage_label(mover, damaged_mover, mover_side),
        None if other is None or new_other is None or other_side is None else
        (other.name, damage_label(other, new_other, other_side)))
    return Result(outcome=outcome, steps=steps, effects=effects,
                  values={"collision_speed": cs, "dice": count, "mover_damage": mover_damage,
                          "other_damage": other_damage, "speeds_after": after},
                  label=label)


def _label(mover: str, mover_label: str, other: tuple[str, str] | None) -> str:
    """The odds outcome of a crash: each vehicle's worst effect (of :func:`damage_odds`)."""
    label = f"{mover}: {mover_label}"
    return label if other is None else f"{label} · {other[0]}: {other[1]}"


def _at_speed(sheet: MiniSheet, speed: int) -> MiniSheet:
    return replace(sheet, speed=speed, reverse=sheet.reverse and speed > 0)


def _after_steps(kind: CollisionKind, after: tuple[int, int], rules: MiniRules) -> list[Step]:
    if kind is CollisionKind.SAME_DIRECTION:
        return [Step(f"both now go {after[0]} mph: the average, rounded up to 10 mph (MCW-D7)",
                     RULE)]
    if kind is CollisionKind.FIXED_OBJECT:
        how = "stops: 0 mph (MCW-D31)" if rules.d31_fixed_object_stops else \
            f"averages with the object's 0: {after[0]} mph (MCW-D31 alternative)"
        return [Step(f"the vehicle's move ends at the point of contact and it {how}",
                     RULE.more("", "MCW-D24"))]
    return [Step("both speeds become 0 mph; scatter each counter within about 1\" of the "
                 "impact with a random facing, or the GM places them (MCW-D24)", RULE)]


def _distribution(count: int, reduced: bool, rules: MiniRules) -> Distribution:
    rolled = dice_sum(count, 6)
    return rolled.map(lambda t: cycle_share(t, rules.d6_cycle_rounding)) if reduced else rolled


def _odds(values: Values) -> Odds:
    crash = plan_of(values, _plan)
    rules, mover, other = crash.rules, crash.mover, crash.other
    mover_side, other_side, cs, count = crash.mover_side, crash.other_side, crash.speed, crash.dice
    if count == 0:
        return certain(NO_DAMAGE, f"collision speed {cs} mph: no dice")
    mover_dist = _distribution(count, _reduced(values, other, False), rules)
    first = damage_odds(mover, mover_side, [Attempt(1, 1, mover_dist)])
    outcomes = [Outcome(_label(mover.name, o.label, None), o.probability)
                for o in first.outcomes]
    expected = [(f"damage to {mover.name}", mover_dist.mean())]
    effects = first.effects(mover.name)
    if other is not None and other_side is not None:
        other_dist = _distribution(count, _reduced(values, mover, True), rules)
        second = damage_odds(other, other_side, [Attempt(1, 1, other_dist)])
        outcomes = [Outcome(_label(mover.name, a.label, (other.name, b.label)),
                            a.probability * b.probability)
                    for a in first.outcomes for b in second.outcomes]
        expected.append((f"damage to {other.name}", other_dist.mean()))
        effects += second.effects(other.name)
    return Odds(outcomes=tuple(outcomes),
                summary=f"CS {cs} mph → {count}d6 each",
                chart=Chart(f"damage to {mover.name}", mover_dist), expected=tuple(expected),
                effects=effects)


def _dice(values: Values) -> list[DiceNeed]:
    crash = plan_of(values, _plan)
    mover, other, count = crash.mover, crash.other, crash.dice
    if count == 0:
        return []
    needs = [DiceNeed(f"collision damage ({mover.name})", count, 6)]
    if other is not None:
        needs.append(DiceNeed(f"collision damage ({other.name})", count, 6))
    for sheet in (mover, other):
        if sheet is not None:
            needs.append(DiceNeed(f"interior location ({sheet.name})", 1, 6,
                                  "if its damage gets past its armor"))
    return needs


COLLISION = Procedure(
    id="mini.collision",
    title="Collision (crash damage, speeds after)",
    ruleset=RULESET,
    rule=mcw("§2.8, §3.6"),
    summary="Same direction, head-on, T-bone or fixed object: 1d6 per 10 mph of collision speed "
            "to the side struck (cycles do a third), then the speeds after the crash.",
    inputs=(
        sheet_input("mover", "Vehicle that moved most recently"),
        sheet_input("other", "Other vehicle", optional=True,
                    help="leave out for a fixed object"),
        ChoiceInput("kind", "Collision", tuple(k.value for k in CollisionKind),
                    CollisionKind.HEAD_ON.value),
        ChoiceInput("mover_side", "Side struck on the mover", BODY_SIDE_KEYS, None,
                    optional=True, help="default: front"),
        ChoiceInput("other_side", "Side struck on the other", BODY_SIDE_KEYS, None,
                    optional=True, help="default: back (same direction), front (head-on); "
                                        "needed for a T-bone"),
        D6_ROUNDING, D6_WHICHEVER, D31, D5, D20,
    ),
    resolve_fn=_resolve,
    odds_fn=_odds,
    dice_fn=_dice,
    check_fn=_check,
    plan_fn=_plan,
)
