"""Sharing resumes after a restart: while it is on, the session's database keeps where it
listens, the links' tokens, the page tokens' secret and whether the players' display is
open; the app started again on that database (a new window, a new PhoneSharing) listens
on the same address and port with the same links, so the phones reconnect by themselves,
and the display reopens. A finished session, a sharing the GM stopped and links revoked by
New link are never listened for again; a port taken since is said in words, and the next
start takes the next port."""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from carwars_desktop.gui.phone_share import PhoneSharing
from carwars_desktop.services import Services
from carwars_desktop.services.share_network import LOOPBACK, Interface
from carwars_desktop.storage import Database
from tests.gui.evening.harness import Evening
from tests.gui.test_phone_request_writes import (
    WAIT_MS,
    _page,
    _post,
    _seats,
    _speed,
    _start,
    free_port,
    loopback,
)

TABLE_NETWORK = "192.0.2.2"
"""The table's network as offered first (TEST-NET-1: nothing listens there in a test)."""


def _two_networks(_allow_public: bool) -> list[Interface]:
    return [Interface(TABLE_NETWORK, f"{TABLE_NETWORK} (the table's network)", True),
            Interface(LOOPBACK, f"{LOOPBACK} (this computer only)")]


THREE = [("Bob", "Killer Kart", ""), ("Di", "Courier", ""), ("Al", "Mini Sherman", "")]


def _status(url: str) -> int:
    """The status of GET ``url``/state (404: a revoked link; 0: nothing listens)."""
    try:
        with urllib.request.urlopen(url + "/state", timeout=10) as response:
            json.loads(response.read())
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code
    except urllib.error.URLError:
        return 0


def _port_free(port: int) -> bool:
    """Nothing listens on ``port`` any more (the old server's process has ended)."""
    with socket.socket() as probe:
        probe.settimeout(1)
        return probe.connect_ex((LOOPBACK, port)) != 0


def _services(database: Database) -> Services:
    services = Services()
    services.table.database = database
    return services


@pytest.fixture
def made() -> Iterator[list[PhoneSharing]]:
    """Every PhoneSharing a test makes, ended after it."""
    made: list[PhoneSharing] = []
    yield made
    for sharing in made:
        sharing.end()


def _restart(database: Database, session_id: int, made: list[PhoneSharing],
             before: tuple[Services, PhoneSharing] | None = None) -> tuple[Services, PhoneSharing]:
    """The app quits (if ``before``) and starts again on ``database``: a new PhoneSharing,
    and the session opened for play as the Table reopens the last running one."""
    if before is not None:
        before[1].end()
        before[0].table.close()
    services = _services(database)
    sharing = PhoneSharing(services, choices=loopback, port=free_port())
    made.append(sharing)
    services.table.open(session_id)
    return services, sharing


def test_phone_share_resumes_in_a_new_window_with_the_same_port_links_and_display(
        qtbot, tmp_path: Path, sqlite_url: str) -> None:  # type: ignore[no-untyped-def]
    evening = Evening(qtbot, tmp_path, sqlite_url)
    window = evening.open_window()
    evening.new_session("mini_car_wars", "Resumed night", THREE)
    window.phone_sharing.port = free_port()
    dialog = window.open_share_dialog()
    dialog.address.setCurrentIndex(dialog.address.findData(LOOPBACK))
    dialog.address.activated.emit(dialog.address.currentIndex())  # the GM picks loopback
    dialog.start()
    sharing = window.phone_sharing
    assert sharing.sharing, dialog.message.text()
    evening.open_display()
    common, seats = sharing.url, _seats(sharing)
    port = sharing.server.port if sharing.server else 0
    assert common.startswith(f"http://{LOOPBACK}:{port}/s/") and len(seats) == 3
    page = _page(seats["v2"])  # Di's page, loaded before the restart
    assert all(_status(url) == 200 for url in [common, *seats.values()])

    evening.close_window()  # the app stops (the crash kills it the same way: nothing forgets)
    qtbot.waitUntil(lambda: _port_free(port), timeout=WAIT_MS)
    assert _status(common) != 200

    window = evening.open_window()  # the same database and settings, a new window
    again = window.phone_sharing
    qtbot.waitUntil(lambda: again.sharing, timeout=WAIT_MS)
    assert window.table.session_id == evening.session_id
    assert again.url == common and _seats(again) == seats  # the same port, the same links
    assert all(_status(url) == 200 for url in [common, *seats.values()])
    # Di's page, not reloaded, still sends her requests (its page token still holds).
    assert _post(seats["v2"], _speed("resume-v2-01"), page)[0] == 202
    qtbot.waitUntil(lambda: [r.seat for r in again.desk.waiting()] == ["v2"], timeout=WAIT_MS)
    display = window.player_display
    assert display is not None and display.isVisible()  # the players' display reopened
    dialog = window.open_share_dialog()
    assert dialog.address.currentData() == LOOPBACK  # "Listen on": where it listens
    assert dialog.toggle.text() == "Stop sharing"
    evening.close_window()


