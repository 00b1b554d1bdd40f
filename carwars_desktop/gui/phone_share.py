"""Share to players' devices: the GUI's side of the phones' page.

:class:`PhoneSharing` owns the one :class:`~carwars_desktop.services.phone_server.PhoneServer`
of the window. It is off until the GM turns it on for the open session; it listens
on the address the GM chose (by default the one of the default route; a public one
only when the GM allowed it); it stops when that session closes, another opens, or
the app quits. On each change of the bus it hands the server the players' view as
a snapshot (JSON built here, delivered by the server's own thread): the GUI thread
never waits on a phone. Besides the table's common link (the public view), each
vehicle has a seat link of its own (:meth:`PhoneSharing.seats`) that also shows
that vehicle's whole record sheet. Every start makes new links (new tokens): Stop
sharing revokes them, as New link does. aiohttp and segno are imported only when sharing
starts.

While sharing is on, the session's database keeps where it listens, the links' tokens,
the page tokens' secret and whether the players' display is open
(:class:`~carwars_desktop.storage.game_sessions.StoredPhoneShare`, rewritten by New link
and a vehicle added). When the session opens again for play — the app restarted after a
crash or a quit, or the GM came back to it — :meth:`PhoneSharing.resume` listens again on
the same address and port with the same links, so the phones reconnect by themselves;
when it cannot (the port is taken now, the address is gone), :attr:`PhoneSharing.problem`
says so in words and the next start offers the next port (new links: the words say so).
Stop sharing, a crash of the page's server and the session's finish forget what was
kept: a revoked link is never listened for again.

A seat link may also send requests (a secret speed): the server passes them on, they
reach :attr:`PhoneSharing.desk` (:class:`~carwars_desktop.services.phone_requests.PhoneDesk`,
the GM's queue) on the GUI thread, queued there by a signal from the server's receiving
thread (:attr:`requests_changed` fires after each change of the queue); nothing changes
the game until the GM accepts. New link, Stop sharing and the session's end refuse the
revoked links' requests.
"""

from __future__ import annotations

import errno
import io
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from PySide6.QtCore import QObject, QTimer, Signal

from carwars_desktop.gui.change_signal import ChangeSignal
from carwars_desktop.resources import resources_dir
from carwars_desktop.services import Changes, Services
from carwars_desktop.services.phone_requests import PhoneDesk, PhoneRequest, write_errors
from carwars_desktop.services.share_network import DEFAULT_PORT, Interface, interfaces, is_public

if TYPE_CHECKING:
    from carwars_desktop.services.phone_server import PhoneServer, ShareError
    from carwars_desktop.services.players_feed import PlayersFeed
    from carwars_desktop.services.players_view import PlayersView
    from carwars_desktop.storage.game_sessions import StoredPhoneShare

PORT_TRIES = 10
"""Ports tried from :data:`DEFAULT_PORT` up when one is taken."""
WATCH_MS = 1000
"""How often the GUI checks that the page's server process still runs."""
RESUME_TRIES = 12
RESUME_RETRY_MS = 250
"""A kept port still taken when sharing resumes is tried again every
:data:`RESUME_RETRY_MS` ms, :data:`RESUME_TRIES` times in all (the page's server of an app
killed a moment ago ends once it sees its app gone): then the GM is told."""


@runtime_checkable
class ShareStore(Protocol):
    """Where a session's sharing is kept while it is on (the session's events in the
    database: ``storage.SessionEvents``): each call one committed transaction."""

    def phone_share(self) -> StoredPhoneShare | None: ...

    def keep_phone_share(self, share: StoredPhoneShare | None) -> None: ...


def qr_png(text: str, scale: int = 8) -> bytes:
    """The QR code of ``text`` as PNG bytes (segno, imported here)."""

    import segno

    out = io.BytesIO()
    segno.make_qr(text, error="m").save(out, kind="png", scale=scale, border=4)
    return out.getvalue()


