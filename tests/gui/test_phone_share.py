"""Share to players' devices: the phones' page in a real headless Chromium, on loopback.

The page opens with the token, a vehicle is picked once (remembered), an event applied
at the Table shows on it; a wrong token gets 404 (and guessing is rate-limited); hidden
values are absent from the page, its source and the stream; the page reconnects by
itself after the server restarts, and Stop sharing revokes its link; at most 16 streams
of the common link, a slow one dropped; sharing stops with the session and the app, and
aiohttp is not imported at start-up (the refusals: ``test_phone_requests.py``).
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QImage
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.phone_share import PhoneSharing, qr_png
from carwars_desktop.gui.players_display import PlayerDisplay
from carwars_desktop.resources import resources_dir
from carwars_desktop.rules import find_procedure, find_ruleset
from carwars_desktop.services import Services, typed_dice
from carwars_desktop.services.phone_server import PIPE_BACKLOG, SECURITY_HEADERS, PhoneServer
from carwars_desktop.services.share_network import (
    LOOPBACK,
    GuessLimit,
    Interface,
    interfaces,
    is_public,
)
from carwars_desktop.session.setup import Entry, prepare
from carwars_desktop.session.visibility import Visibility
from carwars_desktop.storage import Database

from .browser import chromium

NAMES = ["Red Baron", "Blue Thunder", "Ambusher"]
SHEET_ONLY = ["front armor", "left armor", "power plant", "MG", "Laser", "driver"]
WAIT = 10.0
# A request waits this long for its answer: the server process shares the cores with the
# run (two test workers, and whatever else the machine does), so it is generous.
ANSWER = 30.0


def loopback(_allow_public: bool) -> list[Interface]:
    return [Interface(LOOPBACK, f"{LOOPBACK} (this computer only)", True)]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def services(database: Database) -> Services:
    services = Services()
    services.table.database = database
    return services


@pytest.fixture
def sharing(qtbot, services: Services) -> Iterator[PhoneSharing]:  # type: ignore[no-untyped-def]
    sharing = PhoneSharing(services, choices=loopback, port=free_port())
    yield sharing
    sharing.end()


@pytest.fixture
def browser() -> Iterator[WebDriver]:
    driver = chromium()
    yield driver
    driver.quit()


def _start(services: Services) -> None:
    ruleset = find_ruleset("mini_car_wars")
    catalog = ruleset.catalog()
    entries = [Entry(f"Player {n}", name, catalog[design].to_json())
               for n, (design, name) in enumerate(
                   zip(["Courier (b)", "Courier", "Killer Kart"], NAMES, strict=True), start=1)]
    session_id = services.table.start("mini_car_wars", "Test night", "",
                                      prepare(ruleset, entries))
    services.table.open(session_id)


def _fire(services: Services, dice: str = "4 4 5 6 6"):  # type: ignore[no-untyped-def]
    table = services.table
    game = table.running()
    procedure = find_procedure("mini.fire")
    values = procedure.bind({"firer": game.sheet("v1"), "target": game.sheet("v2"),
                             "side": "L", "range": "5"})
    return table.resolve(procedure, values, typed_dice(dice),
                         bindings={"firer": "v1", "target": "v2"})


def _wait(driver: WebDriver, condition, timeout: float = WAIT):  # type: ignore[no-untyped-def]
    return WebDriverWait(driver, timeout, poll_frequency=0.02).until(lambda d: condition(d))


def _text(driver: WebDriver, element_id: str) -> str:
    return str(driver.execute_script(
        "const e = document.getElementById(arguments[0]); return e ? e.innerText : '';",
        element_id))


def _mine_fact(driver: WebDriver, label: str) -> str:
    """A figure of the own sheet (read in one script: the page redraws as it goes)."""
    return str(driver.execute_script(
        "for (const f of document.querySelectorAll('#mine-numbers .fact'))"
        " if (f.querySelector('.label').textContent === arguments[0])"
        " return f.querySelector('.value').textContent; return '';", label))


def _pick(driver: WebDriver, name: str) -> None:
    """Tap the vehicle called ``name`` in the picker."""
    _wait(driver, lambda d: d.execute_script(
        "for (const b of document.querySelectorAll('#choices button'))"
        " if (b.textContent.startsWith(arguments[0])) { b.click(); return true; }"
        " return false;", name))


def _choices(driver: WebDriver) -> list[str]:
    return list(driver.execute_script(
        "return Array.from(document.querySelectorAll('#choices button'),"
        " b => b.textContent.split(' — ')[0]);"))


def _get(url: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(url, timeout=ANSWER) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def _first_event(url: str) -> dict[str, object]:
    """The first snapshot the event stream sends (read raw, as a phone would)."""
    host, rest = url.removeprefix("http://").split("/", 1)
    name, port = host.split(":")
    connection = http.client.HTTPConnection(name, int(port), timeout=ANSWER)
    connection.request("GET", "/" + rest + "/events")
    response = connection.getresponse()
    assert response.status == 200
    assert response.getheader("Content-Type", "").startswith("text/event-stream")
    for raw in response:
        line = raw.decode("utf-8").strip()
        if line.startswith("data: "):
            connection.close()
            return dict(json.loads(line.removeprefix("data: ")))
    raise AssertionError("the stream ended without a snapshot")


@pytest.mark.slow
def test_the_page_shows_the_picked_vehicle_and_follows_an_applied_event(
        qtbot, services: Services, sharing: PhoneSharing,  # type: ignore[no-untyped-def]
        browser: WebDriver) -> None:
    _start(services)
    url = sharing.start(LOOPBACK)
    assert url.startswith(f"http://{LOOPBACK}:{sharing.port if sharing.port else ''}")
    browser.get(url)
    _wait(browser, lambda d: _text(d, "connection") == "live")
    assert _text(browser, "clock").startswith("Turn 1")
    _wait(browser, _choices)
    assert _choices(browser) == NAMES
    _pick(browser, "Blue Thunder")
    _wait(browser, lambda d: _text(d, "mine-name") == "Blue Thunder")
    assert _mine_fact(browser, "left armor") == "20"
    others = browser.execute_script(
        "return Array.from(document.querySelectorAll('.other'), e => e.dataset.key);")
    assert others == ["v1", "v3"]
    pending = _fire(services)
    _wait(browser, lambda d: _text(d, "roll-need") == "need 5+")
    assert _text(browser, "roll-odds") == "5/6 · 83.3%"
    assert "Firing vehicle: Red Baron" in _text(browser, "roll-parties")
    pending.apply()
    _wait(browser, lambda d: _mine_fact(d, "left armor") == "3")
    assert _text(browser, "roll-dice") == "dice 4 4 5 6 6"
    assert "17 damage" in _text(browser, "roll-outcome")
    assert "17 damage to Blue Thunder" in _text(browser, "log")
    services.table.undo()
    _wait(browser, lambda d: _mine_fact(d, "left armor") == "20")
    # Picked once: the same device opens on its vehicle again.
    browser.refresh()
    _wait(browser, lambda d: _text(d, "mine-name") == "Blue Thunder")
    assert not browser.find_element(By.ID, "picker").is_displayed()


def test_a_wrong_token_gets_404_and_guessing_is_refused(
        qtbot, services: Services, sharing: PhoneSharing) -> None:  # type: ignore[no-untyped-def]
    _start(services)
    url = sharing.start(LOOPBACK)
    token = url.rsplit("/", 1)[1]
    assert len(token) >= 22  # ≥ 128 bits of token_urlsafe
    status, headers, body = _get(url + "/")
    assert status == 200 and b"<script src=\"app.js\"" in body
    for name, value in SECURITY_HEADERS.items():
        assert headers[name] == value
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert "aiohttp" not in headers["Server"] and "Python" not in headers["Server"]
    assert not any(c.isdigit() for c in headers["Server"])
    base = url.rsplit("/", 1)[0]
    wrong = base + "/" + ("A" if token[0] != "A" else "B") + token[1:]
    assert _get(wrong)[0] == 404
    assert _get(wrong + "/state")[0] == 404
    assert _get(f"http://{LOOPBACK}:{sharing.port}/")[0] == 404
    assert _get(url + "/../../etc/passwd")[0] == 404
    assert _get(url + "/index.html")[0] == 404  # only the named files: no listing
    assert _get(url + "/state")[0] == 200
    request = urllib.request.Request(url + "/state", data=b"{}", method="POST")
    assert _get(request)[0] == 405  # type: ignore[arg-type]
    for _ in range(10):
        _get(wrong + "/state")
    assert _get(wrong)[0] == 429 and _get(url + "/state")[0] == 429  # this address waits


def test_the_guess_limit_forgets_after_its_window() -> None:
    now = [0.0]
    limit = GuessLimit(limit=3, window=60, clock=lambda: now[0])
    for _ in range(3):
        assert not limit.blocked("10.0.0.9")
        limit.wrong("10.0.0.9")
    assert limit.blocked("10.0.0.9") and not limit.blocked("10.0.0.10")
    now[0] = 61
    assert not limit.blocked("10.0.0.9")


def test_new_link_and_stop_sharing_revoke_the_link(
        qtbot, services: Services, sharing: PhoneSharing) -> None:  # type: ignore[no-untyped-def]
    _start(services)
    old = sharing.start(LOOPBACK)
    assert _get(old + "/state")[0] == 200
    new = sharing.new_link()
    assert new != old and _get(old + "/state")[0] == 404 and _get(new + "/state")[0] == 200
    sharing.stop()
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(new + "/state", timeout=2)


@pytest.mark.slow
def test_hidden_values_are_absent_from_the_page_its_source_and_the_stream(
        qtbot, services: Services, sharing: PhoneSharing,  # type: ignore[no-untyped-def]
        browser: WebDriver) -> None:
    _start(services)
    services.table.set_visibility(Visibility(sheets_open=False, odds_shown=False,
                                             hidden_vehicles=frozenset({"v3"})))
    url = sharing.start(LOOPBACK)
    _fire(services)
    browser.get(url)
    _wait(browser, lambda d: _text(d, "roll-title").startswith("Fire"))
    assert _wait(browser, _choices) == NAMES[:2]
    _pick(browser, "Blue Thunder")
    _wait(browser, lambda d: _text(d, "mine-name") == "Blue Thunder")
    assert "record sheets secret" in _text(browser, "visibility")
    shown = browser.find_element(By.TAG_NAME, "body").text
    source = browser.page_source
    state = _get(url + "/state")[2].decode("utf-8")
    stream = json.dumps(_first_event(url), ensure_ascii=False)
    # What secret sheets still tell: the speed every player reveals each turn; not the
    # hits per side (with a stock design's armor they give the armor left, #28 §4).
    assert "speed" in shown and "front hits" not in shown
    for text in (shown, source, state, stream):
        assert "Ambusher" not in text and "Killer Kart" not in text
        for word in SHEET_ONLY:
            assert word not in text, (word, text[:200])
        assert "5/6" not in text and "83.3" not in text and "need 5+" not in text
    services.table.set_visibility(Visibility())
    _wait(browser, lambda d: _text(d, "roll-odds") == "5/6 · 83.3%")
    assert "Ambusher" in browser.find_element(By.TAG_NAME, "body").text


def _own_labels(driver: WebDriver) -> list[str]:
    return list(driver.execute_script(
        "return Array.from(document.querySelectorAll('#mine-numbers .label, #mine-words li'),"
        " e => e.textContent);"))


@pytest.mark.slow
def test_each_seat_link_shows_its_own_whole_sheet_and_no_other_hidden_value(
        qtbot, services: Services, sharing: PhoneSharing,  # type: ignore[no-untyped-def]
        browser: WebDriver) -> None:
    _start(services)
    services.table.set_visibility(Visibility(sheets_open=False,
                                             hidden_vehicles=frozenset({"v3"})))
    common = sharing.start(LOOPBACK)
    seats = {key: url for key, _name, url in sharing.seats()}
    assert list(seats) == ["v1", "v2", "v3"]
    tokens = [url.rsplit("/", 1)[1] for url in (common, *seats.values())]
    assert len(set(tokens)) == 4 and all(len(token) >= 22 for token in tokens)
    # Red Baron (v1) carries a Laser, Blue Thunder (v2) a rocket launcher, MGs and a gunner:
    # each seat's own sheet holds them, no other link does.
    own = {"v1": ["Laser"], "v2": ["RL (F)", "MG (", "gunner"]}
    browser.get(seats["v2"])
    _wait(browser, lambda d: _text(d, "connection") == "live")
    _wait(browser, lambda d: _text(d, "mine-name") == "Blue Thunder")
    assert not browser.find_element(By.ID, "picker").is_displayed()
    assert not browser.find_element(By.ID, "change").is_displayed()
    assert _mine_fact(browser, "left armor") == "20"  # secret sheets: still its own armor
    labels = _own_labels(browser)
    assert "power plant" in " ".join(labels) and "gunner" in " ".join(labels)
    assert "your whole sheet" in _text(browser, "visibility")
    others = browser.execute_script(
        "return Array.from(document.querySelectorAll('.other'), e => e.dataset.key);")
    assert others == ["v1"]  # the ambusher stays hidden from every seat
    for key, seat in seats.items():
        state = _get(seat + "/state")[2].decode("utf-8")
        stream = _first_event(seat)
        assert stream["seat"] == key and json.loads(state)["seat"] == key
        texts = [state, json.dumps(stream, ensure_ascii=False)]
        if key == "v2":
            texts += [browser.page_source, browser.find_element(By.TAG_NAME, "body").text]
        for text in texts:
            assert "Ambusher" not in text and "Killer Kart" not in text
            for other, words in own.items():
                for word in words:
                    assert (word in text) == (other == key), (key, word)
        mine = stream["mine"]
        if key == "v3":
            assert mine is None  # hidden: not even its own seat sees it yet
        else:
            assert isinstance(mine, dict) and mine["key"] == key
            for vehicle in stream["vehicles"]:  # the others: the public view only
                assert isinstance(vehicle, dict)
                assert not any(word in json.dumps(vehicle["facts"]) for word in SHEET_ONLY)
    shared = [_get(common + "/state")[2].decode("utf-8"),
              json.dumps(_first_event(common), ensure_ascii=False)]
    for text in shared:  # the common link: no hidden value of anyone
        assert '"mine"' not in text and '"seat"' not in text and "Ambusher" not in text
        for word in SHEET_ONLY + ["RL (F)", "MG (", "gunner"]:
            assert word not in text, word
    _fire(services).apply()  # the seat follows its own sheet live
    _wait(browser, lambda d: _mine_fact(d, "left armor") == "3")
    assert _get(seats["v1"] + "/state")[0] == 200
    sharing.new_link()  # revokes the common link and every seat's
    assert all(_get(url + "/state")[0] == 404 for url in (common, *seats.values()))
    renewed = {key: url for key, _name, url in sharing.seats()}
    assert set(renewed) == set(seats) and not set(renewed.values()) & set(seats.values())
    assert _get(renewed["v2"] + "/state")[0] == 200


@pytest.mark.slow
def test_the_page_reconnects_by_itself_and_stop_sharing_revokes_its_link(
        qtbot, services: Services, sharing: PhoneSharing,  # type: ignore[no-untyped-def]
        browser: WebDriver) -> None:
    from carwars_desktop.services.players_feed import PlayersFeed

    _start(services)
    # The page's server gone for a while and back with the same links (a dropped network):
    # the page reconnects by itself and catches up.
    port = free_port()
    feed = PlayersFeed(services.table)
    first = PhoneServer(resources_dir() / "phones", LOOPBACK, port)
    first.add_seats(feed.keys())
    first.publish(feed.snapshot(), feed.seats())
    first.start()
    try:
        browser.get(first.url)
        _wait(browser, lambda d: _text(d, "connection") == "live")
    finally:
        first.stop()
    _wait(browser, lambda d: _text(d, "connection") == "reconnecting…")
    _fire(services).apply()  # while nobody listens
    again = PhoneServer(resources_dir() / "phones", LOOPBACK, port, first.token,
                        seat_tokens=first.seat_tokens)
    feed = PlayersFeed(services.table)  # the view now
    again.publish(feed.snapshot(), feed.seats())
    again.start()
    try:
        _wait(browser, lambda d: _text(d, "connection") == "live", timeout=20)
        _wait(browser, lambda d: "17 damage" in _text(d, "log"))
    finally:
        again.stop()
    # The GM's Stop sharing, then Start: new links; the old page says its link was stopped.
    url = sharing.start(LOOPBACK)
    browser.get(url)
    _wait(browser, lambda d: _text(d, "connection") == "live")
    sharing.stop()
    _wait(browser, lambda d: _text(d, "connection") == "reconnecting…")
    assert sharing.start(LOOPBACK) != url
    _wait(browser, lambda d: "link was stopped" in _text(d, "connection"), timeout=20)


def test_at_most_16_streams_and_a_slow_client_is_dropped() -> None:
    server = PhoneServer(resources_dir() / "phones", LOOPBACK, 0, max_clients=3, queue_size=4)
    server.start()
    try:
        host, port = LOOPBACK, server.port
        path = f"/s/{server.token}/events"
        stalled = []
        for _ in range(3):  # connected, never read: their socket buffers fill
            sock = socket.create_connection((host, port))
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
            stalled.append(sock)
        deadline = time.monotonic() + WAIT
        while server.stats().clients < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert server.stats().clients == 3
        assert _get(f"http://{host}:{port}{path}")[0] == 503  # full
        padding = "x" * 20_000
        for n in range(2_000):  # returns at once: nothing here waits on the readers
            server.publish({"n": n, "padding": padding})
        deadline = time.monotonic() + WAIT
        while server.stats().dropped < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert server.stats().dropped == 3 and server.stats().clients == 0
        assert _get(f"http://{host}:{port}/s/{server.token}/state")[0] == 200
        for sock in stalled:
            sock.close()
    finally:
        server.stop()
    assert not server.running


def _gone(pid: int) -> bool:
    """The process ``pid`` ended (a zombie not yet reaped counts as ended)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return True
    return "State:\tZ" in status


