"""The players' phones page: a read-only web server in a process of its own (aiohttp).

Imported only when the GM turns on *Share to players' devices* (aiohttp stays off
the start-up path). :class:`PhoneServer` is the GUI's handle: it binds the listening
socket itself (so a taken port is known at once), then hands it to a child process
started with the ``spawn`` method, which runs the asyncio loop and aiohttp
(:class:`_Site`). The server never shares the GUI process's interpreter lock, so
however busy the phones keep it, the GUI thread does not wait for it.

The GUI thread only hands over the latest snapshot (:meth:`PhoneServer.publish`):
it is serialised there and put in a bounded queue, and a small sender thread writes
it to the child over a local socket pair; when the child falls behind, the oldest
waiting snapshot is dropped (:data:`PIPE_BACKLOG`), never the GUI thread blocked.
Links (tokens) and *stop* go over a second socket pair, written at once (a few bytes,
read eagerly by the child's loop). Both are read as asyncio streams by the child's
one event loop (no thread there, and the same on every system). The child stops when
told, and also by itself when the GUI process is gone (its control socket closes); it
is a daemon process, so a normal exit of the app ends it too.

Links: the table's common link (:attr:`PhoneServer.token`) sends the public view
only; each vehicle has a seat link of its own (:attr:`PhoneServer.seat_tokens`, its own
random token) that sends the same view plus that vehicle's whole own sheet
(``seat`` and ``mine``) — never another vehicle's. Every token is compared in
constant time; New link revokes them all, and so does Stop (each server has tokens of its
own unless given some: :class:`~carwars_desktop.gui.phone_share.PhoneSharing` gives it only
the ones it kept for a session still shared when the app stopped, to listen again with the
same links after a restart).

What it serves, under ``/s/<token>/`` only (anything else, or a wrong token: 404):
the page, its script and style sheet (a fixed list: no directory listing), the
current snapshot (``state``) and a Server-Sent Events stream of snapshots
(``events``). Only GET and HEAD; no endpoint changes the game. Every response has a
strict Content-Security-Policy (``default-src 'self'``, no inline script), ``nosniff``,
no referrer (the token is in the URL) and no server version.

Bounded: the common link has at most :data:`MAX_CLIENTS` streams, and at most
:data:`COMMON_PER_ADDRESS` from one address (429 beyond: one holder of the link shown on
the TV cannot take them all); each seat link has :data:`SEAT_STREAMS` streams of its own,
reserved (a seat's next stream replaces its oldest: a reloaded page never waits for its
old one to die). Each stream has a queue of :data:`QUEUE_SIZE` snapshots, and a client
that lets it fill (a stalled phone, a malicious reader) is dropped; the others and the
GM's window go on.

Safe by construction, before anything is read (:class:`_Gate`, the protocol factory of
the listening socket): a connection must send its request's headers within
:data:`IDLE_TIMEOUT` seconds and may stay idle between two requests no longer; at most
:data:`MAX_PER_ADDRESS` connections from one address and :data:`MAX_CONNECTIONS` in
all (below the open-file limit, 256 on macOS: :func:`connection_cap`) — a connection
over a limit closes the oldest idle one of that address (or of all), so a flood of idle
sockets cannot keep a phone out. Only ``Host: <the chosen address>:<port>`` is answered
(421 otherwise: a web page elsewhere cannot read this one through a name of its own),
bodies over :data:`MAX_BODY` bytes get 413, any method but GET and HEAD 405. Each
refused request is one line on the server's standard error (:mod:`logging`, the token
left out, at most :data:`LOG_BURST` lines per :data:`LOG_WINDOW` seconds), never a
traceback.

Writes (:meth:`_Site._request`): a seat link — never the common one (403) — may POST one
small JSON request to ``/s/<token>/request``, for its own vehicle only (the server adds
the seat: a body cannot name another). Each POST carries the page token the page was
served with (``<meta name="carwars-page">``, :func:`page_token`: a fresh nonce per page,
signed for that seat's token with a secret of this server, so New link and Stop void it)
in ``X-Carwars-Page``, an ``Origin`` that is the address the GM chose (403 otherwise),
a JSON body of at most :data:`REQUEST_BODY` bytes (413) and an idempotency ``key``: a
key seen before gets the first answer again and nothing is sent twice. Each seat may send
:data:`SEAT_RATE` requests per :data:`SEAT_WINDOW` seconds (429 beyond). An accepted POST
(202) goes to the GUI process over the control socket pair (the child's writes are
bounded: 503 when the GUI is :data:`GUI_BACKLOG` bytes behind); there
:class:`_Receiver`, a thread, keeps at most :data:`REQUEST_BACKLOG` of them for the GUI
to take (:meth:`PhoneServer.take_requests`), the GUI thread never waiting for the phones.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import ipaddress
import json
import logging
import os
import pickle
import re
import secrets
import signal
import socket
import struct
import sys
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

from carwars_desktop.services.share_network import (
    GuessLimit,
    new_token,
    token_matches,
)

if TYPE_CHECKING:
    from multiprocessing.process import BaseProcess

MAX_CLIENTS = 16
"""Streams of the common link in all."""
COMMON_PER_ADDRESS = 4
"""Streams of the common link from one address (a phone, a browser with a few tabs)."""
SEAT_STREAMS = 4
"""Streams each seat link has of its own, whoever holds the common link."""
IDLE_TIMEOUT = 5.0
"""Seconds a connection may take to send a request's headers, or stay idle between two
requests: then it is closed."""
MAX_CONNECTIONS = 128
"""Connections open at once, in all (lowered to fit the process's open-file limit)."""
MAX_PER_ADDRESS = 32
"""Connections open at once from one client address."""
RESERVED_FILES = 64
"""Open files the server's process keeps for itself under its open-file limit."""
MAX_BODY = 4096
"""The largest request body accepted (bytes); larger ones get 413."""
SWEEP = 0.5
"""Seconds between two looks for connections idle too long."""
LOG_BURST = 20
LOG_WINDOW = 10.0
"""At most :data:`LOG_BURST` log lines per :data:`LOG_WINDOW` seconds (a flood of bad
requests does not flood the GM's terminal: the lines left out are counted)."""
QUEUE_SIZE = 64
"""Snapshots waiting per client before it counts as too slow and is dropped."""
PIPE_BACKLOG = 256
"""Snapshots waiting for the server's process before the oldest is dropped."""
KEEPALIVE = 15.0
"""Seconds between comment lines on an idle stream (a dead connection shows up)."""
REQUEST_BODY = 2048
"""The largest body of a phone's request (bytes): a few kilobytes at most (413 beyond)."""
SEAT_RATE = 4
SEAT_WINDOW = 1.0
"""A seat may send :data:`SEAT_RATE` requests per :data:`SEAT_WINDOW` seconds (429 beyond)."""
KEYS_KEPT = 256
"""Idempotency keys remembered per seat (a retry of one of them is answered again)."""
GUI_BACKLOG = 64 * 1024
"""Bytes of requests waiting for the GUI process before a new one gets 503."""
REQUEST_BACKLOG = 64
"""Requests waiting in the GUI process for the GUI thread (the oldest dropped beyond)."""
PAGE_HEADER = "X-Carwars-Page"
"""The request header carrying the page token (:func:`page_token`)."""
PAGE_META = b'<meta name="carwars-page" content="">'
"""The page's placeholder for its page token (filled in for a seat link)."""
PAGE_SECRET_BYTES = 32
"""The page tokens' signing secret: 256 bits."""
START_TIMEOUT = 5.0
STOP_TIMEOUT = 5.0

STATIC = {
    "": ("index.html", "text/html"),
    "app.js": ("app.js", "text/javascript"),
    "style.css": ("style.css", "text/css"),
}
"""The page's files by URL name: the only files served."""

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self';"
        " connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none';"
        " object-src 'none'"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
    "Cross-Origin-Resource-Policy": "same-origin",
}
ICON = "/favicon.ico"
"""Asked by browsers on every page, without a token: answered with nothing (204)."""
SERVER_NAME = "carwars"
"""The Server header (aiohttp would name itself and its version)."""

