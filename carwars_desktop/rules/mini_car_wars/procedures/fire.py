"""mini.fire — one shot (or a linked pair): to hit, damage, allocation.

Mini Car Wars §2.9 (restrictions), §2.10 (to hit), §2.11 (allocation), §2.13
(smoke); decisions MCW-D5, D11–D16, D20. Dice, in order: 2d6 to hit per
weapon; the damage dice of each hit; one 1d6 interior roll per hit that gets
past the armor (not rolled when the damage is held).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from carwars_desktop.dice import DiceSource, dice_sum
from carwars_desktop.procedures import (
    BoolInput,
    Chart,
    ChoiceInput,
    DiceNeed,
    InputError,
    IntInput,
    Odds,
    Outcome,
    Procedure,
    Result,
    SheetChange,
    Step,
    TextInput,
    Values,
    odds_text,
    plan_of,
)
from carwars_desktop.rules.kernel.formatting import signed
from carwars_desktop.rules.kernel.refusal import refuse
from carwars_desktop.rules.mini_car_wars.cite import mcw
from carwars_desktop.rules.mini_car_wars.damage import apply_damage, needs_interior_roll
from carwars_desktop.rules.mini_car_wars.errors import WeaponChoiceError
from carwars_desktop.rules.mini_car_wars.firing import (
    find_weapon,
    fire_restriction,
    mark_fired,
    weapons_fired,
)
from carwars_desktop.rules.mini_car_wars.model import Role, Side, WeaponType
from carwars_desktop.rules.mini_car_wars.outcomes import (
    Attempt,
    categories_of,
    damage_label,
    damage_odds,
)
from carwars_desktop.rules.mini_car_wars.procedures.common import (
    A4,
    D5,
    D13,
    D14,
    D20,
    RULESET,
    SIDE_KEYS,
    get_optional_sheet,
    get_sheet,
    refused,
    refused_odds,
    rules_from,
    sheet_input,
)
from carwars_desktop.rules.mini_car_wars.sheet import MiniSheet
from carwars_desktop.rules.mini_car_wars.tables import TO_HIT
from carwars_desktop.rules.mini_car_wars.to_hit import (
    TO_HIT_RULE,
    Shot,
    base_to_hit,
    hit_ways,
    is_hit,
    modifier_text,
    modifiers,
    p_hit,
    parse_inches,
)

RULE = mcw("§2.9–§2.11")


def _weapon_text(text: str) -> str:
    if not text.strip():
        raise ValueError("name a weapon by its number on the sheet or as 'MG L'")
    return text
SMOKE_RULE = mcw("§2.13")
HELD_MARK = " (held)"
"""What a hit's outcome ends in when its damage is held (applied later with mini.damage)."""


@dataclass(frozen=True)
class _Plan:
    firer: MiniSheet
    target: MiniSheet | None
    role: Role
    indices: tuple[int, ...]
    side_or_none: Side | None
    """None only for a smokescreen, which aims at no one (§2.13)."""
    smoke: int
    hold: bool

    @property
    def kind(self) -> WeaponType:
        return self.firer.weapons[self.indices[0]].kind

    @property
    def side(self) -> Side:
        """The target side of a shot that aims (every weapon but a smokescreen)."""
        assert self.side_or_none is not None
        return self.side_or_none

    def shot(self, values: Values) -> Shot:
        assert self.target is not None
        person = self.firer.person(self.role)
        return Shot(self.kind, parse_inches(values["range"]), self.target.size, self.side,
                    self.firer.speed, self.target.speed, self.smoke,
                    0 if person is None else person.to_hit_bonus)


def _plan(values: Values) -> _Plan:
    firer = get_sheet(values, "firer")
    try:
        index = find_weapon(firer, values["weapon"])
        indices = weapons_fired(firer, index, values["linked"])
    except WeaponChoiceError as error:
        raise InputError(f"weapon: {error}") from None
    side = values["side"]
    return _Plan(firer, get_optional_sheet(values, "target"), Role(values["person"]), indices,
                 None if side is None else Side(side), values["smoke"] or 0,
                 bool(values["hold_damage"]))