@pytest.mark.posix_signals
@pytest.mark.procfs
def test_the_server_runs_in_its_own_process_and_a_stalled_one_never_holds_the_gui(
        ) -> None:
    server = PhoneServer(resources_dir() / "phones", LOOPBACK, 0)
    server.start()
    try:
        process = server._process
        assert process is not None and process.pid is not None and process.pid != os.getpid()
        url = server.url
        deadline = time.monotonic() + WAIT
        while _get(url + "/state")[0] != 200 and time.monotonic() < deadline:
            time.sleep(0.05)
        os.kill(process.pid, signal.SIGSTOP)  # a server that reads nothing any more
        try:
            padding = "x" * 20_000
            for n in range(2_000):  # returns at once: the oldest waiting snapshots dropped
                server.publish({"n": n, "padding": padding})
            sender = server._sender
            assert sender is not None and sender.dropped > 0
            assert len(sender._queue) <= PIPE_BACKLOG
        finally:
            os.kill(process.pid, signal.SIGCONT)
        deadline = time.monotonic() + WAIT
        while (json.loads(_get(url + "/state")[2]).get("n") != 1_999
               and time.monotonic() < deadline):
            time.sleep(0.05)
        assert json.loads(_get(url + "/state")[2])["n"] == 1_999  # the latest always arrives
    finally:
        server.stop()
    assert not server.running and _gone(process.pid)


