"""A fake "PostgreSQL server" on loopback: it answers the startup and asks for a clear-text
password, and records every byte the client sends (so a test sees whether the password left).

It speaks just enough of the protocol (SSLRequest / GSSENCRequest, StartupMessage,
AuthenticationCleartextPassword): with ``tls`` it accepts the SSLRequest and does TLS with
that (impostor's) certificate, as someone answering in the club server's place would.
"""

from __future__ import annotations

import contextlib
import socket
import ssl
import struct
import threading
from collections.abc import Iterator
from pathlib import Path

SSL_REQUEST, GSSENC_REQUEST = 80877103, 80877104
CLEARTEXT_PASSWORD = 3


class FakeServer:
    def __init__(self, tls: tuple[Path, Path] | None = None) -> None:
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(4)
        self.listener.settimeout(0.5)
        self.port = int(self.listener.getsockname()[1])
        self.received = bytearray()
        """Everything the client sent after the startup message (where a password would be)."""
        self.startups = 0
        self.conversations = 0
        self.done = threading.Event()
        """Set when a client's conversation is over (what it sent is in :attr:`received`)."""
        self._context: ssl.SSLContext | None = None
        if tls is not None:
            self._context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            self._context.load_cert_chain(str(tls[0]), str(tls[1]))
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                client, _ = self.listener.accept()
            except (TimeoutError, OSError):
                continue
            with contextlib.suppress(OSError, ssl.SSLError, ConnectionError), client:
                client.settimeout(5)
                self._talk(client)
            self.conversations += 1
            self.done.set()

    @staticmethod
    def _read(client: socket.socket | ssl.SSLSocket, count: int) -> bytes:
        data = b""
        while len(data) < count:
            chunk = client.recv(count - len(data))
            if not chunk:
                raise ConnectionError("closed")
            data += chunk
        return data

    def _talk(self, client: socket.socket) -> None:
        streams: list[ssl.SSLSocket] = []
        try:
            self._converse(client, streams)
        finally:
            for stream in streams:
                stream.close()

    def _converse(self, client: socket.socket, streams: list[ssl.SSLSocket]) -> None:
        stream: socket.socket | ssl.SSLSocket = client
        while True:
            length, code = struct.unpack("!ii", self._read(stream, 8))
            if code in (SSL_REQUEST, GSSENC_REQUEST):
                if code == SSL_REQUEST and self._context is not None \
                        and not isinstance(stream, ssl.SSLSocket):
                    stream.sendall(b"S")
                    stream = self._context.wrap_socket(client, server_side=True,
                                                       do_handshake_on_connect=False)
                    streams.append(stream)
                    stream.do_handshake()
                else:
                    stream.sendall(b"N")
                continue
            self._read(stream, length - 8)  # the startup message's parameters
            self.startups += 1
            break
        stream.sendall(b"R" + struct.pack("!ii", 8, CLEARTEXT_PASSWORD))
        # Whatever comes now: the password message ('p'), or nothing (the client left).
        self.received += stream.recv(4096)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self.listener.close()


@contextlib.contextmanager
def fake_server(tls: tuple[Path, Path] | None = None) -> Iterator[FakeServer]:
    server = FakeServer(tls)
    try:
        yield server
    finally:
        server.close()
