"""Missile fire: nominate, range, to hit, damage, checks, and a miss carrying on (§2.9–§2.11)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction

from carwars_desktop.dice import DiceSource
from carwars_desktop.procedures import Step
from carwars_desktop.rules.battlecars.chance import DicePicker
from carwars_desktop.rules.battlecars.cite import bc
from carwars_desktop.rules.battlecars.damage import DamageReport, aftermath, record_damage
from carwars_desktop.rules.battlecars.errors import IllegalActionError
from carwars_desktop.rules.battlecars.explosions import (
    FiredOff,
    ammunition_check,
    fuel_check_after_hit,
    roll_fuel_check,
)
from carwars_desktop.rules.battlecars.missiles import (
    RULE_FIRE,
    ToHit,
    damage_distribution,
    effective_range,
)
from carwars_desktop.rules.battlecars.options import DEFAULT_OPTIONS, Options
from carwars_desktop.rules.battlecars.outcomes import (
    car_outcome,
    obstacle_outcome,
    pedestrian_outcome,
    piece_damage_odds,
)
from carwars_desktop.rules.battlecars.pieces import ObstacleSheet, PedestrianSheet, Piece
from carwars_desktop.rules.battlecars.sheet import CarSheet
from carwars_desktop.rules.battlecars.tables import DIE, MISSILE_TABLE, TARGET_AREAS
from carwars_desktop.rules.battlecars.terms import Bearing, Block, Kind, Source, Weapon

RULE_WHEN = bc("§2.9")

Firer = CarSheet | PedestrianSheet


class FireMode(StrEnum):
    OWN_TURN = "own-turn"
    """During the firer's Turn: 2 targets (3 with a Gunnery Computer), one round each."""
    RETURN_FIRE = "return-fire"
    """Fired at outside its Turn: one round, only at the attacker (§2.9 step 2, BC-D26)."""
    DETONATION = "detonation"
    """A detonated round firing off (§2.14 step 4): no Gunnery Computer, the target picks."""


@dataclass(frozen=True)
class Shot:
    """A target on the line of fire: its range in points between, and for a car the area."""

    target: Piece
    points_between: int
    area: Block | None = None
    bearing: Bearing = Bearing.AHEAD
    smoke: bool = False


@dataclass(frozen=True)
class FireOrder:
    firer: Firer
    mount: str | None
    shot: Shot
    mode: FireMode = FireMode.OWN_TURN
    weapon: Weapon | None = None
    next_shot: Shot | None = None
    sheltering: PedestrianSheet | None = None


def fire_weapon(order: FireOrder) -> Weapon:
    """The weapon fired: a pedestrian's MG, the missile type in the mount, or the round."""
    if order.mode is FireMode.DETONATION or isinstance(order.firer, PedestrianSheet):
        if isinstance(order.firer, PedestrianSheet):
            return Weapon.MG
        if order.weapon is None:
            raise IllegalActionError("a detonated round needs its weapon (rocket, shell, mg, "
                                     "flame)")
        return order.weapon
    if order.mount is None:
        raise IllegalActionError(f"name the pod or turret {order.firer.name} fires from")
    try:
        component = order.firer.card.component(order.mount)
    except KeyError:
        raise IllegalActionError(f"{order.firer.name} has no {order.mount!r}") from None
    if not component.kind.is_mount:
        raise IllegalActionError(f"{order.mount} is a {component.kind.value}, not a pod or "
                                 "turret")
    missiles = [w for w in order.firer.load(order.mount) if w.is_missile]
    if not missiles:
        raise IllegalActionError(f"{order.mount} holds no missile round")
    weapon = missiles[-1]
    if order.weapon is not None and order.weapon is not weapon:
        raise IllegalActionError(f"{order.mount} holds {weapon.label}, not "
                                 f"{order.weapon.label}")
    return weapon