@pytest.mark.procfs
def test_the_server_process_ends_when_the_app_is_killed(tmp_path: Path) -> None:
    script = (
        "import os, sys, time\n"
        "from carwars_desktop.resources import resources_dir\n"
        "from carwars_desktop.services.phone_server import PhoneServer\n"
        "if __name__ == '__main__':\n"
        f"    server = PhoneServer(resources_dir() / 'phones', {LOOPBACK!r}, 0)\n"
        "    server.start()\n"
        "    print(server._process.pid, server.url, flush=True)\n"
        "    time.sleep(120)\n")
    (tmp_path / "app.py").write_text(script)
    app = subprocess.Popen([sys.executable, str(tmp_path / "app.py")], stdout=subprocess.PIPE,
                           text=True)
    try:
        assert app.stdout is not None
        pid, url = app.stdout.readline().split()
        deadline = time.monotonic() + WAIT * 2
        while _get(url + "/state")[0] != 200 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _get(url + "/state")[0] == 200
        app.kill()  # no clean stop: the server's process notices on its own
        app.wait(WAIT)
        deadline = time.monotonic() + WAIT
        while not _gone(int(pid)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _gone(int(pid))
        with pytest.raises(urllib.error.URLError):
            urllib.request.urlopen(url + "/state", timeout=2)
    finally:
        app.kill()
        app.wait(WAIT)
        if app.stdout is not None:
            app.stdout.close()


def test_the_default_address_is_the_default_route_and_public_ones_need_a_yes() -> None:
    found = interfaces(lambda: "192.168.1.23", lambda: ["8.8.8.8", "10.0.0.5"])
    assert [i.address for i in found] == ["192.168.1.23", "10.0.0.5", LOOPBACK]
    assert found[0].default and not any(i.default for i in found[1:])
    allowed = interfaces(lambda: "192.168.1.23", lambda: ["8.8.4.4"], allow_public=True)
    assert "8.8.4.4" in [i.address for i in allowed]
    assert "public" in next(i.label for i in allowed if i.address == "8.8.4.4")
    assert is_public("8.8.4.4") and not is_public("192.168.1.23")
    assert not is_public("100.64.1.1") and not is_public("169.254.3.4")
    only = interfaces(lambda: None, lambda: [])
    assert [(i.address, i.default) for i in only] == [(LOOPBACK, True)]


def test_a_public_address_is_refused_unless_allowed(
        qtbot, services: Services, sharing: PhoneSharing) -> None:  # type: ignore[no-untyped-def]
    _start(services)
    with pytest.raises(ValueError, match="public address"):
        sharing.start("8.8.4.4")
    assert not sharing.sharing


def test_sharing_stops_when_the_session_closes(
        qtbot, services: Services, sharing: PhoneSharing) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match="open a session"):
        sharing.start(LOOPBACK)
    _start(services)
    url = sharing.start(LOOPBACK)
    services.table.close()
    assert not sharing.sharing
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(url + "/state", timeout=2)


