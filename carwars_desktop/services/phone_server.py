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
constant time; New link revokes them all.

What it serves, under ``/s/<token>/`` only (anything else, or a wrong token: 404):
the page, its script and style sheet (a fixed list: no directory listing), the
current snapshot (``state``) and a Server-Sent Events stream of snapshots
(``events``). Only GET and HEAD; no endpoint changes the game. Every response has a
strict Content-Security-Policy (``default-src 'self'``, no inline script), ``nosniff``,
no referrer (the token is in the URL) and no server version.

Bounded: at most :data:`MAX_CLIENTS` streams; each has a queue of
:data:`QUEUE_SIZE` snapshots, and a client that lets it fill (a stalled phone, a
malicious reader) is dropped; the others and the GM's window go on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import pickle
import socket
import struct
import threading
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import web

from carwars_desktop.services.share_network import (
    GuessLimit,
    new_token,
    token_matches,
)

if TYPE_CHECKING:
    from multiprocessing.process import BaseProcess

MAX_CLIENTS = 16
QUEUE_SIZE = 64
"""Snapshots waiting per client before it counts as too slow and is dropped."""
PIPE_BACKLOG = 256
"""Snapshots waiting for the server's process before the oldest is dropped."""
KEEPALIVE = 15.0
"""Seconds between comment lines on an idle stream (a dead connection shows up)."""
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
SERVER_NAME = "carwars"
"""The Server header (aiohttp would name itself and its version)."""

_CLIENTS, _DROPPED, _REFUSED, _READY = range(4)
"""Slots of the counters the server's process keeps in shared memory."""


class ShareError(RuntimeError):
    """The server could not start (the port is taken, the address is not this computer's)."""


@dataclass(frozen=True)
class ServerStats:
    clients: int
    dropped: int
    published: int
    refused: int


class PhoneServer:
    """One sharing: an address, a port, the links' tokens. :meth:`start`, :meth:`publish`,
    :meth:`new_link`, :meth:`add_seats`, :meth:`stop` are called from the GUI thread."""

    def __init__(self, static_dir: Path, host: str, port: int, token: str | None = None,
                 max_clients: int = MAX_CLIENTS, queue_size: int = QUEUE_SIZE,
                 seat_tokens: Mapping[str, str] | None = None) -> None:
        self.static_dir = static_dir
        self.host = host
        self.port = port
        self.token = token or new_token()
        self.seat_tokens: dict[str, str] = dict(seat_tokens or {})
        """Vehicle key → the token of its seat link."""
        self.max_clients = max_clients
        self.queue_size = queue_size
        self._seq = 0
        self._latest: tuple[str, dict[str, str]] = ("{}", {})
        """The last snapshot handed over (sent to a server started later)."""
        self._process: BaseProcess | None = None
        self._control: socket.socket | None = None
        self._counters: Any = None
        self._sender: _Sender | None = None

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
                           int(counters[_REFUSED]))

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
        counters = context.Array("q", 4, lock=False)
        settings = _Settings(self.static_dir, self.max_clients, self.queue_size,
                             self._tokens())
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
        public, mines = self._latest
        self._sender.put(public, mines)

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
        if self._control is not None:
            self._control.close()
            self._control = None

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
                seats: Mapping[str, Mapping[str, Any] | None] | None = None) -> None:
        """Hand the latest snapshot to every client: ``snapshot`` (the public view) to
        the common link, and to each seat link the same plus its vehicle's own sheet
        from ``seats`` (vehicle key → sheet JSON, None while hidden). Serialised here,
        queued for the server's process. Never blocks on the network nor on that process."""
        self._seq += 1
        public = _dumps({**snapshot, "seq": self._seq})
        mines = {key: _dumps(mine) for key, mine in (seats or {}).items()}
        self._latest = (public, mines)
        if self._sender is not None:
            self._sender.put(public, mines)


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
        self._queue: deque[tuple[str, dict[str, str]]] = deque(maxlen=PIPE_BACKLOG)
        self._ready = threading.Condition()
        self._closed = False
        self.dropped = 0
        self._thread = threading.Thread(target=self._run, name="phones-sender", daemon=True)
        self._thread.start()

    def put(self, public: str, mines: dict[str, str]) -> None:
        with self._ready:
            if len(self._queue) == self._queue.maxlen:
                self.dropped += 1
            self._queue.append((public, mines))
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


# --- the server's process --------------------------------------------------------------
@dataclass(frozen=True)
class _Settings:
    static_dir: Path
    max_clients: int
    queue_size: int
    tokens: dict[str, str | None]


