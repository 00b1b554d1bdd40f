"""The window never freezes: a watchdog on the GUI thread counts stalls over 100 ms while
the GM types a large dice expression, imports a big design file and opens a finished
session with many events. Stalls are counted, not seconds (see tests/gui/watchdog.py);
each case is sized so the old code (all of it on the GUI thread) stalled."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from carwars_desktop.gui.dice_workspace import DiceWorkspace
from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.workshop import LibraryWorkspace
from carwars_desktop.library import FORMAT, VERSION
from carwars_desktop.rules import find_ruleset
from carwars_desktop.rules.mini_car_wars import MiniDesign, MiniSheet
from carwars_desktop.rules.mini_car_wars.model import Role
from carwars_desktop.session import Event, EventKind, SheetUpdate
from carwars_desktop.session.setup import Entry, prepare
from carwars_desktop.storage import NewVehicle
from carwars_desktop.storage.models import SessionEventRow

from .watchdog import watching


def _workspace(window: MainWindow, kind: type[Any]) -> Any:
    return next(w for w in window.workspaces if isinstance(w, kind))


def test_typing_a_large_dice_expression_never_freezes_the_window(
        window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    dice = _workspace(window, DiceWorkspace)
    window._rail.setCurrentRow(window.workspaces.index(dice))
    dice.expression_edit.clear()
    qtbot.wait(20)
    with watching() as dog:
        for character in "60d100":
            qtbot.keyClicks(dice.expression_edit, character)
            qtbot.wait(1)
        qtbot.waitUntil(lambda: not dice.odds_pending, timeout=60_000)
        qtbot.wait(20)
    assert dog.stalls == []
    assert dice.odds_status.text().startswith("60d100: 5,941 outcomes, computed in ")
    assert dice.summary.text().startswith("60d100: 60–6000, mean 3030.00")
    assert len(dice.chart.bars) == 5941


def test_importing_a_large_design_file_never_freezes_the_window(
        window: MainWindow, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    library = _workspace(window, LibraryWorkspace)
    design = MiniDesign.stock_design("courier", "b", name="Courier").to_json()
    items = [{"ruleset": "mini_car_wars", "kind": "vehicle", "tags": ["club"],
              "design": {**design, "name": f"Courier {n:04d}"}} for n in range(1000)]
    path = tmp_path / "club.carwars.json"
    path.write_text(json.dumps({"format": FORMAT, "version": VERSION, "designs": items}))
    qtbot.wait(20)
    with watching() as dog:
        assert library.import_designs(str(path)) == 1000
        qtbot.wait(20)
    assert dog.stalls == []
    assert len(library.selected_ids()) == 1000


def _finished_session(window: MainWindow, events: int) -> int:
    """A finished Mini Car Wars session of ``events`` real mark events, bulk-written."""
    database = window.database
    assert database is not None
    ruleset = find_ruleset("mini_car_wars")
    catalog = ruleset.catalog()
    start = prepare(ruleset, [Entry("Ann", "Courier", catalog["Courier"].to_json()),
                              Entry("Bo", "Killer Kart", catalog["Killer Kart"].to_json())])
    sessions = database.game_sessions
    session_id = sessions.create("mini_car_wars", "Long campaign", "",
                                 [NewVehicle(v, start.sheets[v.key].to_json())
                                  for v in start.vehicles], start.clock.to_json())
    sheet = start.sheets["v1"]
    assert isinstance(sheet, MiniSheet)
    hit = sheet.with_person(sheet.driver.__class__(Role.DRIVER, 1))
    bodies = []
    for before, after in ((sheet, hit), (hit, sheet)):
        event = Event(EventKind.MARK, "Courier: driver", ("driver",),
                      (SheetUpdate("v1", before.to_json(), after.to_json()),), turn=1)
        bodies.append(json.dumps(event.to_json()))
    now = datetime.now(UTC)
    rows = [{"session_id": session_id, "seq": seq, "status": "active", "kind": "mark",
             "summary": "Courier: driver", "body": bodies[seq % 2], "created_at": now}
            for seq in range(1, events + 1)]
    with database.sessions.begin() as session:
        session.execute(SessionEventRow.__table__.insert(), rows)
    sessions.finish(session_id)
    return session_id


def test_opening_a_long_finished_session_never_freezes_the_window(
        window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    table = window.table
    window._rail.setCurrentRow(window.workspaces.index(table))
    # The first charts ever drawn build their four plot widgets (and import pyqtgraph):
    # a fixed cost whatever the session's length, paid here on a short one.
    assert table.open_session(_finished_session(window, 10))
    table.play.tabs.setCurrentIndex(1)
    session_id = _finished_session(window, 4000)
    # Opening reads the current sheets, never the events: the same for any length
    # (benchmarks/table.py); the charts are what reads all 4,000 events.
    assert table.open_session(session_id)
    qtbot.wait(20)
    with watching() as dog:
        table.play.tabs.setCurrentIndex(1)  # the charts: 4,000 events aggregated
        charts = table.play.charts
        qtbot.waitUntil(lambda: "4000 events over 1 turns" in charts.summary.text()
                        and not charts.drawing)
        qtbot.wait(20)
    assert len(charts.plots) == 4 and not any(p.isHidden() for p in charts.plots.values())
    assert dog.stalls == []
    assert window.database is not None
    stored = window.database.game_sessions.charts(session_id)
    assert stored is not None and stored["events"] == 4000  # aggregated once, kept


def test_exporting_thousands_of_selected_designs_never_freezes_the_window(
        window: MainWindow, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from carwars_desktop.library import make_exchanged
    from carwars_desktop.storage import ImportChoice

    library = _workspace(window, LibraryWorkspace)
    design = MiniDesign.stock_design("courier", "b", name="Courier").to_json()
    library.service.import_designs([ImportChoice(make_exchanged(
        "mini_car_wars", "vehicle", {**design, "name": f"Courier {n:04d}"}))
        for n in range(6000)])
    library.wait_for_rows()
    window._rail.setCurrentRow(window.workspaces.index(library))
    library.view.selectAll()  # every row selected: what the header used to ask about
    qtbot.wait(20)
    chosen = len(library.selected_ids())
    assert chosen > 6000  # the catalog's designs too
    path = tmp_path / "all.carwars.json"
    with watching() as dog:
        assert library.export_selected(str(path)) == str(path)
        qtbot.wait(20)
    assert dog.stalls == []
    assert len(json.loads(path.read_text(encoding="utf-8"))["designs"]) == chosen
