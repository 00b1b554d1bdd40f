"""A club session offline: a shot declared into the Mini Car Wars fire batch (kept in
migration 0007's ``declared_shots`` on the server) while the club server is unreachable,
or while the entries made meanwhile still wait on the laptop, is refused in words — never
a traceback, never kept on screen only to be lost (#28)."""

from __future__ import annotations

import logging
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.plugins.mini_car_wars.sheet import MiniSheetWidget
from carwars_desktop.gui.rulesets import ruleset_ui
from carwars_desktop.gui.table import TableWorkspace
from carwars_desktop.rules import find_procedure, find_ruleset
from carwars_desktop.rules.mini_car_wars.model import Side
from carwars_desktop.services import typed_dice
from carwars_desktop.session.setup import Entry, prepare
from carwars_desktop.storage.club import ClubConnection, open_club_database

SHOT = {"weapon": "1", "side": "F", "range": "2"}
REFUSED = "the club server cannot be reached"


@pytest.fixture
def settings(tmp_path: Path) -> QSettings:
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def window(qtbot: Any, settings: QSettings, club: ClubConnection, club_password: str,
           club_server: Any) -> Iterator[MainWindow]:
    window = MainWindow(db_url_hint=club.url(club_password), interactive=False,
                        settings=settings)
    qtbot.addWidget(window)
    window.show()
    assert window.finish_startup()
    try:
        yield window
    finally:
        club_server.start_if_stopped()
        window.shutdown()


def _start(window: MainWindow) -> tuple[TableWorkspace, int]:
    ruleset = find_ruleset("mini_car_wars")
    catalog = ruleset.catalog()
    entries = [Entry("Ann", "Killer Kart", catalog["Killer Kart"].to_json()),
               Entry("Bo", "Courier", catalog["Courier"].to_json())]
    table = window.table
    session_id = table.start_session(ruleset.id, "Club night", "road_duel",
                                     prepare(ruleset, entries, "road_duel"))
    return table, session_id


def _declare(table: TableWorkspace) -> str:
    [action] = [a for a in ruleset_ui("mini_car_wars").key_actions if a.kind == "fire"]
    return table.keys.declare(action, SHOT, {"firer": "v1", "target": "v2"}, "5 4 3")


def _declared_on_the_server(club: ClubConnection, password: str, session_id: int) -> int:
    with open_club_database(club, password) as database:
        return len(database.game_sessions.events(session_id).declared_shots())


def test_a_shot_declared_with_the_server_away_is_refused_in_words(
        window: MainWindow, club: ClubConnection, club_password: str, club_server: Any,
        caplog: pytest.LogCaptureFixture) -> None:
    table, session_id = _start(window)
    assert _declare(table) == ""  # online: kept on the server, shown in the batch
    assert _declared_on_the_server(club, club_password, session_id) == 1
    club_server.stop()
    with caplog.at_level(logging.DEBUG):
        refused = _declare(table)
    assert REFUSED in refused and "on its own" in refused
    assert "Traceback" not in refused and "psycopg" not in refused.lower()
    assert not any(r.exc_info for r in caplog.records), [
        traceback.format_exception(*r.exc_info) for r in caplog.records if r.exc_info]
    batch = table.keys.batch
    assert batch is not None and len(batch.shots) == 1  # the one the server keeps
    # The advice holds: the shot fired on its own waits on the laptop with the others.
    service = table.context.service
    game = service.running()
    fire = find_procedure("mini.fire")
    values = fire.bind({**SHOT, "firer": game.sheet("v2"), "target": game.sheet("v1")})
    service.resolve(fire, values, typed_dice("1 1"),
                    bindings={"firer": "v2", "target": "v1"}).apply()
    assert window.club_link.store is not None and window.club_link.store.state().pending == 1
    # Emptying the batch now is refused in words too; applying it is queued like a shot.
    dialog = table.keys.show_batch()
    assert dialog is not None
    dialog.empty()
    assert REFUSED in dialog.error.text() or "on this laptop" in dialog.error.text()
    assert len(batch.shots) == 1
    dialog.apply()
    assert dialog.error.text() == "" and batch.shots == []
    assert window.club_link.store.state().pending == 2
    club_server.start()
    window.offline_banner.retry_button.click()
    assert window.offline_banner.isHidden()
    # The batch applied offline forgot its declaration when it landed: nothing twice.
    assert _declared_on_the_server(club, club_password, session_id) == 0


def test_no_shot_is_declared_past_the_entries_waiting_on_the_laptop(
        window: MainWindow, club: ClubConnection, club_password: str,
        club_server: Any) -> None:
    """Entries wait on the laptop; the server answers again before they are sent: a shot
    declared now would reach the server before them (and the batch applied among them
    would forget it when they land). It waits for them, and says so."""
    table, session_id = _start(window)
    club_server.stop()
    kart = table.play.sheets["v2"]
    assert isinstance(kart, MiniSheetWidget)
    kart.mark_armor(Side.LEFT, 0)  # queued on the laptop
    assert window.club_link.store is not None and window.club_link.store.offline
    club_server.start()  # back, but the entry has not been sent yet
    refused = _declare(table)
    assert "1 entry made while the club server was away waits on this laptop" in refused
    assert "on its own" in refused
    batch = table.keys.batch
    assert batch is not None and batch.shots == []
    window.offline_banner.retry_button.click()  # they land…
    assert window.offline_banner.isHidden()
    assert _declare(table) == ""  # …and the batch takes shots again
    assert _declared_on_the_server(club, club_password, session_id) == 1 == len(batch.shots)