def serve(settings: _Settings, listening: socket.socket, control: socket.socket,
          data: socket.socket, counters: Any) -> None:
    """The server's process: serve ``listening`` until told to stop on ``control`` or
    until the GUI process is gone (``control`` closed)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the app's to handle
    site = _Site(settings, counters)
    asyncio.run(site.serve(listening, control, data))


@dataclass(eq=False)
class _Client:
    queue: asyncio.Queue[bytes | None]
    task: asyncio.Task[Any] | None
    transport: asyncio.BaseTransport | None
    seat: str | None = None
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

    def __init__(self, settings: _Settings, counters: Any) -> None:
        self.max_clients = settings.max_clients
        self.queue_size = settings.queue_size
        self.guesses = GuessLimit()
        self._tokens = dict(settings.tokens)
        self._files = {name: ((settings.static_dir / file).read_bytes(), kind)
                       for name, (file, kind) in STATIC.items()}
        self._latest: dict[str | None, str] = {None: "{}"}
        """The last snapshot per link: None the common one, else the seat's vehicle key."""
        self._counters = counters
        self._clients: set[_Client] = set()
        self._stopping = asyncio.Event()

    def _count(self) -> None:
        self._counters[_CLIENTS] = len(self._clients)

    async def serve(self, listening: socket.socket, control: socket.socket,
                    data: socket.socket) -> None:
        app = web.Application(middlewares=[self._guard])
        app.on_response_prepare.append(self._headers)
        app.router.add_get("/s/{token}", self._redirect)
        app.router.add_get("/s/{token}/", self._static)
        app.router.add_get("/s/{token}/state", self._state)
        app.router.add_get("/s/{token}/events", self._events)
        app.router.add_get("/s/{token}/{name}", self._static)
        runner = web.AppRunner(app, access_log=None, handle_signals=False,
                               shutdown_timeout=0.5)
        await runner.setup()
        control_reader, control_writer = await asyncio.open_connection(sock=control)
        data_reader, data_writer = await asyncio.open_connection(sock=data)
        helpers = [asyncio.create_task(self._follow_control(control_reader)),
                   asyncio.create_task(self._follow_data(data_reader))]
        try:
            await web.SockSite(runner, listening).start()
            self._counters[_READY] = 1
            helpers.append(asyncio.create_task(self._keep_alive()))
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
            elif message[0] == "stop":
                break
        self._stopping.set()

    async def _follow_data(self, reader: asyncio.StreamReader) -> None:
        while (message := await _read_frame(reader)) is not None:
            public, mines = message
            self._deliver(seat_texts(public, mines))

    # --- requests ------------------------------------------------------------------------
    @staticmethod
    async def _headers(_request: web.Request, response: web.StreamResponse) -> None:
        response.headers.update(SECURITY_HEADERS)
        response.headers["Server"] = SERVER_NAME

    @web.middleware
    async def _guard(self, request: web.Request, handler: Any) -> web.StreamResponse:
        who = request.remote or "?"
        if request.method not in ("GET", "HEAD"):
            raise web.HTTPMethodNotAllowed(request.method, ["GET", "HEAD"])
        if self.guesses.blocked(who):
            self._counters[_REFUSED] += 1
            raise web.HTTPTooManyRequests(text="too many wrong links: wait a minute")
        given = request.match_info.get("token")
        # Every token compared, in constant time each: which one matched shows in no timing.
        matches = [token for token in self._tokens if token_matches(given or "", token)]
        if given is None or not matches:
            self.guesses.wrong(who)
            raise web.HTTPNotFound(text="Not found")
        response: web.StreamResponse = await handler(request)
        return response

    def _seat(self, request: web.Request) -> str | None:
        """The vehicle of the request's seat link (None: the common link); its token was
        found by :meth:`_guard` (a link revoked since gets 404)."""
        token = request.match_info["token"]
        if token not in self._tokens:
            raise web.HTTPNotFound(text="Not found")
        return self._tokens[token]

    def _latest_of(self, seat: str | None) -> str:
        return self._latest.get(seat) or seat_text(self._latest[None], seat, None)

    async def _redirect(self, request: web.Request) -> web.StreamResponse:
        raise web.HTTPFound(f"/s/{request.match_info['token']}/")

    async def _static(self, request: web.Request) -> web.StreamResponse:
        found = self._files.get(request.match_info.get("name", ""))
        if found is None:
            raise web.HTTPNotFound(text="Not found")
        body, kind = found
        return web.Response(body=body, content_type=kind, charset="utf-8")

    async def _state(self, request: web.Request) -> web.StreamResponse:
        return web.Response(text=self._latest_of(self._seat(request)),
                            content_type="application/json")

    async def _events(self, request: web.Request) -> web.StreamResponse:
        seat = self._seat(request)
        if len(self._clients) >= self.max_clients:
            raise web.HTTPServiceUnavailable(text="too many devices are following this game")
        client = _Client(asyncio.Queue(self.queue_size), asyncio.current_task(),
                         request.transport, seat)
        self._clients.add(client)
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
            self._clients.discard(client)
            self._count()
        return response

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
        self._clients.discard(client)
        self._count()
        client.close()

    def _close_all(self) -> None:
        for client in list(self._clients):
            self._clients.discard(client)
            client.close()
        self._count()


def seat_text(public: str, seat: str | None, mine: str | None) -> str:
    """The snapshot of seat ``seat``: the public JSON object ``public`` with the seat's key
    and its own sheet (``mine``, JSON text; None while hidden) added — the public text
    itself for the common link."""
    if seat is None:
        return public
    extra = f'"seat":{_dumps(seat)},"mine":{mine if mine is not None else "null"}}}'
    return f"{public[:-1]},{extra}" if public != "{}" else "{" + extra


def seat_texts(public: str, mines: Mapping[str, str]) -> dict[str | None, str]:
    """The snapshot of every link: None the common one, each seat's key its own (a seat
    whose sheet is not among ``mines`` gets the public text with ``mine`` null)."""
    return {None: public, **{key: seat_text(public, key, mine) for key, mine in mines.items()}}
