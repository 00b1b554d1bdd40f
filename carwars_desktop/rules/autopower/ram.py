"""Variant: ramming (digest §2.9, AP-D13, AP-D19, AP-D20, AP-D25).

Strength cards from the hand, total C, no damage cap. To-hit H = C +
Speed(target) − Speed(attacker) − S(attacker) (+ control penalty) − attacker's
IQ cards + defender's IQ cards. On a hit both cars take C.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from carwars_desktop.dice import DiceSource
from carwars_desktop.procedures import Modifier, Step
from carwars_desktop.rules.autopower.cards import cards_text
from carwars_desktop.rules.autopower.combat import (
    AttackResult,
    PlannedAttack,
    check_can_attack,
    check_hands,
    check_iq_cards,
    need_text,
    penalty_modifiers,
    roll_to_hit,
    to_hit_steps,
)
from carwars_desktop.rules.autopower.control import control_target
from carwars_desktop.rules.autopower.damage import take_damage
from carwars_desktop.rules.autopower.errors import IllegalPlayError
from carwars_desktop.rules.autopower.options import Options
from carwars_desktop.rules.autopower.sheet import CarSheet
from carwars_desktop.rules.autopower.tables import rule


@dataclass(frozen=True)
class RamPlan(PlannedAttack):
    """A ram before the roll (``cards`` the Strength cards); ``both_control``: both cars
    roll for control after a hit (AP-D25)."""

    both_control: bool

    @property
    def damage(self) -> int:
        """§2.9 step 1: no cap; both cars take the whole pile."""
        return self.base


def plan_ram(attacker: CarSheet, target: CarSheet, cards: tuple[int, ...],
             attacker_iq_cards: tuple[int, ...] = (), defender_iq_cards: tuple[int, ...] = (),
             options: Options | None = None, control_rolls: bool = False) -> RamPlan:
    """§2.9 steps 1–4.

    Raises:
        IllegalPlayError: see :func:`check_can_attack`; no Strength card (AP-D28); more
            cards than a hand holds; IQ cards when they are off (AP-D22).
    """
    options = options or Options()
    check_can_attack(attacker, target)
    if not cards:
        raise IllegalPlayError("a ram needs at least one Strength card from the hand (AP-D28)")
    check_iq_cards(options, attacker_iq_cards, defender_iq_cards)
    played = len(cards) + len(attacker_iq_cards)
    check_hands(attacker, played, target, defender_iq_cards)
    car = attacker.car
    total = sum(cards)
    after_penalty = options.ap_d27_speed_after_armor_penalty
    steps = [Step(f"{car.name} rams with Strength {cards_text(cards)} = {total} from the hand: "
                  f"base to-hit {total}, damage {total} to both cars (no cap)",
                  rule("2.9", "AP-D20"))]
    modifiers = [
        Modifier(f"{target.name} Speed", target.seen_speed(after_penalty), rule("2.9", "AP-D27")),
        Modifier(f"{car.name} Speed", -attacker.seen_speed(after_penalty), rule("2.9", "AP-D27")),
        Modifier(f"{car.name} base Strength", -car.strength, rule("2.9")),
    ]
    if options.ap_d13_ram_subtracts_intelligence:
        modifiers.append(Modifier(f"{car.name} Intelligence (AP-D13 switched on)", -car.iq,
                                  rule("2.9", "AP-D13")))
    modifiers += penalty_modifiers(attacker)
    if attacker_iq_cards:
        modifiers.append(Modifier(f"{car.name} IQ cards {cards_text(attacker_iq_cards)}",
                                  -sum(attacker_iq_cards), rule("2.9", "AP-D13")))
    if defender_iq_cards:
        modifiers.append(Modifier(f"{target.name} IQ cards {cards_text(defender_iq_cards)}",
                                  sum(defender_iq_cards), rule("2.9", "AP-D13")))
    steps += to_hit_steps(total, modifiers)
    to_hit = total + sum(m.value for m in modifiers)
    steps.append(Step(need_text(to_hit), rule("2.9")))
    return RamPlan(attacker.spend_cards(played), target.spend_cards(len(defender_iq_cards)),
                   cards, attacker_iq_cards, defender_iq_cards, total, tuple(modifiers),
                   tuple(steps), control_rolls, both_control=options.ap_d25_both_cars_control)


@dataclass(frozen=True)
class RamResult(AttackResult):
    """A ram rolled; ``control_targets``: each car that now rolls for control, with its
    target (the Control Rolls variant)."""

    control_targets: tuple[tuple[str, int], ...]


def resolve_ram(plan: RamPlan, dice: DiceSource) -> RamResult:
    """§2.9 steps 5–8: roll; on a hit both cars take C and make kill checks (AP-D19)."""
    steps = list(plan.steps)
    hit, natural, step = roll_to_hit(dice, f"ram (need {plan.to_hit}+)", plan.to_hit, "2.9",
                                     "the ram hits")
    steps.append(step)
    attacker, target = plan.attacker, plan.target
    controls: list[tuple[str, int]] = []
    if hit:
        steps.append(Step(f"the Strength cards {cards_text(plan.cards)} go to the middle of the "
                          f"table: both cars take {plan.damage}", rule("2.9", "AP-D9")))
        target, target_step = take_damage(target, plan.damage, "2.9")
        attacker, attacker_step = take_damage(attacker, plan.damage, "2.9")
        steps += [target_step, attacker_step]
        if target.killed and attacker.killed:
            steps.append(Step("both cars are killed (AP-D19: if no car is left, a draw)",
                              rule("2.12", "AP-D19")))
        if plan.control_rolls:
            if not target.killed:  # each roll due until made (§2.8)
                target = replace(target, control_due=plan.damage)
            if plan.both_control and not attacker.killed:
                attacker = replace(attacker, control_due=plan.damage)
            rolling = [target] + ([attacker] if plan.both_control else [])
            for car in rolling:
                if car.killed:
                    continue
                goal = control_target(plan.damage, car.energy_in_play, car.car.iq)
                controls.append((car.name, goal))
                steps.append(Step(f"control roll variant: {car.name} rolls for control, target "
                                  f"{goal} (autopower.control, damage {plan.damage})",
                                  rule("2.9", "AP-D25")))
    else:
        steps.append(Step(f"the Strength cards {cards_text(plan.cards)} are discarded",
                          rule("2.9", "AP-D11")))
    if plan.iq_cards or plan.defender_iq_cards:
        steps.append(Step("the IQ cards played are discarded", rule("2.9", "AP-D29")))
    attacker = replace(attacker, attacked_this_turn=True)
    steps.append(Step(f"{attacker.name}'s turn is over", rule("2.9")))
    return RamResult(attacker, target, tuple(steps), hit, natural, tuple(controls))
