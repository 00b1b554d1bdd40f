"""Starting, listing, resuming and finishing sessions; vehicles from the library or the rules."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.table.new_session import NewSessionDialog
from carwars_desktop.gui.table.vehicle_choices import vehicle_choices
from carwars_desktop.rules import find_ruleset
from carwars_desktop.rules.mini_car_wars.model import Side


@dataclass
class FakeRecord:
    """What ``database.library.all()`` lists (the Workshop's DesignRecord fields used here)."""

    id: int
    ruleset_id: str
    name: str
    data: Any
    legal: bool = True
    catalog_name: str | None = None


class FakeLibrary:
    def __init__(self, records: list[FakeRecord]) -> None:
        self.records = records

    def all(self, ruleset_id: str | None = None) -> list[FakeRecord]:
        return [r for r in self.records if ruleset_id in (None, r.ruleset_id)]


class DatabaseWithLibrary:
    def __init__(self, library: FakeLibrary) -> None:
        self.library = library


def test_vehicles_come_from_the_library_or_the_rules() -> None:
    ruleset = find_ruleset("mini_car_wars")
    courier = ruleset.catalog()["Courier"].to_json()
    mine = dict(courier, name="Ann's Courier")
    library = FakeLibrary([FakeRecord(1, "mini_car_wars", "Courier", courier, True, "Courier"),
                           FakeRecord(2, "mini_car_wars", "Ann's Courier", json.dumps(mine)),
                           FakeRecord(3, "mini_car_wars", "Draft", {"name": "Draft"}, False),
                           FakeRecord(4, "autopower", "Other", {})])
    choices = vehicle_choices(DatabaseWithLibrary(library), ruleset)
    assert [c.label for c in choices] == ["Ann's Courier (library)",
                                          "Draft (library — has problems)", "Courier (rules)"]
    assert choices[0].design == mine
    without = vehicle_choices(object(), ruleset)
    assert {c.source for c in without} == {"catalog"}
    assert len(without) == len(ruleset.catalog())
    empty = vehicle_choices(DatabaseWithLibrary(FakeLibrary([])), ruleset)
    assert len(empty) == len(ruleset.catalog())


def test_the_real_library_lists_its_designs(window: MainWindow) -> None:
    """The Workshop's library (installed with the rules' catalog at start-up) is offered."""
    assert window.database is not None and hasattr(window.database, "library")
    ruleset = find_ruleset("mini_car_wars")
    choices = vehicle_choices(window.database, ruleset)
    assert {c.name for c in choices} >= set(ruleset.catalog())


def test_new_session_dialog_checks_and_starts(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    table = window.table
    table.new_session()
    dialog = table.new_dialog
    assert isinstance(dialog, NewSessionDialog)
    assert dialog.ruleset_id() == "mini_car_wars"
    dialog.scenario_box.setCurrentIndex(dialog.scenario_box.findData("road_duel"))
    assert "60 mph" in dialog.scenario_text.text()
    dialog.set_player(0, "Ann", "Courier", "Red Courier")
    dialog.set_player(1, "Bo", "Courier")
    dialog.name_edit.setText("")
    dialog.accept()
    assert "give the session a name" in dialog.error.text()
    assert window.database is not None and window.database.game_sessions.all() == []
    dialog.name_edit.setText("Road Duel night")
    dialog.accept()
    game = table.context.service.game
    assert game is not None and not table.context.service.read_only
    assert [(v.player, v.name) for v in game.vehicles] == [("Ann", "Red Courier"),
                                                          ("Bo", "Courier")]
    assert game.vehicles[0].design["name"] == "Red Courier"  # the copy, renamed
    assert game.sheet("v1").speed == 60  # type: ignore[attr-defined]
    info = window.database.game_sessions.all()[0]
    assert (info.name, info.scenario, info.running) == ("Road Duel night", "Road Duel", True)


def test_finished_session_opens_read_only_with_charts(start_session,  # type: ignore[no-untyped-def]
                                                      window: MainWindow, qtbot) -> None:
    table = start_session("mini_car_wars", [("Ann", "Courier"), ("Bo", "Killer Kart")])
    courier = table.play.sheets["v1"]
    courier.mark_armor(Side.FRONT, 10)  # type: ignore[attr-defined]
    table.play.clock.next_phase()
    session_id = table.session_id
    table.finish_session(confirm=False)
    assert table.context.service.read_only
    assert not table.play.undo_action.isVisible()
    assert table.play.tabs.currentIndex() == 1
    charts = table.play.charts
    # read on a worker, then drawn one chart per turn (tests/gui/test_turns.py)
    qtbot.waitUntil(lambda: not charts.drawing and len(charts.plots) == 4, timeout=60_000)
    assert set(charts.plots) == {"gauge:armor", "gauge:DP", "damage", "luck"}
    assert "Courier: took 20" in charts.summary.text()
    rows = table.play.log_dock.model.rowCount()
    table.play.sheets["v1"].mark_armor(Side.FRONT, 0)  # type: ignore[attr-defined]
    assert table.play.log_dock.model.rowCount() == rows  # read-only: nothing written
    table.show_sessions()
    page = table.sessions_page
    qtbot.waitUntil(lambda: page.model.rowCount() == 1)  # the list is read on a worker
    assert page.open_button.text() == "&Open read-only"
    page.open_row(0)
    assert table.session_id == session_id and table.context.service.read_only
    assert window.database is not None
    assert window.database.game_sessions.last_running() is None


def test_a_session_the_rules_cannot_read_stays_closed_and_says_why(  # type: ignore[no-untyped-def]
        window: MainWindow) -> None:
    from carwars_desktop.session import VehicleInPlay
    from carwars_desktop.storage import NewVehicle

    assert window.database is not None
    sessions = window.database.game_sessions
    session_id = sessions.create("mini_car_wars", "Damaged", "", [
        NewVehicle(VehicleInPlay("v1", "Courier", "Ann", {}), {"not": "a sheet"})],
        {"turn": 1, "phase": 0, "phases": ["phase 1"], "word": "turn"})
    table = window.table
    assert not table.open_session(session_id)
    assert table.context.service.game is None
    assert table.pages.currentWidget() is table.sessions_page
    assert "cannot be opened" in table.sessions_page.message.text()
    assert sessions.load(session_id).sheets == {"v1": {"not": "a sheet"}}


def test_a_session_whose_stored_clock_cannot_be_read_opens_read_only_with_its_log(  # type: ignore[no-untyped-def]
        start_session, window: MainWindow) -> None:
    """Resumed at the Table it is shown read-only with the reason in its title, every
    event in the log, the clock the last one the log shows; nothing is written."""
    from sqlalchemy import text

    table = start_session("mini_car_wars", [("Ann", "Courier"), ("Bo", "Killer Kart")])
    table.play.clock.next_phase()
    table.play.sheets["v1"].mark_armor(Side.FRONT, 10)  # type: ignore[attr-defined]
    assert table.context.service.game is not None
    clock = table.context.service.game.clock
    session_id = table.session_id
    assert session_id is not None and window.database is not None
    table.release_lease()  # (as after the app is closed)
    table.show_sessions()
    with window.database.engine.begin() as connection:
        connection.execute(text("UPDATE game_sessions SET clock = '{not JSON' "
                                "WHERE id = :id"), {"id": session_id})
    before = window.database.game_sessions.info(session_id)

    assert table.open_session(session_id)

    assert table.pages.currentWidget() is table.play
    assert table.context.service.read_only and not table.play.undo_action.isVisible()
    title = table.play.title.text()
    assert "read-only: the session's stored clock cannot be read" in title
    assert "the clock shown is the one after event 1" in title
    assert table.context.service.game is not None and table.context.service.game.clock == clock
    model = table.play.log_dock.model
    assert [model.data(model.index(row, 2)) for row in range(model.rowCount())] == [
        "Turn 1: phase 1 → 2", "Courier: 20 damage crossed off the front (30 → 10)"]
    rows = model.rowCount()
    table.play.sheets["v1"].mark_armor(Side.FRONT, 0)  # type: ignore[attr-defined]
    assert model.rowCount() == rows
    after = window.database.game_sessions.info(session_id)
    assert (after.version, after.lease, after.updated_at) == (
        before.version, before.lease, before.updated_at)
    assert table.sessions_page.message.text() == ""