_CLIENTS, _DROPPED, _REFUSED, _READY, _CONNECTIONS, _CLOSED_IDLE, _TURNED_AWAY, _CAP = range(8)
"""Slots of the counters the server's process keeps in shared memory."""

log = logging.getLogger("carwars_desktop.phones")
"""The server process's log: one line per refused request or closed connection."""


class ShareError(RuntimeError):
    """The server could not start (the port is taken, the address is not this computer's)."""


@dataclass(frozen=True)
class ServerStats:
    clients: int
    """Event streams open."""
    dropped: int
    published: int
    refused: int
    """Requests refused because their address kept guessing tokens."""
    connections: int = 0
    """Connections open."""
    closed_idle: int = 0
    """Connections closed for sending no request in time."""
    turned_away: int = 0
    """Connections closed at once, or an idle one closed for them, past a limit."""
    connection_cap: int = 0
    """The most connections the server keeps open at once (0 before it runs)."""


class PhoneServer:
    """One sharing: an address, a port, the links' tokens. :meth:`start`, :meth:`publish`,
    :meth:`new_link`, :meth:`add_seats`, :meth:`stop` are called from the GUI thread."""

    def __init__(self, static_dir: Path, host: str, port: int, token: str | None = None,
                 max_clients: int = MAX_CLIENTS, queue_size: int = QUEUE_SIZE,
                 seat_tokens: Mapping[str, str] | None = None,
                 answered: Mapping[str, Mapping[str, Mapping[str, Any]]] | None = None,
                 page_secret: bytes | None = None) -> None:
        self.static_dir = static_dir
        self.page_secret = page_secret or secrets.token_bytes(PAGE_SECRET_BYTES)
        """Signs the seat pages' page tokens: kept with the links by whoever keeps them
        (a page served before a restart still sends its requests after it)."""
        self.answered = {seat: {key: dict(answer) for key, answer in keys.items()}
                         for seat, keys in (answered or {}).items()}
        """Seat → idempotency key → the answer a retry of it gets: the keys the GM's table
        received before (kept in the database: a retry after a restart is answered
        "again", never passed on twice)."""
        self.host = host
        self.port = port
        self.token = token or new_token()
        self.seat_tokens: dict[str, str] = dict(seat_tokens or {})
        """Vehicle key → the token of its seat link."""
        self.max_clients = max_clients
        self.queue_size = queue_size
        self._seq = 0
        self._latest: Snapshot = ("{}", {}, {})
        """The last snapshot handed over (sent to a server started later)."""
        self._process: BaseProcess | None = None
        self._control: socket.socket | None = None
        self._counters: Any = None
        self._sender: _Sender | None = None
        self._receiver: _Receiver | None = None
        self.on_request: Callable[[], None] | None = None
        """Called (on the receiving thread) when a phone's request arrived: the GUI then
        calls :meth:`take_requests` on its own thread."""

    # --- state ---------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self._process is not None and self._process.is_alive()

    @property
    def exit_code(self) -> int | None:
        """The server process's exit code once it has ended (None while it runs)."""
        return None if self._process is None else self._process.exitcode

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/s/{self.token}"

    def seat_url(self, key: str) -> str:
        """The link of vehicle ``key``'s seat (its own sheet in full)."""
        return f"http://{self.host}:{self.port}/s/{self.seat_tokens[key]}"

    def stats(self) -> ServerStats:
        counters = self._counters
        if counters is None:
            return ServerStats(0, 0, self._seq, 0)
        return ServerStats(int(counters[_CLIENTS]), int(counters[_DROPPED]), self._seq,
                           int(counters[_REFUSED]), int(counters[_CONNECTIONS]),
                           int(counters[_CLOSED_IDLE]), int(counters[_TURNED_AWAY]),
                           int(counters[_CAP]))

    # --- start and stop ------------------------------------------------------------------
    def start(self) -> None:
        """Listen: the socket is bound here (:class:`ShareError` at once if it cannot), the
        server's process is started and serves it a moment later (phones that connect
        meanwhile wait in the socket's backlog). Never waits for that process."""
        import multiprocessing

        if self.running:
            return
        listening = _listen(self.host, self.port)
        self.port = int(listening.getsockname()[1])
        context = multiprocessing.get_context("spawn")
        control_in, control_out = socket.socketpair()
        data_in, data_out = socket.socketpair()
        counters = context.Array("q", 8, lock=False)
        settings = _Settings(self.static_dir, self.max_clients, self.queue_size,
                             self._tokens(), self.answered, self.page_secret)
        process = context.Process(
            target=serve, name="carwars-phones",
            args=(settings, listening, control_in, data_in, counters), daemon=True)
        try:
            process.start()
        except OSError as error:
            control_out.close()
            data_out.close()
            raise ShareError(f"the phones' page could not start: {error}") from error
        finally:
            # The child holds its own copies now: the GUI process keeps only its ends.
            listening.close()
            control_in.close()
            data_in.close()
        self._process, self._control, self._counters = process, control_out, counters
        self._sender = _Sender(data_out)
        self._receiver = _Receiver(control_out, lambda: self.on_request)
        self._sender.put(self._latest)

    def stop(self) -> None:
        """Stop listening and close every stream: waits for the server's process to end
        (tens of milliseconds); one still starting up, or that does not end in time, is
        killed (the system closes its connections)."""
        process, self._process = self._process, None
        if process is not None:
            if self._counters is not None and self._counters[_READY]:
                self._send_control(("stop",))
                process.join(STOP_TIMEOUT)
            if process.is_alive():
                process.kill()
                process.join(STOP_TIMEOUT)
        sender, self._sender = self._sender, None
        if sender is not None:  # its pipe's reader is gone: it ends at once
            sender.close()
        receiver, self._receiver = self._receiver, None
        if receiver is not None:  # revoked with the links: queued requests are dropped
            receiver.clear()
        if self._control is not None:
            with contextlib.suppress(OSError):
                self._control.shutdown(socket.SHUT_RDWR)
            self._control.close()
            self._control = None
        if receiver is not None:
            receiver.join()

    # --- the phones' requests ------------------------------------------------------------
    def take_requests(self) -> list[PhoneMessage]:
        """The phones' requests arrived since the last call (the GUI thread's; never
        waits), only those of links still valid: one of a link revoked since (New link)
        is dropped here."""
        receiver = self._receiver
        if receiver is None:
            return []
        valid = {token: key for key, token in self.seat_tokens.items()}
        return [m for m in receiver.take() if valid.get(m.token) == m.seat]

    # --- links ---------------------------------------------------------------------------
    def add_seats(self, keys: Iterable[str]) -> None:
        """A seat link for each of ``keys`` that has none yet."""
        fresh = [key for key in keys if key not in self.seat_tokens]
        if fresh:
            self.seat_tokens.update({key: new_token() for key in fresh})
            self._send_control(("tokens", self._tokens(), False))

    def new_link(self) -> str:
        """New tokens for the common link and every seat: the old links stop working and
        their streams are closed."""
        self.token = new_token()
        self.seat_tokens = {key: new_token() for key in self.seat_tokens}
        self._send_control(("tokens", self._tokens(), True))
        if self._receiver is not None:
            self._receiver.clear()  # the old links' requests not taken yet are refused
        return self.url

    def _tokens(self) -> dict[str, str | None]:
        """Token → the vehicle of its seat (None: the common link)."""
        return {self.token: None, **{t: key for key, t in self.seat_tokens.items()}}

    def _send_control(self, message: tuple[Any, ...]) -> None:
        """A few bytes to the server's process, written at once (it reads them eagerly);
        nothing when it has ended."""
        control = self._control
        if control is None:
            return
        with contextlib.suppress(OSError):  # it ended: nothing to tell it
            control.sendall(_frame(message))

    # --- snapshots -----------------------------------------------------------------------
    def publish(self, snapshot: Mapping[str, Any],
                seats: Mapping[str, Mapping[str, Any] | None] | None = None,
                phones: Mapping[str, Mapping[str, Any]] | None = None) -> None:
        """Hand the latest snapshot to every client: ``snapshot`` (the public view) to
        the common link, and to each seat link the same plus its vehicle's own sheet
        from ``seats`` (vehicle key → sheet JSON, None while hidden) and what that seat
        may send and what became of its requests from ``phones`` (``phone``). Serialised
        here, queued for the server's process. Never blocks on the network nor on that
        process."""
        self._seq += 1
        public = _dumps({**snapshot, "seq": self._seq})
        mines = {key: _dumps(mine) for key, mine in (seats or {}).items()}
        texts = {key: _dumps(phone) for key, phone in (phones or {}).items()}
        self._latest = (public, mines, texts)
        if self._sender is not None:
            self._sender.put(self._latest)