def gunnery_computer(order: FireOrder) -> bool:
    """+1 to hit with a working Gunnery Computer; never for a detonation (§2.14 step 4)."""
    return (isinstance(order.firer, CarSheet) and order.mode is not FireMode.DETONATION
            and order.firer.working(Kind.GUNNERY_COMPUTER))


def to_hit(order: FireOrder, shot: Shot, options: Options = DEFAULT_OPTIONS) -> ToHit:
    return ToHit(fire_weapon(order), effective_range(shot.points_between, options),
                 gunnery_computer(order), shot.smoke)


def shot_problems(shot: Shot, firer: Firer, what: str) -> list[str]:
    problems: list[str] = []
    target = shot.target
    if not isinstance(target, ObstacleSheet) and target.title == firer.name:
        problems.append(f"{what}: {firer.name} cannot fire at itself (give each car its own "
                        "name)")
    if isinstance(target, CarSheet):
        if shot.area is None:
            problems.append(f"{what}: nominate the area of {target.name} (front, left-front, …)")
        elif shot.area not in TARGET_AREAS[shot.bearing]:
            allowed = ", ".join(sorted(b.value for b in TARGET_AREAS[shot.bearing]))
            problems.append(f"{what}: from bearing {shot.bearing.value} only the nearest areas "
                            f"may be nominated ({allowed}), not {shot.area.value}")
    elif isinstance(target, PedestrianSheet) and target.dead:
        problems.append(f"{what}: {target.name} is already dead")
    return problems


def fire_problems(order: FireOrder, options: Options = DEFAULT_OPTIONS) -> list[str]:
    """Every reason this shot may not be fired (empty when legal)."""
    problems: list[str] = []
    try:
        weapon = fire_weapon(order)
    except IllegalActionError as error:
        return [str(error)]
    firer = order.firer
    if order.mode is not FireMode.DETONATION:
        blocked = firer.cannot_act() if isinstance(firer, CarSheet) else firer.can_fire()
        if blocked is not None:
            problems.append(f"{blocked}: no firing (§2.8 step 4, §2.16)")
        if isinstance(firer, PedestrianSheet) and firer.mg_rounds <= 0:
            problems.append(f"{firer.name} has no MG rounds left")
    if order.mode is FireMode.OWN_TURN:
        name = order.shot.target.title
        if name in firer.targets_this_turn:
            problems.append(f"{firer.name} already fired at {name} this Turn: one round per "
                            "target (§2.9)")
        elif len(firer.targets_this_turn) >= _target_limit(firer):
            problems.append(f"{firer.name} already fired at {len(firer.targets_this_turn)} "
                            f"targets this Turn (limit {_target_limit(firer)}, §2.9)")
    th = to_hit(order, order.shot, options)
    if not th.in_flame_range():
        problems.append(f"Flame has a maximum range of 3 points, not {th.range} (§2.11)")
    problems += shot_problems(order.shot, firer, "target")
    if order.next_shot is not None:
        if weapon is Weapon.FLAME:
            problems.append("Flame hits automatically: it never carries on to a next target")
        problems += shot_problems(order.next_shot, firer, "next target")
        if order.next_shot.points_between <= order.shot.points_between:
            problems.append("the next target must be further along the line than the first")
    return problems


def _target_limit(firer: Firer) -> int:
    return firer.target_limit if isinstance(firer, CarSheet) else 2


def target_limit(firer: Firer) -> int:
    """How many targets the firer may fire at in its Turn (a car's, or 2 on foot)."""
    return _target_limit(firer)


@dataclass(frozen=True)
class Struck:
    target: Piece
    sheltering: PedestrianSheet | None
    damage: int
    fired_off: tuple[FiredOff, ...]
    summary: str
    label: str
    """The odds outcome of the damage (of :func:`piece_damage_odds`)."""