def _qr_text(png: bytes) -> str:
    import zxingcpp

    image = QImage.fromData(png).convertToFormat(QImage.Format.Format_Grayscale8)
    pixels = np.frombuffer(image.constBits(), np.uint8).reshape(
        image.height(), image.bytesPerLine())[:, :image.width()].copy()
    (result,) = zxingcpp.read_barcodes(pixels)
    return str(result.text)


def test_the_table_button_shares_and_the_gm_window_and_display_show_the_qr_code(
        qtbot, window: MainWindow, settings: QSettings) -> None:  # type: ignore[no-untyped-def]
    sharing = window.phone_sharing
    assert not sharing.sharing  # off by default
    sharing.interfaces_of = loopback
    sharing.port = free_port()
    window.build_workspaces()
    _start(window.services)
    button = window.table.play.share_action
    assert button.isCheckable() and not button.isChecked()
    display: PlayerDisplay = window.open_player_display()
    assert not display.share_panel.isVisibleTo(display)
    display.resize(1435, 875)
    qtbot.waitUntil(lambda: display.size().toTuple() == (1435, 875))
    button.trigger()
    assert sharing.sharing and button.isChecked()
    dialog = window.share_dialog
    assert dialog is not None and dialog.isVisible()
    assert dialog.address.currentData() == LOOPBACK
    url = sharing.url
    assert url in dialog.link.text()
    assert _qr_text(sharing.qr_png()) == url
    pixmap = dialog.qr.pixmap()
    assert pixmap is not None and not pixmap.isNull()
    assert display.share_panel.isVisibleTo(display) and url in display.texts()
    assert display.share_qr.modules() > 0
    qtbot.waitUntil(lambda: not display._fit_timer.isActive())
    assert display.size().toTuple() == (1435, 875) and display.share_qr.module_px() >= 4
    dialog.renew.click()
    assert sharing.url != url and sharing.url in display.texts()
    assert _get(url + "/state")[0] == 404
    button.trigger()  # off again
    assert not sharing.sharing and not button.isChecked()
    assert not display.share_panel.isVisibleTo(display)
    assert dialog.toggle.text() == "Start sharing"
    qtbot.waitUntil(lambda: not display._fit_timer.isActive())
    assert display.size().toTuple() == (1435, 875)  # it grew to 1520×1181 when sharing
    dialog.close()
    display.close()
    button.trigger()
    url = sharing.url
    window.shutdown()  # the app quits: nothing listens
    assert not sharing.sharing
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(url + "/state", timeout=2)


