"""A client-side cancel for a database call stuck on an open connection (issue 31 §2).

When the club server's network path hangs (packets dropped, or a middlebox that accepts
and never forwards), a statement already sent on an open connection waits for an answer
that never comes: the server's ``statement_timeout`` never starts (the statement never
arrived), and TCP's own timeouts may never fire (a proxy on the path acknowledges every
byte). :class:`StuckCalls` records, per thread, the connection each statement runs on
(a SQLAlchemy ``before_cursor_execute`` listener); :meth:`StuckCalls.cut` shuts down the
socket of every call running longer than ``older_than`` seconds, from another thread. The
stuck call then fails at once as a dropped connection ("server closed the connection"),
which the app treats as the server being away (the engine discards that connection).

psycopg's ``connection.cancel()`` would not do: it sends its request over a new
connection, along the same stalled path.
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
import time
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine

STUCK_AFTER_S = 20.0
"""A statement without an answer for this long is cut (more than the connect timeout and
the network timeouts together; the server's statement timeout, 30 s, ends a statement
that did arrive and runs long)."""


class StuckCalls:
    """The statements running on ``engine``'s connections, and a way to cut stuck ones."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._watcher: threading.Thread | None = None
        self._running: dict[int, tuple[Any, float, str]] = {}
        """Thread id → (the driver's connection, when the statement started, thread name)."""
        event.listen(engine, "before_cursor_execute", self._before)
        event.listen(engine, "after_cursor_execute", self._after)
        event.listen(engine, "handle_error", self._failed)
        # The pool's ping before each checkout (``pool_pre_ping``) runs no cursor event:
        # it is watched too (a connection idle in the pool is the first to meet a hung path).
        dialect = engine.dialect
        ping = dialect.do_ping
        self._ping = ping

        def do_ping(dbapi_connection: Any) -> bool:
            self._start(dbapi_connection)
            try:
                return ping(dbapi_connection)
            finally:
                self._after()

        dialect.do_ping = do_ping  # type: ignore[method-assign]

    def watch(self, every: float = 1.0) -> None:
        """Cut stuck calls every ``every`` seconds from a thread of its own (a call stuck
        on the GUI thread is cut too: no timer of that thread could run meanwhile)."""
        if self._watcher is not None:
            return
        stop = self._stop

        def run() -> None:
            while not stop.wait(every):
                self.cut()

        self._watcher = threading.Thread(target=run, name="carwars-stuck-calls", daemon=True)
        self._watcher.start()

    def close(self) -> None:
        self._stop.set()
        self._watcher = None
        self.engine.dialect.do_ping = self._ping  # type: ignore[method-assign]
        for name, listener in (("before_cursor_execute", self._before),
                               ("after_cursor_execute", self._after),
                               ("handle_error", self._failed)):
            if event.contains(self.engine, name, listener):
                event.remove(self.engine, name, listener)

    def _before(self, connection: Any, _cursor: Any, _statement: str, _parameters: Any,
                _context: Any, _many: bool) -> None:
        self._start(connection.connection.dbapi_connection)

    def _start(self, dbapi_connection: Any) -> None:
        thread = threading.current_thread()
        with self._lock:
            self._running[thread.ident or 0] = (dbapi_connection, time.monotonic(),
                                                thread.name)

    def _after(self, *_args: Any) -> None:
        with self._lock:
            self._running.pop(threading.get_ident(), None)

    def _failed(self, _context: Any) -> None:
        self._after()

    def running(self) -> list[tuple[str, float]]:
        """(thread name, seconds) of each statement running now."""
        now = time.monotonic()
        with self._lock:
            return [(name, now - since) for _, since, name in self._running.values()]

    def cut(self, older_than: float | None = None) -> int:
        """Shut down the connection of each statement running longer than ``older_than``
        seconds (:data:`STUCK_AFTER_S`); how many were."""
        older_than = STUCK_AFTER_S if older_than is None else older_than
        now = time.monotonic()
        with self._lock:
            stuck = [(ident, dbapi) for ident, (dbapi, since, _) in self._running.items()
                     if now - since >= older_than]
            for ident, _ in stuck:
                del self._running[ident]
        for _, dbapi in stuck:
            _shut_down(dbapi)
        return len(stuck)


def _shut_down(dbapi_connection: Any) -> None:
    """Shut down the socket under a driver connection (both directions): a call blocked
    on it returns at once with the connection closed."""
    fileno = getattr(dbapi_connection, "fileno", None)
    if fileno is None:
        return  # (SQLite: no socket, nothing can hang on a network)
    with contextlib.suppress(Exception):  # (already closed: nothing to cut)
        duplicate = os.dup(fileno())
        with socket.socket(fileno=duplicate) as sock:
            sock.shutdown(socket.SHUT_RDWR)