class PhoneSharing(QObject):
    """See the module docstring. :attr:`changed` fires when sharing starts, stops or gets
    a new link (the Table's button, the dialog and the players' display follow it)."""

    changed = Signal()
    requests_changed = Signal()
    """The GM's queue of the phones' requests changed (arrived, accepted, refused)."""
    _arrived = Signal()
    """Emitted by the server's receiving thread: queued to the GUI thread."""
    resumed = Signal(bool, bool)
    """The session opened was shared when it was last played: (listening again with the
    same links; the players' display was open)."""

    def __init__(self, services: Services, parent: QObject | None = None,
                 choices: Callable[[bool], list[Interface]] | None = None,
                 port: int = DEFAULT_PORT) -> None:
        super().__init__(parent)
        self.services = services
        self.interfaces_of = choices or (lambda allow: interfaces(allow_public=allow))
        self.port = port
        self.server: PhoneServer | None = None
        self.feed: PlayersFeed | None = None
        self.replayed: PlayersView | None = None
        """The replay's moment shown to the players, or None."""
        self.session_id: int | None = None
        self._signal = ChangeSignal(services.bus, self)
        self._signal.changed.connect(self._on_changes)
        self.problem = ""
        """Why sharing stopped by itself (its server process ended), or empty."""
        self._watch = QTimer(self)
        self._watch.setInterval(WATCH_MS)
        self._watch.timeout.connect(self._check_server)
        self.desk = PhoneDesk(services.table)
        """The GM's queue of the phones' requests."""
        self._arrived.connect(self._take_requests)
        self.display_open = False
        """The players' display is open (kept with the links: it reopens with them)."""
        self.resume_from: tuple[str, int] | None = None
        """The address and port sharing could not listen on again (:meth:`resume`): the
        next start offers that address and the next port."""
        self._kept: StoredPhoneShare | None = None
        """What was last kept of the sharing (a change is written, the rest is not)."""

    # --- state ---------------------------------------------------------------------------
    @property
    def sharing(self) -> bool:
        return self.server is not None and self.server.running

    @property
    def url(self) -> str:
        return self.server.url if self.server is not None and self.sharing else ""

    def listening_on(self) -> str:
        """The address it listens on while sharing, else empty."""
        return self.server.host if self.server is not None and self.sharing else ""

    def seats(self) -> list[tuple[str, str, str]]:
        """Each vehicle's seat link, in the session's order: (key, "name — player", url)."""
        game = self.services.table.game
        if self.server is None or not self.sharing or game is None:
            return []
        return [(v.key, v.name + (f" — {v.player}" if v.player else ""),
                 self.server.seat_url(v.key))
                for v in game.vehicles if v.key in self.server.seat_tokens]

    def choices(self, allow_public: bool = False) -> list[Interface]:
        """The addresses to offer (the default first)."""
        return self.interfaces_of(allow_public)

    def default_address(self) -> str:
        found = self.choices(False)
        return next((i.address for i in found if i.default), found[0].address)

    def can_share(self) -> bool:
        return self.services.table.game is not None

    # --- start, stop, new link -----------------------------------------------------------
    def start(self, address: str | None = None, allow_public: bool = False,
              kept: StoredPhoneShare | None = None) -> str:
        """Listen on ``address`` (default: the default route's) for the open session;
        returns the link — a new one, with new seat links: the links of an earlier start
        (stopped since) stay revoked. With ``kept`` (:meth:`resume`), the kept links on
        the kept address and port (that port only). ``ShareError`` when it cannot listen;
        ValueError for a public address the GM did not allow, or no session."""
        from carwars_desktop.services.phone_server import PhoneServer, ShareError
        from carwars_desktop.services.players_feed import PlayersFeed

        table = self.services.table
        if table.game is None:
            raise ValueError("open a session at the Table first")
        address = address or self.default_address()
        if is_public(address) and not allow_public:
            raise ValueError(f"{address} is a public address: allow public addresses first")
        self.stop(notify=False)
        self.desk.restore()  # this session's requests, as the database keeps them
        self.session_id = table.session_id
        self.feed = PlayersFeed(table)
        self.feed.show_replayed(self.replayed)
        first = self.port
        if kept is not None:
            first = kept.port
        elif self.resume_from is not None and self.resume_from[0] == address:
            first = self.resume_from[1] + 1  # the kept port is taken: the next one
        ports = [first] if first == 0 or kept is not None else range(first, first + PORT_TRIES)
        error: ShareError | None = None
        for port in ports:
            server = PhoneServer(
                resources_dir() / "phones", address, port, answered=self.desk.answered(),
                token=kept.token if kept else None,
                seat_tokens=kept.seat_tokens if kept else None,
                page_secret=_secret(kept.page_secret) if kept else None)
            try:
                server.start()
            except ShareError as failed:
                error = failed
                continue
            self.server = server
            server.on_request = self._arrived.emit
            break
        if self.server is None:
            raise error or ShareError("no port to listen on")
        self.problem = ""
        self.resume_from = None
        self._watch.start()
        self._publish()  # (which keeps the links, the seats' with them)
        self.changed.emit()
        return self.server.url

    def resume(self) -> bool:
        """The session just opened for play was shared when it was last played: listen
        again on the same address and port with the same links (the phones reconnect by
        themselves). False when it was not shared, is read-only (finished, or another copy
        plays it) or sharing is on already; and while its port is still taken (tried again
        a few times, :data:`RESUME_TRIES`); and when it cannot listen again, with
        :attr:`problem` saying why in words and what the next start does. Emits
        :attr:`resumed` once it listens again or gives up, when it was shared."""
        table = self.services.table
        store = self._store()
        if self.sharing or store is None or table.read_only or table.game is None:
            return False
        try:
            kept = store.phone_share()
        except _read_errors() as error:
            self.problem = f"The phones' links kept for this session could not be read: {error}"
            self.changed.emit()
            return False
        if kept is None:
            return False
        self.display_open = kept.display_open
        return self._resume(kept, table.session_id, RESUME_TRIES)

    def _resume(self, kept: StoredPhoneShare, session: int | None, tries: int) -> bool:
        """One try of :meth:`resume`: a port still taken is tried again a little later
        (``tries`` in all: the server of the app that was killed may still be ending)."""
        from carwars_desktop.services.phone_server import ShareError  # (aiohttp: shared)

        table = self.services.table
        if self.sharing or table.session_id != session or table.read_only:
            return False  # (closed, or shared anew, meanwhile)
        try:
            self.start(kept.address, allow_public=True, kept=kept)
        except ValueError as error:
            self.problem = f"Sharing could not resume: {error}"
        except ShareError as error:
            cause = error.__cause__
            if tries > 1 and isinstance(cause, OSError) and cause.errno == errno.EADDRINUSE:
                QTimer.singleShot(RESUME_RETRY_MS, self,
                                  lambda: self._resume(kept, session, tries - 1))
                return False
            self.resume_from = (kept.address, kept.port)
            self.problem = _resume_refused(kept, error)
        else:
            self.resumed.emit(True, kept.display_open)
            return True
        self.changed.emit()
        self.resumed.emit(False, kept.display_open)
        return False

    def set_display_open(self, shown: bool) -> None:
        """The players' display opened or closed: kept with the links while sharing."""
        self.display_open = shown
        self._keep()

    def _store(self) -> ShareStore | None:
        game = self.services.table.game
        store = game.store if game is not None else None
        return store if isinstance(store, ShareStore) else None

    def _keep(self) -> None:
        """Keep the sharing as it is now, if it changed (nothing without a store: the
        offline copy of a club session keeps none). A refused write is said in
        :attr:`problem`: sharing goes on, but would not resume after a restart."""
        from carwars_desktop.storage.game_sessions import StoredPhoneShare

        server, store = self.server, self._store()
        if server is None or store is None or self.session_id != self.services.table.session_id:
            return
        share = StoredPhoneShare(server.host, server.port, server.token,
                                 dict(server.seat_tokens), server.page_secret.hex(),
                                 self.display_open)
        if share == self._kept:
            return
        try:
            store.keep_phone_share(share)
        except write_errors() as error:
            self.problem = (f"The phones' links could not be kept ({error}): after a restart "
                            f"sharing would not resume by itself.")
            return
        self._kept = share

    def _forget(self) -> None:
        """Nothing is kept of the sharing any more (stopped: its links revoked)."""
        self._kept = None
        store = self._store()
        if store is None or self.session_id != self.services.table.session_id:
            return
        try:
            store.keep_phone_share(None)
        except write_errors() as error:
            self.problem = (f"The phones' old links could not be forgotten ({error}): they are "
                            f"revoked all the same (nothing listens for them).")

    def stop(self, notify: bool = True, refuse: bool = True, forget: bool = True) -> None:
        """Stop sharing: nothing listens any more, every phone's stream is closed, and
        the links are revoked (the next start makes new ones); so are the requests not
        accepted yet unless ``refuse`` is false (the session closing or the app quitting:
        the database keeps them for the next time the session is played). Without
        ``forget`` (the session closing or the app quitting) the links stay kept: the
        session resumes its sharing when it opens again (:meth:`resume`)."""
        server, self.server = self.server, None
        self._watch.stop()
        if server is not None:
            server.on_request = None
            server.stop()
            if forget:
                self._forget()
            self._kept = None
            if refuse:
                self.desk.revoke()  # the links are revoked: so are their requests
            self.requests_changed.emit()
            if notify:
                self.changed.emit()

    def end(self) -> None:
        """Stop: the session closed (or another opened)."""
        self.stop(refuse=False, forget=False)  # what the GM was given stays in the database
        self.session_id = None
        self.resume_from = None  # (the next session's start offers no port of this one)
        self.desk.forget()
        self.requests_changed.emit()

    def new_link(self) -> str:
        """Revoke the link shown: a new token, the old one gets 404 from now on."""
        if self.server is None:
            return ""
        old = list(self.server.seat_tokens.values())
        url = self.server.new_link()
        self._keep()  # the old links are never kept again
        self.desk.revoke(old)
        self.requests_changed.emit()
        self._publish()
        self.changed.emit()
        return url

    def _check_server(self) -> None:
        """The server process ended without being told (it crashed, or was killed):
        sharing is off, and :attr:`problem` says so (shown by the window and the dialog)."""
        server = self.server
        if server is None or server.running:
            return
        code = server.exit_code
        self.stop(notify=False)
        self.problem = (f"Sharing stopped: the phones' page server ended unexpectedly (exit "
                        f"code {code}). Start sharing again for a new server.")
        self.changed.emit()

    def show_replayed(self, view: object) -> None:
        """The replay's moment on the phones too (the players' display shows it), or the
        live table again (None)."""
        from carwars_desktop.services import players_view

        self.replayed = view if isinstance(view, players_view.PlayersView) else None
        if self.feed is not None:
            self.feed.show_replayed(self.replayed)
            self._publish()

    def qr_png(self) -> bytes:
        return qr_png(self.url) if self.url else b""

    def _publish(self) -> None:
        """The players' view to every link (each seat also gets its own sheet); a vehicle
        added since gets its seat link."""
        server, feed = self.server, self.feed
        if server is None or feed is None:
            return
        server.add_seats(feed.keys())
        self._keep()  # a vehicle added has its seat link: kept with the others
        keys = feed.keys()
        public = {**feed.snapshot(), "waiting_for": self.desk.waiting_for(),
                  "missions": self.desk.missions_done()}  # (a secret one: its phone only)
        server.publish(public, feed.seats(), {key: self.desk.phone_state(key) for key in keys})

    # --- the phones' requests ------------------------------------------------------------
    def _take_requests(self) -> None:
        """The requests the server passed on since the last look, into the GM's queue."""
        server = self.server
        if server is None:
            return
        taken = [self.desk.receive(message) for message in server.take_requests()]
        if any(request is not None for request in taken):
            self._publish()
            self.requests_changed.emit()

    def accept(self, request: PhoneRequest) -> None:
        """The GM accepts ``request`` (Enter in the queue)."""
        self.desk.accept(request, self)
        self._requests_done()

    def refuse(self, request: PhoneRequest, reason: str = "") -> None:
        """The GM refuses ``request`` with ``reason`` (Delete in the queue)."""
        self.desk.refuse(request, reason)
        self._requests_done()

    def edited(self, request: PhoneRequest) -> tuple[str, dict[str, object], str]:
        """The GM opens ``request`` in the normal dialog (E): the procedure, its presets and
        a note for it; the request leaves the queue."""
        opened = self.desk.edited(request)
        self._requests_done()
        return opened

    def reveal(self) -> None:
        """Apply the secret speeds in now, though not everybody's is."""
        self.desk.reveal(self)
        self._requests_done()

    def set_auto_speeds(self, on: bool) -> None:
        """The session's setting: secret speeds accepted as they arrive (or by the GM)."""
        self.desk.set_auto_speeds(on, self)
        self._requests_done()

    def _requests_done(self) -> None:
        self._publish()
        self.requests_changed.emit()

    # --- the bus -------------------------------------------------------------------------
    def _on_changes(self, changes: Changes) -> None:
        if changes.finished and changes.session_id is not None \
                and changes.session_id == self.session_id:
            # The shared session was finished: what its phones asked for and the GM did
            # not accept is refused, saying so (#33 §3), and nothing more is taken.
            self.desk.revoke(reason="the session ended")
            self.stop(refuse=False, forget=False)  # (the finish forgot the links)
            self.requests_changed.emit()
            return
        if changes.session and (self.server is None
                                or self.services.table.session_id != self.session_id):
            if self.server is not None:
                self.end()  # the shared session closed, or another one opened
            self.desk.restore()  # a session opened: its queue as the database keeps it
            self.requests_changed.emit()
            if self.resume_from is not None:  # (said of the session shown before)
                self.resume_from, self.problem = None, ""
            if self.services.table.session_id is not None:
                self.resume()  # shared when it was last played: the same links again
            return
        if self.server is None or self.feed is None:
            return
        if self.feed.heard(changes):
            if changes.game is not None:  # the clock may have moved: the choice with it
                self.desk.expire()
            self._publish()
            if changes.game is not None:
                self.requests_changed.emit()