def test_the_gm_window_lists_each_seat_link_with_its_qr_code(
        qtbot, services: Services, sharing: PhoneSharing) -> None:  # type: ignore[no-untyped-def]
    from carwars_desktop.gui.share_dialog import ShareDialog

    _start(services)
    dialog = ShareDialog(sharing)
    qtbot.addWidget(dialog)
    assert dialog.seat_links == {} and not dialog.seats_area.isVisibleTo(dialog)
    sharing.start(LOOPBACK)
    seats = sharing.seats()
    assert [name for _key, name, _url in seats] == [
        f"{name} — Player {n}" for n, name in enumerate(NAMES, start=1)]
    for key, _name, url in seats:
        assert dialog.seat_links[key].text() == url
        pixmap = dialog.seat_qrs[key].pixmap()
        assert pixmap is not None and not pixmap.isNull()
        assert _qr_text(qr_png(url)) == url
        assert url != sharing.url
    assert dialog.seats_area.isVisibleTo(dialog)
    dialog.renew.click()
    assert all(dialog.seat_links[key].text() == url and url not in {u for _k, _n, u in seats}
               for key, _name, url in sharing.seats())
    sharing.stop()
    assert dialog.seat_links == {} and not dialog.seats_area.isVisibleTo(dialog)


def test_sharing_is_off_the_start_up_path(tmp_path: Path) -> None:
    """Neither aiohttp nor segno is imported by a started window."""
    script = (
        "import sys\n"
        "from PySide6.QtCore import QSettings\n"
        "from PySide6.QtWidgets import QApplication\n"
        "app = QApplication([])\n"
        "from carwars_desktop.gui.main_window import MainWindow\n"
        f"settings = QSettings({str(tmp_path / 's.ini')!r}, QSettings.Format.IniFormat)\n"
        f"w = MainWindow(db_url_hint={'sqlite:///' + str(tmp_path / 'db.sqlite3')!r},"
        " interactive=False, settings=settings)\n"
        "w.show(); w.finish_startup(defer_hidden=False)\n"
        "print(sorted(m for m in ('aiohttp', 'segno', 'selenium') if m in sys.modules))\n"
        "w.shutdown()\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, env={**__import__("os").environ,
                                            "QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_a_server_process_that_ends_by_itself_is_reported(
        qtbot, window: MainWindow, settings: QSettings) -> None:  # type: ignore[no-untyped-def]
    sharing = window.phone_sharing
    sharing.interfaces_of = loopback
    sharing.port = free_port()
    window.build_workspaces()
    _start(window.services)
    window.table.play.share_action.trigger()
    assert sharing.sharing and sharing.server is not None
    dialog = window.share_dialog
    assert dialog is not None
    process = sharing.server._process
    assert process is not None
    process.kill()  # as a crash would end it
    qtbot.waitUntil(lambda: not sharing.sharing and bool(sharing.problem), timeout=10_000)
    assert "ended unexpectedly (exit code -9)" in sharing.problem
    assert not window.table.play.share_action.isChecked()
    assert sharing.problem in window.table.play.message.text()
    assert sharing.problem in dialog.message.text()
    assert dialog.toggle.text() == "Start sharing"
    dialog.toggle.click()  # sharing again: a new server, the problem gone
    assert sharing.sharing and sharing.problem == ""
    dialog.close()
    window.shutdown()


