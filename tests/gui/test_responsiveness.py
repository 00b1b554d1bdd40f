"""The window never freezes while the GM types a large dice expression, imports or exports
a big design file and opens a finished session with many events: the heavy part runs on
a worker thread, the GUI thread's share is bounded in work (counted: outcomes, rows,
calls), and the window answers a posted event while each job runs (tests/gui/offload.py).
Nothing here is timed: the seconds and the 100 ms goal are benchmarks/odds.py's,
exchange.py's and table.py's, at the goals' sizes."""

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

from .offload import Jobs, watch


def _workspace(window: MainWindow, kind: type[Any]) -> Any:
    return next(w for w in window.workspaces if isinstance(w, kind))


def test_typing_a_large_dice_expression_never_freezes_the_window(
        window: MainWindow, qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from carwars_desktop.gui import dice_workspace

    dice = _workspace(window, DiceWorkspace)
    window._rail.setCurrentRow(window.workspaces.index(dice))
    dice.expression_edit.clear()
    jobs = Jobs(monkeypatch)
    odds = watch(monkeypatch, dice_workspace, "exact_odds",
                 lambda expression, _values: dice_workspace.outcome_count(expression))
    for character in "60d100":
        qtbot.keyClicks(dice.expression_edit, character)
    qtbot.waitUntil(lambda: not dice.odds_pending, timeout=60_000)
    assert dice.odds_status.text().startswith("60d100: 5,941 outcomes, computed in ")
    assert dice.summary.text().startswith("60d100: 60–6000, mean 3030.00")
    assert len(dice.chart.bars) == 5941
    # The 5,941 outcomes were worked out on a worker; the GUI thread only ever computed a
    # small expression's (at most SYNC_OUTCOMES outcomes) on the spot.
    assert 5941 in odds.on_workers
    assert odds.on_gui and max(odds.on_gui) <= dice_workspace.SYNC_OUTCOMES
    jobs.assert_answered()


def test_importing_a_large_design_file_never_freezes_the_window(
        window: MainWindow, qtbot, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from carwars_desktop.gui.workshop import exchange_actions, library_workspace

    library = _workspace(window, LibraryWorkspace)
    design = MiniDesign.stock_design("courier", "b", name="Courier").to_json()
    items = [{"ruleset": "mini_car_wars", "kind": "vehicle", "tags": ["club"],
              "design": {**design, "name": f"Courier {n:04d}"}} for n in range(1000)]
    path = tmp_path / "club.carwars.json"
    path.write_text(json.dumps({"format": FORMAT, "version": VERSION, "designs": items}))
    jobs = Jobs(monkeypatch)
    read = watch(monkeypatch, exchange_actions, "read_file")
    planned = watch(monkeypatch, exchange_actions.ImportPlan, "advance",
                    lambda plan, *_a, **_k: plan.left)
    written = watch(monkeypatch, type(library.service.store), "import_designs",
                    lambda _store, choices, *_: len(choices))
    listed = watch(monkeypatch, library_workspace, "prepare_contents",
                   lambda entries, *_: len(entries))
    assert library.import_designs(str(path)) == 1000
    library.wait_for_rows()
    assert len(library.selected_ids()) == 1000
    # Reading, planning and writing the 1,000 designs, and the list read again and
    # sorted: all on workers; the GUI thread sorted no list.
    assert (read.on_gui, read.on_workers) == ([], [1])
    assert (planned.on_gui, planned.on_workers) == ([], [1000])
    assert (written.on_gui, written.on_workers) == ([], [1000])
    assert listed.on_gui == [] and listed.on_workers and min(listed.on_workers) >= 1000
    jobs.assert_answered()


def test_importing_a_file_of_name_clashes_plans_on_workers_after_each_answer(
        window: MainWindow, qtbot, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A file (or a pasted text: the same path) whose 2,000 designs all clash: the GM
    answers "keep both", then "keep both, the same for all" at the second question.
    The planning before, between and after the questions ran on workers; the GUI thread
    only asked (it planned the other 1,998 itself, the window frozen, before)."""
    from carwars_desktop.gui.workshop.exchange_actions import Clash
    from carwars_desktop.library.naming import UniqueNames

    library = _workspace(window, LibraryWorkspace)
    design = MiniDesign.stock_design("courier", "b", name="Courier").to_json()
    items = [{"ruleset": "mini_car_wars", "kind": "vehicle", "tags": ["club"],
              "design": {**design, "name": f"Clash {n:04d}"}} for n in range(2000)]
    path = tmp_path / "club.carwars.json"
    path.write_text(json.dumps({"format": FORMAT, "version": VERSION, "designs": items}))
    assert library.import_designs(str(path)) == 2000
    library.wait_for_rows()
    asked: list[tuple[str, int]] = []
    answers = [(Clash.KEEP_BOTH, False), (Clash.KEEP_BOTH, True)]

    def ask(_parent: object, incoming: Any, remaining: int) -> tuple[Clash, bool]:
        asked.append((incoming.name, remaining))
        return answers.pop(0)

    library.ask_clash = ask
    jobs = Jobs(monkeypatch)
    named = watch(monkeypatch, UniqueNames, "take")
    own = watch(monkeypatch, type(library.service), "own_names")
    taken = watch(monkeypatch, type(library.service), "taken_names")
    assert library.import_designs(str(path)) == 2000
    library.wait_for_rows()
    assert asked == [("Clash 0000", 1999), ("Clash 0001", 1998)]
    names = library.library.own_names("mini_car_wars")
    assert all(f"Clash {n:04d} (2)" in names and f"Clash {n:04d}" in names
               for n in range(2000))
    # Every design named, and the Library's names read, on workers only.
    assert (named.on_gui, len(named.on_workers)) == ([], 2000)
    assert own.on_gui == [] and own.on_workers
    assert taken.on_gui == [] and taken.on_workers
    jobs.assert_answered()


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
        window: MainWindow, qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from carwars_desktop.services.table import TableService
    from carwars_desktop.session import history

    table = window.table
    window._rail.setCurrentRow(window.workspaces.index(table))
    # The first charts ever drawn build their four plot widgets (and import pyqtgraph):
    # a fixed cost whatever the session's length, paid here on a short one.
    assert table.open_session(_finished_session(window, 10))
    table.play.tabs.setCurrentIndex(1)
    qtbot.waitUntil(lambda: not table.play.charts.drawing, timeout=60_000)  # (on a worker)
    session_id = _finished_session(window, 4000)
    jobs = Jobs(monkeypatch)
    aggregated = watch(monkeypatch, TableService, "aggregate_charts",
                       lambda _service, opened, *_: opened.events.count())
    replayed = watch(monkeypatch, history, "replay_history")
    # Opening reads the current sheets, never the events: the same for any length
    # (benchmarks/table.py); the charts are what reads all 4,000 events.
    assert table.open_session(session_id)
    assert aggregated.calls == [] and replayed.calls == []
    table.play.tabs.setCurrentIndex(1)  # the charts: 4,000 events aggregated
    charts = table.play.charts
    qtbot.waitUntil(lambda: "4000 events over 1 turn " in charts.summary.text()
                    and not charts.drawing, timeout=60_000)
    assert len(charts.plots) == 4 and not any(p.isHidden() for p in charts.plots.values())
    # The 4,000 events were read and replayed once, on a worker; the GUI thread drew the
    # kept aggregates and replayed nothing.
    assert (aggregated.on_gui, aggregated.on_workers) == ([], [4000])
    assert (replayed.on_gui, len(replayed.on_workers)) == ([], 1)
    jobs.assert_answered()
    assert window.database is not None
    stored = window.database.game_sessions.charts(session_id)
    assert stored is not None and stored["events"] == 4000  # aggregated once, kept


def test_exporting_thousands_of_selected_designs_never_freezes_the_window(
        window: MainWindow, qtbot, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from carwars_desktop.gui.workshop import exchange_actions
    from carwars_desktop.library import make_exchanged
    from carwars_desktop.services.library import LibraryService
    from carwars_desktop.storage import ImportChoice

    library = _workspace(window, LibraryWorkspace)
    design = MiniDesign.stock_design("courier", "b", name="Courier").to_json()
    library.service.import_designs([ImportChoice(make_exchanged(
        "mini_car_wars", "vehicle", {**design, "name": f"Courier {n:04d}"}))
        for n in range(6000)])
    library.wait_for_rows()
    window._rail.setCurrentRow(window.workspaces.index(library))
    library.view.selectAll()  # every row selected: what the header used to ask about
    chosen = len(library.selected_ids())
    assert chosen > 6000  # the catalog's designs too
    path = tmp_path / "all.carwars.json"
    jobs = Jobs(monkeypatch)
    read = watch(monkeypatch, LibraryService, "exported",
                 lambda _service, design_ids, *_: len(design_ids))
    dumped = watch(monkeypatch, exchange_actions, "dumps_designs",
                   lambda designs, **_: len(designs))
    assert library.export_selected(str(path)) == str(path)
    assert len(json.loads(path.read_text(encoding="utf-8"))["designs"]) == chosen
    # Every design read and written out on a worker; none of it on the GUI thread.
    assert (read.on_gui, read.on_workers) == ([], [chosen])
    assert (dumped.on_gui, dumped.on_workers) == ([], [chosen])
    jobs.assert_answered()
