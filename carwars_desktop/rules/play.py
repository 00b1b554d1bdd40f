"""What every ruleset's play rules give the Table: status flags, hand marks, gauges, boxes.

A :class:`PlayRules` bundles, for one ruleset, the small pure functions the
Table needs around the engine: what to say about a sheet at a glance, which
boxes are crossed (to explain them on hover), how much damage it has taken and
what its armor and DP stand at (for the charts), the scenarios a session
can start with, what the players at the table may know of a sheet (the players'
display) and who moves now and next. Every change a mark makes is the engine's
own function.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

from carwars_desktop.procedures import Resolution
from carwars_desktop.rules.clock import Clock
from carwars_desktop.rules.durations import Duration, ShownDuration, shown
from carwars_desktop.rules.registry import find_ruleset

__all__ = ["Duration", "ShownDuration"]  # the rulesets' play rules take them from here
from carwars_desktop.rules.ruleset import RecordSheet

SheetT = TypeVar("SheetT", bound=RecordSheet)


def sheet_reader(kind: type[SheetT], what: str) -> Callable[[RecordSheet], SheetT]:
    """A ruleset's sheet as its own type: ``reader(sheet)`` is ``sheet`` when it is a
    ``kind``, and raises ``TypeError`` (“expected ``what``, got …”) when it is not."""

    def read(sheet: RecordSheet) -> SheetT:
        if not isinstance(sheet, kind):
            raise TypeError(f"expected {what}, got {type(sheet).__name__}")
        return sheet

    return read


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
class PublicFact:
    """One thing the players may know of a vehicle: ``front armor 7``, ``speed 40 mph``.

    ``number`` marks a figure (drawn large, tabular); ``lost`` something gone for
    good (a weapon, a destroyed component: drawn struck through, with a word); ``spent``
    something used up for now (a weapon fired this turn or with no shots left: drawn with
    its own mark, never the "ready" one).
    """

    label: str
    value: str
    number: bool = False
    lost: bool = False
    spent: bool = False

    def to_json(self) -> dict[str, object]:
        return {"label": self.label, "value": self.value, "number": self.number,
                "lost": self.lost, "spent": self.spent}


PublicFacts = Callable[[RecordSheet, bool], tuple[PublicFact, ...]]
"""``(sheet, sheets_open)`` → what the players may know of it.