def _secret(text: str) -> bytes | None:
    """The kept page tokens' secret (hex), or None when it is not one (a new one then)."""
    try:
        secret = bytes.fromhex(text)
    except ValueError:
        return None
    return secret if len(secret) >= 16 else None


def _resume_refused(kept: StoredPhoneShare, error: ShareError) -> str:
    """Why sharing could not listen again where it did, and what the next start does."""
    cause = error.__cause__
    code = cause.errno if isinstance(cause, OSError) else None
    where = f"{kept.address}:{kept.port}"
    if code == errno.EADDRINUSE:
        return (f"Sharing was on for this session, on {where}, but another program uses port "
                f"{kept.port} now. Start sharing listens on the next free port (from "
                f"{kept.port + 1}): the links change then, so every player scans their new QR "
                f"code.")
    if code == errno.EADDRNOTAVAIL:
        return (f"Sharing was on for this session, on {where}, but {kept.address} is not an "
                f"address of this computer now (another network?). Choose where to listen "
                f"and Start sharing: the links change then, so every player scans their new "
                f"QR code.")
    return (f"Sharing was on for this session, on {where}, but it could not listen there "
            f"again: {error}. Start sharing for new links (every player scans their new QR "
            f"code).")


def _read_errors() -> tuple[type[BaseException], ...]:
    from carwars_desktop.storage.errors import DatabaseError

    return (DatabaseError, ValueError, LookupError)


__all__ = ["PhoneSharing", "ShareStore", "qr_png"]
