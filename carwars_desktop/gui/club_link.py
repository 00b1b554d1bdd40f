"""A session on the club server that loses its connection: the banner, the queue, the retries.

:class:`ClubLink` (one per main window) wraps the event store of each running session opened
from a club database in a :class:`~carwars_desktop.storage.offline_queue.QueuedEventStore`:
entries made while the server is away wait, in order, in the queue file on the laptop. The
:class:`OfflineBanner` says so; every :data:`RETRY_MS` (and on Retry) the link replays them.
A conflict with another client's entries is shown in the banner, and the GM may set the
laptop's entries aside (they stay in the queue file), or open the queue view
(:mod:`~carwars_desktop.gui.queue_view`) to apply the conflicted entry again on top of theirs
or drop it (:meth:`ClubLink.apply_again_on_top`, :meth:`ClubLink.drop`).

The banner is the window's only word on an outage: a write outside the queue lost with the
connection (the session's lease, its end) is handed here by the workspace's write banner
(:meth:`ClubLink.connection_lost`) and retried with the queue, never shown as the driver's
text. It lies over the workspaces' top edge (:class:`~carwars_desktop.gui.write_banner.
Overlay`): the sheets under it never move.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

if TYPE_CHECKING:
    from carwars_desktop.gui.write_banner import Overlay
    from carwars_desktop.storage import Database, SessionEvents
    from carwars_desktop.storage.offline_queue import (
        OfflineQueue,
        QueuedEntry,
        QueuedEventStore,
        QueueState,
        ReplayResult,
    )
    from carwars_desktop.storage.stuck_calls import StuckCalls

RETRY_MS = 10_000
WATCH_MS = 1_000
"""How often statements stuck on a hung network path are looked for (and cut)."""


class ClubLink(QObject):
    """The offline queue of the club database attached to the main window (if it is one)."""

    state_changed = Signal(object)
    """A :class:`QueueState` (offline, entries waiting, conflict)."""
    reopen_requested = Signal(int)
    """Reopen this session as the server has it: entries were sent or set aside (its id)."""

    def __init__(self, queue_path: Path | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._queue_path = queue_path
        self._queue: OfflineQueue | None = None
        self._target: str | None = None
        self._url = ""
        self._database: Database | None = None
        self._away = False
        """A write outside the queue was lost with the connection (:meth:`connection_lost`)."""
        self._retries: list[Callable[[], object]] = []
        self.store: QueuedEventStore | None = None
        self._timer = QTimer(self)
        self._timer.setInterval(RETRY_MS)
        self._timer.timeout.connect(self.retry)
        self._names: dict[int, str] = {}
        """Each session's name, as read when it was opened here (for the queue view)."""
        self.stuck: StuckCalls | None = None
        """The club database's running statements; a stuck one is cut (every second, from
        a thread of its own)."""

    def attach_database(self, database: Database) -> None:
        from carwars_desktop.storage.club import ClubConnection, is_server_url, server_identity

        self._timer.stop()
        self.store = None
        self._away = False
        self._retries = []
        self._database = database
        self._url = database.url
        self._target = None
        if is_server_url(database.url):
            # Entries wait under the server's identity, not its address: made through
            # another port, host name or proxy of the same server, they replay here too.
            address = ClubConnection.from_url(database.url).key
            identity = server_identity(database)
            self._target = identity or address
            if identity is not None and self._offline_queue().count(address):
                self._offline_queue().rekey(address, identity)
        self._watch(database if self._target is not None else None)
        self.state_changed.emit(None)

    def _watch(self, database: Database | None) -> None:
        from carwars_desktop.storage.stuck_calls import StuckCalls

        if self.stuck is not None:
            self.stuck.close()
            self.stuck = None
        if database is not None:
            self.stuck = StuckCalls(database.engine)
            self.stuck.watch(WATCH_MS / 1000)

    def _offline_queue(self) -> OfflineQueue:
        from carwars_desktop.storage.offline_queue import OfflineQueue, default_queue_path

        if self._queue is None:
            self._queue = OfflineQueue(self._queue_path or default_queue_path())
        return self._queue

    def guard(self, events: SessionEvents, name: str = "") -> SessionEvents | QueuedEventStore:
        """The store a running session writes through (the events as they are on SQLite);
        ``name``: the session's, for the queue view (nothing is read for it here)."""
        if self._target is None:
            return events
        from carwars_desktop.storage.club import is_connection_lost
        from carwars_desktop.storage.offline_queue import QueuedEventStore

        store = QueuedEventStore(events, self._offline_queue(), self._target,
                                 is_connection_lost, self._on_state)
        self.store = store
        if name:
            self._names[store.session_id] = name
        self._on_state(store.state())
        if store.offline and store.replay().sent:
            # Entries left from an earlier evening: the session was read before they landed.
            QTimer.singleShot(0, lambda: self.reopen_requested.emit(store.session_id))
        return store

    def _on_state(self, state: QueueState) -> None:
        if self._away and not state.offline:
            state = replace(state, offline=True)
        if state.offline and state.conflict is None:
            if not self._timer.isActive():
                self._timer.start()
        else:
            self._timer.stop()
        self.state_changed.emit(state)

    def _state(self) -> QueueState:
        from carwars_desktop.storage.offline_queue import QueueState

        return self.store.state() if self.store is not None else QueueState(False, 0)

    def connection_lost(self, retry: Callable[[], object] | None) -> bool:
        """A write outside the queue failed with the club server's connection: say so in the
        one banner and retry it with the queue. False when no club server is attached."""
        if self._target is None:
            return False
        self._away = True
        if retry is not None:
            self._retries.append(retry)  # every refused action runs again, in order
        self._on_state(self._state())
        return True

    @property
    def away(self) -> bool:
        """The club server is taken for gone (entries wait, or a write was lost)."""
        return self._away or (self.store is not None and self.store.offline)

    def _probe(self) -> bool:
        """The server answers again (a cheap statement, bounded by the engine's timeouts)."""
        from sqlalchemy import text

        from carwars_desktop.storage.club import is_connection_lost

        if self._database is None:
            return False
        try:
            with self._database.engine.connect() as connection:
                connection.execute(text("SELECT 1"))
        except Exception as error:
            if not is_connection_lost(error):
                raise
            return False
        return True

    def _retry_lost_writes(self) -> bool:
        """Run the writes lost with the connection again; True once none is left."""
        retries, self._retries = self._retries, []
        for number, retry in enumerate(retries):
            self._away = False  # a write refused again hands itself back (connection_lost)
            retry()
            if self._away:
                self._retries = [*self._retries, *retries[number + 1:]]
                return False
        if not retries and not self._probe():
            return False
        self._away = False
        return True

    def stop(self) -> None:
        """No more retries (the window closes); what waits stays in the queue file."""
        self._timer.stop()
        self._watch(None)
        self.store = None

    def retry(self) -> ReplayResult | None:
        """Send what waits. A refusal other than a dropped connection (the password was
        changed, say) is shown in the banner in words; the entries keep waiting."""
        from carwars_desktop.storage.club import ClubConnection, translate
        from carwars_desktop.storage.offline_queue import ReplayResult

        store = self.store
        if (store is None or not store.offline) and not self._away:
            self._timer.stop()
            return None
        try:
            result = store.replay() if store is not None and store.offline else \
                ReplayResult(0, 0)
            if self._away and result.pending == 0 and result.conflict is None:
                if not self._retry_lost_writes():
                    result = replace(result, still_offline=True)
                self._on_state(self._state())
            return result
        except Exception as error:  # the timer's slot: never let it escape to the event loop
            connection = ClubConnection.from_url(self._url)
            problem = str(translate(error, connection))
            self.state_changed.emit(replace(self._state(), offline=True, problem=problem))
            return None

    def set_aside(self) -> int:
        if self.store is None:
            return 0
        count = self.store.set_aside()
        self.reopen_requested.emit(self.store.session_id)
        return count

    # --- the queue view ---------------------------------------------------------------------
    @property
    def has_server(self) -> bool:
        """The database attached is a club server's (entries may wait for it here); False
        for a file on this laptop, written at once, with no queue."""
        return self._target is not None

    def entries(self) -> list[QueuedEntry]:
        """What waits on this laptop for the attached club server, every session's, in
        order (read from the queue file: nothing asks the server)."""
        if self._target is None:
            return []
        return self._offline_queue().entries(self._target)

    def session_name(self, session_id: int) -> str:
        name = self._names.get(session_id)
        return f"“{name}” (session {session_id})" if name else f"session {session_id}"

    def can_decide(self, entry: QueuedEntry) -> str | None:
        """None if the GM may apply ``entry`` again or drop it now, else why not (words)."""
        store = self.store
        if store is None or store.session_id != entry.session_id:
            return "Open its session at the Table: its entries are sent from there."
        if entry.conflict is None:
            return ("It waits to be sent; only a conflicted entry (another client wrote in "
                    "between) is applied again or dropped.")
        return None

    def apply_again_on_top(self, entry_id: int) -> str | None:
        """The conflicted entry on top of the server's events, then the rest; None, or
        what went wrong in words."""
        return self._decide(lambda store: store.apply_again_on_top(entry_id))

    def drop(self, entry_id: int) -> str | None:
        """The conflicted entry removed from the queue (never sent), then the rest sent."""
        return self._decide(lambda store: store.drop(entry_id))

    def _decide(self, decision: Callable[[QueuedEventStore], ReplayResult]) -> str | None:
        from carwars_desktop.storage.club import ClubConnection, translate
        from carwars_desktop.storage.offline_queue import QueueEntryError

        store = self.store
        if store is None:
            return "No session of the club server is open at the Table."
        try:
            result = decision(store)
        except QueueEntryError as error:
            return str(error)
        except Exception as error:
            return str(translate(error, ClubConnection.from_url(self._url)))
        if result.sent:
            # The session as the server has it now (theirs and the laptop's entries).
            self.reopen_requested.emit(store.session_id)
        if result.still_offline:
            return "The club server stopped answering: what is left waits on this laptop."
        return None


