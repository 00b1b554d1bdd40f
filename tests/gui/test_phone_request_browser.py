"""The phones' requests in real browsers (headless Chromium, loopback only): one
Battlecars round with four phones sending their secret speeds, the GM accepting and
refusing from the keyboard in the queue beside the sheets; the database, the session log,
the TV (the players' display) and each phone's page checked at every step."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.players_display import PlayerDisplay
from carwars_desktop.rules import find_ruleset
from carwars_desktop.services import Services
from carwars_desktop.services.share_network import LOOPBACK, Interface
from carwars_desktop.session.setup import Entry, prepare

from .browser import chromium

WAIT = 30.0
PLAYERS = ["Bob", "Di", "Al", "Cy"]
CARS = ["Red Baron", "Blue Thunder", "Ambusher", "Comet"]


def loopback(_allow_public: bool) -> list[Interface]:
    return [Interface(LOOPBACK, f"{LOOPBACK} (this computer only)", True)]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def phones() -> Iterator[list[WebDriver]]:
    drivers: list[WebDriver] = []
    yield drivers
    for driver in drivers:
        driver.quit()


def _start(services: Services, ruleset_id: str, count: int) -> None:
    ruleset = find_ruleset(ruleset_id)
    catalog = ruleset.catalog()
    designs = (list(catalog) * count)[:count]
    entries = [Entry(player, name, catalog[design].to_json())
               for player, name, design in zip(PLAYERS[:count], CARS[:count], designs,
                                               strict=True)]
    services.table.open(services.table.start(ruleset_id, "Phones night", "",
                                             prepare(ruleset, entries)))


def _wait(driver: WebDriver, condition, timeout: float = WAIT):  # type: ignore[no-untyped-def]
    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: condition(d))


def _text(driver: WebDriver, element_id: str) -> str:
    return str(driver.execute_script(
        "const e = document.getElementById(arguments[0]);"
        " return e && !e.hidden ? e.innerText : '';", element_id))


def _speeds(driver: WebDriver) -> list[str]:
    return list(driver.execute_script(
        "return Array.from(document.querySelectorAll('#speeds button'), b => b.dataset.label);"))


def _fastest(driver: WebDriver) -> str:
    return [label for label in _speeds(driver) if "reverse" not in label][-1]


def _tap_speed(driver: WebDriver, label: str) -> None:
    assert driver.execute_script(
        "for (const b of document.querySelectorAll('#speeds button'))"
        " if (b.dataset.label === arguments[0]) { b.click(); return true; } return false;",
        label)


def _summaries(window: MainWindow) -> list[str]:
    """The session's events as the database keeps them (read afresh)."""
    game = window.services.table.running()
    store = game.store
    return [e.event.summary for e in store.page(0, 100) if not e.undone]  # type: ignore[attr-defined]


def _tv_waiting(display: PlayerDisplay) -> str:
    return str(display.waiting.property("waiting-for") or "") \
        if display.waiting.isVisibleTo(display) else ""