Snapshot = tuple[str, dict[str, str], dict[str, str]]
"""What the GUI hands the server: the public JSON, each seat's sheet JSON, each seat's
``phone`` JSON."""


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _listen(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (port 0: any free one)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listening = socket.socket(family, socket.SOCK_STREAM)
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind((host, port))
        listening.listen(128)
    except OSError as error:
        listening.close()
        raise ShareError(f"cannot listen on {host}:{port}: {error}") from error
    return listening


def _frame(message: Any) -> bytes:
    """One message on a socket pair between the two processes: its length, then it."""
    body = pickle.dumps(message, pickle.HIGHEST_PROTOCOL)
    return struct.pack("!I", len(body)) + body


async def _read_frame(reader: asyncio.StreamReader) -> Any:
    """The next message (:func:`_frame`); None at the end (the other process closed)."""
    try:
        head = await reader.readexactly(4)
        body = await reader.readexactly(struct.unpack("!I", head)[0])
    except (asyncio.IncompleteReadError, ConnectionError):
        return None
    return pickle.loads(body)  # from the app's own process, over a private socket pair


class _Sender:
    """The GUI process's side of the snapshots' socket: :meth:`put` (the GUI thread) only
    appends to a bounded queue — the oldest snapshot dropped when it is full — and this
    thread writes them out, waiting there for the server's process if need be."""

    def __init__(self, pipe: socket.socket) -> None:
        self._pipe = pipe
        self._queue: deque[Snapshot] = deque(maxlen=PIPE_BACKLOG)
        self._ready = threading.Condition()
        self._closed = False
        self.dropped = 0
        self._thread = threading.Thread(target=self._run, name="phones-sender", daemon=True)
        self._thread.start()

    def put(self, snapshot: Snapshot) -> None:
        with self._ready:
            if len(self._queue) == self._queue.maxlen:
                self.dropped += 1
            self._queue.append(snapshot)
            self._ready.notify()

    def close(self) -> None:
        with self._ready:
            self._closed = True
            self._ready.notify()
        self._thread.join(STOP_TIMEOUT)
        self._pipe.close()

    def _run(self) -> None:
        while True:
            with self._ready:
                while not self._queue and not self._closed:
                    self._ready.wait()
                if self._closed:
                    return
                item = self._queue.popleft()
            try:
                self._pipe.sendall(_frame(item))
            except OSError:  # the server's process ended
                return


@dataclass(frozen=True)
class PhoneMessage:
    """A phone's request as the server passed it on: the seat (vehicle key) whose link sent
    it, that link's token (a link revoked since is known by it), the request's idempotency
    key and its JSON body (a mapping, at most :data:`REQUEST_BODY` bytes)."""

    seat: str
    token: str
    key: str
    body: dict[str, Any]


class _Receiver:
    """The GUI process's side of the requests: a thread reads them off the control socket
    into a bounded queue (the oldest dropped past :data:`REQUEST_BACKLOG`) and calls the
    GUI's callback, which only schedules :meth:`take` on the GUI's own thread."""

    def __init__(self, pipe: socket.socket,
                 callback: Callable[[], Callable[[], None] | None]) -> None:
        self._pipe = pipe
        self._callback = callback
        self._queue: deque[PhoneMessage] = deque(maxlen=REQUEST_BACKLOG)
        self._lock = threading.Lock()
        self.dropped = 0
        self._thread = threading.Thread(target=self._run, name="phones-receiver", daemon=True)
        self._thread.start()

    def take(self) -> list[PhoneMessage]:
        with self._lock:
            taken = list(self._queue)
            self._queue.clear()
        return taken

    def clear(self) -> None:
        with self._lock:
            self._queue.clear()

    def join(self) -> None:
        self._thread.join(STOP_TIMEOUT)

    def _run(self) -> None:
        while (message := _recv_frame(self._pipe)) is not None:
            if not (isinstance(message, tuple) and message and message[0] == "request"):
                continue
            _kind, seat, token, key, body = message
            with self._lock:
                if len(self._queue) == self._queue.maxlen:
                    self.dropped += 1
                self._queue.append(PhoneMessage(seat, token, key, body))
            callback = self._callback()
            if callback is not None:
                callback()


def _recv_frame(pipe: socket.socket) -> Any:
    """The next message on a blocking socket (:func:`_frame`); None at its end."""
    head = _recv_exactly(pipe, 4)
    if head is None:
        return None
    body = _recv_exactly(pipe, struct.unpack("!I", head)[0])
    return None if body is None else pickle.loads(body)  # the app's own child process


def _recv_exactly(pipe: socket.socket, size: int) -> bytes | None:
    data = b""
    while len(data) < size:
        try:
            chunk = pipe.recv(size - len(data))
        except OSError:
            return None
        if not chunk:
            return None
        data += chunk
    return data


def page_token(secret: bytes, token: str, nonce: str | None = None) -> str:
    """A page token for the page served on link ``token``: a fresh nonce (one per page
    served) and its signature by this server's ``secret`` for that link."""
    nonce = nonce or secrets.token_urlsafe(12)
    mac = hmac.new(secret, f"{token}|{nonce}".encode(), hashlib.sha256).hexdigest()[:32]
    return f"{nonce}.{mac}"


def page_token_valid(secret: bytes, token: str, given: str) -> bool:
    """``given`` is a page token this server signed for link ``token`` (constant time)."""
    nonce, _dot, _mac = given.partition(".")
    if not nonce or len(given) > 100:
        return False
    return hmac.compare_digest(page_token(secret, token, nonce), given)


class _SeatRate:
    """At most ``rate`` requests per ``window`` seconds from each seat."""

    def __init__(self, rate: int = SEAT_RATE, window: float = SEAT_WINDOW) -> None:
        self.rate = rate
        self.window = window
        self._times: dict[str, deque[float]] = {}

    def allow(self, seat: str) -> bool:
        now = time.monotonic()
        times = self._times.setdefault(seat, deque())
        while times and now - times[0] >= self.window:
            times.popleft()
        if len(times) >= self.rate:
            return False
        times.append(now)
        return True


# --- the server's process --------------------------------------------------------------
@dataclass(frozen=True)
class _Settings:
    static_dir: Path
    max_clients: int
    queue_size: int
    tokens: dict[str, str | None]
    answered: dict[str, dict[str, dict[str, Any]]]
    """Seat → idempotency key → its answer: the keys received before this start."""
    page_secret: bytes | None = None
    """Signs the page tokens (None: a new secret of the process's own)."""


def serve(settings: _Settings, listening: socket.socket, control: socket.socket,
          data: socket.socket, counters: Any) -> None:
    """The server's process: serve ``listening`` until told to stop on ``control`` or
    until the GUI process is gone (``control`` closed)."""

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the app's to handle
    _log_to_stderr()
    site = _Site(settings, counters, listening.getsockname()[:2])
    asyncio.run(site.serve(listening, control, data))


def connection_cap(limit: int = MAX_CONNECTIONS) -> int:
    """The most connections to keep open: ``limit``, lowered to leave
    :data:`RESERVED_FILES` of the process's open-file limit (256 on macOS) free."""
    try:
        import resource
    except ImportError:  # Windows: no such limit on sockets
        return limit
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return limit
    return max(8, min(limit, int(soft) - RESERVED_FILES))


_TOKEN_IN_PATH = re.compile(r"/s/[^/\s]+")


def printable(text: str, limit: int = 120) -> str:
    """``text`` for one log line: the token of a link left out, no control character
    (a request cannot write lines of its own into the log), at most ``limit`` long."""
    shown = _TOKEN_IN_PATH.sub("/s/<token>", text[:limit])
    return ascii(shown)[1:-1] + ("…" if len(text) > limit else "")


class _LogBudget(logging.Filter):
    """At most ``burst`` lines per ``window`` seconds; the next line let through says how
    many were left out."""

    def __init__(self, burst: int = LOG_BURST, window: float = LOG_WINDOW) -> None:
        super().__init__()
        self.burst = burst
        self.window = window
        self._times: deque[float] = deque()
        self.left_out = 0

    def filter(self, record: logging.LogRecord) -> bool:
        now = time.monotonic()
        while self._times and now - self._times[0] >= self.window:
            self._times.popleft()
        if len(self._times) >= self.burst:
            self.left_out += 1
            return False
        self._times.append(now)
        if self.left_out:
            record.msg = f"{record.getMessage()} ({self.left_out} more not logged before this)"
            record.args = None
            self.left_out = 0
        return True


class _OneLine(logging.Filter):
    """aiohttp's own log of a request it could not parse (a traceback) as one line; its
    other debug lines dropped. A fault of the server itself keeps its traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, HttpProcessingError):
            record.msg = "%s: %s malformed request refused (%s)"
            record.args = (record.args[0] if isinstance(record.args, tuple) and record.args
                           else "?", error.code, printable(error.message or type(error).__name__))
            record.exc_info = record.exc_text = None
            record.levelno, record.levelname = logging.INFO, "INFO"
            return True
        return record.levelno >= logging.WARNING


def _log_to_stderr() -> None:
    """The server process's lines on its standard error (the GM's terminal), one each."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s carwars phones: %(message)s"))
    handler.addFilter(_LogBudget())
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False
    http = log.getChild("http")  # aiohttp's log of the requests it refuses itself
    http.setLevel(logging.DEBUG)
    http.addFilter(_OneLine())