@runtime_checkable
class HasClubLink(Protocol):
    club_link: ClubLink


def guarded(widget: QWidget, events: SessionEvents, name: str = ""
            ) -> SessionEvents | QueuedEventStore:
    """``events`` (of the session called ``name``) through the window's
    :class:`ClubLink`, when the window has one."""
    window = widget.window()
    return window.club_link.guard(events, name) if isinstance(window, HasClubLink) \
        else events


def outage_words(waiting: int) -> str:
    """The banner's words while the club server is away, ``waiting`` entries queued."""
    if waiting == 0:
        queued = ("a mark made at the table waits on this laptop until it answers; library "
                  "changes are refused until then")
    else:
        queued = (f"{waiting} entr{'y waits' if waiting == 1 else 'ies wait'} on this laptop "
                  "to be sent, in order, when it answers again")
    return f"The club server is not answering — the table keeps playing; {queued}."


class OfflineBanner(QFrame):
    """Shown while entries wait for the club server, or when they met another client's.

    Over the workspaces' top edge (give it an ``anchor``), never pushing them down."""

    def __init__(self, link: ClubLink, parent: QWidget | None = None,
                 anchor: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("club-offline-banner")
        self.setAccessibleName("Club server")
        self.setStyleSheet("QFrame#club-offline-banner { background: #fff3cd; "
                           "border-bottom: 1px solid #d6b656; } "
                           "QFrame#club-offline-banner QLabel { color: #5c4400; }")
        self._link = link
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.retry_button = QPushButton("Retry now")
        self.retry_button.clicked.connect(link.retry)
        self.set_aside_button = QPushButton("Set my entries aside")
        self.set_aside_button.setToolTip("Stop sending them; they stay in the queue file on "
                                         "this laptop")
        self.set_aside_button.clicked.connect(link.set_aside)
        self.queue_button = QPushButton("Show &queue…")
        self.queue_button.setToolTip("Each entry waiting on this laptop; a conflicted one can "
                                     "be applied again on top of the other client's, or "
                                     "dropped")
        row = QHBoxLayout(self)
        row.setContentsMargins(12, 6, 12, 6)
        row.addWidget(self.label, 1)
        row.addWidget(self.retry_button)
        row.addWidget(self.queue_button)
        row.addWidget(self.set_aside_button)
        link.state_changed.connect(self.show_state)
        self.overlay: Overlay | None = None
        if anchor is not None:
            from carwars_desktop.gui.write_banner import Overlay

            self.overlay = Overlay(self, anchor)
        self.show_state(None)

    def show_state(self, state: QueueState | None) -> None:
        if state is None or (not state.offline and state.conflict is None):
            self.hide()
            return
        if state.conflict is not None:
            self.label.setText(f"⚠ {state.conflict} Show the queue to apply the conflicted "
                               "entry again on top of theirs, or to drop it.")
        elif state.problem is not None:
            self.label.setText(f"⚠ Not sent yet, kept on this laptop ({state.pending} waiting): "
                               f"{state.problem}")
        else:
            self.label.setText(f"⚠ {outage_words(state.pending)}")
        self.set_aside_button.setVisible(state.conflict is not None)
        self.retry_button.setVisible(state.conflict is None)
        self.queue_button.setVisible(state.pending > 0)
        self.show()
        if self.overlay is not None:
            self.overlay.place()
