"""What every ruleset's play rules give the Table: status flags, hand marks, gauges, boxes.

A :class:`PlayRules` bundles, for one ruleset, the small pure functions the
Table needs around the engine: what to say about a sheet at a glance, which
boxes are crossed (to explain them on hover), how much damage it has taken and
what its armor and DP stand at (for the charts), and the scenarios a session
can start with. Every change a mark makes is the engine's own function.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from carwars_desktop.rules.ruleset import RecordSheet


class Level(StrEnum):
    """How bad a status is (the GUI pairs each with a shape and a word, never colour alone)."""

    INFO = "info"
    WARNING = "warning"
    DANGER = "danger"


@dataclass(frozen=True)
class StatusFlag:
    """One status of a vehicle at a glance: ``⚠ uncontrolled``."""

    word: str
    symbol: str
    level: Level
    detail: str = ""

    def __str__(self) -> str:
        return f"{self.symbol} {self.word}"


class MarkError(ValueError):
    """A hand mark that does not fit the sheet (nothing changes, the reason is shown)."""


@dataclass(frozen=True)
class Mark:
    """A hand mark's result: the new sheet, the log line and its explanation."""

    sheet: RecordSheet
    summary: str
    steps: tuple[str, ...] = ()


@dataclass(frozen=True)
class Scenario:
    """A way to start a session: from the rules (``road_duel``) or free play (key ``""``)."""

    key: str
    name: str
    description: str = ""


FREE_PLAY = Scenario("", "Free play", "No scenario: the GM sets up the table.")


@dataclass(frozen=True)
class Gauge:
    """A number worth charting over the turns (``armor``, ``DP``)."""

    label: str
    value: int


@dataclass(frozen=True)
class PlayRules:
    """The Table's view of one ruleset (see the module docstring)."""

    ruleset_id: str
    status: Callable[[RecordSheet], tuple[StatusFlag, ...]]
    boxes: Callable[[RecordSheet], Mapping[str, str]]
    """Box id → its state (``"x"`` crossed, ``""`` clear, or a word); ids name the box."""
    damage_points: Callable[[RecordSheet], int]
    """Damage taken so far, in the ruleset's points (armor, DP, crew and component boxes)."""
    gauges: Callable[[RecordSheet], tuple[Gauge, ...]]
    out_of_play: Callable[[RecordSheet], bool]
    """Wrecked, killed or otherwise no longer taking turns."""
    scenarios: tuple[Scenario, ...] = (FREE_PLAY,)
    start_sheet: Callable[[RecordSheet, str], RecordSheet] = field(
        default=lambda sheet, scenario: sheet)
    """The sheet as the scenario puts the vehicle on the table (its start speed)."""


class TurnError(ValueError):
    """Some of a turn's choices (new speeds) are refused: vehicle key → the engine's reason."""

    def __init__(self, reasons: Mapping[str, str]) -> None:
        self.reasons = dict(reasons)
        super().__init__("; ".join(self.reasons.values()))


@dataclass(frozen=True)
class ClockStep:
    """New sheets for some vehicles and the explanation, for one clock event."""

    sheets: Mapping[str, RecordSheet]
    steps: tuple[str, ...]


def status_changes(before: Sequence[StatusFlag], after: Sequence[StatusFlag]) -> list[str]:
    """Explanation lines for statuses gained and lost."""
    old = {flag.word for flag in before}
    new = {flag.word for flag in after}
    lines = [f"now {flag}" + (f": {flag.detail}" if flag.detail else "")
             for flag in after if flag.word not in old]
    lines += [f"no longer {flag.word}" for flag in before if flag.word not in new]
    return lines


def play_rules(ruleset_id: str) -> PlayRules:
    """The :class:`PlayRules` of a registered ruleset (its play modules load only now)."""
    from carwars_desktop.rules.registry import find_ruleset

    return find_ruleset(ruleset_id).play()