@pytest.mark.slow
@pytest.mark.chromium
def test_phone_request_battlecars_round_of_secret_speeds_from_four_phones(
        qtbot, window: MainWindow, phones: list[WebDriver]) -> None:  # type: ignore[no-untyped-def]
    sharing = window.phone_sharing
    sharing.interfaces_of = loopback
    sharing.port = free_port()
    window.build_workspaces()
    _start(window.services, "battlecars", 4)
    display = window.open_player_display()
    sharing.start(LOOPBACK)
    queue = window.phone_queue
    assert queue.isVisibleTo(window.table.play)
    seats = {key: url for key, _name, url in sharing.seats()}
    for key in ["v1", "v2", "v3", "v4"]:
        driver = chromium()
        phones.append(driver)
        driver.get(seats[key])
    for driver in phones:
        _wait(driver, lambda d: _text(d, "connection") == "live" and _speeds(d))
    bob, di, al, cy = phones
    game = window.services.table.running()
    before = {key: game.sheet(key).speed for key in seats}  # type: ignore[attr-defined]
    # Nobody has chosen: the TV, the Table and every phone say who is awaited.
    everyone = "waiting for: Bob, Di, Al, Cy"
    assert _tv_waiting(display).endswith(everyone)
    assert queue.speeds.text().startswith("0 of 4 speeds in")
    for driver in phones:
        _wait(driver, lambda d: _text(d, "waiting").endswith(everyone))
    assert _summaries(window) == []

    # Bob sends his: the GM's queue shows it without its value; nothing applied yet.
    chosen = {"v1": _fastest(bob)}
    _tap_speed(bob, chosen["v1"])
    qtbot.waitUntil(lambda: queue.list.count() == 1, timeout=int(WAIT * 1000))
    assert queue.texts() == ["Bob's phone: a secret speed (allowed by the rules)"]
    _wait(bob, lambda d: "waiting" in _text(d, "requests"))
    queue.list.setFocus()
    qtbot.keyClick(queue.list, Qt.Key.Key_Return)  # Enter: in
    assert queue.speeds.text().startswith("1 of 4 speeds in")
    assert _tv_waiting(display).endswith("waiting for: Di, Al, Cy")
    _wait(bob, lambda d: _text(d, "sent").startswith("in: "))
    for driver in (di, al, cy):
        _wait(driver, lambda d: _text(d, "waiting").endswith("waiting for: Di, Al, Cy"))
        assert "Red Baron" not in _text(driver, "send")  # nobody else sees Bob's
    assert _summaries(window) == [] and not game.can_undo()

    # Di's first choice is refused from the keyboard, with a reason her phone shows.
    _tap_speed(di, _speeds(di)[0])
    qtbot.waitUntil(lambda: queue.list.count() == 1, timeout=int(WAIT * 1000))
    qtbot.keyClicks(queue.reason, "too slow, think again")
    queue.list.setFocus()
    qtbot.keyClick(queue.list, Qt.Key.Key_Delete)
    assert queue.list.count() == 0 and queue.speeds.text().startswith("1 of 4")
    _wait(di, lambda d: "refused — too slow, think again" in _text(d, "requests"))
    chosen["v2"] = _fastest(di)
    _tap_speed(di, chosen["v2"])
    qtbot.waitUntil(lambda: queue.list.count() == 1, timeout=int(WAIT * 1000))
    qtbot.keyClick(queue.list, Qt.Key.Key_Return)
    assert _tv_waiting(display).endswith("waiting for: Al, Cy")

    # Al's is accepted; then the GM lets secret speeds in by themselves: Cy's is the last.
    chosen["v3"] = _fastest(al)
    _tap_speed(al, chosen["v3"])
    qtbot.waitUntil(lambda: queue.list.count() == 1, timeout=int(WAIT * 1000))
    qtbot.keyClick(queue.list, Qt.Key.Key_Return)
    assert queue.speeds.text().startswith("3 of 4 speeds in")
    assert _tv_waiting(display).endswith("waiting for: Cy")
    assert _summaries(window) == []
    queue.auto.setChecked(True)  # the session's setting: an event of its own
    assert _summaries(window) == ["Phones: secret speeds accepted automatically"]
    chosen["v4"] = _fastest(cy)
    _tap_speed(cy, chosen["v4"])
    # All in: revealed together, one event.
    qtbot.waitUntil(lambda: len(_summaries(window)) == 2, timeout=int(WAIT * 1000))
    summary = _summaries(window)[1]
    assert "secret speeds revealed: Red Baron: " in summary
    assert "from Bob's, Di's, Al's, Cy's phones" in summary
    after = {key: game.sheet(key).speed for key in seats}  # type: ignore[attr-defined]
    assert after == {key: int(chosen[key].split()[0]) for key in seats}
    assert _tv_waiting(display) == ""
    qtbot.waitUntil(lambda: any("secret speeds revealed" in t for t in display.texts()))
    assert queue.list.count() == 0
    for driver in phones:
        _wait(driver, lambda d: "secret speeds revealed" in _text(d, "log"))
        assert _text(driver, "waiting") == "" and not _speeds(driver)
    _wait(cy, lambda d: "accepted" in _text(d, "requests"))
    # The reveal is one ordinary event: one undo puts every speed back.
    window.services.table.undo()
    assert {key: game.sheet(key).speed for key in seats} == before  # type: ignore[attr-defined]
    assert _summaries(window) == ["Phones: secret speeds accepted automatically"]
    assert sharing.desk.auto_speeds


