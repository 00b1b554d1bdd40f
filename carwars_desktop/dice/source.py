"""Where dice come from: the values the GM typed, or a seeded RNG.

Physical dice first: a resolution asks its :class:`DiceSource` for each die it
needs, in the order its steps need them, with the purpose ("to hit", "damage").
"""

from __future__ import annotations

import random
import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from carwars_desktop.dice.errors import DiceValueError, NotEnoughDiceError


@dataclass(frozen=True)
class DieRoll:
    """One die thrown: its sides, the face shown, why it was thrown, and how."""

    sides: int
    value: int
    purpose: str
    entered: bool

    def to_json(self) -> dict[str, object]:
        return {
            "sides": self.sides,
            "value": self.value,
            "purpose": self.purpose,
            "entered": self.entered,
        }


class DiceSource(ABC):
    """Gives dice to a resolution and keeps the list of every die it gave."""

    def __init__(self) -> None:
        self.used: list[DieRoll] = []

    def roll(self, sides: int, count: int = 1, purpose: str = "") -> tuple[int, ...]:
        """Return ``count`` dice of ``sides`` faces, recording each in :attr:`used`."""
        return tuple(self._next(sides, purpose) for _ in range(count))

    @abstractmethod
    def _next(self, sides: int, purpose: str) -> int:
        """One die: record it in :attr:`used` and return its face."""

    def values(self) -> tuple[int, ...]:
        return tuple(d.value for d in self.used)


class SeededDice(DiceSource):
    """Dice rolled in the app from a seeded RNG: the seed replays the roll."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__()
        self.seed = seed if seed is not None else random.SystemRandom().randrange(1, 10**9)
        self._rng = random.Random(self.seed)

    def _next(self, sides: int, purpose: str) -> int:
        value = self._rng.randint(1, sides)
        self.used.append(DieRoll(sides, value, purpose, entered=False))
        return value


class EnteredDice(DiceSource):
    """The dice the players threw, typed by the GM, used in the order given.

    Each value is checked against the die asked for (a d6 showing 7 is refused).
    When the entered values run out, the ``fallback`` RNG rolls the rest, or
    :class:`NotEnoughDiceError` says which die is still needed.
    """

    def __init__(self, entered: Iterable[int], fallback: SeededDice | None = None) -> None:
        super().__init__()
        self.entered = tuple(entered)
        self.fallback = fallback
        self._taken = 0

    def _next(self, sides: int, purpose: str) -> int:
        what = f" for {purpose}" if purpose else ""
        if self._taken < len(self.entered):
            value = self.entered[self._taken]
            if not 1 <= value <= sides:
                raise DiceValueError(
                    f"die {self._taken + 1}{what} is a d{sides}: it cannot show {value} "
                    f"(1–{sides})"
                )
            self._taken += 1
            self.used.append(DieRoll(sides, value, purpose, entered=True))
            return value
        if self.fallback is not None:
            value = self.fallback.roll(sides, 1, purpose)[0]
            self.used.append(self.fallback.used[-1])
            return value
        count = len(self.entered)
        raise NotEnoughDiceError(
            f"needs another d{sides}{what}: {count} {'die was' if count == 1 else 'dice were'} "
            "entered"
        )

    def unused(self) -> tuple[int, ...]:
        """Entered values that no step asked for."""
        return self.entered[self._taken :]


_FACE = re.compile(r"[0-9]{1,3}")


def parse_dice_values(text: str, faces: Sequence[int] = ()) -> list[int]:
    """The faces typed by the GM: ``'5 4 3'`` or ``'5,4,3'`` → ``[5, 4, 3]``.

    With the dice known in advance (``faces``, their sides) and all under ten sides,
    a run of digits is read one die per digit: ``'54'`` for 2d6 → ``[5, 4]``. Which die
    each value belongs to is checked when a resolution takes it.
    """
    compact = text.strip()
    if (len(faces) > 1 and len(compact) == len(faces) and re.fullmatch(r"[0-9]+", compact)
            and all(sides < 10 for sides in faces)):
        return [int(digit) for digit in compact]
    values: list[int] = []
    for token in (t for t in re.split(r"[\s,;]+", compact) if t):
        if not _FACE.fullmatch(token):
            raise DiceValueError(f"{token[:12]!r} is not a die value: type the faces, e.g. 5 4 3")
        values.append(int(token))
    return values
