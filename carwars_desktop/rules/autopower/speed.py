"""Speed: declaring it, Energy cards, and pushing the engine (digest §2.4, §3.1).

:func:`plan_speed` applies the player's card changes and lists the push
stages (what happens if every roll fails); :func:`speed_outcomes` gives their
exact odds and :func:`resolve_speed` throws the dice.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from carwars_desktop.dice import DiceSource
from carwars_desktop.procedures import Step
from carwars_desktop.rules.autopower.cards import cards_text, without
from carwars_desktop.rules.autopower.errors import CardListError, IllegalPlayError
from carwars_desktop.rules.autopower.odds import chance, p_at_least, roll_text, roll_two_dice
from carwars_desktop.rules.autopower.options import DiscardChoice, Options
from carwars_desktop.rules.autopower.sheet import CarSheet, push_target
from carwars_desktop.rules.autopower.tables import (
    NEVER,
    SAFE_SPEED_FACTOR,
    SURCHARGE_SPEED_FACTOR,
    rule,
)


def discard_one(cards: tuple[int, ...], choice: DiscardChoice) -> tuple[int, ...]:
    """The Energy cards left after the owner gives one up (AP-D7: the owner's choice)."""
    if not cards:
        return cards
    if choice is DiscardChoice.NEWEST:
        return cards[:-1]
    if choice is DiscardChoice.OLDEST:
        return cards[1:]
    lost = max(cards) if choice is DiscardChoice.LARGEST else min(cards)
    return without(cards, (lost,))


def lost_card(before: tuple[int, ...], after: tuple[int, ...]) -> int:
    """The one card value in ``before`` that is not in ``after``."""
    left = list(before)
    for value in after:
        left.remove(value)
    return left[0]


@dataclass(frozen=True)
class PushStage:
    """One speed the car may end at: its cards, rawSpeed and push target (``None``: safe)."""

    energy_in_play: tuple[int, ...]
    declared_speed: int
    raw_speed: int
    target: int | None

    @property
    def can_succeed(self) -> bool:
        return self.target is not None and self.target < NEVER


def push_stages(energy: int, cards: tuple[int, ...], declared: int,
                choice: DiscardChoice) -> tuple[PushStage, ...]:
    """§2.4 steps 5–6: the speeds in turn if every push fails, ending at a safe one.

    Each failure costs one Energy card (AP-D7); with none left, rawSpeed = E.
    """
    stages: list[PushStage] = []
    while True:
        raw = energy + sum(cards) if cards else declared
        target = push_target(raw, energy)
        stages.append(PushStage(cards, declared, raw, target))
        if target is None:
            return tuple(stages)
        cards = discard_one(cards, choice)
        if not cards:
            declared = energy


def target_text(raw: int, energy: int) -> str:
    """``'8 > 2 × E3 = 6: pushing; 8 ≤ 3 × E3 = 9 → target 8'``."""
    target = push_target(raw, energy)
    safe = SAFE_SPEED_FACTOR * energy
    if target is None:
        return f"rawSpeed {raw} ≤ 2 × E{energy} = {safe}: safe, no roll"
    triple = SURCHARGE_SPEED_FACTOR * energy
    text = f"rawSpeed {raw} > 2 × E{energy} = {safe}: pushing the engine; "
    if target == raw:
        text += f"{raw} ≤ 3 × E{energy} = {triple} → target {target}"
    else:
        text += f"{raw} > 3 × E{energy} = {triple} → target {raw} + 2 = {target}"
    if target >= NEVER:
        text += " (13 or more: cannot succeed)"
    return text


@dataclass(frozen=True)
class SpeedPlan:
    """The accelerate step after the card changes, before any push roll.

    Attributes:
        sheet: the car with its new cards in play (hand already spent).
        steps: the explanation so far.
        stages: the push stages (a single safe stage when no roll is due).
        rolls: whether push rolls are made (``False`` on a no-push turn, AP-D12, or at
            setup with AP-D17 switched off).
    """

    sheet: CarSheet
    steps: tuple[Step, ...]
    stages: tuple[PushStage, ...]
    rolls: bool


def plan_speed(sheet: CarSheet, discard: tuple[int, ...] = (), play: tuple[int, ...] = (),
               declared: int | None = None, options: Options | None = None,
               opening: bool = False, discard_all: bool = False) -> SpeedPlan:
    """§2.4 steps 1–4 (and §2.2 step 3 at setup with ``opening``).

    Raises:
        IllegalPlayError: a killed car, a discard of a card not in play, more cards than
            the hand holds, or a declared speed with Energy cards in play (AP-D5) or above E.
    """
    options = options or Options()
    car = sheet.car
    energy = car.energy
    if sheet.killed:
        raise IllegalPlayError(f"{car.name} is killed and takes no more turns (§2.7)")
    steps: list[Step] = []
    if discard_all:
        discard = sheet.energy_in_play
    try:
        kept = without(sheet.energy_in_play, discard)
    except CardListError as error:
        raise IllegalPlayError(f"{car.name} cannot discard that Energy card: {error}") from None
    if len(play) > sheet.hand_size:
        raise IllegalPlayError(
            f"{car.name} holds {sheet.hand_size} cards and cannot play {len(play)} Energy cards")
    if discard:
        steps.append(Step(f"{car.name} discards Energy {cards_text(discard)} from play",
                          rule("2.4", "AP-D6")))
    if play:
        steps.append(Step(f"{car.name} plays Energy {cards_text(play)} from the hand",
                          rule("2.4")))
    cards = kept + play
    if cards:
        if declared is not None:
            raise IllegalPlayError(
                f"{car.name} has Energy cards in play ({cards_text(cards)}): rawSpeed is "
                f"E + cards = {energy + sum(cards)}; discard cards to slow down (AP-D5)")
        speed = energy + sum(cards)
        new_declared = sheet.declared_speed
        steps.append(Step(f"rawSpeed = E{energy} + {cards_text(cards)} = {speed}",
                          rule("2.4", "AP-D5")))
    else:
        if declared is not None:
            said = f"no Energy card in play: {car.name} declares Speed {declared} (0–E{energy})"
        elif sheet.energy_in_play:
            declared = energy
            said = f"no Energy card left in play: rawSpeed = E = {energy}"
        else:
            declared = sheet.declared_speed
            said = f"no Energy card in play: {car.name} keeps its declared Speed {declared}"
        if not 0 <= declared <= energy:
            raise IllegalPlayError(
                f"{car.name} can declare a speed of 0–{energy} (its Energy) without Energy cards, "
                f"not {declared} (§2.4 step 2)")
        new_declared = declared
        speed = declared
        steps.append(Step(said, rule("2.4", "AP-D7")))
    changed = replace(sheet.spend_cards(len(play)), energy_in_play=cards,
                      declared_speed=new_declared)
    steps.append(Step(target_text(speed, energy), rule("2.4")))
    stages = push_stages(energy, cards, new_declared, options.ap_d7_discard)
    rolls = True
    if len(stages) > 1 and sheet.penalty_this_turn.forbids_attack_and_push:
        rolls = False
        steps.append(Step(f"{car.name} lost control last turn: no push this turn; discards "
                          f"Energy cards ({options.ap_d7_discard.value} first, AP-D7) down to "
                          f"2 × E{energy} = {2 * energy}", rule("2.8", "AP-D12")))
    elif len(stages) > 1 and opening and not options.ap_d17_opening_push_roll:
        rolls = False
        stages = stages[:1]
        steps.append(Step("opening plays: no push roll (AP-D17 switched off)",
                          rule("2.2", "AP-D17")))
    if not rolls and len(stages) > 1:
        stages = stages[-1:]
    return SpeedPlan(changed, tuple(steps), stages, rolls)


def _at(sheet: CarSheet, stage: PushStage) -> CarSheet:
    return replace(sheet, energy_in_play=stage.energy_in_play,
                   declared_speed=stage.declared_speed)


@dataclass(frozen=True)
class SpeedOutcome:
    """One way the accelerate step can end, with its exact probability."""

    label: str
    probability: Fraction
    sheet: CarSheet


def speed_outcomes(plan: SpeedPlan) -> tuple[SpeedOutcome, ...]:
    """Every end of the push chain with its probability (sums to exactly 1)."""
    if not plan.rolls:
        end = _at(plan.sheet, plan.stages[-1])
        how = "holds without a roll" if end.pushing else "safe"
        return (SpeedOutcome(f"{how} at {end.raw_speed} (Speed {end.speed})", Fraction(1), end),)
    outcomes: list[SpeedOutcome] = []
    reach = Fraction(1)
    for stage in plan.stages:
        end = _at(plan.sheet, stage)
        if stage.target is None:
            label = (f"safe at {stage.raw_speed}" if len(plan.stages) == 1
                     else f"falls back to {stage.raw_speed}")
            outcomes.append(SpeedOutcome(f"{label} (Speed {end.speed})", reach, end))
            break
        p = p_at_least(stage.target) if stage.can_succeed else Fraction(0)
        if p:
            outcomes.append(SpeedOutcome(f"push holds at {stage.raw_speed} (Speed {end.speed})",
                                         reach * p, end))
        reach *= 1 - p
    return tuple(outcomes)


def rolled_stages(plan: SpeedPlan) -> tuple[PushStage, ...]:
    """The stages at which a push roll is thrown if reached (targets of 13+ need none)."""
    return tuple(stage for stage in plan.stages if stage.can_succeed) if plan.rolls else ()


def resolve_speed(plan: SpeedPlan, dice: DiceSource,
                  choice: DiscardChoice) -> tuple[CarSheet, tuple[Step, ...], bool | None]:
    """§2.4 steps 5–7: throw push rolls down the chain. Returns the sheet, the steps and
    whether a push held (``None`` when no roll was due)."""
    steps = list(plan.steps)
    sheet = plan.sheet
    energy = sheet.car.energy
    if not plan.rolls or len(plan.stages) == 1:
        final = _at(sheet, plan.stages[-1])
        if final.energy_in_play != sheet.energy_in_play:
            given_up = without(sheet.energy_in_play, final.energy_in_play)
            steps.append(Step(f"discards Energy {cards_text(given_up)} → "
                              f"{target_text(final.raw_speed, energy)}", rule("2.8", "AP-D12")))
        steps.append(Step(f"{final.name}: {final.speed_text()}", rule("2.5", "AP-D27")))
        return final, tuple(steps), None
    previous = plan.stages[0]
    for stage in plan.stages:
        if stage is not previous:
            lost = lost_card(previous.energy_in_play, stage.energy_in_play)
            left = (f"rawSpeed {stage.raw_speed}" if stage.energy_in_play
                    else f"no Energy card left: rawSpeed = E = {stage.raw_speed}")
            steps.append(Step(f"discards Energy {lost} ({choice.value}, AP-D7) → {left}",
                              rule("2.4", "AP-D7")))
            if stage.target is not None:
                steps.append(Step(target_text(stage.raw_speed, energy), rule("2.4")))
        previous = stage
        if stage.target is None:
            final = _at(sheet, stage)
            steps.append(Step(f"safe again: {final.speed_text()}", rule("2.4", "2.5")))
            return final, tuple(steps), False
        if not stage.can_succeed:
            steps.append(Step(f"target {stage.target} ≥ 13: the push fails, no roll",
                              rule("2.4")))
            continue
        faces, natural = roll_two_dice(dice, f"push at {stage.raw_speed} "
                                             f"(need {stage.target}+)")
        p = p_at_least(stage.target)
        if natural >= stage.target:
            final = _at(sheet, stage)
            steps.append(Step(f"push roll {roll_text(faces)} ≥ {stage.target} "
                              f"({chance(p)}) → the push holds until the next turn; "
                              f"{final.speed_text()}", rule("2.4", "2.5")))
            return final, tuple(steps), True
        steps.append(Step(f"push roll {roll_text(faces)} < {stage.target} ({chance(p)}) → fails",
                          rule("2.4")))
    raise AssertionError("the last push stage is always safe")
