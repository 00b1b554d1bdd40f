"""The Table's operations: open, start and finish sessions; resolve, apply or discard; undo.

One place for the lifecycle every roll goes through, whichever screen asked for
it (the Resolver, a Table dialog, a sheet's quick action): :meth:`TableService.resolve`
gives a :class:`PendingResolution`; its :meth:`~PendingResolution.apply` writes the
effects to the running session as one event (committed before anybody is told),
its :meth:`~PendingResolution.discard` keeps only the roll; either way the result
goes into the roll log with its exact P(success), for the luck chart. Every
change is published on the :class:`~carwars_desktop.services.changes.ChangeBus`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import TYPE_CHECKING, Any, Protocol

from carwars_desktop.dice import (
    DiceError,
    DiceSource,
    DiceValueError,
    EnteredDice,
    SeededDice,
    parse_dice_values,
)
from carwars_desktop.procedures import (
    House,
    InputError,
    Odds,
    Procedure,
    Resolution,
    RulesRefusal,
    Step,
)
from carwars_desktop.rules import AnyRuleset, RecordSheet, find_ruleset
from carwars_desktop.rules.play import play_rules
from carwars_desktop.services.changes import (
    ChangeBus,
    Changes,
    PreparedRoll,
    RollNotice,
    RollState,
)
from carwars_desktop.session import Changes as GameChanges
from carwars_desktop.session import (
    Clock,
    EventKind,
    EventPages,
    EventStore,
    Game,
    GameError,
    RollLine,
    RollRecord,
    StaleSessionError,
    StoredEvent,
    ThrownDice,
)
from carwars_desktop.session.house_rules import HouseRules, change_summary, initial_settings
from carwars_desktop.session.store import every_event
from carwars_desktop.session.visibility import Visibility
from carwars_desktop.storage import DatabaseError
from carwars_desktop.storage.errors import WriteFailedError

if TYPE_CHECKING:
    from carwars_desktop.session.history import Luck, SessionHistory
    from carwars_desktop.session.setup import Setup
    from carwars_desktop.storage import Database, LoadedSession, SessionEvents
    from carwars_desktop.storage.first_screen import RunningGame
    from carwars_desktop.storage.leases import Lease, LeaseInfo
    from carwars_desktop.storage.session_records import SessionInfo

CHART_PAGE = 1000

Handler = Callable[[Resolution, Mapping[str, str]], None]
"""Applies a result some other way than its effects (a clock move through the service)."""


class ResolveError(ValueError):
    """Why nothing was resolved (bad dice, a refused input, dice left over).

    ``refused`` is set when the rules refused the inputs (a :class:`RulesRefusal`):
    its message is the refusal's text, as the log and the command line show it.
    """

    def __init__(self, message: str, refused: bool = False) -> None:
        super().__init__(message)
        self.refused = refused


class SessionOpenError(ValueError):
    """A session the rules cannot read (a sheet from a changed engine, say): it stays as
    it is in the database."""


def resolve_dice(procedure: Procedure, inputs: Mapping[str, Any],
                 dice: DiceSource, house: House | None = None) -> Resolution:
    """Resolve ``procedure`` with ``dice`` under the house rules ``house``; typed dice that
    were not needed are refused (the GM probably mistyped), so nothing is resolved."""
    try:
        resolution = procedure.resolve(inputs, dice, house)
    except RulesRefusal as refused:
        raise ResolveError(refused.refusal.text(), refused=True) from None
    except (InputError, DiceError, GameError) as error:
        raise ResolveError(str(error)) from None
    if isinstance(dice, EnteredDice) and dice.unused():
        raise ResolveError(extra_dice_message(dice))
    return resolution


def extra_dice_message(dice: EnteredDice) -> str:
    """Why typed dice left over refuse a resolution, naming each extra die by its place.

    ``'1 typed die was not needed: 1 (die 6 of 6 typed; the roll took 5). Nothing was
    resolved.'``
    """
    unused = dice.unused()
    typed = len(dice.entered)
    took = typed - len(unused)
    were = "die was" if len(unused) == 1 else "dice were"
    first = took + 1
    places = f"die {first}" if first == typed else f"dice {first}–{typed}"
    return (f"{len(unused)} typed {were} not needed: {' '.join(map(str, unused))} "
            f"({places} of {typed} typed; the roll took {took or 'none'}). Nothing was resolved.")


def typed_dice(typed: str, roll: bool = False, sides: Sequence[int] = ()) -> EnteredDice:
    """The dice the GM typed ("5 4"), and with ``roll`` a seeded RNG for the rest.

    ``sides``: the dice the procedure may ask for; when every one has fewer than ten
    faces, a run of digits is one die per digit (``543`` = 5, 4, 3).
    """

    try:
        values = compact_dice(typed) if sides and all(s < 10 for s in sides) \
            else parse_dice_values(typed)
        return EnteredDice(values, SeededDice() if roll else None)
    except DiceError as error:
        raise ResolveError(str(error)) from None


def compact_dice(typed: str) -> list[int]:
    """Single-digit dice typed with or without spaces: ``"54 3"`` → ``[5, 4, 3]``."""


    values: list[int] = []
    for token in (t for t in re.split(r"[\s,;]+", typed.strip()) if t):
        if not token.isdigit():
            raise DiceValueError(f"{token[:12]!r} is not a die value: type the faces, e.g. 543")
        values.extend(int(digit) for digit in token)
    return values


def procedure_sides(procedure: Procedure, inputs: Mapping[str, Any],
                    house: House | None = None) -> tuple[int, ...]:
    """The sides of every die ``procedure`` may ask for with ``inputs`` under the house
    rules ``house`` (empty when the inputs do not bind)."""
    try:
        return tuple(need.sides for need in procedure.dice_needed(inputs, house))
    except (InputError, DiceError, ValueError):
        return ()


def _first_throw(resolution: Resolution) -> dict[str, Any]:
    """The roll's first throw, the one its need and odds are of (``to hit``): its
    purpose and the faces shown (``throw``), for the replay's "what were the odds?"."""
    if not resolution.dice:
        return {}
    purpose = resolution.dice[0].purpose
    faces = []
    for die in resolution.dice:
        if die.purpose != purpose:
            break
        faces.append([die.sides, die.value])
    return {"throw": {"purpose": purpose, "dice": faces}}


