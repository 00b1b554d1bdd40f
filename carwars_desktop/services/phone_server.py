"""The players' phones page: a read-only web server on its own thread (aiohttp).

Imported only when the GM turns on *Share to players' devices* (aiohttp stays off
the start-up path). :class:`PhoneServer` runs an asyncio loop on a thread of its
own; the GUI thread only hands it the latest snapshot (:meth:`PhoneServer.publish`:
``loop.call_soon_threadsafe``, never a wait on the network).

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
import json
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp import web

from carwars_desktop.services.share_network import (
    GuessLimit,
    new_token,
    token_matches,
)

MAX_CLIENTS = 16
QUEUE_SIZE = 64
"""Snapshots waiting per client before it counts as too slow and is dropped."""
KEEPALIVE = 15.0
"""Seconds between comment lines on an idle stream (a dead connection shows up)."""
START_TIMEOUT = 5.0

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


class ShareError(RuntimeError):
    """The server could not start (the port is taken, the address is not this computer's)."""


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


@dataclass(frozen=True)
class ServerStats:
    clients: int
    dropped: int
    published: int
    refused: int


class PhoneServer:
    """One sharing: an address, a port, a token. :meth:`start`, :meth:`publish`,
    :meth:`new_link`, :meth:`stop` are called from the GUI thread."""

    def __init__(self, static_dir: Path, host: str, port: int, token: str | None = None,
                 max_clients: int = MAX_CLIENTS, queue_size: int = QUEUE_SIZE,
                 seat_tokens: Mapping[str, str] | None = None) -> None:
        self.static_dir = static_dir
        self.host = host
        self.port = port
        self.token = token or new_token()
        self.seat_tokens: dict[str, str] = dict(seat_tokens or {})
        """Vehicle key → the token of its seat link."""
        self._tokens = self._token_map()
        self.max_clients = max_clients
        self.queue_size = queue_size
        self.guesses = GuessLimit()
        self._files = {name: ((static_dir / file).read_bytes(), kind)
                       for name, (file, kind) in STATIC.items()}
        self._latest: dict[str | None, str] = {None: "{}"}
        """The last snapshot per link: None the common one, else the seat's vehicle key."""
        self._seq = 0
        self._clients: set[_Client] = set()
        self._dropped = 0
        self._refused = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self._stopping: asyncio.Event | None = None
        self._started = threading.Event()
        self._error: BaseException | None = None

    # --- the GUI thread's side ---------------------------------------------------------
    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/s/{self.token}"

    def seat_url(self, key: str) -> str:
        """The link of vehicle ``key``'s seat (its own sheet in full)."""
        return f"http://{self.host}:{self.port}/s/{self.seat_tokens[key]}"

    def add_seats(self, keys: Iterable[str]) -> None:
        """A seat link for each of ``keys`` that has none yet."""
        fresh = [key for key in keys if key not in self.seat_tokens]
        if fresh:
            self.seat_tokens.update({key: new_token() for key in fresh})
            self._tokens = self._token_map()

    def _token_map(self) -> dict[str, str | None]:
        return {self.token: None, **{t: key for key, t in self.seat_tokens.items()}}

    def start(self) -> None:
        """Listen (returns once bound, in milliseconds); :class:`ShareError` if it cannot."""
        if self.running:
            return
        self._started.clear()
        self._error = None
        self._thread = threading.Thread(target=self._run, name="phones-page", daemon=True)
        self._thread.start()
        if not self._started.wait(START_TIMEOUT):
            raise ShareError("the phones' page did not start in time")
        if self._error is not None:
            self._thread.join(START_TIMEOUT)
            self._thread = None
            raise ShareError(f"cannot listen on {self.host}:{self.port}: {self._error}")

    def publish(self, snapshot: Mapping[str, Any],
                seats: Mapping[str, Mapping[str, Any] | None] | None = None) -> None:
        """Hand the latest snapshot to every client: ``snapshot`` (the public view) to
        the common link, and to each seat link the same plus its vehicle's own sheet
        from ``seats`` (vehicle key → sheet JSON, None while hidden). Serialised here,
        delivered on the server's loop. Never blocks on the network."""
        self._seq += 1
        texts = seat_texts(json.dumps({**snapshot, "seq": self._seq}, separators=(",", ":"),
                                      ensure_ascii=False), self.seat_tokens, seats or {})
        if not self._call(self._deliver, texts):
            self._latest = texts

    def new_link(self) -> str:
        """New tokens for the common link and every seat: the old links stop working and
        their streams are closed."""
        self.token = new_token()
        self.seat_tokens = {key: new_token() for key in self.seat_tokens}
        self._tokens = self._token_map()
        self._call(self._close_all)
        return self.url

    def stop(self) -> None:
        """Stop listening and close every stream (waits for the thread, a few ms)."""
        stopping = self._stopping
        if stopping is not None:
            self._call(stopping.set)
        if self._thread is not None:
            self._thread.join(START_TIMEOUT)
        self._thread = None

    def stats(self) -> ServerStats:
        return ServerStats(len(self._clients), self._dropped, self._seq, self._refused)

    def _call(self, function: Any, *args: Any) -> bool:
        """Run ``function`` on the server's loop soon (never waits); False when no loop
        runs (or it closed between the check and the call)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return False
        try:
            loop.call_soon_threadsafe(function, *args)
        except RuntimeError:
            return False
        return True

    # --- the server's thread -----------------------------------------------------------
    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            loop.run_until_complete(self._serve())
        except BaseException as error:  # reported to start(), which raises ShareError
            self._error = error
            self._started.set()
        finally:
            self._loop = None
            left = [task for task in asyncio.all_tasks(loop) if not task.done()]
            for task in left:
                task.cancel()
            if left:
                loop.run_until_complete(asyncio.gather(*left, return_exceptions=True))
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

    async def _serve(self) -> None:
        self._stopping = asyncio.Event()
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
        self._runner = runner
        site = web.TCPSite(runner, self.host, self.port, reuse_address=True)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        if self.port == 0 and site._server is not None:  # an ephemeral port (tests)
            sockets = getattr(site._server, "sockets", None) or ()
            self.port = int(sockets[0].getsockname()[1]) if sockets else 0
        self._started.set()
        keep_alive = asyncio.create_task(self._keep_alive())
        await self._stopping.wait()
        keep_alive.cancel()
        streams = [c.task for c in self._clients if c.task is not None]
        self._close_all()
        if streams:
            await asyncio.wait(streams, timeout=1.0)
        await runner.cleanup()

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
            self._refused += 1
            raise web.HTTPTooManyRequests(text="too many wrong links: wait a minute")
        given = request.match_info.get("token")
        # Every token compared, in constant time each: which one matched shows in no timing.
        matches = [token for token in self._tokens if token_matches(given or "", token)]
        if given is None or not matches:
            self.guesses.wrong(who)
            raise web.HTTPNotFound(text="Not found")
        response: web.StreamResponse = await handler(request)
        return response

    async def _redirect(self, request: web.Request) -> web.StreamResponse:
        raise web.HTTPFound(f"/s/{request.match_info['token']}/")

    async def _static(self, request: web.Request) -> web.StreamResponse:
        found = self._files.get(request.match_info.get("name", ""))
        if found is None:
            raise web.HTTPNotFound(text="Not found")
        body, kind = found
        return web.Response(body=body, content_type=kind, charset="utf-8")

    def _seat(self, request: web.Request) -> str | None:
        """The vehicle of the request's seat link (None: the common link); its token was
        found by :meth:`_guard` (a link revoked since gets 404)."""
        token = request.match_info["token"]
        if token not in self._tokens:
            raise web.HTTPNotFound(text="Not found")
        return self._tokens[token]

    def _latest_of(self, seat: str | None) -> str:
        return self._latest.get(seat) or seat_text(self._latest[None], seat, None)

    async def _state(self, request: web.Request) -> web.StreamResponse:
        return web.Response(text=self._latest_of(self._seat(request)),
                            content_type="application/json")

    async def _events(self, request: web.Request) -> web.StreamResponse:
        if len(self._clients) >= self.max_clients:
            raise web.HTTPServiceUnavailable(text="too many devices are following this game")
        client = _Client(asyncio.Queue(self.queue_size), asyncio.current_task(),
                         request.transport, self._seat(request))
        self._clients.add(client)
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
        self._dropped += 1
        self._clients.discard(client)
        client.close()

    def _close_all(self) -> None:
        for client in list(self._clients):
            self._clients.discard(client)
            client.close()


def seat_text(public: str, seat: str | None, mine: Mapping[str, Any] | None) -> str:
    """The snapshot of seat ``seat``: the public JSON object ``public`` with the seat's key
    and its own sheet ``mine`` added (the public text itself for the common link)."""
    if seat is None:
        return public
    extra = json.dumps({"seat": seat, "mine": mine}, separators=(",", ":"),
                       ensure_ascii=False)
    return f"{public[:-1]},{extra[1:]}" if public != "{}" else extra


def seat_texts(public: str, seat_tokens: Mapping[str, str],
               seats: Mapping[str, Mapping[str, Any] | None]) -> dict[str | None, str]:
    """The snapshot of every link: None the common one, each seat's key its own."""
    return {None: public, **{key: seat_text(public, key, seats.get(key))
                             for key in seat_tokens}}
