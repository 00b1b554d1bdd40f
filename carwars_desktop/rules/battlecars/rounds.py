"""The Game Round around the moves: order of play, start of a Turn, end of a Round (§2.1–§2.2)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from carwars_desktop.dice import DiceSource, Distribution
from carwars_desktop.procedures import Step
from carwars_desktop.rules.battlecars.chance import successes
from carwars_desktop.rules.battlecars.cite import bc
from carwars_desktop.rules.battlecars.sheet import CarSheet
from carwars_desktop.rules.battlecars.tables import DIE, SMOKE_REMOVED_ON

RULE_ROUND = bc("§2.2")


def roll_off(players: tuple[str, ...], dice: DiceSource, purpose: str = "order"
             ) -> tuple[int, tuple[Step, ...]]:
    """Each rolls 1d8, the highest wins; ties re-roll among the tied (BC-D6, BC-D40)."""
    contenders = list(range(len(players)))
    steps: list[Step] = []
    while True:
        faces = {i: dice.roll(DIE, 1, f"{purpose}: {players[i]}")[0] for i in contenders}
        best = max(faces.values())
        top = [i for i in contenders if faces[i] == best]
        rolled = ", ".join(f"{players[i]} {faces[i]}" for i in contenders)
        if len(top) == 1:
            steps.append(Step(f"rolled {rolled} → {players[top[0]]} is highest",
                              bc("§2.1 step 7", "BC-D6", "BC-D40")))
            return top[0], tuple(steps)
        steps.append(Step(f"rolled {rolled} → tie at {best} between "
                          f"{', '.join(players[i] for i in top)}: they roll again",
                          bc("", "BC-D6", "BC-D40")))
        contenders = top


def play_order(players: tuple[str, ...], first: int) -> tuple[str, ...]:
    """Play passes to the left (seating order) from the first player (§2.1 step 7)."""
    return players[first:] + players[:first]


def disperse_smoke(markers: int, dice: DiceSource) -> tuple[int, tuple[Step, ...]]:
    """End of Round: 1d8 per Smoke marker, 1–4 stays, 5–8 removed (§2.2 step 4)."""
    removed = 0
    faces: list[int] = []
    for index in range(markers):
        face = dice.roll(DIE, 1, f"smoke marker {index + 1}")[0]
        faces.append(face)
        removed += face in SMOKE_REMOVED_ON
    detail = ", ".join(f"{f} {'removed' if f in SMOKE_REMOVED_ON else 'stays'}" for f in faces)
    if not markers:
        return 0, ()
    plural = "s" if markers != 1 else ""
    return removed, (Step(f"{markers} Smoke marker{plural}: {detail} → {removed} removed, "
                          f"{markers - removed} remain", RULE_ROUND.more("step 4")),)


def smoke_removed_distribution(markers: int) -> Distribution:
    """Binomial(markers, 1/2): each marker goes on 5–8."""
    return successes(markers, len(SMOKE_REMOVED_ON))


def p_smoke_removed() -> Fraction:
    return Fraction(len(SMOKE_REMOVED_ON), DIE)


def end_round(sheet: CarSheet) -> CarSheet:
    """Stun lasts until the end of the Round; the Turn's tallies start afresh (§2.2, §2.9)."""
    return replace(sheet, stunned=False, targets_this_turn=(), drops_this_turn=())


def start_turn(sheet: CarSheet) -> CarSheet:
    """A new Turn: the targets fired at and the pods dropped from are counted afresh (§2.9)."""
    return replace(sheet, targets_this_turn=(), drops_this_turn=())