@dataclass(frozen=True)
class ResolutionPart:
    """One roll of a combined result (a shot of the fire batch): it gets its own line in
    the roll log, with its own success and exact P(success), when the whole is applied or
    discarded (the luck chart counts each shot; the whole stays one event)."""

    resolution: Resolution
    p_success: str | None
    bindings: Mapping[str, str] = field(default_factory=dict)
    """Its own sheet inputs → vehicles in play (a shot's firer and target)."""


class Discarded:
    """Why a result shown was not applied, as the roll log and the dice history say it
    (``discarded: input changed``)."""

    INPUT_CHANGED = "input changed"
    NEW_ROLL = "a new roll"
    WINDOW_CLOSED = "window closed"
    BY_THE_GM = "discarded by the GM"
    INTO_THE_BATCH = "the shot went into the fire batch"
    BATCH_EMPTIED = "the batch was emptied"


class PendingState(Enum):
    PENDING = "pending"
    APPLYING = "applying"
    APPLIED = "applied"
    DISCARDED = "discarded"


class PendingResolution:
    """A result on screen, not yet applied nor discarded (see the module docstring)."""

    def __init__(self, table: TableService, resolution: Resolution,
                 bindings: Mapping[str, str], odds: Odds | None, ruleset_id: str,
                 seed: int | None, initiator: object,
                 parts: Sequence[ResolutionPart] = (), ends_batch: bool = False,
                 dealers: Mapping[str, Sequence[str]] | None = None) -> None:
        self.table = table
        self.resolution = resolution
        self.parts = tuple(parts)
        """The rolls it combines, each logged on its own line (:class:`ResolutionPart`)."""
        self.ends_batch = ends_batch
        """It is the declared fire batch: applied, its declaration is forgotten with the
        event (:attr:`~carwars_desktop.session.Event.ends_batch`)."""
        self.dealers: dict[str, tuple[str, ...]] = {
            key: tuple(keys) for key, keys in (dealers or {}).items()}
        """Who dealt each vehicle's damage when the bindings do not say it (the fire
        batch's firers: :attr:`~carwars_desktop.session.Event.dealers`)."""
        self.parts_logged = 0
        """How many of :attr:`parts` are in the roll log (a refused write retries the rest)."""
        self.bindings: dict[str, str] = dict(bindings)
        self.odds = odds
        self.ruleset_id = ruleset_id
        self.seed = seed
        self.initiator = initiator
        self.state = PendingState.PENDING
        self.logged = False
        """The result's line is in the roll log (an apply whose log write was refused
        has it False: :meth:`retry_log`)."""
        self.log_id: int | None = None
        """Its row in the roll log, written (as pending) when it was shown."""

    @property
    def pending(self) -> bool:
        return self.state is PendingState.PENDING

    def p_success(self) -> str | None:
        """The exact chance of success, as logged ("5/6"), or None (no odds, no success)."""
        p = self.odds.p_success() if self.odds is not None else None
        return None if p is None else str(p)

    def rolls(self) -> list[dict[str, Any]]:
        """Its rolls with their exact odds as shown (:attr:`Event.rolls`): each part of
        a combined result, else the result itself."""
        if self.parts:
            return [{"procedure": part.resolution.procedure_id,
                     "bindings": dict(part.bindings), "need": None,
                     "p_success": part.p_success, "success": part.resolution.success,
                     **_first_throw(part.resolution)}
                    for part in self.parts]
        return [{"procedure": self.resolution.procedure_id, "bindings": dict(self.bindings),
                 "need": self.odds.need if self.odds is not None else None,
                 "p_success": self.p_success(), "success": self.resolution.success,
                 **_first_throw(self.resolution)}]

    def can_apply(self) -> bool:
        """There are effects, a running session of this ruleset, and a vehicle for each."""
        return (self.pending and bool(self.resolution.effects)
                and self.table.playing(self.ruleset_id) is not None
                and all(e.input_name in self.bindings for e in self.resolution.effects))

    def apply(self, handler: Handler | None = None,
              initiator: object = None) -> GameChanges | None:
        """Write the effects as one event (or hand the result to ``handler``), then log it.

        Raises what the game refused (:class:`GameError`, a handler's ``ValueError``);
        the result then stays pending. While it is being applied it is no longer
        pending: a redraw the event causes cannot discard it.
        """
        if not self.pending:
            raise GameError(f"this result was {self.state.value} already")
        who = initiator if initiator is not None else self.initiator
        # Everybody is told once the result is applied and logged (publish after the
        # commit): a view that redraws, or fails, can no longer make it read as pending.
        with self.table.bus.after():
            self.state = PendingState.APPLYING
            try:
                if handler is not None:
                    handler(self.resolution, self.bindings)
                    changes = None
                else:
                    changes = self.table.apply_resolution(self.resolution, self.bindings, who,
                                                          self.parts, self.ends_batch,
                                                          roll=self.table.roll_record(self),
                                                          odds=self.rolls(),
                                                          dealers=self.dealers)
            except BaseException:
                self.state = PendingState.PENDING
                raise
            self.state = PendingState.APPLIED
            stored = changes.event if changes is not None else None
            if stored is not None and stored.roll_kept:
                # Settled in the roll log by the event's own transaction (issue 29 §3), or
                # queued with the event to be (the club server away).
                if stored.roll_log_id is not None:
                    self.log_id = stored.roll_log_id
                self.parts_logged = len(self.parts)
                self.logged = True
                self.table.logged(self, applied=True, initiator=who)
            else:  # (no roll log with the event: a handler, a store in memory)
                self.logged = False
                self.table.log(self, applied=True, initiator=who)
                self.logged = True
        return changes

    def discard(self, initiator: object = None, reason: str = "") -> bool:
        """Keep only the roll in the log, saying why (``reason``, one of
        :class:`Discarded`'s); False when it was not pending any more.

        A refused write (the storage error) leaves the result pending.
        """
        if not self.pending:
            return False
        with self.table.bus.after():
            self.state = PendingState.DISCARDED
            try:
                self.table.log(self, applied=False,
                               initiator=initiator if initiator is not None else self.initiator,
                               reason=reason)
            except BaseException:
                self.state = PendingState.PENDING
                raise
            self.logged = True
        return True

    def retry_log(self, initiator: object = None) -> bool:
        """Write the roll-log line an applied result is missing (its write was refused);
        True once it is in the log."""
        if self.state is PendingState.APPLIED and not self.logged:
            self.table.log(self, applied=True,
                           initiator=initiator if initiator is not None else self.initiator)
            self.logged = True
        return self.logged


