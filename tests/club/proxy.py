"""A TCP proxy on loopback between the app and the club server, which can stop forwarding.

Once :meth:`StallingProxy.stall` is called it still accepts connections and keeps the open
ones, but passes nothing on in either direction: to the app, a server whose network path
hangs (nothing refused, nothing answered). :meth:`StallingProxy.cut` is the laptop's link
dropped instead: the open connections are closed and new ones refused, while the server
stays up for the other clients, until :meth:`StallingProxy.resume`.
"""

from __future__ import annotations

import contextlib
import select
import socket
import threading
from collections.abc import Iterator

import pytest


class StallingProxy:
    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.2)
        self.port = int(self.listener.getsockname()[1])
        self.stalled = threading.Event()
        self.cut_off = threading.Event()
        self.accepted = 0
        self._stop = threading.Event()
        self._sockets: list[socket.socket] = []
        self._threads = [threading.Thread(target=self._serve, daemon=True)]
        self._threads[0].start()

    def stall(self) -> None:
        self.stalled.set()

    def cut(self) -> None:
        """Close every open connection and refuse new ones (until :meth:`resume`)."""
        self.cut_off.set()
        for sock in list(self._sockets):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()
        self._sockets.clear()

    def resume(self) -> None:
        """Forward again (what arrived meanwhile goes on; a connection cut meanwhile ends)."""
        self.stalled.clear()
        self.cut_off.clear()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                client, _ = self.listener.accept()
            except (TimeoutError, OSError):
                continue
            self.accepted += 1
            if self.cut_off.is_set():
                client.close()  # the link is down: nothing gets through
                continue
            self._sockets.append(client)
            if self.stalled.is_set():
                continue  # accepted, and never answered
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target_port))
            except OSError:  # the server is stopped: refused, as it would be
                client.close()
                continue
            self._sockets.append(upstream)
            thread = threading.Thread(target=self._pump, args=(client, upstream), daemon=True)
            self._threads.append(thread)
            thread.start()

    def _pump(self, client: socket.socket, upstream: socket.socket) -> None:
        pairs = {client: upstream, upstream: client}
        with contextlib.suppress(OSError, ValueError):  # ValueError: closed by cut()
            while not self._stop.is_set():
                ready, _, _ = select.select(list(pairs), [], [], 0.2)
                if self.stalled.is_set():
                    continue  # what arrives stays where it is: nothing is passed on
                for source in ready:
                    data = source.recv(65536)
                    if not data:  # one side closed: so does the other (as a proxy does)
                        pairs[source].shutdown(socket.SHUT_RDWR)
                        return
                    pairs[source].sendall(data)

    def close(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=5)
        for sock in self._sockets:
            sock.close()
        self.listener.close()


@contextlib.contextmanager
def stalling_proxy(target_port: int) -> Iterator[StallingProxy]:
    proxy = StallingProxy(target_port)
    try:
        yield proxy
    finally:
        proxy.close()


def short_connect_timeout(monkeypatch: pytest.MonkeyPatch, seconds: int = 2) -> None:
    """Club connections made from now give up after ``seconds`` (libpq's least is 2), not
    the app's 5: a test that connects through a stalled proxy waits that long, and the
    message says that many seconds."""
    from carwars_desktop.storage import club

    monkeypatch.setattr(club, "CONNECT_TIMEOUT_S", seconds)
    monkeypatch.setitem(club.TIMEOUTS, "connect_timeout", str(seconds))
