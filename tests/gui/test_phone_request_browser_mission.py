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
