"""Issue 31: after a conflict the laptop's queued entries stay visible in the queue view,
where the conflicted one is applied again on top of the other client's, or dropped.

Two clients on one club database: the laptop (this window) reaches it through a proxy whose
link is cut; the other client, connected directly, writes to the session meanwhile."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMenu

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.plugins.mini_car_wars.sheet import MiniSheetWidget
from carwars_desktop.gui.queue_view import BEHIND, CONFLICTED, WAITING, QueueView
from carwars_desktop.rules import find_ruleset
from carwars_desktop.rules.builtin import MINI_CAR_WARS
from carwars_desktop.rules.mini_car_wars.model import Side
from carwars_desktop.session import Event, EventKind, SheetUpdate
from carwars_desktop.session.setup import Entry, prepare
from carwars_desktop.storage.club import ClubConnection, open_club_database
from carwars_desktop.storage.offline_queue import QueuedEntry

from ..gui.readable import unreadable
from .proxy import StallingProxy, stalling_proxy

THEIRS = "Bo's laptop: Courier front armour 25"


@dataclass
class Night:
    window: MainWindow
    proxy: StallingProxy
    club: ClubConnection
    password: str
    session_id: int

    def server_events(self) -> list[Any]:
        with open_club_database(self.club, self.password) as database:
            return database.game_sessions.events(self.session_id).page(0, 100)

    def server_sheet(self) -> dict[str, Any]:
        with open_club_database(self.club, self.password) as database:
            return dict(database.game_sessions.load(self.session_id).sheets["v1"])


@pytest.fixture
def night(qtbot: Any, tmp_path: Path, club: ClubConnection,
          club_password: str) -> Iterator[Night]:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    with stalling_proxy(club.port) as proxy:
        window = MainWindow(db_url_hint=replace(club, port=proxy.port).url(club_password),
                            interactive=False, settings=settings)
        qtbot.addWidget(window)
        window.resize(1366, 768)
        window.show()
        assert window.finish_startup()
        try:
            ruleset = find_ruleset(MINI_CAR_WARS.id)
            entries = [Entry("Ann", "Courier", ruleset.catalog()["Courier"].to_json())]
            table = window.table
            window._rail.setCurrentRow(window.workspaces.index(table))
            session_id = table.start_session(ruleset.id, "Club night", "",
                                             prepare(ruleset, entries, ""))
            yield Night(window, proxy, club, club_password, session_id)
        finally:
            proxy.resume()
            window.shutdown()


def conflict(qtbot: Any, night: Night, marks: tuple[int, ...],
             while_away: Callable[[], None] = lambda: None) -> None:
    """The laptop marks the left armour once online, then ``marks`` with its link cut
    (then ``while_away`` runs); the other client marks the front armour meanwhile; the
    link comes back."""
    window = night.window
    courier = window.table.play.sheets["v1"]
    assert isinstance(courier, MiniSheetWidget)
    courier.mark_armor(Side.LEFT, 19)
    night.proxy.cut()
    for left in marks:
        courier.mark_armor(Side.LEFT, left)
    qtbot.waitUntil(lambda: window.offline_banner.isVisible())
    assert "entries wait" in window.offline_banner.label.text() or \
        "entry waits" in window.offline_banner.label.text()
    while_away()
    with open_club_database(night.club, night.password) as other:
        sessions = other.game_sessions
        lease = sessions.acquire(night.session_id, take_over=True)
        loaded = sessions.load(night.session_id)
        before = dict(loaded.sheets["v1"])
        after = copy.deepcopy(before)
        after["armor"]["F"] = 25
        sessions.events(night.session_id, lease).append(
            Event(EventKind.MARK, THEIRS, (), (SheetUpdate("v1", before, after),)),
            {"v1": after}, loaded.clock)
        sessions.release(lease)  # the other GM is done and closes the session
    night.proxy.resume()
    window.offline_banner.retry_button.click()
    qtbot.waitUntil(lambda: window.club_link.store is not None
                    and window.club_link.store.state().conflict is not None)


def open_view(qtbot: Any, night: Night) -> QueueView:
    banner = night.window.offline_banner
    assert banner.isVisible() and banner.queue_button.isVisible()
    assert "conflicted" in banner.label.text() and "Show the queue" in banner.label.text()
    banner.queue_button.click()
    view = night.window.queue_view
    assert view is not None and view.isVisible()
    qtbot.waitUntil(lambda: view.focusWidget() is view.list)
    return view


def listed(view: QueueView) -> list[str]:
    return [view.list.item(row).text() for row in range(view.list.count())]


def test_the_conflicted_entry_is_listed_and_applied_again_on_top(
        qtbot: Any, night: Night) -> None:
    conflict(qtbot, night, (18,))
    view = open_view(qtbot, night)
    [entry] = view._entries
    made_at = entry.created_at
    [line] = listed(view)
    assert line.startswith(f"⚠ {CONFLICTED}: ") and "“Club night” (session" in line
    assert "made at the table at" in line
    assert "Another client wrote to this session" in view.details.text()
    assert THEIRS in view.details.text()
    assert "1 conflicted" in view.heading.text()
    assert view.apply_button.isEnabled() and view.drop_button.isEnabled()
    assert "&" in view.apply_button.text() and "&" in view.drop_button.text()
    # Nothing cut in the window at 1366×768, nor in the view over it.
    qtbot.waitUntil(lambda: not unreadable(view) and not unreadable(night.window))
    view.apply_button.click()
    qtbot.waitUntil(lambda: view.list.count() == 0)
    assert "Nothing waits" in view.heading.text()
    assert "is on the server now" in view.message.text()
    events = night.server_events()
    summaries = [e.event.summary for e in events]
    assert len(summaries) == 3 and summaries[1] == THEIRS  # theirs kept, in its place
    assert summaries[0] != summaries[2] and len(set(summaries)) == 3  # no duplicate
    assert events[2].created_at == made_at  # the time it was made at the table
    sheet = night.server_sheet()
    assert sheet["armor"]["F"] == 25 and sheet["armor"]["L"] == 18  # both
    qtbot.waitUntil(lambda: not night.window.offline_banner.isVisible())
    game = night.window.table.context.service.game
    assert game is not None and game.sheet("v1").to_json() == sheet  # the screen follows


def test_dropping_the_conflicted_entry_sends_the_one_behind_it_on_top(
        qtbot: Any, night: Night) -> None:
    def waiting() -> None:  # the view from the View menu, while the link is down
        [menu] = [a.menu() for a in night.window.menuBar().actions() if a.text() == "&View"]
        assert isinstance(menu, QMenu)
        [action] = [a for a in menu.actions() if a.text() == "Offline &queue…"]
        action.trigger()
        view = night.window.queue_view
        assert view is not None and view.isVisible()
        assert [line.split(":")[0] for line in listed(view)] == [WAITING, WAITING]
        assert "to be sent in order" in view.heading.text()
        assert not view.apply_button.isEnabled() and not view.drop_button.isEnabled()

    conflict(qtbot, night, (18, 17), waiting)
    # The open view followed the replay: no one asked it to read the queue again.
    shown = night.window.queue_view
    assert shown is not None and listed(shown)[0].startswith(f"⚠ {CONFLICTED}")
    view = open_view(qtbot, night)
    assert view is shown
    first, second = view._entries
    assert [line.split(":")[0] for line in listed(view)] == [f"⚠ {CONFLICTED}", BEHIND]
    view.list.setCurrentRow(1)  # the one behind waits: nothing to decide for it
    assert not view.apply_button.isEnabled() and not view.drop_button.isEnabled()
    view.list.setCurrentRow(0)
    asked: list[str] = []
    view.confirm_drop = lambda words: asked.append(words) or False
    view.drop_button.click()
    assert len(asked) == 1 and view.list.count() == 2  # not confirmed: kept
    view.confirm_drop = lambda words: asked.append(words) or True
    view.drop_button.click()
    assert asked[1] == asked[0] and "left" in asked[0].lower()
    qtbot.waitUntil(lambda: view.list.count() == 0)
    events = night.server_events()
    assert [e.event.summary for e in events][1:] == [THEIRS, _summary(second)]
    assert _summary(first) not in [e.event.summary for e in events[1:]]
    assert events[2].created_at == second.created_at
    sheet = night.server_sheet()
    assert sheet["armor"]["F"] == 25 and sheet["armor"]["L"] == 17


def _summary(entry: QueuedEntry) -> str:
    assert entry.event is not None
    return entry.event.summary