NOT_AIMED = ("target", "side", "range", "smoke", "hold_damage")
"""What a smokescreen does not use: it aims at no one and rolls nothing (§2.13 step 1)."""


def _unused(values: Mapping[str, Any]) -> tuple[str, ...]:
    """A smokescreen's shot needs only its firer, crew member and weapon (§2.13)."""
    firer, weapon = values.get("firer"), values.get("weapon")
    if not isinstance(firer, MiniSheet) or not isinstance(weapon, str):
        return ()
    try:
        kind = firer.weapons[find_weapon(firer, weapon)].kind
    except WeaponChoiceError:
        return ()
    return NOT_AIMED if kind is WeaponType.SMOKESCREEN else ()


def _check(values: Values) -> None:
    plan = plan_of(values, _plan)
    if plan.role is Role.GUNNER and plan.firer.gunner is None:
        raise InputError(f"person: {plan.firer.name} has no gunner")
    if plan.kind is WeaponType.SMOKESCREEN:
        return
    if plan.target is None:
        raise InputError("target: a target vehicle is needed (all but a smokescreen)")
    if not plan.target.can_be_targeted(plan.side):
        raise refuse(f"side: {plan.target.name} has no turret; only a turret car exposes "
                     "its top (§2.9)", mcw("§2.9"))


def _labels(plan: _Plan) -> list[str]:
    """Weapon labels; "#n" (its number on the sheet) when the sheet has two alike."""
    all_labels = [w.label for w in plan.firer.weapons]
    return [all_labels[i] + (f" #{i + 1}" if all_labels.count(all_labels[i]) > 1 else "")
            for i in plan.indices]


def _resolve(values: Values, dice: DiceSource) -> Result:
    plan = plan_of(values, _plan)
    reason = fire_restriction(plan.firer, plan.role, plan.indices, plan.smoke)
    if reason is not None:
        return refused(reason, RULE)
    firer = mark_fired(plan.firer, plan.role, plan.indices)
    if plan.kind is WeaponType.SMOKESCREEN:
        return _smoke(plan, firer, values)
    assert plan.target is not None
    rules = rules_from(values)
    shot = plan.shot(values)
    stack = modifiers(shot, rules)
    need = base_to_hit(plan.kind) - sum(m.value for m in stack)
    labels = _labels(plan)
    steps = [Step(f"{' + '.join(labels)} ({plan.role.value}) at {plan.target.name}'s "
                  f"{plan.side.label}: {plan.kind.value} {base_to_hit(plan.kind)}, "
                  f"{modifier_text(stack)} → need {need}+ · {odds_text(p_hit(need))}"
                  f"{_still_note(plan)}", TO_HIT_RULE)]
    hits: list[tuple[str, int]] = []
    rolled: list[int] = []
    for label in labels:
        natural = sum(dice.roll(6, 2, f"to hit ({label})"))
        rolled.append(natural)
        if natural == 2:
            steps.append(Step(f"{label}: rolled 2 → natural 2 always misses", TO_HIT_RULE))
        else:
            hit = is_hit(natural, need)
            steps.append(Step(f"{label}: rolled {natural} → {'hit' if hit else 'miss'}",
                              TO_HIT_RULE))
            if hit:
                hits.append((label, 0))
    count = plan.firer.weapons[plan.indices[0]].spec.damage_dice
    for n, (label, _) in enumerate(hits):
        faces = dice.roll(6, count, f"damage ({label})")
        hits[n] = (label, sum(faces))
        steps.append(Step(f"{label} damage {count}d6: {' '.join(map(str, faces))} = {sum(faces)}",
                          mcw("§1.3")))
    effects = [SheetChange("firer", firer, _fired_summary(plan))]
    reports: list[Any] = []
    target = plan.target
    if hits and plan.hold:
        held = ", ".join(str(d) for _, d in hits)
        steps.append(Step(f"damage held ({held} to the {plan.side.label}): apply it with "
                          "mini.damage once everyone has fired", mcw("§2.2")))
    elif hits:
        for label, damage in hits:
            roll = None
            if needs_interior_roll(target, damage, plan.side):
                roll = dice.roll(6, 1, f"interior location ({label})")[0]
            target, report = apply_damage(target, damage, plan.side, roll, rules)
            reports.append(report)
            steps += report.steps
        effects.append(SheetChange("target", target, _damage_summary(target, plan.side, hits),
                                   categories_of(plan.target, target, plan.side)))
    outcome = (f"{len(hits)} of {len(labels)} hit" if len(labels) > 1 else
               ("hit" if hits else "miss"))
    if hits:
        outcome += f": {' + '.join(str(d) for _, d in hits)} damage to {plan.target.name}'s " \
                   f"{plan.side.label}" + (HELD_MARK if plan.hold else "")
    return Result(outcome=outcome, steps=steps, success=bool(hits), effects=effects,
                  values={"need": need, "base_to_hit": base_to_hit(plan.kind),
                          "modifiers": [m.to_json() for m in stack],
                          "firer_speed": plan.firer.speed, "target_speed": plan.target.speed,
                          "damage_dice": count, "rolls": tuple(rolled), "hits": len(hits),
                          "damage": tuple(d for _, d in hits), "held": plan.hold,
                          "reports": tuple(reports)},
                  # held damage is not applied yet: its worst effect is not known
                  label="" if plan.hold else damage_label(plan.target, target, plan.side,
                                                          bool(hits)))


