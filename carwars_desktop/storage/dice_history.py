"""The dice-roll history: every roll the Dice workspace made or was given.

Plain frozen values go in and come out; the ORM row stays inside this module.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session, sessionmaker

from carwars_desktop.storage.models import WIDE_MAX, WIDE_MIN, DiceRollRow, ResolutionLogRow
from carwars_desktop.storage.writes import writing

_RULESET_ID_MAX = 64
_SEED_MIN, _SEED_MAX = -(2**63), 2**63 - 1


def _size(number: int) -> str:
    """``a 4,301-digit number``: never Python's ``str()`` of a huge int, which refuses."""
    digits = len(str(abs(number))) if abs(number) < 10**4000 else int(
        abs(number).bit_length() * 0.30103) + 1
    return f"a {digits:,}-digit number"


class InvalidDiceRollError(ValueError):
    """A dice roll that cannot be stored as given."""


def _int_tuple(values: Sequence[int], what: str) -> tuple[int, ...]:
    if isinstance(values, str | bytes):
        raise InvalidDiceRollError(f"{what} must be a sequence of ints, not {values!r}")
    result = tuple(values)
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in result):
        raise InvalidDiceRollError(f"{what} must be whole numbers, got {result!r}")
    return result


@dataclass(frozen=True)
class NewDiceRoll:
    """A roll to record.

    Attributes:
        ruleset_id: the registry id of the ruleset in play, e.g. ``mini_car_wars``.
        expression: the dice expression as the GM wrote it, e.g. ``2d6+1``.
        dice_values: the face of each die, in the order thrown.
        sides: the number of sides of each die, one per entry of ``dice_values``.
        natural: the sum of the dice alone.
        total: the result after modifiers.
        entered: True when the GM typed the dice, False when the app rolled them.
        target: the number to reach, if the roll was against one.
        natural_two_misses: whether "a natural 2 always misses" applied.
        success: whether the roll reached its target (None without a target).
        seed: the RNG seed that replays a rolled roll; None when the dice were entered.
        created_at: when the roll happened (aware); now, in UTC, if not given.
        resolution_id: the roll-log row of the result the dice were thrown for (a
            procedure's), whose state the history shows.
    """

    ruleset_id: str
    expression: str
    dice_values: tuple[int, ...]
    sides: tuple[int, ...]
    natural: int
    total: int
    entered: bool
    target: int | None = None
    natural_two_misses: bool = False
    success: bool | None = None
    seed: int | None = None
    created_at: datetime | None = field(default=None)
    resolution_id: int | None = None

    def __post_init__(self) -> None:
        values = _int_tuple(self.dice_values, "dice_values")
        sides = _int_tuple(self.sides, "sides")
        object.__setattr__(self, "dice_values", values)
        object.__setattr__(self, "sides", sides)
        if len(values) != len(sides):
            raise InvalidDiceRollError(
                f"{len(values)} dice values but {len(sides)} sides: give one side count per die"
            )
        for value, faces in zip(values, sides, strict=True):
            if faces < 1:
                raise InvalidDiceRollError(f"a die needs at least one side, not {faces}")
            if not 1 <= value <= faces:
                raise InvalidDiceRollError(f"a d{faces} cannot show {value}")
        if not self.ruleset_id or len(self.ruleset_id) > _RULESET_ID_MAX:
            raise InvalidDiceRollError(
                f"ruleset id must be 1 to {_RULESET_ID_MAX} characters, got {self.ruleset_id!r}"
            )
        if self.seed is not None and not _SEED_MIN <= self.seed <= _SEED_MAX:
            raise InvalidDiceRollError(f"seed {self.seed} does not fit in 64 bits")
        for what, number in (("natural", self.natural), ("total", self.total),
                             ("target", self.target)):
            # The same bound on SQLite and PostgreSQL (64-bit columns on both).
            if number is not None and not WIDE_MIN <= number <= WIDE_MAX:
                raise InvalidDiceRollError(
                    f"the {what} ({_size(number)}) is too large to keep in the history: "
                    "at most 19 digits")
        if self.created_at is not None and self.created_at.tzinfo is None:
            raise InvalidDiceRollError("created_at needs a time zone (use UTC)")