def test_phone_share_of_a_finished_session_is_not_resumed(
        qtbot, tmp_path: Path, sqlite_url: str, monkeypatch: pytest.MonkeyPatch,
        ) -> None:  # type: ignore[no-untyped-def]
    from sqlalchemy import text

    evening = Evening(qtbot, tmp_path, sqlite_url)
    window = evening.open_window()
    evening.new_session("mini_car_wars", "Finished night", THREE)
    sharing = window.phone_sharing
    sharing.port = free_port()
    sharing.start(LOOPBACK)
    seats = _seats(sharing)
    evening.open_display()
    assert window.database is not None
    with window.database.engine.connect() as db:
        assert db.execute(text("SELECT count(*) FROM phone_shares")).scalar() == 1
    evening.finish(monkeypatch)
    assert not sharing.sharing
    with window.database.engine.connect() as db:
        assert db.execute(text("SELECT count(*) FROM phone_shares")).scalar() == 0
    evening.close_window()

    window = evening.open_window()  # the same database and settings, a new window
    qtbot.waitUntil(lambda: not window.table.opening, timeout=WAIT_MS)
    assert window.services.table.session_id != evening.session_id  # (nothing running)
    assert not window.phone_sharing.sharing and window.player_display is None
    assert all(_status(url) != 200 for url in seats.values())
    evening.close_window()


def test_phone_share_of_a_finished_session_opened_read_only_is_not_resumed(
        qtbot, database: Database, made: list[PhoneSharing]) -> None:  # type: ignore[no-untyped-def]
    """Even a kept sharing (the finish forgets it) is never resumed for a session read-only
    here: finished, or played by another copy."""
    from datetime import UTC, datetime

    from carwars_desktop.storage.models import PhoneShareRow

    services = _services(database)
    _start(services)
    session_id = services.table.session_id
    assert session_id is not None
    services.table.finish()
    services.table.close()
    events = database.game_sessions.events(session_id)
    assert events.phone_share() is None  # the finish forgot it
    port = free_port()
    with database.engine.begin() as db:  # what a copy of another version could have left
        db.execute(PhoneShareRow.__table__.insert().values(
            session_id=session_id, address=LOOPBACK, port=port, token="t" * 32,
            seat_tokens=json.dumps({"v1": "s" * 32}), page_secret="ab" * 32,
            display_open=True, shared_at=datetime.now(UTC)))
    assert events.phone_share() is not None
    again = _services(database)
    sharing = PhoneSharing(again, choices=loopback, port=free_port())
    made.append(sharing)
    seen: list[tuple[bool, bool]] = []
    sharing.resumed.connect(lambda *shown: seen.append(shown))
    again.table.open(session_id)
    assert again.table.read_only
    assert not sharing.resume()
    assert not sharing.sharing and seen == [] and sharing.problem == ""
    assert _port_free(port)


def test_phone_share_stopped_or_renewed_links_are_never_resumed(
        qtbot, database: Database, made: list[PhoneSharing]) -> None:  # type: ignore[no-untyped-def]
    services = _services(database)
    first = PhoneSharing(services, choices=loopback, port=free_port())
    made.append(first)
    _start(services)
    session_id = services.table.session_id
    assert session_id is not None
    old = first.start(LOOPBACK)
    old_seats = _seats(first)
    new = first.new_link()  # the old links are revoked: only the new ones are kept
    new_seats = _seats(first)
    port = first.server.port if first.server else 0

    services, second = _restart(database, session_id, made, (services, first))
    qtbot.waitUntil(lambda: second.sharing, timeout=WAIT_MS)
    assert second.url == new and _seats(second) == new_seats
    assert _status(old) == 404 and all(_status(url) == 404 for url in old_seats.values())
    assert _status(new) == 200

    second.stop()  # the GM stops sharing: nothing is resumed any more
    qtbot.waitUntil(lambda: _port_free(port), timeout=WAIT_MS)
    _services3, third = _restart(database, session_id, made, (services, second))
    assert not third.sharing and third.problem == ""