def _still_note(plan: _Plan) -> str:
    """``; firer not moving (+1): Courier is at 0 mph on its sheet``: the speeds behind
    the not-moving modifiers, so a sheet's default 0 mph is seen (MCW-D12)."""
    assert plan.target is not None
    notes = [f"{role} not moving ({signed(bonus)}): {sheet.name} is at 0 mph on its sheet"
             for role, sheet, bonus in (("firer", plan.firer, TO_HIT.firer_stationary),
                                        ("target", plan.target, TO_HIT.target_stationary))
             if sheet.speed == 0]
    return "".join(f"; {note}" for note in notes)


def _smoke(plan: _Plan, firer: MiniSheet, values: Values) -> Result:
    turns = rules_from(values).smoke_turns
    label = _labels(plan)[0]
    steps = [Step(f"{label} fired by the {plan.role.value} (uses the shot, MCW-D16): no to-hit "
                  "roll", SMOKE_RULE),
             Step(f"place a smoke cloud behind {plan.firer.name}, centred on and touching its "
                  f"back edge (MCW-D30); it lasts {turns} turns (MCW-A4) and affects shots from "
                  "the next phase (§2.2)", SMOKE_RULE)]
    return Result(outcome=f"smoke cloud placed behind {plan.firer.name}", steps=steps,
                  success=True, effects=[SheetChange("firer", firer, _fired_summary(plan))],
                  values={"smoke_turns": turns}, label="smoke cloud placed")


def _fired_summary(plan: _Plan) -> str:
    return f"{plan.firer.name}: {' + '.join(_labels(plan))} fired by the {plan.role.value}"


def _damage_summary(target: MiniSheet, side: Side, hits: list[tuple[str, int]]) -> str:
    return (f"{target.name}: {' + '.join(str(d) for _, d in hits)} damage to the {side.label}; "
            f"armor {target.armor}, power plant {target.power_plant}")


