"""Turn order, the draw at the start of a turn, and victory (digest §2.2, §2.3, §2.11, §2.12).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from carwars_desktop.dice import DiceSource
from carwars_desktop.procedures import Step
from carwars_desktop.rules.autopower.control import worse
from carwars_desktop.rules.autopower.errors import IllegalPlayError
from carwars_desktop.rules.autopower.odds import roll_text, roll_two_dice
from carwars_desktop.rules.autopower.sheet import CarSheet
from carwars_desktop.rules.autopower.tables import (
    HAND_SIZE,
    SKILL_DRAW_MINIMUM,
    ControlPenalty,
    rule,
)


def cards_to_draw(hand_size: int, intelligence: int, drawing_on_skills: bool) -> int:
    """§2.3 step 1: refill to seven; §2.11: draw max(1, I) but stop at seven (AP-D21)."""
    room = max(0, HAND_SIZE - hand_size)
    if drawing_on_skills:
        return min(max(SKILL_DRAW_MINIMUM, intelligence), room)
    return room


def start_turn(sheet: CarSheet, drawing_on_skills: bool = False) -> tuple[CarSheet, list[Step]]:
    """The car's turn begins: the draw, and last turn's control failure comes into force.

    Raises:
        IllegalPlayError: a killed car takes no turns.
    """
    car = sheet.car
    if sheet.killed:
        raise IllegalPlayError(f"{car.name} is killed and takes no more turns (§2.7)")
    count = cards_to_draw(sheet.hand_size, car.iq, drawing_on_skills)
    if drawing_on_skills:
        text = (f"Drawing on Skills: max(1, I{car.iq}) = {max(SKILL_DRAW_MINIMUM, car.iq)}, "
                f"stopping at {HAND_SIZE}: {car.name} draws {count} "
                f"({sheet.hand_size} → {sheet.hand_size + count})")
        steps = [Step(text, rule("2.11", "AP-D21"))]
    else:
        steps = [Step(f"{car.name} refills the hand to {HAND_SIZE}: draws {count} "
                      f"({sheet.hand_size} → {sheet.hand_size + count})", rule("2.3", "AP-D26"))]
    # The clock may have brought last turn's failure into force already (AP-D12).
    penalty = worse(sheet.next_turn_penalty, sheet.penalty_this_turn)
    if penalty.to_hit or penalty.forbids_attack_and_push:
        steps.append(Step(f"last control failure in force this turn: {penalty.label}",
                          rule("2.8", "AP-D12")))
    started = replace(sheet, hand_size=sheet.hand_size + count, penalty_this_turn=penalty,
                      next_turn_penalty=ControlPenalty.NONE, attacked_this_turn=False)
    return started, steps


def draw_order_key(sheet: CarSheet) -> tuple[int, int, int, int]:
    """§2.2 step 2: higher E draws first, ties broken by F, then S, then I."""
    car = sheet.car
    return (car.energy, car.fighting, car.strength, car.iq)


def first_turn_key(sheet: CarSheet, after_armor_penalty: bool = True) -> tuple[int, ...]:
    """§2.2 step 4, AP-D16: higher Speed first, ties broken as the draw order."""
    return (sheet.seen_speed(after_armor_penalty), *draw_order_key(sheet))


def tied_groups(sheets: Sequence[CarSheet],
                key: Callable[[CarSheet], tuple[int, ...]]) -> list[list[CarSheet]]:
    """The cars from first to last, cars with equal keys grouped together."""
    ordered = sorted(sheets, key=key, reverse=True)
    groups: list[list[CarSheet]] = []
    for sheet in ordered:
        if groups and key(groups[-1][0]) == key(sheet):
            groups[-1].append(sheet)
        else:
            groups.append([sheet])
    return groups


def break_tie(group: list[CarSheet], dice: DiceSource,
              steps: list[Step]) -> list[CarSheet]:
    """AP-D16: each tied car rolls 2d6, highest first; cars still tied roll again."""
    if len(group) == 1:
        return group
    rolls: dict[int, int] = {}
    for index, sheet in enumerate(group):
        faces, natural = roll_two_dice(dice, f"tie-break roll for {sheet.name}")
        rolls[index] = natural
        steps.append(Step(f"tie-break: {sheet.name} rolls {roll_text(faces)}",
                          rule("2.2", "AP-D16")))
    order: list[CarSheet] = []
    for total in sorted(set(rolls.values()), reverse=True):
        same = [group[i] for i, value in rolls.items() if value == total]
        if len(same) > 1:
            steps.append(Step(f"{' and '.join(s.name for s in same)} tie again on {total}: "
                              "they roll again", rule("2.2", "AP-D16")))
        order += break_tie(same, dice, steps)
    return order


def winner(sheets: Sequence[CarSheet]) -> tuple[str, str]:
    """AP-D19: (``'won'``, name) for the last car not killed, (``'draw'``, '') when none is
    left, (``'playing'``, '') while two or more are alive."""
    alive = [sheet for sheet in sheets if not sheet.killed]
    if len(alive) == 1:
        return "won", alive[0].name
    if not alive:
        return "draw", ""
    return "playing", ""
