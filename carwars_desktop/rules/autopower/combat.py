"""The standard attack with Fighting cards and the laser variant (digest §2.6, §2.10).

The attacker picks the cards first: their total C is both the base to-hit and
the damage (capped at 2F). To-hit H = C − I(attacker) + Speed(target)
(+ control penalty) − IQ cards; a natural 2 always misses.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from carwars_desktop.dice import DiceSource
from carwars_desktop.procedures import Modifier, Step
from carwars_desktop.rules.autopower.cards import cards_text
from carwars_desktop.rules.autopower.damage import take_damage
from carwars_desktop.rules.autopower.errors import IllegalPlayError
from carwars_desktop.rules.autopower.odds import (
    attack_hits,
    chance,
    num,
    p_attack_hit,
    roll_text,
    roll_two_dice,
)
from carwars_desktop.rules.autopower.options import Options
from carwars_desktop.rules.autopower.sheet import CarSheet
from carwars_desktop.rules.autopower.tables import (
    DAMAGE_CAP_FACTOR,
    NATURAL_MISS,
    NEVER,
    ControlPenalty,
    rule,
)


def check_can_attack(attacker: CarSheet, target: CarSheet) -> None:
    """§2.3 step 4, §2.7, AP-D12: who may attack whom this turn.

    Raises:
        IllegalPlayError: a killed car on either side, a second attack this turn, or a car
            that lost control badly (no attack this turn).
    """
    if attacker.killed:
        raise IllegalPlayError(f"{attacker.name} is killed and cannot attack (§2.7)")
    if target.killed:
        raise IllegalPlayError(f"{target.name} is already killed (§2.7)")
    if attacker.attacked_this_turn:
        raise IllegalPlayError(
            f"{attacker.name} has made this turn's one attack (§2.3 step 4); start its next "
            "turn with autopower.draw")
    if attacker.penalty_this_turn is ControlPenalty.NO_ATTACK:
        raise IllegalPlayError(
            f"{attacker.name} lost control (short by 7 or more) and may not attack this turn "
            "(§2.8, AP-D12)")


def check_iq_cards(options: Options, *played: tuple[int, ...]) -> None:
    if any(played) and not options.iq_cards_in_use:
        raise IllegalPlayError("IQ cards are not used in this game (§2.1, AP-D22)")


def check_hands(attacker: CarSheet, played: int, target: CarSheet,
                defender_iq_cards: tuple[int, ...]) -> None:
    """Neither car plays more cards than its hand holds (the attacker ``played``, the
    defender its IQ cards).

    Raises:
        IllegalPlayError: the car and how many cards it holds.
    """
    if played > attacker.hand_size:
        raise IllegalPlayError(
            f"{attacker.name} holds {attacker.hand_size} cards and cannot play {played}")
    if len(defender_iq_cards) > target.hand_size:
        raise IllegalPlayError(f"{target.name} holds {target.hand_size} cards and cannot play "
                               f"{len(defender_iq_cards)} IQ cards")


def penalty_modifiers(attacker: CarSheet) -> list[Modifier]:
    """The attacker's control penalty this turn as a to-hit modifier (none without one)."""
    penalty = attacker.penalty_this_turn.to_hit
    return [Modifier("control penalty", penalty, rule("2.8", "AP-D12"))] if penalty else []


def to_hit_steps(start: int, modifiers: list[Modifier]) -> list[Step]:
    """The running to-hit from ``start``, one step per modifier under its own rule."""
    return [Step(line, m.rule) for line, m in zip(to_hit_text(start, tuple(modifiers)),
                                                 modifiers, strict=True)]


def roll_to_hit(dice: DiceSource, label: str, to_hit: int, section: str,
                hit_word: str) -> tuple[bool, int, Step]:
    """The 2d6 to-hit roll of an attack under ``section``: hit, the natural total and the
    step that says so (a natural 2 always misses, §0)."""
    faces, natural = roll_two_dice(dice, label)
    hit = attack_hits(natural, to_hit)
    if natural == NATURAL_MISS:
        return hit, natural, Step(f"rolled {roll_text(faces)}: a natural 2 always misses",
                                  rule("0", section))
    sign = "≥" if natural >= to_hit else "<"
    return hit, natural, Step(f"rolled {roll_text(faces)} {sign} {num(to_hit)} → "
                              f"{hit_word if hit else 'miss'}", rule(section))