With ``sheets_open`` False (MCW §2.15: the scenario keeps record sheets secret) a
ruleset gives only what is seen or announced at the table: the speed once
revealed and the damage announced as it landed, never what is left nor the
weapons. Speeds on a sheet are always revealed ones: secret speeds are set for
every car at once at the reveal (Battlecars ``set_speeds``), Mini Car Wars
speeds once every vehicle's is chosen.
"""


def no_public_facts(sheet: RecordSheet, sheets_open: bool) -> tuple[PublicFact, ...]:
    """A ruleset that says nothing: the display shows the name and status only."""
    return ()


@dataclass(frozen=True)
class TurnOrder:
    """Who moves now and who next, as vehicle keys (empty: nobody / not known)."""

    now: tuple[str, ...] = ()
    next: tuple[str, ...] = ()


TurnOrderOf = Callable[[Clock, Mapping[str, tuple[str, RecordSheet]]], TurnOrder]
"""``(clock, key → (name, sheet))`` → :class:`TurnOrder`."""


def no_turn_order(clock: Clock, vehicles: Mapping[str, tuple[str, RecordSheet]]) -> TurnOrder:
    return TurnOrder()


StartOrder = Callable[[Sequence[tuple[str, RecordSheet]]], tuple[str, ...]]
"""``[(name, sheet)]`` in seating order → the names in the order of a new session's first
turn (a ruleset whose first player follows from the sheets, AUTOpower's higher Speed)."""


Vehicles = Mapping[str, tuple[str, RecordSheet]]
"""Vehicle key → (name, sheet), in seating order."""


@dataclass(frozen=True)
class ClockMove:
    """What the clock's move ends by itself: new sheets (a stun lifted), the durations that
    go on, and the explanation."""

    sheets: Mapping[str, RecordSheet]
    durations: tuple[Duration, ...]
    steps: tuple[str, ...] = ()


ClockMoved = Callable[[Clock, Clock, Vehicles], ClockMove]
"""``(before, after, vehicles)`` with ``after`` carrying the durations that would go on."""


def expire(before: Clock, after: Clock, vehicles: Vehicles) -> ClockMove:
    """The durations whose time is up are gone (said so in the log); nothing else."""
    going = after.kept()
    steps = tuple(f"{d.label}: its time is up ({d.rule})" for d in going
                  if not d.lasts_at(after))
    return ClockMove({}, tuple(d for d in going if d.lasts_at(after)), steps)


DurationsFrom = Callable[["Resolution", Mapping[str, str], Clock, Vehicles],
                         tuple[Duration, ...]]
"""``(resolution, bindings, clock, vehicles)`` → the durations an applied result starts."""


def no_durations_from(resolution: Resolution, bindings: Mapping[str, str], clock: Clock,
                      vehicles: Vehicles) -> tuple[Duration, ...]:
    return ()


ShownDurations = Callable[[Clock, Vehicles], tuple[ShownDuration, ...]]
"""``(clock, vehicles)`` → every running duration with what is left, for the sheets and
the Clock (the clock's own and those kept on the sheets)."""


def clock_durations(clock: Clock, vehicles: Vehicles) -> tuple[ShownDuration, ...]:
    return tuple(shown(d, clock) for d in clock.kept())


Verdict = Callable[[Vehicles], str]
"""``vehicles`` → who won, or a draw, as the rules' victory check says it; ``""`` while the
game goes on (the Table then offers to finish the session)."""


def no_verdict(vehicles: Vehicles) -> str:
    return ""


def seating_order(vehicles: Sequence[tuple[str, RecordSheet]]) -> tuple[str, ...]:
    """The vehicles as seated: a ruleset whose order is rolled for (or needs none)."""
    return tuple(name for name, _sheet in vehicles)


@dataclass(frozen=True)
class Done:
    """A result applied earlier in the clock's current phase, as the Table's checks read
    it: its procedure, each sheet input's vehicle by name, its other inputs."""

    procedure_id: str
    names: Mapping[str, str]
    inputs: Mapping[str, Any]


TableDefaults = Callable[[str, Mapping[str, tuple[str, RecordSheet]], Clock],
                         Mapping[str, Any]]
"""(procedure id, each sheet input preset → the vehicle's name and sheet, clock) → the
inputs the rules set by default at this moment of play (Battlecars return fire outside
the firer's Turn, §2.9 step 2; the damage of an AUTOpower control roll due, §2.8)."""

TableProblems = Callable[[str, Mapping[str, str], Mapping[str, Any], Clock, Sequence[Done]],
                         tuple[str, ...]]
"""(procedure id, each sheet input → the vehicle's name, the other inputs, clock, what was
done earlier in this phase) → every reason the rules refuse the roll at this moment of
play (empty: allowed)."""


@dataclass(frozen=True)
class DueRoll:
    """A roll the rules call for that has not been made: the Table offers it at once
    (its dialog filled in) and shows it until it is made (AUTOpower §2.8 control)."""

    vehicle: str
    """The key of the vehicle in play that rolls."""
    procedure_id: str
    vehicle_input: str
    presets: Mapping[str, Any]
    label: str
    rule: str


DueRolls = Callable[[Vehicles], tuple[DueRoll, ...]]
"""The vehicles in play (key → name and sheet) → the rolls due on their sheets."""


def no_due_rolls(vehicles: Vehicles) -> tuple[DueRoll, ...]:
    return ()


@dataclass(frozen=True)
class OpeningRoll:
    """The roll a new session starts with (the Battlecars order of play, §2.1 step 7):
    its procedure, its presets and what the dialog says of it."""

    procedure_id: str
    presets: Mapping[str, Any]
    note: str


OpeningRollOf = Callable[[str, Sequence[str]], "OpeningRoll | None"]
"""(scenario key, the vehicles' names in seating order) → the roll play starts with."""


def no_opening_roll(scenario: str, names: Sequence[str]) -> OpeningRoll | None:
    return None


def no_table_defaults(procedure_id: str, vehicles: Mapping[str, tuple[str, RecordSheet]],
                      clock: Clock) -> Mapping[str, Any]:
    return {}


def no_table_problems(procedure_id: str, names: Mapping[str, str], inputs: Mapping[str, Any],
                      clock: Clock, done: Sequence[Done]) -> tuple[str, ...]:
    return ()


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
    public: PublicFacts = no_public_facts
    """What the players may know of a sheet (see :data:`PublicFacts`)."""
    seen_at_the_table: Callable[[StatusFlag], bool] = field(default=lambda flag: True)
    """With secret sheets, whether the players may know a status flag: only what they
    see happen at the table (a wreck), never what only the sheet says (a wounded
    driver). Every flag by default."""
    turn_order: TurnOrderOf = no_turn_order
    """Who moves now and next at this clock."""
    start_order: StartOrder = seating_order
    """The order of a new session's first turn (see :data:`StartOrder`)."""
    clock_moved: ClockMoved = expire
    """What the clock ends when it moves forward (see :data:`ClockMoved`)."""
    durations_from: DurationsFrom = no_durations_from
    """The durations an applied result starts (a smoke cloud laid)."""
    durations: ShownDurations = clock_durations
    """What runs now and what is left of it (see :data:`ShownDurations`)."""
    verdict: Verdict = no_verdict
    """The victory check on the sheets (see :data:`Verdict`)."""
    table_defaults: TableDefaults = no_table_defaults
    """Inputs set by the moment of play (see :data:`TableDefaults`)."""
    table_problems: TableProblems = no_table_problems
    """What the moment of play refuses (see :data:`TableProblems`)."""
    due_rolls: DueRolls = no_due_rolls
    """The rolls the rules call for now and nobody has made (see :data:`DueRolls`)."""
    opening_roll: OpeningRollOf = no_opening_roll
    """The roll a new session is offered when play starts (see :data:`OpeningRollOf`)."""


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


VehicleChange = tuple[RecordSheet, str] | str | None
"""What one clock event does to one vehicle: its new sheet and the explanation line,
``None`` (nothing), or the engine's reason for refusing it (a line of its own)."""


def clock_step(keys: Iterable[str], change: Callable[[str], VehicleChange]) -> ClockStep:
    """One clock event applied to the vehicles ``keys`` in order, each by ``change(key)``.

    Raises:
        TurnError: every refused vehicle's reason, when any is refused (nothing changes).
    """
    new: dict[str, RecordSheet] = {}
    steps: list[str] = []
    reasons: dict[str, str] = {}
    for key in keys:
        changed = change(key)
        if isinstance(changed, str):
            reasons[key] = changed
        elif changed is not None:
            new[key], step = changed
            steps.append(step)
    if reasons:
        raise TurnError(reasons)
    return ClockStep(new, tuple(steps))


def changed_sheet(resolution: Resolution, kind: type[SheetT]) -> SheetT | None:
    """The first sheet a resolution changes, as its ruleset's type; ``None`` when it
    changes none (the engine refused the move)."""
    if not resolution.effects:
        return None
    sheet = resolution.effects[0].sheet
    if not isinstance(sheet, kind):
        raise TypeError(f"expected a {kind.__name__}, got {type(sheet).__name__}")
    return sheet


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

    return find_ruleset(ruleset_id).play()