def _shot_cards(driver: WebDriver) -> list[dict[str, str]]:
    return list(driver.execute_script(
        "return Array.from(document.querySelectorAll('#shots .shot'), c => ({"
        " key: c.dataset.key, summary: c.querySelector('.shot-summary').textContent,"
        " odds: c.querySelector('.shot-odds').textContent,"
        " need: c.querySelector('.shot-need').textContent,"
        " state: c.querySelector('.shot-state').textContent,"
        " sent: (c.querySelector('.shot-dice-sent') || {}).textContent || ''}));"))


def _declare(driver: WebDriver, weapon: str, target: str, side: str, range_: str) -> None:
    assert driver.execute_script(
        "const [w, t, s, r] = arguments;"
        "const set = (id, v) => { const e = document.getElementById(id); e.value = v;"
        " return e.value === v; };"
        "if (!(set('shot-weapon', w) && set('shot-target', t) && set('shot-side', s)))"
        " return false;"
        "document.getElementById('shot-range').value = r;"
        "document.getElementById('shot-send').click(); return true;",
        weapon, target, side, range_)


def _type_dice(driver: WebDriver, key: str, dice: str) -> None:
    assert driver.execute_script(
        "for (const c of document.querySelectorAll('#shots .shot')) if (c.dataset.key ="
        "== arguments[0]) { c.querySelector('.shot-dice').value = arguments[1];"
        " c.querySelector('.shot-dice-send').click(); return true; } return false;",
        key, dice)


