"""Battlecars' secret mission in real browsers (headless Chromium, loopback only): Bob
types his mission die on his phone, the GM accepts it from the keyboard; his phone shows
the mission, the GM's queue had it, and neither the TV (the players' display), the common
link nor Di's phone shows it until Bob declares it done and the GM accepts; then every
page and the log say it."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget
from selenium.webdriver.remote.webdriver import WebDriver

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.players_display import LinesLabel
from carwars_desktop.rules.battlecars.scenarios import mission_for
from carwars_desktop.services.phone_requests import RequestState
from carwars_desktop.services.share_network import LOOPBACK

from .browser import chromium
from .test_phone_request_browser import (
    WAIT,
    _start,
    _summaries,
    _text,
    _wait,
    free_port,
    loopback,
    phones,
)

__all__ = ["phones"]  # (the fixture, shared)


def _page_text(driver: WebDriver) -> str:
    return str(driver.execute_script("return document.body.innerText;"))


def _tv_text(display: QWidget) -> str:
    """Every word the TV holds (its log's lines in full, not only those that fit)."""
    return "\n".join([label.text() for label in display.findChildren(QLabel)]
                     + [line for label in display.findChildren(LinesLabel)
                        for line in label.lines])


def _click(driver: WebDriver, element_id: str) -> None:
    driver.execute_script("document.getElementById(arguments[0]).click();", element_id)


@pytest.mark.slow
@pytest.mark.chromium
def test_phone_request_mission_from_a_phone_stays_secret_until_done(
        qtbot, window: MainWindow, phones: list[WebDriver]) -> None:  # type: ignore[no-untyped-def]
    sharing = window.phone_sharing
    sharing.interfaces_of = loopback
    sharing.port = free_port()
    window.build_workspaces()
    _start(window.services, "battlecars", 2)
    display = window.open_player_display()
    sharing.start(LOOPBACK)
    queue = window.phone_queue
    seats = {key: url for key, _name, url in sharing.seats()}
    for key in ["v1", "v2"]:
        driver = chromium()
        phones.append(driver)
        driver.get(seats[key])
    common = chromium()
    phones.append(common)
    common.get(sharing.url)
    bob, di = phones[:2]
    for driver in phones[:2]:
        _wait(driver, lambda d: _text(d, "connection") == "live"
              and "Your secret mission" in _text(d, "mission"))
    goal = mission_for(1, 6).goal  # Bob's is car 1
    bob.execute_script("document.getElementById('mission-dice').value = '6';")
    _click(bob, "mission-send")
    qtbot.waitUntil(lambda: queue.list.count() == 1, timeout=int(WAIT * 1000))
    assert queue.texts()[0].startswith("Bob's phone: a secret mission")
    assert goal not in queue.texts()[0]  # (the Table may be seen: the goal is its tooltip)
    assert goal in queue.list.item(0).toolTip()
    _wait(bob, lambda d: _text(d, "mission-goal") == goal)
    queue.list.setFocus()
    queue.list.setCurrentRow(0)
    qtbot.keyClick(queue.list, Qt.Key.Key_Return)  # the GM accepts: in, hidden
    _wait(bob, lambda d: "keep it hidden" in _text(d, "mission-state"))
    events = _summaries(window)
    assert "Bob's secret mission is rolled" in events[-1] and goal not in "".join(events)
    _wait(di, lambda d: "Bob's secret mission is rolled" in _page_text(d))
    _wait(common, lambda d: "Bob's secret mission is rolled" in _page_text(d))
    for page in (_page_text(di), _page_text(common), _tv_text(display)):
        assert goal not in page
    assert _text(common, "mission") == "" and _text(di, "mission-goal") == ""
    # Bob declares it done; the GM accepts: everybody sees it, one event.
    _click(bob, "mission-done")
    qtbot.waitUntil(lambda: queue.list.count() == 1, timeout=int(WAIT * 1000))
    assert goal not in _page_text(di) and goal not in _tv_text(display)
    queue.list.setFocus()
    qtbot.keyClick(queue.list, Qt.Key.Key_Return)
    mission = sharing.desk.mission_of("v1")
    assert mission is not None and mission.state is RequestState.ACCEPTED
    assert _summaries(window)[-1].startswith(f"Red Baron's mission accomplished: {goal}")
    for driver in (bob, di, common):
        _wait(driver, lambda d: f"Mission accomplished — Bob: {goal}" in _text(d, "missions"))
    qtbot.waitUntil(lambda: goal in _tv_text(display), timeout=int(WAIT * 1000))


@pytest.mark.slow
@pytest.mark.chromium
def test_phone_request_battlecars_shot_declared_on_a_phone_with_its_dice(
        qtbot, window: MainWindow, phones: list[WebDriver]) -> None:  # type: ignore[no-untyped-def]
    from .test_phone_request_browser import _shot_cards, _type_dice

    sharing = window.phone_sharing
    sharing.interfaces_of = loopback
    sharing.port = free_port()
    window.build_workspaces()
    _start(window.services, "battlecars", 2)
    table = window.services.table
    game = table.running()
    table.set_clock(game.clock.advanced(), "Red Baron's Turn")
    sharing.start(LOOPBACK)
    queue = window.phone_queue
    seats = {key: url for key, _name, url in sharing.seats()}
    for key in ["v1", "v2"]:
        driver = chromium()
        phones.append(driver)
        driver.get(seats[key])
    bob, di = phones
    _wait(bob, lambda d: _text(d, "send-title") == "Your shot this phase"
          and _text(d, "shot-mode") == "Your own Turn")
    _wait(di, lambda d: _text(d, "shot-mode").startswith("Return fire: one round"))
    mount = sharing.desk.shot_options("v1")["mounts"][0]["value"]  # type: ignore[index]
    assert bob.execute_script(
        "const set = (id, v) => { const e = document.getElementById(id); e.value = v;"
        " return e.value === v; };"
        "if (!(set('shot-weapon', arguments[0]) && set('shot-target', 'v2')"
        " && set('shot-side', 'front') && set('shot-bearing', 'ahead'))) return false;"
        "document.getElementById('shot-range').value = '2';"
        "document.getElementById('shot-send').click(); return true;", mount)
    qtbot.waitUntil(lambda: queue.list.count() == 1, timeout=int(WAIT * 1000))
    assert queue.texts()[0].startswith(f"Bob's phone: Red Baron fires {mount} at Blue Thunder")
    _wait(bob, lambda d: len(_shot_cards(d)) == 1 and "%" in _shot_cards(d)[0]["odds"])
    events = len(_summaries(window))
    queue.list.setFocus()
    queue.list.setCurrentRow(0)
    qtbot.keyClick(queue.list, Qt.Key.Key_Return)
    _wait(bob, lambda d: "type your dice to fire it" in _shot_cards(d)[0]["state"])
    assert len(_summaries(window)) == events  # nothing fired before the dice
    _type_dice(bob, _shot_cards(bob)[0]["key"], "8811")
    qtbot.waitUntil(lambda: len(_summaries(window)) == events + 1, timeout=int(WAIT * 1000))
    assert "from Bob's phone" in _summaries(window)[-1]
    _wait(bob, lambda d: "✔ fired" in _shot_cards(d)[0]["state"])
    assert _shot_cards(di) == []  # nobody else's shot on Di's phone