@dataclass(eq=False)
class _Connection:
    address: str
    transport: asyncio.BaseTransport
    idle_since: float | None
    """The loop's time since when it waits for a request (None while one is handled)."""


class _Gate:
    """The protocol factory of the listening socket: each connection is admitted, or an
    idle one closed for it, or it is closed at once, before aiohttp reads a byte of it;
    :meth:`sweep` closes those that wait longer than :data:`IDLE_TIMEOUT` for a request.
    :meth:`busy` and :meth:`idle` are told by the request guard."""

    def __init__(self, make_handler: Any, counters: Any, limit: int, per_address: int,
                 idle_timeout: float = IDLE_TIMEOUT) -> None:
        self.make_handler = make_handler
        self.limit = limit
        self.per_address = per_address
        self.idle_timeout = idle_timeout
        self._counters = counters
        self._open: OrderedDict[asyncio.BaseTransport, _Connection] = OrderedDict()
        """Oldest first."""

    def __call__(self) -> asyncio.Protocol:
        return _Guarded(self)

    def _now(self) -> float:
        return asyncio.get_running_loop().time()

    def admit(self, transport: asyncio.BaseTransport) -> bool:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if peer else "?"
        for limit, which in ((self.per_address, "from this address"), (self.limit, "in all")):
            crowd = [c for c in self._open.values()
                     if which == "in all" or c.address == address]
            if len(crowd) < limit:
                continue
            idle = next((c for c in crowd if c.idle_since is not None), None)
            self._counters[_TURNED_AWAY] += 1
            if idle is None:
                log.info("%s: connection refused: %d connections %s, none idle", address,
                         limit, which)
                return False
            log.info("%s: closed an idle connection of %s: %d connections %s", address,
                     idle.address, limit, which)
            self._close(idle)
        self._open[transport] = _Connection(address, transport, self._now())
        self._counters[_CONNECTIONS] = len(self._open)
        return True

    def gone(self, transport: asyncio.BaseTransport) -> None:
        self._open.pop(transport, None)
        self._counters[_CONNECTIONS] = len(self._open)

    def busy(self, transport: asyncio.BaseTransport | None) -> None:
        found = self._open.get(transport) if transport is not None else None
        if found is not None:
            found.idle_since = None

    def idle(self, transport: asyncio.BaseTransport | None) -> None:
        found = self._open.get(transport) if transport is not None else None
        if found is not None:
            found.idle_since = self._now()

    def sweep(self) -> None:
        deadline = self._now() - self.idle_timeout
        late = [c for c in self._open.values()
                if c.idle_since is not None and c.idle_since <= deadline]
        for connection in late:
            self._counters[_CLOSED_IDLE] += 1
            log.info("%s: closed a connection that sent no request within %g s",
                     connection.address, self.idle_timeout)
            self._close(connection)

    def _close(self, connection: _Connection) -> None:
        self._open.pop(connection.transport, None)
        self._counters[_CONNECTIONS] = len(self._open)
        abort = getattr(connection.transport, "abort", None)
        if abort is not None:
            abort()
        else:
            connection.transport.close()


