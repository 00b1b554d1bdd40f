"""Follow what other connections write (issue 31): the Library and the session list show
designs and sessions changed by another copy of the app or by the command line without
reconnecting.

A :class:`Follower` asks its storage :class:`~carwars_desktop.storage.watch.Watcher` what
changed (:meth:`Follower.poll`, off the GUI thread: it reads the database) and turns the
answer into one :class:`Changes` from :data:`ELSEWHERE`, which :meth:`Follower.tell`
publishes on the bus (on the GUI thread): the views update the rows by id as for their
own operations.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from carwars_desktop.services.changes import ChangeBus, Changes, DesignChanges

if TYPE_CHECKING:
    from carwars_desktop.storage.watch import Watcher

_log = logging.getLogger(__name__)


class _Elsewhere:
    """The initiator of what another connection wrote."""

    def __repr__(self) -> str:
        return "ELSEWHERE"


ELSEWHERE: object = _Elsewhere()
""":attr:`Changes.initiator` of the changes another connection made (views read the rows
again, off the GUI thread)."""


class Follower:
    """One database's watcher and the bus its findings are told on."""

    def __init__(self, watcher: Watcher, bus: ChangeBus) -> None:
        self.watcher = watcher
        self.bus = bus
        self._closed = False

    def poll(self) -> Changes | None:
        """What changed elsewhere, as the bus tells it; None: nothing (or closed). Reads
        the database: call it off the GUI thread."""
        if self._closed:
            return None
        seen = self.watcher.poll()
        if not seen:
            return None
        return Changes(ELSEWHERE, designs=DesignChanges.of(changed=seen.designs),
                       sessions=seen.sessions_listed, session_rows=seen.sessions)

    def tell(self, changes: Changes) -> None:
        """Publish what :meth:`poll` found (unless closed meanwhile)."""
        if not self._closed:
            self.bus.publish(changes)

    def close(self) -> None:
        """Stop following; the watcher's connection is closed."""
        if self._closed:
            return
        self._closed = True
        try:
            self.watcher.close()
        except Exception:  # the connection may be gone already (the server went away)
            _log.debug("closing the watcher failed", exc_info=True)