class SessionStore(EventStore, EventPages, Protocol):
    """Where a game's events go and are read back (the database's, or a wrapper of it)."""


StoreWrapper = Callable[["SessionEvents"], SessionStore]
"""Wraps a running session's events (a club connection queues them while it is down)."""


class LeaseChoice(Enum):
    """What the GM chose for a running session another copy of the app holds."""

    FOLLOW = "follow read-only"
    TAKE_OVER = "take over"
    CANCEL = "cancel"


AskLease = Callable[[str, "LeaseInfo"], LeaseChoice]
"""Asks the GM about a session (its name) another copy holds (its lease)."""


@dataclass(frozen=True)
class LeaseTerms:
    """How a session is to be opened, once :meth:`TableService.negotiate_lease` settled it:
    under ``lease`` (this copy's hold on it), or ``follow``-ing it read-only."""

    lease: Lease | None
    follow: bool


@dataclass(frozen=True)
class OpenedSession:
    """A session just opened: its game and what the Table shows of it.

    ``store`` is where the game writes and the log reads (``events`` or its wrapper).
    ``adopted``: the game is the one shown from the file at start-up, kept as it was
    (nothing written since it was read), now on the database.
    """

    session_id: int
    game: Game
    ruleset: AnyRuleset
    loaded: LoadedSession
    events: SessionEvents
    read_only: bool
    store: SessionStore
    adopted: bool = False

    @property
    def title(self) -> str:
        return self.loaded.info.title


@dataclass(frozen=True)
class Adoption:
    """A session :meth:`TableService.adopt` opened, and the terms it opened under."""

    opened: OpenedSession
    terms: LeaseTerms


@dataclass(frozen=True)
class ReadSession:
    """A session read for opening (:meth:`TableService.read`), not open yet: its game is
    built on the session's own events; ``follow``: it opens read-only."""

    session_id: int
    loaded: LoadedSession
    ruleset: AnyRuleset
    events: SessionEvents
    game: Game
    follow: bool


@dataclass(frozen=True)
class ShownGame:
    """A running session's game shown before the database was open (start-up read it
    from the file: ``storage/first_screen.py``), and the session as it was read."""

    info: SessionInfo
    game: Game

    def same_as(self, info: SessionInfo) -> bool:
        """``info`` is this session at the version it was read at: nothing written since
        (its id is not one a new session reused: the same creation time)."""
        return (info.id, info.version, info.created_at) == (
            self.info.id, self.info.version, self.info.created_at)


def _built(ruleset: AnyRuleset, loaded: LoadedSession, events: EventStore) -> Game:
    """The game of a session's stored vehicles, sheets, clock and settings, on ``events``
    (``session.setup`` is imported when a game is first built: not at first paint)."""
    from carwars_desktop.session.setup import build_game

    return build_game(ruleset, loaded.vehicles, loaded.sheets, loaded.clock, events,
                      loaded.settings)


def _with_last_clock(loaded: LoadedSession, ruleset: AnyRuleset,
                     events: SessionEvents) -> LoadedSession:
    """``loaded`` (whose clock or settings cannot be read) with the clock the log last
    shows when its own cannot be read: the one after the newest event that moved it, or
    the first turn's when none did; :attr:`LoadedSession.unreadable` says which."""
    if loaded.clock:
        return replace(loaded, unreadable=f"{loaded.unreadable}; the session opens read-only")
    clock: Mapping[str, Any] | None = None
    shown = "the first turn's: no event moved it"
    end = events.count(include_undone=True)
    while clock is None and end > 0:
        start = max(0, end - CHART_PAGE)
        for stored in reversed(events.page(start, end - start)):
            if not stored.undone and stored.event.clock_after is not None:
                clock = stored.event.clock_after
                shown = f"the one after event {stored.seq}"
                break
        end = start
    if clock is None:
        clock = ruleset.start_clock([vehicle.name for vehicle in loaded.vehicles]).to_json()
    return replace(loaded, clock=clock, unreadable=(
        f"{loaded.unreadable}; the session opens read-only, the clock shown is {shown}"))


def all_events(events: SessionEvents) -> Iterator[StoredEvent]:
    """Every event of a stored session, read a chart's page at a time."""
    return every_event(events, CHART_PAGE)