class _Guarded(asyncio.Protocol):
    """One connection: aiohttp's handler of it, made only once :class:`_Gate` admitted it."""

    def __init__(self, gate: _Gate) -> None:
        self._gate = gate
        self._inner: asyncio.Protocol | None = None
        self._transport: asyncio.BaseTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if not self._gate.admit(transport):
            abort = getattr(transport, "abort", None)
            (abort or transport.close)()
            return
        self._transport = transport
        self._inner = self._gate.make_handler()
        self._inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self._inner is not None:
            self._inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self._inner.eof_received() if self._inner is not None else None

    def pause_writing(self) -> None:
        if self._inner is not None:
            self._inner.pause_writing()

    def resume_writing(self) -> None:
        if self._inner is not None:
            self._inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._transport is not None:
            self._gate.gone(self._transport)
        if self._inner is not None:
            self._inner.connection_lost(exc)


@dataclass(eq=False)
class _Client:
    queue: asyncio.Queue[bytes | None]
    task: asyncio.Task[Any] | None
    transport: asyncio.BaseTransport | None
    seat: str | None = None
    address: str = "?"
    dropped: bool = False

    def close(self) -> None:
        """End the stream at once: the connection is aborted (unsent data dropped), so a
        stalled reader cannot hold a write open."""
        if self.transport is not None and not self.transport.is_closing():
            abort = getattr(self.transport, "abort", None)
            if abort is not None:
                abort()
            else:
                self.transport.close()
        elif self.task is not None:
            self.task.cancel()