def two_addresses(_allow_public: bool) -> list[Interface]:
    return [Interface("127.0.0.2", "127.0.0.2 (the default route)", True),
            Interface(LOOPBACK, f"{LOOPBACK} (this computer only)", False)]


def test_the_dialog_keeps_the_chosen_address_and_shrinks_back_after_stop(
        qtbot, services: Services) -> None:  # type: ignore[no-untyped-def]
    from carwars_desktop.gui.share_dialog import ShareDialog

    _start(services)
    sharing = PhoneSharing(services, choices=two_addresses, port=free_port())
    dialog = ShareDialog(sharing)
    qtbot.addWidget(dialog)
    dialog.resize(700, 400)
    dialog.show()
    qtbot.waitExposed(dialog)
    qtbot.wait(50)  # its height follows its wrapped lines at that width
    before = dialog.size()
    dialog.address.setCurrentIndex(dialog.address.findData(LOOPBACK))
    try:
        for _ in range(2):
            dialog.toggle.click()  # Start
            assert sharing.sharing and sharing.url.startswith(f"http://{LOOPBACK}:")
            assert dialog.address.currentData() == LOOPBACK
            grown = dialog.size()
            dialog.toggle.click()  # Stop
            assert not sharing.sharing and dialog.address.currentData() == LOOPBACK
            assert grown != before
            qtbot.waitUntil(lambda: dialog.size() == before, timeout=2000)
        dialog.allow_public.setChecked(True)  # the list filled again: the choice kept
        assert dialog.address.currentData() == LOOPBACK
    finally:
        sharing.end()