def _odds(values: Values) -> Odds:
    plan = plan_of(values, _plan)
    reason = fire_restriction(plan.firer, plan.role, plan.indices, plan.smoke)
    if reason is not None:
        return refused_odds(reason)
    if plan.kind is WeaponType.SMOKESCREEN:
        return Odds(outcomes=(Outcome("smoke cloud placed", Fraction(1)),),
                    summary="smokescreen: no to-hit roll, a cloud is placed")
    assert plan.target is not None
    rules = rules_from(values)
    stack = modifiers(plan.shot(values), rules)
    need = base_to_hit(plan.kind) - sum(m.value for m in stack)
    ways = hit_ways(need)
    damage = dice_sum(plan.firer.weapons[plan.indices[0]].spec.damage_dice, 6)
    result = damage_odds(plan.target, plan.side, [Attempt(ways, 36, damage)] * len(plan.indices))
    summary = f"need {need}+ · {odds_text(p_hit(need))}"
    if len(plan.indices) > 1:
        summary += f" each ({len(plan.indices)} linked shots, rolled separately)"
    two_d6 = dice_sum(2, 6)
    chart = Chart("to hit (2d6, natural 2 misses)", two_d6,
                  frozenset(v for v in two_d6.values() if is_hit(v, need)))
    return Odds(outcomes=result.outcomes, summary=summary, modifiers=stack, need=need,
                chart=chart, expected=result.expected, effects=result.effects(plan.target.name))


def _dice(values: Values) -> list[DiceNeed]:
    plan = plan_of(values, _plan)
    if plan.kind is WeaponType.SMOKESCREEN:
        return []
    count = plan.firer.weapons[plan.indices[0]].spec.damage_dice
    needs = [DiceNeed(f"to hit ({label})", 2, 6) for label in _labels(plan)]
    needs += [DiceNeed(f"damage ({label})", count, 6, "if it hits") for label in _labels(plan)]
    if not plan.hold and plan.side is not Side.TOP:
        needs += [DiceNeed(f"interior location ({label})", 1, 6,
                           "if its damage gets past the armor") for label in _labels(plan)]
    return needs


def _weapon_choices(values: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The firer's weapons by number, each labelled with its type, mount and state."""
    firer = values.get("firer")
    if not isinstance(firer, MiniSheet):
        return []
    choices = []
    for number, weapon in enumerate(firer.weapons, start=1):
        state = ("destroyed" if weapon.destroyed else "spent" if weapon.spent
                 else "fired this turn" if weapon.fired else "")
        label = f"{number}: {weapon.label}" + (f" — {state}" if state else "")
        choices.append((str(number), label))
    return choices


FIRE = Procedure(
    id="mini.fire",
    title="Fire (to hit, damage, allocation)",
    ruleset=RULESET,
    rule=mcw("§2.9–§2.11, §3.2"),
    summary="One weapon or a linked pair fired at a target side: every to-hit modifier, "
            "natural 2 misses, damage dice, and the damage allocated to the target's sheet.",
    inputs=(
        sheet_input("firer", "Firing vehicle"),
        sheet_input("target", "Target vehicle", optional=True,
                    help="needed for every weapon but a smokescreen (it aims at no one)"),
        TextInput("weapon", "Weapon", "1", choices_from=_weapon_choices,
                  help="its number on the firer's sheet (1 = first) or type and mount: 'MG L'",
                  validate=_weapon_text),
        ChoiceInput("person", "Fired by", tuple(r.value for r in Role), Role.DRIVER.value),
        BoolInput("linked", "Fire the linked pair together", False,
                  help="one trigger, one to-hit roll per weapon, same modifiers (§1.3)"),
        ChoiceInput("side", "Target side", SIDE_KEYS, Side.FRONT.value,
                    help="F, R, L, B; T (top) only on a turret car, at −2"),
        TextInput("range", "Range (inches, edge to edge)", "2",
                  help="a decimal or fraction of inches: 5, 7.99, 0.5, 3/4 (MCW-D11)",
                  validate=parse_inches),
        IntInput("smoke", "Smoke clouds crossed", 0, 0, 20, help="−2 each; lasers cannot fire"),
        BoolInput("hold_damage", "Hold the damage (apply after all fire)", False,
                  help="fire is simultaneous: roll now, apply later with mini.damage (§2.2)"),
        D13, D14, D5, D20, A4,
    ),
    resolve_fn=_resolve,
    odds_fn=_odds,
    dice_fn=_dice,
    check_fn=_check,
    plan_fn=_plan,
    unused_fn=_unused,
)