def to_hit_text(start: int, modifiers: tuple[Modifier, ...]) -> list[str]:
    """The running to-hit, one line per modifier.

    ``'to-hit 9 − 3 (Booster Gold Intelligence) = 6'``
    """
    lines: list[str] = []
    running = start
    for modifier in modifiers:
        after = running + modifier.value
        sign = "+" if modifier.value >= 0 else "−"
        lines.append(f"to-hit {num(running)} {sign} {abs(modifier.value)} ({modifier.label}) = "
                     f"{num(after)}")
        running = after
    return lines


def need_text(to_hit: int) -> str:
    """``'need 8+ · 15/36 · 41.7%'``, saying when only a natural 2 misses or nothing hits."""
    p = p_attack_hit(to_hit)
    if to_hit <= NATURAL_MISS + 1:
        return f"need {num(to_hit)}: only a natural 2 misses · {chance(p)}"
    if to_hit >= NEVER:
        return f"need {to_hit}+: cannot hit · {chance(p)}"
    return f"need {to_hit}+ · {chance(p)}"


@dataclass(frozen=True)
class PlannedAttack:
    """What any attack (standard, laser or ram) has settled before its roll.

    ``attacker`` and ``target`` are the sheets with the played cards already out of the
    hands; ``cards`` the attacking cards (their total is ``base``), ``iq_cards`` the
    attacker's and ``defender_iq_cards`` the target's IQ cards; ``modifiers`` take the
    base to the to-hit number; ``steps`` explain it so far.
    """

    attacker: CarSheet
    target: CarSheet
    cards: tuple[int, ...]
    iq_cards: tuple[int, ...]
    defender_iq_cards: tuple[int, ...]
    base: int
    modifiers: tuple[Modifier, ...]
    steps: tuple[Step, ...]
    control_rolls: bool

    @property
    def to_hit(self) -> int:
        return self.base + sum(m.value for m in self.modifiers)

    def running_to_hit(self) -> list[int]:
        """The to-hit number after each modifier in turn (``3 − 3 = 0``, ``0 + 4 = 4``)."""
        running, total = [], self.base
        for modifier in self.modifiers:
            total += modifier.value
            running.append(total)
        return running


@dataclass(frozen=True)
class AttackPlan(PlannedAttack):
    """A standard or laser attack before the roll; ``damage`` is what a hit adds to the
    target's damage (AP-D9)."""

    laser: bool
    damage: int

    @property
    def section(self) -> str:
        return "2.10" if self.laser else "2.6"

    @property
    def ammunition(self) -> str:
        return "Energy" if self.laser else "Fighting"