@dataclass(frozen=True)
class FireResult:
    firer: Firer
    weapon: Weapon
    first: Struck | None
    second: Struck | None
    steps: tuple[Step, ...]
    outcome: str
    to_hit_totals: tuple[int, ...] = ()
    """Each to-hit roll's total, dice plus modifiers (a missile carrying on rolls again)."""

    @property
    def hit(self) -> bool:
        return self.first is not None or self.second is not None

    @property
    def label(self) -> str:
        """The odds outcome (of :func:`fire_odds`) the shot is."""
        return fire_label(None if self.first is None else self.first.label,
                          None if self.second is None else self.second.label)


MISS = "miss"


def fire_label(first: str | None, second: str | None) -> str:
    """A shot's odds outcome: the damage outcome on the target (``first``), or on the next
    target after a miss (``second``), or a miss."""
    if first is not None:
        return f"hit: {first}"
    if second is not None:
        return f"next target: {second}"
    return MISS


def resolve_fire(order: FireOrder, dice: DiceSource, options: Options = DEFAULT_OPTIONS
                 ) -> FireResult:
    """§2.11 steps 1–7, taking to-hit, damage, then location and check dice in order."""
    problems = fire_problems(order, options)
    if problems:
        raise IllegalActionError("; ".join(problems))
    weapon = fire_weapon(order)
    firer = order.firer
    steps: list[Step] = [Step(_nominate_text(order, weapon), RULE_FIRE.more("step 1 · §2.10"))]
    if order.mode is FireMode.DETONATION:
        steps.append(Step("a detonated round fires off: no Gunnery Computer applies",
                          bc("§2.14 step 4")))
    elif isinstance(firer, CarSheet):
        assert order.mount is not None
        firer = firer.without_round(order.mount, weapon)
        steps.append(Step(f"the {weapon.label} counter is removed from {order.mount}: spent",
                          RULE_FIRE.more("step 3")))
    else:
        firer = replace(firer, mg_rounds=firer.mg_rounds - 1)
        steps.append(Step(f"{firer.name} spends an MG round ({firer.mg_rounds} left)",
                          bc("§2.18")))
    if order.mode is FireMode.OWN_TURN:
        firer = replace(firer, targets_this_turn=firer.targets_this_turn
                        + (order.shot.target.title,))
        steps.append(Step(f"{firer.name} has fired at {len(firer.targets_this_turn)} of "
                          f"{_target_limit(firer)} targets this Turn", RULE_WHEN))
    elif order.mode is FireMode.RETURN_FIRE:
        steps.append(Step("return fire: one round, only at the attacker; it does not count "
                          "against the Turn's targets", RULE_WHEN.more("step 2", "BC-D26")))
    sheltering = order.sheltering
    totals: list[int] = []
    first = _attempt(order, order.shot, weapon, dice, sheltering, options, steps, totals)
    second: Struck | None = None
    if first is None and order.next_shot is not None:
        shot = order.next_shot
        th = to_hit(order, shot, options)
        if options.bc_d4_only_if_possible and not th.possible():
            steps.append(Step(f"the missile carries on to {shot.target.title} at range "
                              f"{th.range}: out of reach (best total {th.distribution().maximum})"
                              " → no further effect", RULE_FIRE.more("step 6", "BC-D4")))
        else:
            steps.append(Step(f"the missile carries on along the line to {shot.target.title}",
                              RULE_FIRE.more("step 6", "BC-D4")))
            second = _attempt(order, shot, weapon, dice, None, options, steps, totals)
    elif first is None:
        steps.append(Step("the missile carries on along the line: no further target named → "
                          "no further effect", RULE_FIRE.more("step 6")))
    if first is not None:
        sheltering = first.sheltering
    if first is not None:
        outcome = f"hit {order.shot.target.title}: {first.summary}"
    elif second is not None and order.next_shot is not None:
        outcome = f"missed; hit {order.next_shot.target.title}: {second.summary}"
    else:
        outcome = "miss"
    return FireResult(firer, weapon, first, second, tuple(steps), outcome, tuple(totals))


