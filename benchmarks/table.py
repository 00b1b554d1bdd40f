"""The Table's speed: applying events to live sheets, and opening long sessions.

    .venv/bin/python benchmarks/table.py [--events 10000] [--opens 7] [--long 100000] [--quick]
                                         [--only apply|open|finish]

1. Twelve Mini Car Wars vehicles, ``--events`` events played through the Table
   (hand marks and clock moves, each committed to SQLite with ``synchronous=FULL``):
   the time from the GM's action to its sheet repainted — median, 95th percentile and
   worst (target: median under 16 ms). The event loop's full turn (every widget the
   change touched, the log, the clock) is reported beside it.
2. Opening sessions of 100 and 100,000 events (the long one bulk-written): the time
   from the click to the first paint, median of ``--opens`` alternated runs (target:
   the long one under twice the short one — opening reads current sheets, never the
   events; the log panel reads only the page it shows).

3. The long session finished, then its charts opened: the first time its events are
   aggregated on a worker thread (progress shown) and kept with the session, the
   watchdog (benchmarks/gui_watchdog.py) reporting the most the GUI thread itself worked
   in one turn meanwhile, with pass or FAIL against the 100 ms goal
   (tests/gui/test_responsiveness.py asserts instead that the events are replayed on a
   worker); every later time the kept aggregates are drawn (target ≤ 1 s), next to the
   short session's charts.
4. Finish session → its charts drawn at ``--long`` events: before (replayed from its
   events, as before revision 0011 — the baseline, in the same run) and after (folded
   from the parts kept with each event as it is appended; target ≤ 1 s).

Runs offscreen, the Table on its own (the main window's other workspaces excluded).
``--quick``: small sizes, one run (./dev test runs it so the benchmark keeps working).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from gui_watchdog import watching  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from carwars_desktop.gui.game_context import GameContext  # noqa: E402
from carwars_desktop.gui.plugins.mini_car_wars.clock_panel import MiniClockPanel  # noqa: E402
from carwars_desktop.gui.plugins.mini_car_wars.sheet import MiniSheetWidget  # noqa: E402
from carwars_desktop.gui.table import TableWorkspace  # noqa: E402
from carwars_desktop.rules import find_ruleset  # noqa: E402
from carwars_desktop.rules.mini_car_wars import MiniSheet  # noqa: E402
from carwars_desktop.rules.mini_car_wars.model import Role, Side  # noqa: E402
from carwars_desktop.session import Event, EventKind, SheetUpdate  # noqa: E402
from carwars_desktop.session.setup import Entry, Setup, prepare  # noqa: E402
from carwars_desktop.storage import Database, NewVehicle, open_database  # noqa: E402
from carwars_desktop.storage.chart_parts import aggregate_rows, event_part_rows  # noqa: E402
from carwars_desktop.storage.models import (  # noqa: E402
    SessionChartCellRow,
    SessionChartPartRow,
    SessionChartSumRow,
    SessionEventRow,
)

VEHICLES = ("Courier", "Killer Kart", "Mini Sherman", "Rocket Special", "Courier (a)",
            "Mini Sherman (b)", "Rocket Special (b)", "Courier (b)", "Mini Sherman (a)",
            "Rocket Special (a)", "Courier", "Killer Kart")
SIDES = (Side.FRONT, Side.RIGHT, Side.LEFT, Side.BACK)


def setup() -> Setup:
    ruleset = find_ruleset("mini_car_wars")
    catalog = ruleset.catalog()
    return prepare(ruleset, [Entry(f"Player {n}", name, catalog[name].to_json())
                             for n, name in enumerate(VEHICLES, start=1)])


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.2f} ms"


def act(table: TableWorkspace, step: int) -> str:
    """One event through the Table; returns the key of the sheet it changes ('' = clock)."""
    game = table.context.service.game
    assert game is not None
    key = f"v{(step // 4) % len(VEHICLES) + 1}"
    sheet = game.sheet(key)
    widget = table.play.sheets[key]
    clock = table.play.clock
    assert isinstance(sheet, MiniSheet) and isinstance(widget, MiniSheetWidget)
    assert isinstance(clock, MiniClockPanel)
    kind = step % 4
    if kind == 0:
        if game.clock.phase + 1 < 10:
            clock.next_phase()
        else:
            clock.show_speeds()
            clock.start_turn()
        return ""
    if kind == 1:
        side = SIDES[(step // 16) % len(SIDES)]
        left = sheet.armor.get(side)
        widget.mark_armor(side, left - 1 if left > 0 else sheet.starting_armor.get(side))
    elif kind == 2:
        widget.mark_weapon(0, fired=not sheet.weapons[0].fired)
    else:
        widget.mark_crew(Role.DRIVER, (sheet.driver.hits + 1) % 3)
    return key


def apply_events(app: QApplication, table: TableWorkspace, database: Database,
                 events: int) -> None:
    start = setup()
    table.start_session("mini_car_wars", "Twelve cars", "", start)
    app.processEvents()
    game = table.context.service.game
    assert game is not None
    to_sheet: list[float] = []
    full: list[float] = []
    began = time.perf_counter()
    for step in range(1, events + 1):
        before = game.last_active_seq()
        t0 = time.perf_counter()
        key = act(table, step)
        if key:
            table.play.sheets[key].repaint()
        t1 = time.perf_counter()
        app.processEvents()
        t2 = time.perf_counter()
        assert game.last_active_seq() == before + 1, table.play.message.text()
        if key:
            to_sheet.append(t1 - t0)
        full.append(t2 - t0)
    took = time.perf_counter() - began
    to_sheet.sort()
    full.sort()
    print(f"{events} events, {len(VEHICLES)} vehicles, {took:.1f} s "
          f"({events / took:.0f} events/s), SQLite synchronous=FULL")
    print(f"  action → its sheet repainted   median {ms(statistics.median(to_sheet))}   "
          f"p95 {ms(to_sheet[int(len(to_sheet) * 0.95)])}   worst {ms(to_sheet[-1])}   "
          f"(target: median < 16 ms)")
    print(f"  action → event loop idle       median {ms(statistics.median(full))}   "
          f"p95 {ms(full[int(len(full) * 0.95)])}   worst {ms(full[-1])}   "
          f"(clock events included)")


def bulk_session(database: Database, events: int, name: str, parts: bool = False) -> int:
    """A session of ``events`` real mark events (crossing a box, then clearing it), written
    in one transaction; its current sheets are what the events leave. ``parts``: with each
    event's part of the charts, the rows the app keeps as it appends an event
    (revision 0011, the same engine function), else none (its charts are replayed)."""
    start = setup()
    sessions = database.game_sessions
    session_id = sessions.create(
        "mini_car_wars", name, "", [NewVehicle(v, start.sheets[v.key].to_json())
                                    for v in start.vehicles], start.clock.to_json())
    bodies: list[tuple[str, str]] = []
    charts: list[list[dict[str, object]]] = []
    ruleset = find_ruleset("mini_car_wars")
    rules = ruleset.play()
    for vehicle in start.vehicles:
        sheet = start.sheets[vehicle.key]
        assert isinstance(sheet, MiniSheet)
        hit = sheet.with_person(sheet.driver.__class__(Role.DRIVER, 1))
        for before, after, summary in ((sheet, hit, "driver: unhurt → wounded"),
                                       (hit, sheet, "driver: wounded → unhurt")):
            event = Event(EventKind.MARK, f"{vehicle.name}: {summary}", (summary,),
                          (SheetUpdate(vehicle.key, before.to_json(), after.to_json()),),
                          turn=1, phase="phase 1")
            bodies.append((event.summary, json.dumps(event.to_json(), separators=(",", ":"))))
            charts.append(event_part_rows(ruleset, rules, session_id, 0, event) or [])
    now = datetime.now(UTC)
    rows = [{"session_id": session_id, "seq": seq, "status": "active", "kind": "mark",
             "summary": bodies[(seq - 1) % len(bodies)][0],
             "body": bodies[(seq - 1) % len(bodies)][1], "created_at": now}
            for seq in range(1, events + 1)]
    with database.sessions.begin() as session:
        for start_row in range(0, len(rows), 5000):
            session.execute(SessionEventRow.__table__.insert(), rows[start_row:start_row + 5000])
        if parts:
            part_rows = [{**part, "seq": seq} for seq in range(1, events + 1)
                         for part in charts[(seq - 1) % len(charts)]]
            cells, sums = aggregate_rows(session_id, part_rows, range(1, events + 1))
            for model, values in ((SessionChartPartRow, part_rows),
                                  (SessionChartCellRow, cells), (SessionChartSumRow, sums)):
                for start_row in range(0, len(values), 5000):
                    session.execute(model.__table__.insert(),
                                    values[start_row:start_row + 5000])
    return session_id


def open_sessions(app: QApplication, table: TableWorkspace, database: Database,
                  opens: int, events: int) -> tuple[int, int]:
    short = bulk_session(database, 100, "short evening")
    began = time.perf_counter()
    long = bulk_session(database, events, "long campaign")
    print(f"sessions written: 100 and {events:,} events "
          f"({time.perf_counter() - began:.1f} s to bulk-write the long one)")
    times: dict[int, list[float]] = {short: [], long: []}
    reads: dict[int, int] = {}
    for _ in range(opens):
        for session_id in (short, long):
            table.show_sessions()
            app.processEvents()
            t0 = time.perf_counter()
            table.open_session(session_id)
            table.play.repaint()
            app.processEvents()
            times[session_id].append(time.perf_counter() - t0)
            reads[session_id] = table.play.log_dock.model.reads
    small, large = statistics.median(times[short]), statistics.median(times[long])
    print(f"  open 100 events       median {ms(small)}   (log pages read: {reads[short]})")
    print(f"  open {events:,} events   median {ms(large)}   (log pages read: {reads[long]})")
    print(f"  ratio {large / small:.2f} (target < 2)")
    return short, long


def open_charts(app: QApplication, table: TableWorkspace, database: Database,
                sessions: tuple[int, int], events: int, opens: int) -> None:
    def charts(session_id: int) -> float:
        table.open_session(session_id)
        app.processEvents()
        return shown()

    def shown() -> float:
        """From the tab chosen to its charts drawn (read on a worker, one per turn)."""
        t0 = time.perf_counter()
        table.play.tabs.setCurrentIndex(1)
        app.processEvents()
        while table.play.charts.drawing:
            app.processEvents()
        table.play.charts.repaint()
        return time.perf_counter() - t0

    for session_id in sessions:
        database.game_sessions.finish(session_id)
    charts(sessions[0])  # the first charts ever drawn import pyqtgraph: not counted
    table.open_session(sessions[1])  # opening reads no event (section 2)
    app.processEvents()
    with watching() as dog:
        first = shown()  # the four charts drawn, one per turn
    later: dict[int, list[float]] = {session_id: [] for session_id in sessions}
    for _ in range(opens):
        for session_id in sessions:
            later[session_id].append(charts(session_id))
    small, large = (statistics.median(later[s]) for s in sessions)
    print(f"finished sessions' charts: {events:,} events aggregated once on a worker thread "
          f"in {first:.1f} s (progress shown), then kept")
    print(f"  aggregating and drawing them: {dog.verdict()}")
    print(f"  charts of 100 events       median {ms(small)}")
    print(f"  charts of {events:,} events   median {ms(large)}   ratio {large / small:.2f} "
          "(target ≤ 1 s)")


def finish_to_charts(app: QApplication, table: TableWorkspace, database: Database,
                     events: int) -> None:
    """Finish session → its Charts tab drawn, for a long running session: before, its
    charts replayed from its events (a session whose events have no kept parts, as every
    one had before revision 0011: the baseline, measured here in the same run); after,
    folded from the parts kept with its events."""
    def drawn(session_id: int, count: int) -> bool:
        charts = table.play.charts
        return (table.session_id == session_id and not charts.drawing
                and f"{count} events over" in charts.summary.text().replace(",", "")
                and len(charts.plots) == 4
                and not any(plot.isHidden() for plot in charts.plots.values()))

    def finish(session_id: int, count: int = events) -> float:
        table.open_session(session_id)
        app.processEvents()
        t0 = time.perf_counter()
        table.finish_session(confirm=False)
        while not drawn(session_id, count):
            app.processEvents()
            time.sleep(0.001)
        table.play.charts.repaint()
        return time.perf_counter() - t0

    finish(bulk_session(database, 100, "warm-up", parts=True), 100)  # pyqtgraph imported
    short = finish(bulk_session(database, 100, "evening, charts kept", parts=True), 100)
    before = finish(bulk_session(database, events, "campaign, charts replayed"))
    after = finish(bulk_session(database, events, "campaign, charts kept", parts=True))
    print(f"Finish session → its charts drawn (the session reopened read-only, four charts "
          f"of {len(VEHICLES)} vehicles), {events:,} events:")
    print(f"  before (replayed from its events)  {before:8.3f} s")
    print(f"  after  (kept with its events)      {after:8.3f} s   ratio {after / before:.3f} "
          f"(target ≤ 1 s)")
    print(f"  (100 events, kept                  {short:8.3f} s: after ÷ it "
          f"{after / short:.2f}, the length of the history no longer counts)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--opens", type=int, default=7)
    parser.add_argument("--long", type=int, default=100_000, help="events of the long session")
    parser.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    parser.add_argument("--only", choices=("apply", "open", "finish"),
                        help="one section: apply (1), open and charts (2 and 3), finish (4)")
    arguments = parser.parse_args()
    if arguments.quick:
        arguments.events, arguments.opens, arguments.long = 200, 1, 2_000
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    folder = Path(tempfile.mkdtemp(prefix="carwars-table-bench-"))
    database = open_database(f"sqlite:///{folder / 'bench.sqlite3'}")
    context = GameContext()
    table = TableWorkspace(context)
    table.resize(1280, 800)
    table.show()
    table.attach_database(database)
    app.processEvents()
    print(f"Python {sys.version.split()[0]}, offscreen, database {folder / 'bench.sqlite3'}")
    try:
        if arguments.only in (None, "apply"):
            apply_events(app, table, database, arguments.events)
        if arguments.only in (None, "open"):
            sessions = open_sessions(app, table, database, arguments.opens, arguments.long)
            open_charts(app, table, database, sessions, arguments.long, arguments.opens)
        if arguments.only in (None, "finish"):
            finish_to_charts(app, table, database, arguments.long)
    finally:
        database.close()


if __name__ == "__main__":
    main()
