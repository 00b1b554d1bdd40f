"""Variant: control rolls after damage (digest §2.8, AP-D12, AP-D15, AP-D25).

Target = damage just taken + the Energy cards in play − I (base E is not
added). The owner may add IQ cards to the 2d6 roll; the shortfall sets the
penalty of the car's next own turn.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from carwars_desktop.dice import DiceSource
from carwars_desktop.procedures import Step
from carwars_desktop.rules.autopower.cards import cards_text
from carwars_desktop.rules.autopower.errors import IllegalPlayError
from carwars_desktop.rules.autopower.odds import chance, roll_text, roll_two_dice
from carwars_desktop.rules.autopower.options import Options
from carwars_desktop.rules.autopower.sheet import CarSheet
from carwars_desktop.rules.autopower.tables import (
    CONTROL_FAILURE,
    NATURAL_MISS,
    ControlPenalty,
    control_band,
    rule,
    two_dice,
)


def control_target(damage: int, energy_in_play: tuple[int, ...], intelligence: int) -> int:
    """§2.8 step 1: damage + Σ Energy cards in play − I."""
    return damage + sum(energy_in_play) - intelligence


def worse(first: ControlPenalty, second: ControlPenalty) -> ControlPenalty:
    """The harsher of two penalties (two failures before the car's turn keep the worse)."""
    return first if first.severity >= second.severity else second


@dataclass(frozen=True)
class ControlPlan:
    """A control roll before the dice: target, IQ cards added, and whether a roll is needed."""

    sheet: CarSheet
    damage: int
    iq_cards: tuple[int, ...]
    target: int
    automatic: bool
    natural_two_fails: bool
    steps: tuple[Step, ...]

    @property
    def iq_total(self) -> int:
        return sum(self.iq_cards)

    def shortfall(self, natural: int) -> int:
        return self.target - (natural + self.iq_total)

    def penalty(self, natural: int) -> ControlPenalty:
        """§2.8 table; AP-D15 switched on: a natural 2 loses control (at least −3)."""
        penalty = control_band(self.shortfall(natural)).penalty
        if self.natural_two_fails and natural == NATURAL_MISS and penalty is ControlPenalty.NONE:
            return ControlPenalty.MINUS_3
        return penalty


def plan_control(sheet: CarSheet, damage: int, iq_cards: tuple[int, ...] = (),
                 options: Options | None = None) -> ControlPlan:
    """§2.8 steps 1–3.

    Raises:
        IllegalPlayError: a killed car, IQ cards when they are off (AP-D22), or more IQ
            cards than the hand holds.
    """
    options = options or Options()
    car = sheet.car
    if sheet.killed:
        raise IllegalPlayError(f"{car.name} is killed: no control roll (§2.7)")
    if iq_cards and not options.iq_cards_in_use:
        raise IllegalPlayError("IQ cards are not used in this game (§2.1, AP-D22)")
    if len(iq_cards) > sheet.hand_size:
        raise IllegalPlayError(
            f"{car.name} holds {sheet.hand_size} cards and cannot play {len(iq_cards)} IQ cards")
    target = control_target(damage, sheet.energy_in_play, car.iq)
    steps = [Step(f"control target = damage {damage} + Energy cards in play "
                  f"{cards_text(sheet.energy_in_play)} ({sum(sheet.energy_in_play)}) − "
                  f"I{car.iq} = {target} (base E{car.energy} not added)", rule("2.8"))]
    if iq_cards:
        steps.append(Step(f"{car.name} plays IQ {cards_text(iq_cards)} before the roll: "
                          f"+{sum(iq_cards)} to the roll", rule("2.8")))
    natural_two_fails = options.ap_d15_natural_two_fails_control
    automatic = target <= NATURAL_MISS and not natural_two_fails
    return ControlPlan(sheet.spend_cards(len(iq_cards)), damage, iq_cards, target, automatic,
                       natural_two_fails, tuple(steps))


def control_outcomes(plan: ControlPlan) -> tuple[tuple[ControlPenalty, Fraction], ...]:
    """The exact chance of each row of the control table (all four rows, in order)."""
    if plan.automatic:
        return tuple((band.penalty, Fraction(int(band.penalty is ControlPenalty.NONE)))
                     for band in CONTROL_FAILURE)
    dice = two_dice()
    counts = {band.penalty: Fraction(0) for band in CONTROL_FAILURE}
    for natural, p in dice.probabilities().items():
        counts[plan.penalty(natural)] += p
    return tuple(counts.items())


def p_keep_control(plan: ControlPlan) -> Fraction:
    return dict(control_outcomes(plan))[ControlPenalty.NONE]


def resolve_control(plan: ControlPlan, dice: DiceSource) -> tuple[CarSheet, tuple[Step, ...],
                                                                    ControlPenalty]:
    """§2.8 steps 3–4: roll, read the table, carry the penalty to the next own turn."""
    steps = list(plan.steps)
    sheet = replace(plan.sheet, control_due=None)  # the roll due is made (§2.8)
    if plan.automatic:
        steps.append(Step(f"target {plan.target} ≤ 2: control kept without a roll",
                          rule("2.8", "AP-D15")))
        return sheet, tuple(steps), ControlPenalty.NONE
    with_iq = f" with IQ +{plan.iq_total}" if plan.iq_cards else ""
    faces, natural = roll_two_dice(dice, f"control (need {plan.target}+{with_iq})")
    total = natural + plan.iq_total
    shown = roll_text(faces) + (f" + IQ {plan.iq_total} = {total}" if plan.iq_cards else "")
    penalty = plan.penalty(natural)
    shortfall = plan.shortfall(natural)
    if penalty is ControlPenalty.NONE:
        verdict = f"{shown} ≥ {plan.target} → in control"
    elif shortfall <= 0:
        verdict = (f"{shown}: a natural 2 loses control (AP-D15 switched on) → "
                   f"{penalty.next_turn_label}")
    else:
        verdict = f"{shown} < {plan.target}, short by {shortfall} → {penalty.next_turn_label}"
    steps.append(Step(f"control roll {verdict} ({chance(p_keep_control(plan))} to keep control)",
                      rule("2.8", "AP-D12")))
    if penalty is not ControlPenalty.NONE:
        carried = worse(sheet.next_turn_penalty, penalty)
        kept = "" if carried is penalty else f" (the worse of this and the pending {carried.label})"
        sheet = replace(sheet, next_turn_penalty=carried)
        steps.append(Step(f"carried to {sheet.name}'s next own turn: {carried.label}{kept}",
                          rule("2.8", "AP-D12")))
    return sheet, tuple(steps), penalty