def plan_attack(attacker: CarSheet, target: CarSheet, cards: tuple[int, ...],
                iq_cards: tuple[int, ...] = (), defender_iq_cards: tuple[int, ...] = (),
                options: Options | None = None, laser: bool = False,
                control_rolls: bool = False) -> AttackPlan:
    """§2.6 steps 1–5 (with Energy cards from the hand for a laser, §2.10).

    Raises:
        IllegalPlayError: see :func:`check_can_attack`; no card (AP-D28); more cards than
            a hand holds; IQ cards when off (AP-D22) or from the defender (AP-D10).
    """
    options = options or Options()
    check_can_attack(attacker, target)
    section = "2.10" if laser else "2.6"
    ammunition = "Energy" if laser else "Fighting"
    if not cards:
        raise IllegalPlayError(
            f"an attack needs at least one {ammunition} card from the hand (AP-D28)")
    check_iq_cards(options, iq_cards, defender_iq_cards)
    if defender_iq_cards and not options.ap_d10_defender_iq_cards:
        raise IllegalPlayError(
            "the defender plays no IQ cards against a standard attack (AP-D10); only rams "
            "allow it")
    check_hands(attacker, len(cards) + len(iq_cards), target, defender_iq_cards)
    car = attacker.car
    total = sum(cards)
    cap = DAMAGE_CAP_FACTOR * car.fighting
    capped = min(total, cap) if (not laser or options.ap_d14_laser_damage_cap) else total
    damage = capped if options.ap_d9_capped_damage else total
    weapon = "fires a laser with Energy" if laser else "fires Fighting"
    steps = [Step(f"{car.name} {weapon} {cards_text(cards)} = {total}: base to-hit {total}",
                  rule(section, "AP-D14") if laser else rule("2.6"))]
    if laser and not options.ap_d14_laser_damage_cap:
        cap_text = f"damage if it hits: {total} (no cap, AP-D14 switched off)"
    else:
        cap_text = f"damage if it hits: min({total}, 2 × F{car.fighting} = {cap}) = {capped}"
    if damage != capped:
        cap_text += f"; the kill check counts the card total {total} (AP-D9 switched off)"
    steps.append(Step(cap_text, rule(section, "AP-D14" if laser else "AP-D9")))
    speed = target.seen_speed(options.ap_d27_speed_after_armor_penalty)
    modifiers = [Modifier(f"{car.name} Intelligence", -car.iq, rule("2.6")),
                 Modifier(f"{target.name} Speed", speed, rule("2.6", "AP-D27"))]
    modifiers += penalty_modifiers(attacker)
    if iq_cards:
        modifiers.append(Modifier(f"IQ cards {cards_text(iq_cards)}", -sum(iq_cards),
                                  rule("2.6")))
    if defender_iq_cards:
        modifiers.append(Modifier(f"{target.name} IQ cards {cards_text(defender_iq_cards)}",
                                  sum(defender_iq_cards), rule("2.6", "AP-D10")))
    steps += to_hit_steps(total, modifiers)
    plan = AttackPlan(attacker.spend_cards(len(cards) + len(iq_cards)),
                      target.spend_cards(len(defender_iq_cards)), cards, iq_cards,
                      defender_iq_cards, total, tuple(modifiers), tuple(steps), control_rolls,
                      laser=laser, damage=damage)
    return replace(plan, steps=(*plan.steps, Step(need_text(plan.to_hit), rule(section))))


@dataclass(frozen=True)
class AttackResult:
    """An attack rolled: both sheets after it, the explanation, hit or miss and the natural
    2d6 total."""

    attacker: CarSheet
    target: CarSheet
    steps: tuple[Step, ...]
    hit: bool
    natural: int


def resolve_attack(plan: AttackPlan, dice: DiceSource) -> AttackResult:
    """§2.6 steps 6–9: roll, place the cards as damage on a hit, kill check, turn over."""
    steps = list(plan.steps)
    section = plan.section
    hit, natural, step = roll_to_hit(dice, f"to hit (need {plan.to_hit}+)", plan.to_hit,
                                     section, "hit")
    steps.append(step)
    target = plan.target
    if hit:
        steps.append(Step(f"the {plan.ammunition} cards {cards_text(plan.cards)} go beside "
                          f"{target.name} as {plan.damage} damage", rule(section, "AP-D9")))
        target, kill_step = take_damage(target, plan.damage, section)
        steps.append(kill_step)
        if plan.control_rolls and not target.killed:
            target = replace(target, control_due=plan.damage)  # due until rolled
            steps.append(Step(f"control roll variant: {target.name} now rolls for control "
                              f"(autopower.control, damage {plan.damage})", rule("2.8")))
    else:
        steps.append(Step(f"the {plan.ammunition} cards {cards_text(plan.cards)} are discarded",
                          rule(section, "AP-D11")))
    if plan.iq_cards:
        steps.append(Step(f"IQ cards {cards_text(plan.iq_cards)} are discarded",
                          rule(section, "AP-D29")))
    attacker = replace(plan.attacker, attacked_this_turn=True)
    steps.append(Step(f"{attacker.name}'s turn is over", rule(section)))
    return AttackResult(attacker, target, tuple(steps), hit, natural)