def _nominate_text(order: FireOrder, weapon: Weapon) -> str:
    shot = order.shot
    source = f" from {order.mount}" if order.mount and order.mode is not FireMode.DETONATION \
        else ""
    area = f" {shot.area.label} (bearing {shot.bearing.value})" if shot.area else ""
    return (f"{order.firer.name} fires {weapon.label}{source} at {shot.target.title}{area}, "
            f"{shot.points_between} point{'s' if shot.points_between != 1 else ''} between")


def _attempt(order: FireOrder, shot: Shot, weapon: Weapon, dice: DiceSource,
             sheltering: PedestrianSheet | None, options: Options, steps: list[Step],
             totals: list[int] | None = None) -> Struck | None:
    th = to_hit(order, shot, options)
    if th.automatic:
        steps.append(Step(f"Flame at range {th.range} (≤ 3): automatic hit",
                          RULE_FIRE.more("step 4")))
    else:
        faces = dice.roll(DIE, th.dice, "to hit")
        total = sum(faces) + th.modifier
        if totals is not None:
            totals.append(total)
        mods = "".join(f" {m.value:+d} {m.label}" for m in th.modifiers())
        base = MISSILE_TABLE[weapon].to_hit
        own = f" {base.modifier:+d}" if base is not None and base.modifier else ""
        verdict = f"≥ {th.range} → hit" if th.hits(total) else f"< {th.range} → miss"
        steps.append(Step(f"to hit ({th.summary()}): rolled {' + '.join(map(str, faces))}{own}"
                          f"{mods} = {total} {verdict}", RULE_FIRE.more("step 4")))
        if not th.hits(total):
            return None
    return strike(shot, weapon, th.range, dice, sheltering, options, steps)


def strike(shot: Shot, weapon: Weapon, range_: int, dice: DiceSource,
           sheltering: PedestrianSheet | None, options: Options, steps: list[Step]) -> Struck:
    """§2.11 step 5: a new damage roll (BC-D3), recorded, then the checks (BC-D49)."""
    row = MISSILE_TABLE[weapon]
    faces = dice.roll(DIE, row.damage.count, "damage")
    raw = sum(faces) + row.damage.modifier - range_
    amount = max(0, raw)
    own = f" {row.damage.modifier:+d}" if row.damage.modifier else ""
    steps.append(Step(f"damage {row.damage} − range {range_}: rolled "
                      f"{' + '.join(map(str, faces))}{own} − {range_} = {amount}"
                      + (" (floored at 0, BC-D1)" if raw < 0 else ""),
                      RULE_FIRE.more("step 5", "BC-D3")))
    target = shot.target
    fired: tuple[FiredOff, ...] = ()
    if isinstance(target, CarSheet):
        assert shot.area is not None
        source = Source.of(weapon)
        after, report = record_damage(target, shot.area, amount, shot.bearing.line, source,
                                      DicePicker(dice), options)
        steps += report.steps
        after, fired, summary, label = after_hit_checks(target, after, report, dice, options,
                                                        steps)
        summary = f"{amount} damage{summary}"
        return Struck(after, sheltering, amount, fired, summary, label)
    if isinstance(target, PedestrianSheet):
        wounded, absorbed = target.wound(amount)
        dead = " — killed" if wounded.dead else ""
        steps.append(Step(f"{target.name} takes {absorbed.taken} ({wounded.damage}/3){dead}",
                          bc("§2.18 step 6")))
        return Struck(wounded, sheltering, amount, fired,
                      f"{amount} damage{' — killed' if wounded.dead else ''}",
                      pedestrian_outcome(target, amount))
    assert isinstance(target, ObstacleSheet)
    label = obstacle_outcome(target, sheltering, amount)
    hit_obstacle, absorbed = target.absorb(amount)
    steps.append(Step(f"{target.name} absorbs {absorbed.taken} ({hit_obstacle.hits}/"
                      f"{hit_obstacle.capacity})" + (f", surplus {absorbed.surplus}"
                                                     if absorbed.surplus else ""),
                      bc("§1.5 · §2.17")))
    summary = f"{amount} damage, {absorbed.taken} absorbed"
    if absorbed.surplus and sheltering is not None:
        sheltering, wound = sheltering.wound(absorbed.surplus)
        steps.append(Step(f"the surplus goes to {sheltering.name} in cover: {wound.taken} taken"
                          + (" — killed" if sheltering.dead else ""),
                          bc("§1.5 · §2.18 step 6")))
        summary += f", {wound.taken} to {sheltering.name}"
    elif absorbed.surplus:
        steps.append(Step("nobody shelters there: the surplus has no effect",
                          bc("§1.5")))
    return Struck(hit_obstacle, sheltering, amount, fired, summary, label)