class _Site:
    """The aiohttp application of the server's process and its clients."""

    def __init__(self, settings: _Settings, counters: Any,
                 address: tuple[str, int] = ("127.0.0.1", 0)) -> None:
        self.host = ipaddress.ip_address(address[0])
        """The address the GM chose: the only one a request may name as its ``Host``."""
        self.port = int(address[1])
        self.max_clients = settings.max_clients
        self.queue_size = settings.queue_size
        self.guesses = GuessLimit()
        self._tokens = dict(settings.tokens)
        self._files = {name: ((settings.static_dir / file).read_bytes(), kind)
                       for name, (file, kind) in STATIC.items()}
        self._latest: dict[str | None, str] = {None: "{}"}
        """The last snapshot per link: None the common one, else the seat's vehicle key."""
        self._counters = counters
        self._clients: dict[_Client, None] = {}
        """The open streams, oldest first."""
        self._stopping = asyncio.Event()
        self._secret = settings.page_secret or secrets.token_bytes(32)
        """Signs the page tokens (:func:`page_token`): the server's (its GUI's) alone."""
        self._rate = _SeatRate()
        self._answered: dict[str, OrderedDict[str, dict[str, Any]]] = {
            seat: OrderedDict(list(keys.items())[-KEYS_KEPT:])
            for seat, keys in settings.answered.items()}
        """Seat → idempotency key → the answer its request got (the last :data:`KEYS_KEPT`)."""
        self._to_gui: asyncio.StreamWriter | None = None

    def _count(self) -> None:
        self._counters[_CLIENTS] = len(self._clients)

    async def serve(self, listening: socket.socket, control: socket.socket,
                    data: socket.socket) -> None:
        app = web.Application(middlewares=[self._guard], client_max_size=MAX_BODY)
        app.on_response_prepare.append(self._headers)
        app.router.add_get(ICON, self._no_icon)
        app.router.add_get("/s/{token}", self._redirect)
        app.router.add_get("/s/{token}/", self._static)
        app.router.add_get("/s/{token}/state", self._state)
        app.router.add_get("/s/{token}/events", self._events)
        app.router.add_post("/s/{token}/request", self._request)
        app.router.add_get("/s/{token}/{name}", self._static)
        runner = web.AppRunner(
            app, access_log=None, handle_signals=False, shutdown_timeout=0.5,
            # The gate's sweep closes idle connections (and counts them); aiohttp's own
            # timer, a little later, only if the sweep could not.
            keepalive_timeout=IDLE_TIMEOUT + 2 * SWEEP, lingering_time=1.0, max_line_size=4096,
            max_field_size=4096, max_headers=64, logger=log.getChild("http"))
        await runner.setup()
        assert runner.server is not None
        cap = connection_cap()
        self._counters[_CAP] = cap
        self.gate = _Gate(runner.server, self._counters, cap, min(MAX_PER_ADDRESS, cap))
        control_reader, control_writer = await asyncio.open_connection(sock=control)
        self._to_gui = control_writer
        data_reader, data_writer = await asyncio.open_connection(sock=data)
        helpers = [asyncio.create_task(self._follow_control(control_reader)),
                   asyncio.create_task(self._follow_data(data_reader))]
        try:
            await asyncio.get_running_loop().create_server(self.gate, sock=listening,
                                                           backlog=128)
            self._counters[_READY] = 1
            helpers.append(asyncio.create_task(self._keep_alive()))
            helpers.append(asyncio.create_task(self._sweep()))
            await self._stopping.wait()
            # Nothing to save: every stream is aborted and the process ends at once, which
            # closes the listening socket (the GUI waits for this, so no slow teardown).
            self._close_all()
            os._exit(0)
        finally:
            for helper in helpers:
                helper.cancel()
            control_writer.close()
            data_writer.close()
            streams = [c.task for c in self._clients if c.task is not None]
            self._close_all()
            if streams:
                await asyncio.wait(streams, timeout=1.0)
            await runner.cleanup()

    # --- what the GUI process says -------------------------------------------------------
    async def _follow_control(self, reader: asyncio.StreamReader) -> None:
        """The links' tokens and *stop*; the end of the stream (the GUI process is gone)
        stops the page too."""
        while (message := await _read_frame(reader)) is not None:
            if message[0] == "tokens":
                self._tokens = dict(message[1])
                if message[2]:  # revoked: every stream of the old links is closed
                    self._close_all()
                    self._answered.clear()
            elif message[0] == "stop":
                break
        self._stopping.set()

    async def _follow_data(self, reader: asyncio.StreamReader) -> None:
        while (message := await _read_frame(reader)) is not None:
            public, mines, phones = message
            self._deliver(seat_texts(public, mines, phones))

    # --- requests ------------------------------------------------------------------------
    @staticmethod
    async def _headers(_request: web.Request, response: web.StreamResponse) -> None:
        response.headers.update(SECURITY_HEADERS)
        response.headers["Server"] = SERVER_NAME

    @web.middleware
    async def _guard(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """Every request: its ``Host``, its body, its method, its address's guesses and its
        token checked in that order; a refusal is one log line."""
        self.gate.busy(request.transport)
        try:
            self._check(request)
            response: web.StreamResponse = await handler(request)
        except web.HTTPException as refused:
            if refused.status >= 400:
                log.info("%s: %s %s: %d %s", request.remote or "?", printable(request.method, 12),
                         printable(request.raw_path), refused.status,
                         printable(refused.text or refused.reason))
            raise
        finally:
            self.gate.idle(request.transport)
        return response

    def _check(self, request: web.Request) -> None:
        who = request.remote or "?"
        hosts = request.headers.getall("Host", [])
        if len(hosts) != 1:
            raise web.HTTPBadRequest(text="one Host header, please")
        if not self._host_matches(hosts[0]):
            raise web.HTTPMisdirectedRequest(
                text=f"this page answers only at its own address, not Host {hosts[0]!r}")
        if request.content_length is not None and request.content_length > MAX_BODY:
            error = web.HTTPRequestEntityTooLarge(MAX_BODY, request.content_length)
            error.force_close()
            raise error
        if request.content_length is None and request.body_exists:
            raise web.HTTPLengthRequired(text="a body needs its length")
        writes = request.path.endswith("/request")  # a seat's requests: POST only
        if writes and request.method != "POST":
            raise web.HTTPMethodNotAllowed(request.method, ["POST"])
        if not writes and request.method not in ("GET", "HEAD"):
            raise web.HTTPMethodNotAllowed(request.method, ["GET", "HEAD"])
        if self.guesses.blocked(who):
            self._counters[_REFUSED] += 1
            raise web.HTTPTooManyRequests(text="too many wrong links: wait a minute")
        if request.path == ICON:
            return  # asked by the browser itself on every page: neither a guess nor a refusal
        given = request.match_info.get("token")
        # Every token compared, in constant time each: which one matched shows in no timing.
        matches = [token for token in self._tokens if token_matches(given or "", token)]
        if given is None or not matches:
            self.guesses.wrong(who)
            raise web.HTTPNotFound(text="Not found")

    def _host_matches(self, host: str) -> bool:
        """``host`` (a ``Host`` header) names the address the GM chose and its port (the
        port may go unsaid when it is 80)."""
        name, _colon, port = host.rpartition(":")
        if not _colon or (name.startswith("[") != name.endswith("]")) or "]" in port:
            name, port = host, ""  # no port (an IPv6 address alone is bracketed)
        try:
            address = ipaddress.ip_address(name.removeprefix("[").removesuffix("]"))
        except ValueError:
            return False
        if address != self.host:
            return False
        return port == str(self.port) if port else self.port == 80

    def _seat(self, request: web.Request) -> str | None:
        """The vehicle of the request's seat link (None: the common link); its token was
        found by :meth:`_guard` (a link revoked since gets 404)."""
        token = request.match_info["token"]
        if token not in self._tokens:
            raise web.HTTPNotFound(text="Not found")
        return self._tokens[token]

    def _latest_of(self, seat: str | None) -> str:
        return self._latest.get(seat) or seat_text(self._latest[None], seat, None)

    @staticmethod
    async def _no_icon(_request: web.Request) -> web.StreamResponse:
        return web.Response(status=204)

    async def _redirect(self, request: web.Request) -> web.StreamResponse:
        raise web.HTTPFound(f"/s/{request.match_info['token']}/")

    async def _static(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info.get("name", "")
        found = self._files.get(name)
        if found is None:
            raise web.HTTPNotFound(text="Not found")
        body, kind = found
        if name == "" and self._seat(request) is not None:
            # A seat's page: its own page token, which its requests must carry.
            signed = page_token(self._secret, request.match_info["token"])
            body = body.replace(PAGE_META, PAGE_META.replace(
                b'content=""', f'content="{signed}"'.encode()))
        return web.Response(body=body, content_type=kind, charset="utf-8")

    # --- the phones' requests ------------------------------------------------------------
    async def _request(self, request: web.Request) -> web.StreamResponse:
        """A seat's request (see the module docstring): checked here, then passed to the
        GUI process (202), or refused with its reason (one log line, by the guard)."""
        seat = self._seat(request)
        if seat is None:
            raise web.HTTPForbidden(text="the table's link is read-only: use your seat's link")
        origin = request.headers.get("Origin", "")
        if origin != self._origin():
            raise web.HTTPForbidden(text=f"refused a request from another page ({origin!r})")
        token = request.match_info["token"]
        if not page_token_valid(self._secret, token, request.headers.get(PAGE_HEADER, "")):
            raise web.HTTPForbidden(text="this page is out of date: reload it")
        if request.content_length is None or request.content_length > REQUEST_BODY:
            error = web.HTTPRequestEntityTooLarge(REQUEST_BODY, request.content_length or 0)
            error.force_close()
            raise error
        try:
            body = json.loads(await request.read())
        except (ValueError, UnicodeDecodeError):
            raise web.HTTPBadRequest(text="a request is a JSON object") from None
        key = body.get("key") if isinstance(body, dict) else None
        if not isinstance(key, str) or not 8 <= len(key) <= 64:
            raise web.HTTPBadRequest(text="a request needs its key (8 to 64 characters)")
        answered = self._answered.setdefault(seat, OrderedDict())
        if key in answered:  # a retry: answered again, passed on never twice
            return web.json_response({**answered[key], "again": True})
        if not self._rate.allow(seat):
            raise web.HTTPTooManyRequests(text="too many requests from this seat: wait a moment")
        writer = self._to_gui
        if writer is None or writer.transport.get_write_buffer_size() > GUI_BACKLOG:
            raise web.HTTPServiceUnavailable(text="the GM's table is busy: try again")
        writer.write(_frame(("request", seat, token, key, body)))
        answer = {"key": key, "state": "sent"}
        answered[key] = answer
        while len(answered) > KEYS_KEPT:
            answered.popitem(last=False)
        return web.json_response(answer, status=202)

    def _origin(self) -> str:
        """The ``Origin`` of this page: the address the GM chose and its port."""
        host = f"[{self.host}]" if self.host.version == 6 else str(self.host)
        return f"http://{host}" + ("" if self.port == 80 else f":{self.port}")

    async def _state(self, request: web.Request) -> web.StreamResponse:
        return web.Response(text=self._latest_of(self._seat(request)),
                            content_type="application/json")

    async def _events(self, request: web.Request) -> web.StreamResponse:
        seat = self._seat(request)
        address = request.remote or "?"
        self._admit_stream(seat, address)
        client = _Client(asyncio.Queue(self.queue_size), asyncio.current_task(),
                         request.transport, seat, address)
        self._clients[client] = None
        self._count()
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        try:
            await response.prepare(request)
            first = self._event(self._latest_of(client.seat))
            await self._write(response, b"retry: 1500\n\n" + first)
            while True:
                data = await client.queue.get()
                if data is None:
                    break
                await self._write(response, data)
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            self._clients.pop(client, None)
            self._count()
        return response

    def _admit_stream(self, seat: str | None, address: str) -> None:
        """Room for one more stream of ``seat`` (None: the common link) from ``address``:
        a seat's own streams are reserved (its oldest one closed past
        :data:`SEAT_STREAMS`); the common link's are limited per address (429) and in all
        (503)."""
        if seat is not None:
            streams = [c for c in self._clients if c.seat == seat]
            if len(streams) >= SEAT_STREAMS:
                oldest = streams[0]
                log.info("%s: closed the oldest of seat %s's %d streams for a new one",
                         oldest.address, printable(seat, 20), SEAT_STREAMS)
                self._clients.pop(oldest, None)
                self._count()
                oldest.close()
            return
        common = [c for c in self._clients if c.seat is None]
        if sum(1 for c in common if c.address == address) >= COMMON_PER_ADDRESS:
            raise web.HTTPTooManyRequests(
                text="this device already follows the game on this link: close a page first")
        if len(common) >= self.max_clients:
            raise web.HTTPServiceUnavailable(text="too many devices are following this game")

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(SWEEP)
            self.gate.sweep()

    @staticmethod
    def _event(text: str) -> bytes:
        return f"data: {text}\n\n".encode()

    @staticmethod
    async def _write(response: web.StreamResponse, data: bytes) -> None:
        """A write waits while the client's socket is full; a client that stays full
        lets its queue fill and is dropped (:meth:`_drop` aborts the connection, which
        ends this wait)."""
        await response.write(data)

    async def _keep_alive(self) -> None:
        """A comment line on every stream now and then: a dead connection shows up,
        and a stalled one fills its queue and is dropped even when the game is quiet."""
        while True:
            await asyncio.sleep(KEEPALIVE)
            self._put_all({}, b": keep-alive\n\n")

    def _deliver(self, texts: dict[str | None, str]) -> None:
        self._latest = texts
        # Encoded once per link, whatever the number of phones following it.
        self._put_all({seat: self._event(text) for seat, text in texts.items()},
                      self._event(texts[None]))

    def _put_all(self, by_seat: Mapping[str | None, bytes], common: bytes) -> None:
        for client in list(self._clients):
            data = by_seat.get(client.seat, common) if client.seat is not None else common
            try:
                client.queue.put_nowait(data)
            except asyncio.QueueFull:
                self._drop(client)

    def _drop(self, client: _Client) -> None:
        """A client too slow to keep up: its stream is closed (it may reconnect)."""
        if client.dropped:
            return
        client.dropped = True
        self._counters[_DROPPED] += 1
        self._clients.pop(client, None)
        self._count()
        client.close()

    def _close_all(self) -> None:
        for client in list(self._clients):
            self._clients.pop(client, None)
            client.close()
        self._count()


def seat_text(public: str, seat: str | None, mine: str | None,
              phone: str | None = None) -> str:
    """The snapshot of seat ``seat``: the public JSON object ``public`` with the seat's key,
    its own sheet (``mine``, JSON text; None while hidden) and what it may send and what
    became of its requests (``phone``, JSON text; None: nothing) added — the public text
    itself for the common link."""
    if seat is None:
        return public
    extra = (f'"seat":{_dumps(seat)},"mine":{mine if mine is not None else "null"},'
             f'"phone":{phone if phone is not None else "null"}}}')
    return f"{public[:-1]},{extra}" if public != "{}" else "{" + extra


def seat_texts(public: str, mines: Mapping[str, str],
               phones: Mapping[str, str] | None = None) -> dict[str | None, str]:
    """The snapshot of every link: None the common one, each seat's key its own (a seat
    whose sheet is not among ``mines`` gets the public text with ``mine`` null)."""
    phones = phones or {}
    return {None: public, **{key: seat_text(public, key, mine, phones.get(key))
                             for key, mine in mines.items()}}
