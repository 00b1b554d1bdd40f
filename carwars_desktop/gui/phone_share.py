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

A seat link may also send requests (a secret speed): the server passes them on, they
reach :attr:`PhoneSharing.desk` (:class:`~carwars_desktop.services.phone_requests.PhoneDesk`,
the GM's queue) on the GUI thread, queued there by a signal from the server's receiving
thread (:attr:`requests_changed` fires after each change of the queue); nothing changes
the game until the GM accepts. New link, Stop sharing and the session's end refuse the
revoked links' requests.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal

from carwars_desktop.gui.change_signal import ChangeSignal
from carwars_desktop.resources import resources_dir
from carwars_desktop.services import Changes, Services
from carwars_desktop.services.phone_requests import PhoneDesk, PhoneRequest
from carwars_desktop.services.share_network import DEFAULT_PORT, Interface, interfaces, is_public

if TYPE_CHECKING:
    from carwars_desktop.services.phone_server import PhoneServer
    from carwars_desktop.services.players_feed import PlayersFeed
    from carwars_desktop.services.players_view import PlayersView

PORT_TRIES = 10
"""Ports tried from :data:`DEFAULT_PORT` up when one is taken."""
WATCH_MS = 1000
"""How often the GUI checks that the page's server process still runs."""


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

    # --- state ---------------------------------------------------------------------------
    @property
    def sharing(self) -> bool:
        return self.server is not None and self.server.running

    @property
    def url(self) -> str:
        return self.server.url if self.server is not None and self.sharing else ""

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
    def start(self, address: str | None = None, allow_public: bool = False) -> str:
        """Listen on ``address`` (default: the default route's) for the open session;
        returns the link — a new one, with new seat links: the links of an earlier start
        (stopped since) stay revoked. ``ShareError`` when it cannot listen; ValueError for
        a public address the GM did not allow, or no session."""
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
        ports = [self.port] if self.port == 0 else range(self.port, self.port + PORT_TRIES)
        error: ShareError | None = None
        for port in ports:
            server = PhoneServer(resources_dir() / "phones", address, port,
                                 answered=self.desk.answered())
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
        self._watch.start()
        self._publish()
        self.changed.emit()
        return self.server.url

    def stop(self, notify: bool = True, refuse: bool = True) -> None:
        """Stop sharing: nothing listens any more, every phone's stream is closed, and
        the links are revoked (the next start makes new ones); so are the requests not
        accepted yet unless ``refuse`` is false (the session closing or the app quitting:
        the database keeps them for the next time the session is played)."""
        server, self.server = self.server, None
        self._watch.stop()
        if server is not None:
            server.on_request = None
            server.stop()
            if refuse:
                self.desk.revoke()  # the links are revoked: so are their requests
            self.requests_changed.emit()
            if notify:
                self.changed.emit()

    def end(self) -> None:
        """Stop: the session closed (or another opened)."""
        self.session_id = None
        self.stop(refuse=False)  # what the GM was given stays in the database
        self.desk.forget()
        self.requests_changed.emit()

    def new_link(self) -> str:
        """Revoke the link shown: a new token, the old one gets 404 from now on."""
        if self.server is None:
            return ""
        old = list(self.server.seat_tokens.values())
        url = self.server.new_link()
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
            self.stop(refuse=False)
            self.requests_changed.emit()
            return
        if changes.session and (self.server is None
                                or self.services.table.session_id != self.session_id):
            if self.server is not None:
                self.end()  # the shared session closed, or another one opened
            self.desk.restore()  # a session opened: its queue as the database keeps it
            self.requests_changed.emit()
            return
        if self.server is None or self.feed is None:
            return
        if self.feed.heard(changes):
            if changes.game is not None:  # the clock may have moved: the choice with it
                self.desk.expire()
            self._publish()
            if changes.game is not None:
                self.requests_changed.emit()