class TableService:
    """The open game (or none) and every operation on it; see the module docstring."""

    def __init__(self, bus: ChangeBus | None = None, database: Database | None = None) -> None:
        self.bus = bus if bus is not None else ChangeBus()
        self.database = database
        self.game: Game | None = None
        self.session_id: int | None = None
        self.read_only = False
        self.on_stale: Callable[[StaleSessionError], object] | None = None
        """Told when another copy of the app wrote first or took the session over (nothing
        was written; the Table reloads); the error is raised after it."""
        self.title = ""
        """The open session's name (and scenario), for the players' display."""
        self.roll: RollNotice | None = None
        """The last roll shown, applied or discarded (a display opened late shows it)."""
        self.shown: PendingResolution | None = None
        """The roll on screen: one slot for the open session, whichever window showed it
        (its :attr:`~PendingResolution.initiator`). Showing a new result discards the one
        in it (:attr:`Discarded.NEW_ROLL`); its window discards it when an input changes
        or the window closes (:meth:`discard_shown`); applying or discarding empties it."""

    # --- the open game ---------------------------------------------------------------------
    def playing(self, ruleset_id: str) -> Game | None:
        """The open game if it is of ``ruleset_id`` and can be changed."""
        if self.game is None or self.read_only or self.game.ruleset.id != ruleset_id:
            return None
        return self.game

    def running(self) -> Game:
        if self.game is None or self.read_only:
            raise GameError("no running session to change")
        return self.game

    def _database(self) -> Database:
        if self.database is None:
            raise RuntimeError("the database is not open yet")
        return self.database

    def show(self, game: Game, session_id: int, read_only: bool = False,
             initiator: object = None) -> None:
        """Make ``game`` the open one (already built) and tell everybody."""
        self.game = game
        self.session_id = session_id
        self.read_only = read_only
        self.roll = None
        self.shown = None
        self.bus.publish(Changes(initiator, session_id=session_id, session=True))

    def close(self, initiator: object = None) -> None:
        session_id = self.session_id
        self.game = None
        self.session_id = None
        self.read_only = False
        self.title = ""
        self.roll = None
        self.shown = None
        self.bus.publish(Changes(initiator, session_id=session_id, session=True))

    # --- sessions --------------------------------------------------------------------------
    def start(self, ruleset_id: str, name: str, scenario: str, setup: Setup,
              initiator: object = None, house_rules: HouseRules | None = None) -> int:
        """Create a session (one transaction) played under ``house_rules`` (a copy; the
        digest's defaults when not given); :meth:`open` it next."""
        from carwars_desktop.storage import NewVehicle

        ruleset = find_ruleset(ruleset_id)
        rules = house_rules or HouseRules()
        rules = HouseRules(rules.profile, rules.checked(ruleset))
        session_id = self._database().game_sessions.create(
            ruleset_id, name, scenario,
            [NewVehicle(v, setup.sheets[v.key].to_json()) for v in setup.vehicles],
            setup.clock.to_json(), initial_settings(ruleset, rules))
        self.bus.publish(Changes(initiator, session_id=session_id, sessions=True))
        return session_id

    def read(self, session_id: int, lease: Lease | None = None,
             follow: bool = False) -> ReadSession:
        """The reading half of :meth:`open`: the session's vehicles, current sheets and
        clock (never its events), and its game built on them. Changes nothing and tells
        nobody, so it is safe on a worker thread. Raises :class:`SessionOpenError` when
        the rules cannot read it."""
        sessions = self._database().game_sessions
        try:
            loaded = sessions.load(session_id, readable=True)
            ruleset = find_ruleset(loaded.info.ruleset_id)
            follow = follow or bool(loaded.unreadable)  # read-only: nothing is written
            events = sessions.events(session_id, None if follow else lease,
                                     loaded.info.version,
                                     "the session's stored state cannot be read"
                                     if loaded.unreadable else "")
            if loaded.unreadable:
                loaded = _with_last_clock(loaded, ruleset, events)
            game = _built(ruleset, loaded, events)
        except (LookupError, ValueError, TypeError) as error:
            raise SessionOpenError(str(error)) from error
        return ReadSession(session_id, loaded, ruleset, events, game, follow)

    def open(self, session_id: int, initiator: object = None,
             wrap: StoreWrapper | None = None, lease: Lease | None = None,
             follow: bool = False, shown: ShownGame | None = None,
             read: ReadSession | None = None) -> OpenedSession:
        """Resume a running session, or open a finished one read-only.

        Reads its vehicles, current sheets and clock, never its events, so a long
        evening opens at once (``read``: what :meth:`read` gave for the same session,
        lease and ``follow``, on a worker thread). ``wrap`` wraps a running session's
        events (the club link's queue). Its events append only under ``lease`` (this
        copy's hold on it, compare-and-append); ``follow`` opens a running session
        read-only (another copy plays it); so does one whose stored clock or settings
        cannot be read (:attr:`LoadedSession.unreadable` says why and which clock is
        shown: the one after the last event that moved it). ``shown``: this session's
        game already on screen (start-up); it is kept, writing to the database from now
        on, when this resumes it and nothing was written since it was read; otherwise
        the game is built again. Raises :class:`SessionOpenError` and changes nothing
        when the rules cannot read it.
        """
        if read is None or read.session_id != session_id:
            read = self.read(session_id, lease, follow)
        loaded, ruleset, events, follow = read.loaded, read.ruleset, read.events, read.follow
        store: SessionStore = (wrap(events) if wrap is not None and loaded.info.running
                               and not follow else events)
        adopted = (shown is not None and shown.same_as(loaded.info) and loaded.info.running
                   and not follow and shown.game.ruleset.id == ruleset.id)
        if adopted:
            assert shown is not None
            game = shown.game  # the same sheets, clock and settings: the same version
            game.use_store(store)
        else:
            game = read.game
            if store is not events:
                game.use_store(store)
        read_only = not loaded.info.running or follow
        if not read_only:
            self.settle_left_pending(session_id)
        opened = OpenedSession(session_id, game, ruleset, loaded, events, read_only, store,
                               adopted)
        self.title = opened.title
        self.show(game, session_id, read_only, initiator)
        return opened

    @staticmethod
    def show_from_file(running: RunningGame) -> ShownGame:
        """The game of the running session start-up read from the file before the
        database was open (``storage/first_screen.py``), to show at once; it reads its
        history from the file and writes nothing: :meth:`open` takes it over. Raises
        :class:`SessionOpenError` when the rules cannot read it (the normal opening
        then says why)."""
        loaded = running.loaded
        try:
            ruleset = find_ruleset(loaded.info.ruleset_id)
            game = _built(ruleset, loaded, running.events)
        except (LookupError, ValueError, TypeError) as error:
            raise SessionOpenError(str(error)) from error
        return ShownGame(loaded.info, game)

    def unreadable(self, session_id: int) -> str:
        """Why part of the session's stored state cannot be read (it then opens
        read-only); empty when all of it reads."""
        return self._database().game_sessions.load(session_id, readable=True).unreadable

    def last_running(self) -> int | None:
        last = self._database().game_sessions.last_running()
        return None if last is None else last.id

    def finish(self, initiator: object = None, lease: Lease | None = None) -> int | None:
        """End the running session (it can then be opened read-only); its id, or None.

        Raises :class:`StaleSessionError` when another copy took it over meanwhile
        (``lease`` is no longer this copy's), and the storage error of a refused write.
        """
        if self.database is None or self.session_id is None or self.read_only:
            return None
        session_id = self.session_id
        self.database.game_sessions.finish(session_id, lease)
        self.bus.publish(Changes(initiator, session_id=session_id, sessions=True,
                                 finished=True))
        return session_id

    # --- one writer at a time (issue 15) -------------------------------------------------
    def session_info(self, session_id: int) -> SessionInfo:
        return self._database().game_sessions.info(session_id)

    def negotiate_lease(self, info: SessionInfo, held: Lease | None, follow: bool,
                        ask: AskLease) -> LeaseTerms | None:
        """How to open the session ``info``: a finished one, or one to ``follow``, as it
        is; a running one under ``held`` (this copy's lease on it already) or a lease
        taken now. One whose stored clock or settings cannot be read is followed
        read-only (not taken). While another copy holds it, ``ask`` chooses to follow it
        or take it over; None: the GM cancelled, nothing was taken.

        Raises:
            WriteFailedError: the lease could not be written (a read-only database).
        """
        from carwars_desktop.storage.game_sessions import SessionHeldError

        lease = held if held is not None and held.session_id == info.id else None
        follow = follow or (info.running and bool(self.unreadable(info.id)))
        if info.running and not follow and lease is None:
            try:
                lease = self.acquire_lease(info.id)
            except SessionHeldError as taken:
                choice = ask(info.name, taken.lease)
                if choice is LeaseChoice.CANCEL:
                    return None
                follow = choice is LeaseChoice.FOLLOW
                if not follow:
                    lease = self.acquire_lease(info.id, take_over=True)
        return LeaseTerms(None if follow else lease, follow)

    def adopt(self, session_id: int, held: Lease | None, follow: bool, ask: AskLease, *,
              check: Callable[[SessionInfo], None], let_go: Callable[[Lease | None], None],
              read_on: Callable[[Callable[[], ReadSession]], ReadSession | None] | None,
              initiator: object = None, wrap: StoreWrapper | None = None,
              shown: ShownGame | None = None) -> Adoption | None:
        """Open the session ``session_id`` for this copy: ``check`` refuses one the app
        cannot show (raising :class:`SessionOpenError`, before any lease is taken), the
        lease is negotiated (:meth:`negotiate_lease`, from ``held``; ``ask`` chooses
        while another copy holds it), ``let_go`` is told the lease to hold from now on
        when it is not ``held``, then the session is read (through ``read_on``, on a
        worker say; None: here) and opened (:meth:`open`, adopting the game ``shown``
        when nothing was written since). None: the GM cancelled, nothing was taken.

        Raises:
            SessionOpenError: the rules (or ``check``) cannot read it.
            WriteFailedError: the lease could not be written (a read-only database).
        """
        info = self.session_info(session_id)
        check(info)
        terms = self.negotiate_lease(info, held, follow, ask)
        if terms is None:
            return None
        if terms.lease is not held:
            let_go(terms.lease)
        lease, follow = terms.lease, terms.follow
        read = None if read_on is None else read_on(
            lambda: self.read(session_id, lease, follow))
        opened = self.open(session_id, initiator=initiator, wrap=wrap, lease=lease,
                           follow=follow, shown=shown, read=read)
        return Adoption(opened, terms)

    def acquire_lease(self, session_id: int, take_over: bool = False) -> Lease:
        """Take the session for this copy; raises ``SessionHeldError`` while another holds it."""
        return self._database().game_sessions.acquire(session_id, take_over=take_over)

    def renew_lease(self, lease: Lease) -> bool:
        """Tell the other copies this one still plays; False once taken over."""
        return self._database().game_sessions.renew(lease)

    def release_lease(self, lease: Lease) -> None:
        self._database().game_sessions.release(lease)

    def session_version(self, session_id: int) -> int:
        """The session's write counter (a followed session reloads when it moves)."""
        return self._database().game_sessions.version(session_id)

    def history(self, opened: OpenedSession) -> tuple[SessionHistory, Luck]:
        """The charts of a session: every sheet's history and the luck of the rolls."""
        from carwars_desktop.session.history import charts_from_json

        stored = self.stored_charts(opened)
        if stored is not None:
            try:
                return charts_from_json(stored)
            except (KeyError, TypeError, ValueError):  # kept by another version: again
                pass
        return charts_from_json(self.aggregate_charts(opened))

    def stored_charts(self, opened: OpenedSession) -> dict[str, Any] | None:
        """The aggregates kept with a finished session (``None`` until first made)."""
        stored: dict[str, Any] | None = self._database().game_sessions.charts(opened.session_id)
        return stored

    def charts_kept(self, opened: OpenedSession) -> bool:
        """The session's charts are kept with its events (folded at once, not replayed)."""
        return self._database().game_sessions.charts_kept(opened.session_id)

    def aggregate_charts(self, opened: OpenedSession,
                         progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
        """The aggregates, folded from the parts kept with the events (revision 0011), or
        the events replayed once when some have none, kept with the session (safe on a
        worker thread: it only reads the events and writes the aggregates).

        The luck counts the rolls of the events in force (an undone event's no longer):
        kept with their parts, or read from the events, those kept before events kept
        their rolls given the odds the roll log kept for them
        (:func:`~carwars_desktop.services.report.with_logged_odds`)."""
        from carwars_desktop.services.report import counting_rolls, replayed_luck
        from carwars_desktop.session.history import (
            Roll,
            charts_to_json,
            replay_history,
            rolls_luck,
        )

        sessions = self._database().game_sessions
        rules = play_rules(opened.ruleset.id)
        history = sessions.kept_history(opened.session_id, opened.ruleset, rules,
                                        opened.loaded.vehicles, opened.loaded.initial_sheets)
        luck_ = None if history is None else sessions.kept_luck(opened.session_id)
        if history is None:
            total = opened.events.count()
            rolls: list[Roll] = []

            def counted() -> Iterator[StoredEvent]:
                # The luck's rolls counted in the same reading of the events.
                events = counting_rolls(all_events(opened.events),
                                        sessions.applied_rolls(opened.session_id), rolls)
                for number, stored in enumerate(events, 1):
                    if progress is not None and number % CHART_PAGE == 0:
                        progress(number, total)
                    yield stored

            history = replay_history(opened.ruleset, rules, opened.loaded.vehicles,
                                     opened.loaded.initial_sheets, counted())
            luck_ = rolls_luck(rolls)
        elif luck_ is None:  # (parts kept before their rolls were: the events read)
            luck_ = replayed_luck(all_events(opened.events),
                                  sessions.applied_rolls(opened.session_id))
        aggregates = charts_to_json(history, luck_)
        # Kept only to spare the next fold: a database that refuses the write now (locked
        # a moment by a write of the GUI thread, read-only) still gets its charts, made
        # again next time.
        with suppress(WriteFailedError):
            sessions.store_charts(opened.session_id, aggregates)
        return aggregates

    # --- events ----------------------------------------------------------------------------
    def _commit(self, operation: Callable[[], GameChanges],
                initiator: object = None) -> GameChanges:
        """Run a game operation and announce it; a stale write is told, then raised."""
        try:
            changes = operation()
        except StaleSessionError as error:
            if self.on_stale is not None:
                self.on_stale(error)
            raise
        return self.announce(changes, initiator)

    def announce(self, changes: GameChanges, initiator: object = None) -> GameChanges:
        """Tell everybody about a change the game already committed."""
        self.bus.publish(Changes(initiator, game=changes, session_id=self.session_id))
        return changes

    def apply_resolution(self, resolution: Resolution, bindings: Mapping[str, str],
                         initiator: object = None,
                         parts: Sequence[ResolutionPart] = (),
                         ends_batch: bool = False,
                         roll: RollRecord | None = None,
                         odds: Sequence[Mapping[str, Any]] = (),
                         dealers: Mapping[str, Sequence[str]] | None = None) -> GameChanges:
        """Apply a result as one event; ``roll``: its roll-log record, settled in the
        event's transaction by a store that keeps the roll log; ``odds``: its rolls with
        their exact odds (:meth:`PendingResolution.rolls`), kept with the event;
        ``dealers``: who dealt each vehicle's damage (:attr:`PendingResolution.dealers`)."""
        if self.game is None or self.read_only:
            raise GameError("no running session to apply the result to")
        game = self.game
        rolls = [(part.resolution, part.bindings) for part in parts]
        return self._commit(lambda: game.apply_resolution(resolution, bindings, rolls,
                                                          ends_batch, roll=roll, rolls=odds,
                                                          dealers=dealers),
                             initiator)

    def mark(self, key: str, sheet: RecordSheet, summary: str, steps: Sequence[str] = (),
             initiator: object = None) -> GameChanges:
        """A hand mark on one sheet, committed, then announced."""
        game = self.running()
        return self._commit(lambda: game.mark(key, sheet, summary, steps), initiator)

    def set_clock(self, clock: Clock, summary: str,
                  sheets: Mapping[str, RecordSheet] | None = None,
                  steps: Sequence[str] = (), initiator: object = None) -> GameChanges:
        """The clock moves (with any sheets the move changes), committed, then announced."""
        game = self.running()
        return self._commit(lambda: game.set_clock(clock, summary, sheets, steps),
                            initiator)

    def note(self, summary: str, steps: Sequence[str] = (),
             initiator: object = None) -> GameChanges:
        """A line in the log that changes no sheet."""
        game = self.running()
        return self._commit(lambda: game.record(EventKind.NOTE, summary, {}, steps),
                            initiator)

    def change_settings(self, settings: Mapping[str, Any], summary: str,
                        steps: Sequence[str] = (), initiator: object = None) -> GameChanges:
        """Replace the session's settings: one event, undone like any other."""
        return self.announce(self.running().change_settings(settings, summary, steps),
                             initiator)

    def set_visibility(self, visibility: Visibility,
                       initiator: object = None) -> GameChanges | None:
        """What the players see (a settings event); None when nothing changes."""
        game = self.running()
        before = Visibility.of(game.settings)
        lines = visibility.changes_from(before, {v.key: v.name for v in game.vehicles})
        if not lines:
            return None
        return self.change_settings(visibility.into(game.settings),
                                    "Players' display: " + "; ".join(lines),
                                    initiator=initiator)

    def house_rules(self) -> HouseRules:
        """The open session's house rules (the digest's defaults when none is open)."""
        return HouseRules() if self.game is None else HouseRules.of(self.game.settings)

    def house_for(self, ruleset_id: str) -> dict[str, Any]:
        """The house rules a procedure of ``ruleset_id`` takes as context: the open
        session's when it is of that ruleset, else none (the digest's defaults)."""
        if self.game is None or self.game.ruleset.id != ruleset_id:
            return {}
        return self.game.house

    def change_house_rules(self, rules: HouseRules,
                           initiator: object = None) -> GameChanges | None:
        """Play on under ``rules`` (checked; a settings event undone like any other,
        logged as ``house rules: MCW-D13 off``); None when nothing changes."""
        game = self.running()
        before = HouseRules.of(game.settings)
        values = rules.checked(game.ruleset)
        after = HouseRules(rules.profile, values)
        if after.profile == before.profile and values == before.checked(game.ruleset):
            return None
        return self.change_settings(after.into(game.settings),
                                    change_summary(game.ruleset, before, after),
                                    initiator=initiator)

    def undo(self, initiator: object = None) -> GameChanges:
        """Pop the last event (its sheets and clock as they were before it)."""
        return self._commit(self.running().undo, initiator)

    def redo(self, initiator: object = None) -> GameChanges:
        return self._commit(self.running().redo, initiator)

    # --- resolving -------------------------------------------------------------------------
    def table_problems(self, procedure: Procedure, inputs: Mapping[str, Any],
                       bindings: Mapping[str, str] | None) -> tuple[str, ...]:
        """Why the rules refuse the roll at this moment of the open session's play (empty:
        allowed, or no session, or no vehicle in play bound): asked before any die, so a
        form shows the refusal instead of the dice (see :meth:`resolve`)."""
        if self.game is None or not bindings:
            return ()
        return self.game.table_problems(
            procedure.id, bindings, {k: v for k, v in inputs.items() if k not in bindings})

    def resolve(self, procedure: Procedure, inputs: Mapping[str, Any], dice: DiceSource, *,
                bindings: Mapping[str, str] | None = None, odds: Odds | None = None,
                ruleset_id: str | None = None, house: House | None = None,
                initiator: object = None) -> PendingResolution:
        """Resolve with ``dice``: a result waiting for :meth:`~PendingResolution.apply` or
        :meth:`~PendingResolution.discard`.

        ``bindings`` maps each sheet input to the vehicle in play it is; ``odds`` are the
        exact odds shown before the dice (computed when not given) whose P(success) goes
        into the log; ``ruleset_id`` the ruleset the log files it under (the game's, else
        the procedure's); ``house`` the house rules it is resolved under (the open
        session's when not given). Raises :class:`ResolveError` and resolves nothing when
        the dice or the inputs do not fit.
        """
        if house is None:
            house = self.house_for(procedure.ruleset)
        # What the moment of play refuses (Battlecars §2.9 return fire, AUTOpower §2.3: an
        # attack only in the car's own Combat phase), whatever path.
        refused = self.table_problems(procedure, inputs, bindings)
        if refused:
            raise ResolveError("; ".join(refused), refused=True)
        resolution = resolve_dice(procedure, inputs, dice, house)
        if odds is None:
            try:
                odds = procedure.odds(inputs, house)
            except (InputError, DiceError, ValueError):
                odds = None
        seeded = dice.fallback if isinstance(dice, EnteredDice) else None
        if ruleset_id is None:
            ruleset_id = self.game.ruleset.id if self.game is not None else procedure.ruleset
        # The seed is shown and kept only when a die was rolled in the app.
        rolled = seeded is not None and any(not d.entered for d in resolution.dice)
        # Bound by an input's old name too (``car`` for ``vehicle``): the effects name the
        # current one, and a binding under the old name left the sheet unchanged.
        bound = procedure.canonical_values(bindings or {})
        return self.pending(resolution, bound, odds, ruleset_id,
                            seeded.seed if rolled and seeded is not None else None, initiator)

    def pending(self, resolution: Resolution, bindings: Mapping[str, str], odds: Odds | None,
                ruleset_id: str | None = None, seed: int | None = None,
                initiator: object = None,
                parts: Sequence[ResolutionPart] = (),
                ends_batch: bool = False,
                dealers: Mapping[str, Sequence[str]] | None = None) -> PendingResolution:
        """A resolution made here (or several combined: the fire batch, whose ``parts`` are
        its shots, which ``ends_batch`` and names the ``dealers`` of each target's damage)
        as the result on screen, waiting for Apply or Discard; everybody is told it is
        shown."""
        if ruleset_id is None:
            ruleset_id = self.game.ruleset.id if self.game is not None else "generic"
        resolution = self._with_illegal_designs(resolution, bindings, parts, ruleset_id)
        with self.bus.after():
            # One roll on screen: the one it replaces was not applied (a refused write
            # keeps it there, and nothing new is shown).
            self.discard_shown(Discarded.NEW_ROLL)
            pending = PendingResolution(self, resolution, bindings, odds, ruleset_id, seed,
                                        initiator, parts, ends_batch, dealers)
            self._log_shown(pending)
            self.shown = pending
            self.roll = RollNotice(RollState.SHOWN, pending)
            self.bus.publish(Changes(initiator, session_id=self.session_id, roll=self.roll))
        return pending

    def shown_by(self, owner: object) -> PendingResolution | None:
        """The result on screen if ``owner`` (the window that resolved it) showed it and it
        is neither applied nor discarded yet; else None."""
        shown = self.shown
        if shown is None or not shown.pending or shown.initiator is not owner:
            return None
        return shown

    def discard_shown(self, reason: str, owner: object = None,
                      initiator: object = None) -> bool:
        """Discard the result on screen (only ``owner``'s, when given), saying why
        (``reason``, one of :class:`Discarded`'s): logged once and published once. False
        when there was none to discard. A refused write raises the storage error and
        leaves it on screen, pending."""
        shown = self.shown
        if shown is None or not shown.pending:
            return False
        if owner is not None and shown.initiator is not owner:
            return False
        return shown.discard(initiator=initiator, reason=reason)

    def closed(self, owner: object, reason: str = Discarded.WINDOW_CLOSED) -> bool:
        """``owner``'s window closed without applying: its result on screen is discarded
        and the roll it prepared is no longer in progress (True: a result was discarded).
        A refused write raises the storage error (the result stays pending)."""
        try:
            return self.discard_shown(reason, owner=owner, initiator=owner)
        finally:
            self.prepared_gone(owner)

    def _with_illegal_designs(self, resolution: Resolution, bindings: Mapping[str, str],
                              parts: Sequence[ResolutionPart],
                              ruleset_id: str) -> Resolution:
        """``resolution`` with a first step for each vehicle in it (firer, target, each
        shot's of a batch) whose design is illegal under the session's house rules
        (:meth:`Game.design_problems`): it plays at full strength, and the shot says so
        (#28 §2)."""
        game = self.game
        if game is None or game.ruleset.id != ruleset_id:
            return resolution
        keys: list[str] = []
        for mapping in (bindings, *(part.bindings for part in parts)):
            keys += [k for k in mapping.values() if k not in keys]
        known = {v.key for v in game.vehicles}
        steps = [Step(line, problem.rule)
                 for key in keys if key in known
                 for line, problem in zip(game.illegal_lines(key), game.design_problems(key),
                                          strict=True)]
        if not steps:
            return resolution
        return replace(resolution, steps=(*steps, *resolution.steps))

    def preparing(self, procedure_id: str, bindings: Mapping[str, str], odds: Odds | None,
                  initiator: object = None) -> None:
        """The GM fills ``procedure_id``'s form (``initiator``, its window): everybody is
        told its need and exact odds before any die is typed (the players' display shows
        them unless the odds are hidden). A result on screen is not replaced."""
        if self.roll is not None and self.roll.state is RollState.SHOWN and \
                self.roll.pending is not None and self.roll.pending.pending:
            return
        self.roll = RollNotice(RollState.PREPARING, None,
                               PreparedRoll(procedure_id, dict(bindings), odds, initiator))
        self.bus.publish(Changes(initiator, session_id=self.session_id, roll=self.roll))

    def prepared_gone(self, initiator: object = None) -> None:
        """The form ``initiator`` prepared is closed (or cannot be resolved): the roll it
        announced is no longer in progress."""
        roll = self.roll
        if roll is None or roll.state is not RollState.PREPARING or roll.prepared is None \
                or roll.prepared.owner is not initiator:
            return
        self.roll = RollNotice(RollState.DISCARDED, None, roll.prepared)
        self.bus.publish(Changes(initiator, session_id=self.session_id, roll=self.roll))

    def roll_record(self, pending: PendingResolution) -> RollRecord | None:
        """What the roll log keeps of ``pending`` when it is applied or discarded: its line
        shown (or, when that write was refused, a new one with its dice) and the lines of
        its parts not logged yet; None without a database."""
        if self.database is None:
            return None
        resolution = pending.resolution
        return RollRecord(
            RollLine(pending.ruleset_id, resolution.procedure_id, _log_body(resolution),
                     resolution.outcome, resolution.success, pending.p_success()),
            pending.log_id,
            tuple(RollLine(pending.ruleset_id, part.resolution.procedure_id,
                           _log_body(part.resolution), part.resolution.outcome,
                           part.resolution.success, part.p_success)
                  for part in pending.parts[pending.parts_logged:]),
            () if pending.log_id is not None else _thrown(pending))

    def log(self, pending: PendingResolution, applied: bool, initiator: object = None,
            reason: str = "") -> None:
        """Keep a result in the roll log (with its dice, steps and exact P(success)), each of
        its parts on a line of its own, in one transaction, and tell everybody the roll was
        applied or discarded (``reason``: why it was discarded)."""
        record = self.roll_record(pending)
        if record is not None:
            assert self.database is not None
            # (kept: a retry after a refused write settles the same line, no second one)
            pending.log_id = self.database.game_sessions.settle_roll(
                self.session_id, record, applied, "" if applied else reason)
            pending.parts_logged = len(pending.parts)
        self.logged(pending, applied, initiator)

    def logged(self, pending: PendingResolution, applied: bool,
               initiator: object = None) -> None:
        """Tell everybody ``pending`` was applied or discarded (and logged, with a
        database)."""
        notice = RollNotice(RollState.APPLIED if applied else RollState.DISCARDED, pending)
        if self.shown is pending:
            self.shown = None
        self.roll = notice
        self.bus.publish(Changes(initiator, session_id=self.session_id,
                                 resolution_logged=self.database is not None, roll=notice))

    def _log_shown(self, pending: PendingResolution) -> None:
        """Nothing shown is lost: the result goes into the roll log as pending (a kill before
        Apply leaves it there, read as discarded at the next start), and its dice into the
        dice history, marked with their procedure, in one transaction."""
        if self.database is None:
            return

        resolution = pending.resolution
        try:
            pending.log_id = self.database.game_sessions.log_resolution(
                self.session_id, pending.ruleset_id, resolution.procedure_id,
                _log_body(resolution), resolution.outcome, resolution.success,
                pending.p_success(), applied=False, pending=True, dice=_thrown(pending))
        except DatabaseError:
            # A refused write (locked, gone): the result is still shown, and Apply or Discard
            # writes its whole line and its dice (with the banner and Retry when that is
            # refused too).
            pending.log_id = None

    def settle_left_pending(self, session_id: int | None) -> int:
        """Results a previous run showed and never applied (the app was killed): discarded."""
        if self.database is None:
            return 0
        return self.database.game_sessions.settle_pending(session_id)


def _thrown(pending: PendingResolution) -> tuple[ThrownDice, ...]:
    """The dice of ``pending`` as the dice history keeps them, marked with their procedure.

    A combined result (the fire batch) gives each of its rolls its own line: its dice
    summed into one "11d6" would be a throw nobody made."""
    rolls = [part.resolution for part in pending.parts] or [pending.resolution]
    thrown = []
    for roll in rolls:
        if not roll.dice:
            continue
        entered = all(d.entered for d in roll.dice)
        thrown.append(ThrownDice(pending.ruleset_id,
                                 f"{dice_expression(roll)} · {roll.procedure_id}",
                                 tuple(d.value for d in roll.dice),
                                 tuple(d.sides for d in roll.dice), entered, roll.success,
                                 None if entered else pending.seed))
    return tuple(thrown)


def _log_body(resolution: Resolution) -> dict[str, Any]:
    return {"dice": [d.to_json() for d in resolution.dice],
            "steps": [s.to_json() for s in resolution.steps]}


def dice_expression(resolution: Resolution) -> str:
    """The dice a resolution threw, grouped by kind in order: ``2d6+1d6``."""
    counts: dict[int, int] = {}
    for die in resolution.dice:
        counts[die.sides] = counts.get(die.sides, 0) + 1
    return "+".join(f"{count}d{sides}" for sides, count in counts.items())