def test_phone_share_on_a_port_taken_since_says_so_and_offers_the_next_one(
        qtbot, database: Database, made: list[PhoneSharing]) -> None:  # type: ignore[no-untyped-def]
    services = _services(database)
    first = PhoneSharing(services, choices=loopback, port=free_port())
    made.append(first)
    _start(services)
    session_id = services.table.session_id
    assert session_id is not None
    first.start(LOOPBACK)
    port = first.server.port if first.server else 0
    seen: list[tuple[bool, bool]] = []
    first.end()
    services.table.close()
    qtbot.waitUntil(lambda: _port_free(port), timeout=WAIT_MS)
    with socket.socket() as taker:  # another program took the port meanwhile
        taker.bind((LOOPBACK, port))
        taker.listen(1)
        services = _services(database)
        second = PhoneSharing(services, choices=loopback, port=free_port())
        made.append(second)
        second.resumed.connect(lambda *shown: seen.append(shown))
        services.table.open(session_id)
        qtbot.waitUntil(lambda: seen != [], timeout=WAIT_MS)  # (tried again a few times)
        assert not second.sharing
        assert seen == [(False, False)]
        assert f"{LOOPBACK}:{port}" in second.problem
        assert f"another program uses port {port} now" in second.problem
        assert "the links change then" in second.problem
        url = second.start(LOOPBACK)  # Start sharing: the next free port, new links
    assert second.server is not None and second.server.port > port
    assert url.startswith(f"http://{LOOPBACK}:{second.server.port}/s/")
    assert second.problem == ""


def test_phone_share_dialog_keeps_the_address_the_gm_chose_for_the_next_run(
        qtbot, tmp_path: Path, sqlite_url: str) -> None:  # type: ignore[no-untyped-def]
    evening = Evening(qtbot, tmp_path, sqlite_url)
    window = evening.open_window()
    evening.new_session("mini_car_wars", "Chosen night", THREE)
    window.phone_sharing.port = free_port()
    window.phone_sharing.interfaces_of = _two_networks
    dialog = window.open_share_dialog()
    default = dialog.address.currentData()
    assert default == TABLE_NETWORK
    dialog.address.setCurrentIndex(dialog.address.findData(LOOPBACK))
    dialog.address.activated.emit(dialog.address.currentIndex())
    dialog.toggle.click()  # Start sharing
    assert window.phone_sharing.sharing, dialog.message.text()
    dialog.toggle.click()  # Stop sharing: nothing is resumed, the choice stays
    assert not window.phone_sharing.sharing
    evening.close_window()

    window = evening.open_window()
    qtbot.waitUntil(lambda: window.services.table.session_id == evening.session_id
                    and not window.table.opening, timeout=WAIT_MS)
    assert not window.phone_sharing.sharing  # stopped by the GM: not resumed
    window.phone_sharing.interfaces_of = _two_networks
    dialog = window.open_share_dialog()
    assert dialog.address.currentData() == LOOPBACK, (default, dialog.address.currentData())
    assert dialog.toggle.text() == "Start sharing"
    evening.close_window()


@pytest.mark.slow
@pytest.mark.chromium
def test_phone_share_resumed_the_phone_page_reconnects_by_itself_and_sends_again(
        qtbot, database: Database, made: list[PhoneSharing]) -> None:  # type: ignore[no-untyped-def]
    """A real browser on Bob's seat link: the app stops, its page says it is reconnecting;
    the app starts again and the same page, never reloaded, is live again and sends Bob's
    secret speed with the page token it came with."""
    from tests.gui.browser import chromium
    from tests.gui.test_phone_request_browser import _fastest, _speeds, _tap_speed, _text, _wait
    from tests.gui.test_phone_request_browser import _start as start_battlecars

    services = _services(database)
    first = PhoneSharing(services, choices=loopback, port=free_port())
    made.append(first)
    start_battlecars(services, "battlecars", 2)
    session_id = services.table.session_id
    assert session_id is not None
    first.start(LOOPBACK)
    bob_link = _seats(first)["v1"]
    port = first.server.port if first.server else 0
    bob = chromium()
    try:
        bob.get(bob_link)
        _wait(bob, lambda d: _text(d, "connection") == "live" and _speeds(d))
        first.end()  # the app stops: nothing listens
        services.table.close()
        qtbot.waitUntil(lambda: _port_free(port), timeout=WAIT_MS)
        _wait(bob, lambda d: _text(d, "connection") != "live")
        seen_before = int(bob.execute_script("return window.carwarsReceived.length;"))

        _services2, second = _restart(database, session_id, made)
        qtbot.waitUntil(lambda: second.sharing, timeout=WAIT_MS)
        assert _seats(second)["v1"] == bob_link
        _wait(bob, lambda d: _text(d, "connection") == "live" and _speeds(d))
        assert int(bob.execute_script("return window.carwarsReceived.length;")) > seen_before
        assert bob.current_url.rstrip("/") == bob_link  # the same page, never reloaded
        _tap_speed(bob, _fastest(bob))
        qtbot.waitUntil(lambda: [r.seat for r in second.desk.waiting()] == ["v1"],
                        timeout=WAIT_MS)
    finally:
        bob.quit()
