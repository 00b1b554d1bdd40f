"""The window follows what other connections write to its database (issue 31): every
:data:`FOLLOW_POLL_MS` a worker asks the database's watcher what changed elsewhere, and
what it found is published on the change bus on the GUI thread (initiator
:data:`~carwars_desktop.services.follow.ELSEWHERE`). The Library and the session list
then read those rows again, off the GUI thread, and update them by id.

No database call runs here on the GUI thread: the watcher is opened on a worker too
(on the club server that is a connection of its own, ``LISTEN``-ing).
"""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal

from carwars_desktop.services.follow import Follower

if TYPE_CHECKING:
    from carwars_desktop.services import ChangeBus, Changes
    from carwars_desktop.storage import Database

_log = logging.getLogger(__name__)

FOLLOW_POLL_MS = 1500
"""How often the watcher is asked (SQLite: one read of the file's header)."""
RETRY_POLLS = 10
"""After the watcher failed (the server went away), polls skipped before it is opened
again."""


def unread_words(what: str, error: BaseException) -> str:
    """What the GM is told when rows written elsewhere could not be read again."""
    from sqlalchemy.exc import SQLAlchemyError

    from carwars_desktop.storage.preflight import driver_reason
    from carwars_desktop.storage.writes import NOT_ANSWERING, is_lost_server

    if is_lost_server(error):
        why = NOT_ANSWERING
    else:
        said = driver_reason(error) if isinstance(error, SQLAlchemyError) else str(error)
        why = f"the database said: {said}"
    return (f"⚠ {what} changed in another copy of the app could not be read ({why}); the "
            "list shows them as they were read last.")


class Following(QObject):
    """Follows one database at a time (:meth:`follow`); :meth:`stop` ends it."""

    resumed = Signal()
    """The watcher is open again after it failed (the server was away): what was written
    meanwhile was not told, so the lists are read again whole."""

    def __init__(self, bus: ChangeBus, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.bus = bus
        self.database: Database | None = None
        self.follower: Follower | None = None
        self._busy = False
        self._skip = 0
        self._lock = threading.Lock()
        self._opened: Follower | None = None
        """A follower opened on a worker, until :meth:`stop` closes it (also when its
        answer never reached the GUI thread: the app was closing)."""
        self._generation = 0
        self._failed = False
        """The watcher failed: once open again, :attr:`resumed` is emitted."""
        self.polls = 0
        """Polls answered (with or without changes): tests wait for one more."""
        self.timer = QTimer(self)
        self.timer.setInterval(FOLLOW_POLL_MS)
        self.timer.timeout.connect(self.poll)

    def follow(self, database: Database) -> None:
        """Follow ``database`` (the one before is no longer followed)."""
        self.stop()
        self.database = database
        self._skip = 0
        self._failed = False
        self.timer.start()
        self.poll()

    def stop(self) -> None:
        self.timer.stop()
        self.database = None
        with self._lock:
            self._generation += 1
            opened, self._opened = self._opened, None
        self.follower = None
        if opened is not None:
            opened.close()

    def poll(self) -> None:
        """Ask the watcher on a worker (opened first, on the first call); one at a time."""
        from carwars_desktop.gui.background import start

        database = self.database
        if database is None or self._busy:
            return
        if self._skip:
            self._skip -= 1
            return
        self._busy = True
        follower = self.follower
        generation = self._generation
        bus = self.bus

        def work(_job: object) -> tuple[Follower | None, Changes | None]:
            if follower is not None:
                return follower, follower.poll()
            from carwars_desktop.storage.watch import watcher_for

            watcher = watcher_for(database.engine)
            if watcher is None:
                return None, None
            opened = Follower(watcher, bus)
            with self._lock:
                if generation == self._generation:
                    self._opened = opened
                    return opened, None
            opened.close()  # stopped meanwhile
            return None, None

        def done(result: tuple[Follower | None, Changes | None]) -> None:
            self._busy = False
            found, changes = result
            if self.database is not database or generation != self._generation:
                return  # stopped or switched meanwhile (what it opened is closed)
            if found is None:  # nothing to follow (an in-memory database)
                self.timer.stop()
                return
            self.follower = found
            self.polls += 1
            if changes is not None:
                found.tell(changes)
            if self._failed and follower is None:  # just opened again
                self._failed = False
                self.resumed.emit()

        def failed(error: BaseException) -> None:
            self._busy = False
            if self.database is not database or generation != self._generation:
                return
            # The server went away, say: opened again after a while (the lists stay as
            # they are meanwhile; the offline banner says why).
            _log.debug("following the database failed: %s", error)
            with self._lock:
                broken, self._opened = self._opened, None
            self.follower = None
            if broken is not None:
                broken.close()
            self._skip = RETRY_POLLS
            self._failed = True

        start(work, done, failed, parent=self)