def after_hit_checks(before: CarSheet, after: CarSheet, report: DamageReport, dice: DiceSource,
                     options: Options, steps: list[Step]
                     ) -> tuple[CarSheet, tuple[FiredOff, ...], str, str]:
    """BC-D49: the fuel-tank check (§2.15), then the ammunition check (§2.14).

    Returns the car, the rounds fired off, the summary and the odds outcome (of
    :func:`~carwars_desktop.rules.battlecars.outcomes.car_hit_odds`) the hit is."""
    fired: tuple[FiredOff, ...] = ()
    exploded = False
    order = ("fuel", "ammo") if options.bc_d49_fuel_first else ("ammo", "fuel")
    for check in order:
        if check == "fuel":
            fuel = fuel_check_after_hit(before, after, report, options)
            if fuel is not None:
                after, exploded, step = roll_fuel_check(after, fuel, dice)
                steps.append(step)
        elif exploded:
            if report.counters_hit:
                steps.append(Step("the car is destroyed by the explosion: no ammunition check",
                                  bc("§2.15", "BC-D49")))
        else:
            fired, ammo_steps = ammunition_check(after, report.counters_hit, report.source, dice)
            steps += ammo_steps
    steps += aftermath(before, after, options)
    summary = ""
    if exploded:
        summary = " — the fuel tank exploded"
    elif after.driver_dead and not before.driver_dead:
        summary = " — the driver is killed"
    if fired:
        summary += f" — {len(fired)} round{'s' if len(fired) > 1 else ''} detonated"
        steps += [Step(f.describe(), bc("§2.14 step 4")) for f in fired]
    label = car_outcome(before, after, report.amount, report.armour, exploded, bool(fired))
    return after, fired, summary, label


def fire_odds(order: FireOrder, options: Options = DEFAULT_OPTIONS
              ) -> tuple[dict[str, Fraction], Fraction]:
    """Exact outcome odds (labels 'miss', 'hit: …', 'next target: …') and expected damage."""
    weapon = fire_weapon(order)
    odds: dict[str, Fraction] = {}
    th = to_hit(order, order.shot, options)
    p_hit = th.p_hit()
    damage = damage_distribution(weapon, th.range)
    source = Source.of(weapon)
    if p_hit:
        for label, p in piece_damage_odds(order.shot.target, order.shot.area,
                                          order.shot.bearing.line, source, damage,
                                          order.sheltering, options).items():
            odds[fire_label(label, None)] = p_hit * p
    p_miss = 1 - p_hit
    expected = p_hit * damage.mean()
    shot = order.next_shot
    if shot is not None and p_miss:
        th2 = to_hit(order, shot, options)
        if th2.possible() or not options.bc_d4_only_if_possible:
            p_hit2 = th2.p_hit()
            damage2 = damage_distribution(weapon, th2.range)
            if p_hit2:
                for label, p in piece_damage_odds(shot.target, shot.area, shot.bearing.line,
                                                  source, damage2, None, options).items():
                    odds[fire_label(None, label)] = p_miss * p_hit2 * p
            p_miss *= 1 - p_hit2
    if p_miss:
        odds[fire_label(None, None)] = p_miss
    return odds, expected
