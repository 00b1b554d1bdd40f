"""What an operation changed, and the one bus that tells every view about it.

Every operation of the services publishes one :class:`Changes` (Anki's
``OpChanges``): the designs added, changed or removed (by id), the sheets and
clock of the game in play, whether a session was opened, closed or the list of
sessions changed, and who asked for it (the *initiator*, an opaque object a view
compares with itself to skip its own echoes). Views subscribe and redraw only
what a :class:`Changes` names. Pure Python: a Qt adapter re-emits it as a signal.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from carwars_desktop.session import Changes as GameChanges

if TYPE_CHECKING:
    from carwars_desktop.procedures import Odds
    from carwars_desktop.services.table import PendingResolution

_log = logging.getLogger(__name__)


def _ids(values: Iterable[int]) -> frozenset[int]:
    return frozenset(values)


@dataclass(frozen=True)
class DesignChanges:
    """The library designs an operation added, changed or removed (from the lists shown)."""

    added: frozenset[int] = frozenset()
    changed: frozenset[int] = frozenset()
    removed: frozenset[int] = frozenset()

    @classmethod
    def of(cls, added: Iterable[int] = (), changed: Iterable[int] = (),
           removed: Iterable[int] = ()) -> DesignChanges:
        return cls(_ids(added), _ids(changed), _ids(removed))

    def __bool__(self) -> bool:
        return bool(self.added or self.changed or self.removed)

    def __or__(self, other: DesignChanges) -> DesignChanges:
        return DesignChanges(self.added | other.added, self.changed | other.changed,
                             self.removed | other.removed)

    @property
    def ids(self) -> frozenset[int]:
        return self.added | self.changed | self.removed


class RollState(StrEnum):
    PREPARING = "preparing"
    """The GM fills the procedure's form: its need and exact odds, no dice yet."""
    SHOWN = "shown"
    """Resolved, on the GM's screen, not yet applied nor discarded."""
    APPLIED = "applied"
    DISCARDED = "discarded"


@dataclass(frozen=True)
class PreparedRoll:
    """A roll being prepared: the procedure, its vehicles (sheet input → vehicle key) and
    the exact odds of the form as it stands; ``owner`` the form's window."""

    procedure_id: str
    bindings: Mapping[str, str]
    odds: Odds | None
    owner: object = field(default=None, compare=False)


@dataclass(frozen=True)
class RollNotice:
    """A roll in progress (the players' display shows it): the result and its state; while
    the GM fills the form (:attr:`RollState.PREPARING`) there is no result yet, only
    :attr:`prepared`."""

    state: RollState
    pending: PendingResolution | None
    prepared: PreparedRoll | None = None


@dataclass(frozen=True)
class Changes:
    """One operation's changes, as the bus publishes them.

    Attributes:
        initiator: who asked (a view, the command line…); ``None`` when nobody said.
        designs: library designs added, changed, removed.
        game: the sheets and clock an event, undo or redo changed in the open game.
        session_id: the session ``game`` (or ``session``) is about.
        session: a session was opened, closed or finished (the Table and the Resolver
            rebuild what they show of it).
        sessions: the list of sessions changed (one was created or finished).
        finished: the session ``session_id`` was finished here (no reading needed to
            know it: the phones' sharing of it stops, with no database round trip).
        resolution_logged: a result was kept in the roll log (applied or discarded).
        roll: a roll was resolved (shown), applied or discarded.
        session_rows: sessions whose row in the session list changed (by id), written
            by another connection (another copy of the app, the command line).
    """

    initiator: object = None
    designs: DesignChanges = field(default_factory=DesignChanges)
    game: GameChanges | None = None
    session_id: int | None = None
    session: bool = False
    sessions: bool = False
    finished: bool = False
    resolution_logged: bool = False
    roll: RollNotice | None = None
    session_rows: frozenset[int] = frozenset()

    @property
    def vehicles(self) -> frozenset[str]:
        """The vehicles (keys) whose sheets changed."""
        return self.game.vehicles if self.game is not None else frozenset()

    def discarded_for(self, initiator: object) -> bool:
        """Whether these changes say the result ``initiator`` showed was discarded."""
        notice = self.roll
        return notice is not None and notice.state is RollState.DISCARDED \
            and notice.pending is not None and notice.pending.initiator is initiator


Subscriber = Callable[[Changes], None]


class ChangeBus:
    """Publish :class:`Changes` to every subscriber, in the order they subscribed.

    Delivery is synchronous, on the publisher's thread. Publishing comes after the
    commit and never changes what happened: a subscriber that raises does not keep
    the others from hearing, and its error is logged and handed to :attr:`on_error`
    (the GUI reports it), never raised into the operation that published.

    Inside :meth:`after` an operation's changes wait until it has returned: it sets
    its own state first (an applied roll is applied), then everybody is told.
    """

    def __init__(self) -> None:
        self._subscribers: list[Subscriber] = []
        self._held: list[Changes] | None = None
        self.on_error: Callable[[BaseException], None] | None = None
        """Told of each subscriber's error (after it was logged); None: logged only."""

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        """Call ``callback`` with every :class:`Changes`; returns the unsubscribe function."""
        self._subscribers.append(callback)

        def unsubscribe() -> None:
            if callback in self._subscribers:
                self._subscribers.remove(callback)

        return unsubscribe

    def publish(self, changes: Changes) -> Changes:
        """Tell every subscriber (at once, or when the operation in :meth:`after` returns);
        returns ``changes``."""
        if self._held is not None:
            self._held.append(changes)
            return changes
        for callback in list(self._subscribers):
            try:
                callback(changes)
            except Exception as error:  # reported; the operation already happened
                _log.exception("a change subscriber failed")
                self._report(error)
        return changes

    @contextmanager
    def after(self) -> Iterator[None]:
        """Hold what is published inside the block, and publish it in order once the block
        has ended (also when it raised: what was committed before the error happened)."""
        if self._held is not None:  # an operation inside another: the outer one publishes
            yield
            return
        self._held = []
        try:
            yield
        finally:
            held, self._held = self._held, None
            for changes in held:
                self.publish(changes)

    def _report(self, error: BaseException) -> None:
        if self.on_error is None:
            return
        try:
            self.on_error(error)
        except Exception:
            _log.exception("reporting a change subscriber's error failed")