@dataclass(frozen=True)
class DiceRollRecord:
    """A stored roll: the values of :class:`NewDiceRoll` plus its id and UTC time, and the
    state of the result it was thrown for (read from the roll log)."""

    id: int
    created_at: datetime
    ruleset_id: str
    expression: str
    dice_values: tuple[int, ...]
    sides: tuple[int, ...]
    natural: int
    total: int
    entered: bool
    target: int | None
    natural_two_misses: bool
    success: bool | None
    seed: int | None
    resolution_id: int | None = None
    resolution_state: str = ""
    """The state of the result the dice were thrown for (``pending``, ``applied``,
    ``discarded``); empty for a roll of the Dice workspace."""
    resolution_note: str = ""
    """Why that result was discarded ("input changed", "window closed"…), when it was."""


def _record(row: DiceRollRow, log: ResolutionLogRow | None = None) -> DiceRollRecord:
    state = note = ""
    if log is not None:
        try:
            body = json.loads(log.body)
        except ValueError:
            body = {}
        body = body if isinstance(body, dict) else {}
        state = log.state
        note = str(body.get("note", ""))
    return DiceRollRecord(
        id=row.id,
        created_at=row.created_at,
        ruleset_id=row.ruleset_id,
        expression=row.expression,
        dice_values=tuple(row.dice_values),
        sides=tuple(row.sides),
        natural=row.natural,
        total=row.total,
        entered=row.entered,
        target=row.target,
        natural_two_misses=row.natural_two_misses,
        success=row.success,
        seed=row.seed,
        resolution_id=row.resolution_id,
        resolution_state=state,
        resolution_note=note,
    )


def dice_row(roll: NewDiceRoll) -> DiceRollRow:
    """The row that keeps ``roll`` (added to a transaction by its caller)."""
    created_at = roll.created_at or datetime.now(UTC)
    return DiceRollRow(
        created_at=created_at.astimezone(UTC),
        ruleset_id=roll.ruleset_id,
        expression=roll.expression,
        target=roll.target,
        natural_two_misses=roll.natural_two_misses,
        dice_values=roll.dice_values,
        sides=roll.sides,
        natural=roll.natural,
        total=roll.total,
        success=roll.success,
        seed=roll.seed,
        entered=roll.entered,
        resolution_id=roll.resolution_id,
    )


class DiceHistory:
    """Add, list and clear dice rolls; every write is committed before it returns."""

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self._sessions = sessions

    def add(self, roll: NewDiceRoll) -> DiceRollRecord:
        """Store ``roll`` in its own committed transaction and return it with its id."""
        row = dice_row(roll)
        with writing(self._sessions, f"The roll {roll.expression[:40]}") as session:
            session.add(row)
        # The session factory does not expire on commit: the row keeps its values and id.
        return _record(row)

    def recent(self, limit: int = 200) -> list[DiceRollRecord]:
        """Up to ``limit`` rolls, newest first."""
        if limit < 0:
            raise ValueError(f"limit must be zero or more, not {limit}")
        query = (
            select(DiceRollRow, ResolutionLogRow)
            .outerjoin(ResolutionLogRow, ResolutionLogRow.id == DiceRollRow.resolution_id)
            .order_by(DiceRollRow.created_at.desc(), DiceRollRow.id.desc())
            .limit(limit)
        )
        with self._sessions() as session:
            return [_record(row, log) for row, log in session.execute(query)]

    def count(self) -> int:
        with self._sessions() as session:
            return session.scalar(select(func.count()).select_from(DiceRollRow)) or 0

    def clear(self) -> int:
        """Delete every roll; return how many there were."""
        with writing(self._sessions, "Clearing the history") as session:
            result = session.execute(delete(DiceRollRow))
            return int(getattr(result, "rowcount", 0) or 0)
