"""Hit-location rolls and counted successes on the d8.

§2.13 step 2: roll 1d8 on the section's Hit Location Table and roll again while the
result is a totally destroyed component. Re-rolling until a live entry is the same as
choosing a live entry with probability (its faces) / (all live faces): the exact odds
(``damage.interior_outcomes``) branch over :func:`live_entries` that way.
"""

from __future__ import annotations

from typing import Protocol

from carwars_desktop.dice import DiceSource, Distribution
from carwars_desktop.rules.battlecars.errors import IllegalActionError
from carwars_desktop.rules.battlecars.sheet import CarSheet
from carwars_desktop.rules.battlecars.tables import DIE
from carwars_desktop.rules.battlecars.terms import Section


class LocationPicker(Protocol):
    def pick(self, sheet: CarSheet, section: Section, purpose: str) -> tuple[str, tuple[int, ...]]:
        """A live component of ``section`` and the faces rolled to find it."""


def live_entries(sheet: CarSheet, section: Section) -> list[tuple[str, int]]:
    """The live components of the section's table with their number of faces, in face order."""
    table = sheet.card.hit_location(section)
    counts: dict[str, int] = {}
    for name in table.entries:
        if not sheet.destroyed(name):
            counts[name] = counts.get(name, 0) + 1
    return list(counts.items())


class DicePicker:
    """Rolls the DiceSource, re-rolling destroyed components (§2.13 step 2)."""

    def __init__(self, dice: DiceSource) -> None:
        self.dice = dice

    def pick(self, sheet: CarSheet, section: Section, purpose: str) -> tuple[str, tuple[int, ...]]:
        if not live_entries(sheet, section):
            raise IllegalActionError(f"the {section.value} section has no live component to "
                                     "roll for")
        table = sheet.card.hit_location(section)
        faces: list[int] = []
        while True:
            face = self.dice.roll(DIE, 1, purpose)[0]
            faces.append(face)
            name = table.component_for(face)
            if not sheet.destroyed(name):
                return name, tuple(faces)


def successes(trials: int, faces: int) -> Distribution:
    """How many of ``trials`` d8 rolls show one of ``faces`` winning faces (binomial, exact)."""
    ways: dict[int, int] = {0: 1}
    for _ in range(trials):
        nxt: dict[int, int] = {}
        for k, w in ways.items():
            nxt[k] = nxt.get(k, 0) + w * (DIE - faces)
            nxt[k + 1] = nxt.get(k + 1, 0) + w * faces
        ways = nxt
    return Distribution(ways, DIE ** trials)