def _mcw(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    """A Mini Car Wars session opened at the Table (its fire batch with it), phase 2."""
    services = window.services
    ruleset = find_ruleset("mini_car_wars")
    catalog = ruleset.catalog()
    entries = [Entry(player, name, catalog[design].to_json())
               for player, name, design in zip(PLAYERS[:2], CARS[:2], ["Courier (b)", "Courier"],
                                               strict=True)]
    window.table.open_session(services.table.start("mini_car_wars", "Phones night", "",
                                                   prepare(ruleset, entries)))
    qtbot.waitUntil(lambda: window.table.keys.batch is not None)
    game = services.table.running()
    services.table.set_clock(game.clock.advanced(), "phase 2")  # the speeds are chosen


@pytest.mark.slow
@pytest.mark.chromium
def test_phone_request_mcw_phase_two_phones_declare_shots_and_type_their_dice(
        qtbot, window: MainWindow, phones: list[WebDriver]) -> None:  # type: ignore[no-untyped-def]
    from carwars_desktop.rules import find_procedure

    sharing = window.phone_sharing
    sharing.interfaces_of = loopback
    sharing.port = free_port()
    window.build_workspaces()
    _mcw(window, qtbot)
    display = window.open_player_display()
    sharing.start(LOOPBACK)
    queue = window.phone_queue
    keys = window.table.keys
    assert keys.batch is not None and keys.batch.shots == []
    seats = {key: url for key, _name, url in sharing.seats()}
    for key in ["v1", "v2"]:
        driver = chromium()
        phones.append(driver)
        driver.get(seats[key])
    bob, di = phones
    for driver in phones:
        _wait(driver, lambda d: _text(d, "connection") == "live"
              and _text(d, "send-title") == "Your shot this phase")
    game = window.services.table.running()
    events = len(_summaries(window))
    # Bob declares: his phone shows the need and the exact odds before he throws.
    _declare(bob, "1", "v2", "L", "5")
    qtbot.waitUntil(lambda: queue.list.count() == 1, timeout=int(WAIT * 1000))
    fire = find_procedure("mini.fire")
    odds = fire.odds({"firer": game.sheet("v1"), "target": game.sheet("v2"), "weapon": "1",
                      "side": "L", "range": "5", "hold_damage": True}, game.house)
    _wait(bob, lambda d: len(_shot_cards(d)) == 1)
    card = _shot_cards(bob)[0]
    assert card["odds"] == f"need {odds.need}+ · 5/6 · 83.3%"
    assert card["summary"].startswith("Red Baron fires 1: ")
    assert "at Blue Thunder" in card["summary"]
    assert "2d6" in card["need"] and "waiting for the GM" in card["state"]
    assert queue.texts()[0].startswith("Bob's phone: Red Baron fires 1: ")
    assert queue.texts()[0].endswith("\n    need 5+ · 5/6 · 83.3%")
    assert _shot_cards(di) == []  # nobody else's shot on Di's phone
    # Di declares too; the GM accepts Bob's (Enter) and refuses Di's (Delete, a reason).
    _declare(di, "1", "v1", "F", "12")
    qtbot.waitUntil(lambda: queue.list.count() == 2, timeout=int(WAIT * 1000))
    queue.list.setFocus()
    queue.list.setCurrentRow(0)
    qtbot.keyClick(queue.list, Qt.Key.Key_Return)
    assert len(keys.batch.shots) == 1 and "from Bob's phone" in keys.batch.shots[0].label
    _wait(bob, lambda d: "in the phase's fire batch" in _shot_cards(d)[0]["state"])
    qtbot.keyClicks(queue.reason, "out of your arc")
    queue.list.setFocus()
    qtbot.keyClick(queue.list, Qt.Key.Key_Delete)
    assert queue.list.count() == 0 and len(keys.batch.shots) == 1
    _wait(di, lambda d: "refused — out of your arc" in _text(d, "requests"))
    assert _shot_cards(di) == []
    _declare(di, "1", "v1", "L", "5")
    qtbot.waitUntil(lambda: queue.list.count() == 1, timeout=int(WAIT * 1000))
    qtbot.keyClick(queue.list, Qt.Key.Key_Return)
    assert len(keys.batch.shots) == 2
    assert len(_summaries(window)) == events  # declared, nothing applied
    # Each types the dice of their own shot (compact, as at the Table).
    _type_dice(bob, _shot_cards(bob)[0]["key"], "44566")
    _wait(di, lambda d: len(_shot_cards(d)) == 1)
    _type_dice(di, _shot_cards(di)[0]["key"], "11")
    qtbot.waitUntil(lambda: [s.dice for s in keys.batch.shots] == ["44566", "11"],
                    timeout=int(WAIT * 1000))
    _wait(bob, lambda d: _shot_cards(d)[0]["sent"] == "dice sent: 44566")
    assert len(_summaries(window)) == events
    # The GM applies the batch: one event, from the phones' dice.
    pending = keys.batch.resolve(window.services.table)
    pending.apply()
    keys.batch.resolved()
    summaries = _summaries(window)
    assert len(summaries) == events + 1 and "fire batch of 2" in summaries[-1]
    assert game.sheet("v2").armor.left == 3  # type: ignore[attr-defined]
    qtbot.waitUntil(lambda: any("fire batch of 2" in t for t in display.texts()))
    for driver in phones:
        _wait(driver, lambda d: "fire batch of 2" in _text(d, "log"))


@pytest.mark.slow
@pytest.mark.chromium
def test_phone_request_unsent_while_offline_is_sent_once_back_online(
        qtbot, window: MainWindow, phones: list[WebDriver]) -> None:  # type: ignore[no-untyped-def]
    sharing = window.phone_sharing
    sharing.interfaces_of = loopback
    sharing.port = free_port()
    window.build_workspaces()
    _start(window.services, "battlecars", 2)
    sharing.start(LOOPBACK)
    seats = {key: url for key, _name, url in sharing.seats()}
    driver = chromium()
    phones.append(driver)
    driver.get(seats["v1"])
    _wait(driver, lambda d: _text(d, "connection") == "live" and _speeds(d))
    driver.execute_cdp_cmd("Network.enable", {})
    offline = {"offline": True, "latency": 0, "downloadThroughput": -1,
               "uploadThroughput": -1}
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", offline)
    _tap_speed(driver, _fastest(driver))
    _wait(driver, lambda d: _text(d, "sent").startswith("not sent yet"))
    assert driver.execute_script("return Object.keys(localStorage)"
                                 ".filter(k => k.startsWith('carwars-unsent-')).length") == 1
    qtbot.wait(300)
    assert sharing.desk.requests == []
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {**offline, "offline": False})
    qtbot.waitUntil(lambda: len(sharing.desk.requests) == 1, timeout=int(WAIT * 1000))
    _wait(driver, lambda d: "waiting" in _text(d, "requests"))
    assert driver.execute_script("return Object.keys(localStorage)"
                                 ".filter(k => k.startsWith('carwars-unsent-')).length") == 0
    qtbot.wait(3500)  # a retry would have gone by now
    assert len(sharing.desk.requests) == 1
