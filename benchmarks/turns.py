"""The longest turn of the GUI thread in what a GM does (goal: under 100 ms each).

    .venv/bin/python benchmarks/turns.py [--runs 3] [--quick]

Each case runs in a fresh process of the app's window (offscreen, 1366×768) on one
database of the original goals' sizes: 524 designs, a running 4-vehicle Mini Car Wars
session of 1,000 events, a running 4-vehicle Battlecars and AUTOpower session, and
finished 4-vehicle Mini Car Wars sessions of 300 events. The watchdog
(benchmarks/gui_watchdog.py) reports, for each, the most wall time between two turns
of the event loop and the most GUI-thread CPU time between them, from the GM's
action until the screen is done (the charts drawn, the sheets shown and painted).

* first charts — a finished session opened and its Charts tab chosen at once, right
  after start-up: the first charts of the process (pyqtgraph and numpy imported);
* first Dice / first Resolver — the first switch to it, its distribution chart drawn;
* open at the Table — each ruleset's running session opened from the session list;
* short charts — a finished 300-event session's charts (another's drawn before it):
  the first time (its events aggregated and kept) and again (the kept aggregates).

Each case begins :data:`STARTED_S` after start-up (the app byte-compiled, as installed).
The baseline, measured in the same process, is the turn of the cheapest switch the
window has (to the Library, built and listed); each case prints its ratio to it.
Nothing is asserted: the tests (tests/gui/test_turns.py) assert instead where the work
runs and how much of it one turn does. ``--quick``: one run of each (./dev test keeps
the benchmark working); the sizes are the goals' in any mode.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent))

DESIGNS = 524
RUNNING_EVENTS = 1000
SHORT_EVENTS = 300
VEHICLES = 4
SETTLE_S = 0.3
"""After the screen is done, the loop keeps turning this long (late repaints count)."""
STARTED_S = 3.0
"""After start-up, the loop turns this long before a case (what start-up builds in the
background meanwhile, the Workshop's editors, is not the case's)."""
CASES = ("first-charts", "first-dice", "first-resolver", "open", "short-charts")


# --- the database (in the parent) --------------------------------------------------------
def _session(database: Any, ruleset_id: str, name: str, events: int,
             finished: bool) -> int:
    """A 4-vehicle session of ``events`` real mark events (a box crossed, then cleared),
    bulk-written in one transaction."""
    from carwars_desktop.rules import find_ruleset
    from carwars_desktop.session import Event, EventKind, SheetUpdate
    from carwars_desktop.session.setup import Entry, prepare
    from carwars_desktop.storage import NewVehicle
    from carwars_desktop.storage.models import SessionEventRow

    ruleset = find_ruleset(ruleset_id)
    catalog = ruleset.catalog()
    names = list(catalog)
    start = prepare(ruleset, [Entry(f"Player {n + 1}", names[n % len(names)],
                                    catalog[names[n % len(names)]].to_json())
                              for n in range(VEHICLES)])
    sessions = database.game_sessions
    session_id = sessions.create(ruleset_id, name, "",
                                 [NewVehicle(v, start.sheets[v.key].to_json())
                                  for v in start.vehicles], start.clock.to_json())
    if events:
        from carwars_desktop.rules.mini_car_wars import MiniSheet
        from carwars_desktop.rules.mini_car_wars.model import Role

        bodies = []
        for vehicle in start.vehicles:
            sheet = start.sheets[vehicle.key]
            assert isinstance(sheet, MiniSheet)
            hit = sheet.with_person(sheet.driver.__class__(Role.DRIVER, 1))
            for before, after in ((sheet, hit), (hit, sheet)):
                event = Event(EventKind.MARK, f"{vehicle.name}: driver", ("driver",),
                              (SheetUpdate(vehicle.key, before.to_json(), after.to_json()),),
                              turn=1 + len(bodies) // 8, phase="phase 1")
                bodies.append((event.summary, json.dumps(event.to_json())))
        now = datetime.now(UTC)
        rows = [{"session_id": session_id, "seq": seq, "status": "active", "kind": "mark",
                 "summary": bodies[(seq - 1) % len(bodies)][0],
                 "body": bodies[(seq - 1) % len(bodies)][1], "created_at": now}
                for seq in range(1, events + 1)]
        with database.sessions.begin() as session:
            session.execute(SessionEventRow.__table__.insert(), rows)
    if finished:
        sessions.finish(session_id)
    return session_id


def build_database(path: Path) -> dict[str, int]:
    from carwars_desktop.rules.mini_car_wars import MiniDesign
    from carwars_desktop.rules.mini_car_wars.tables import STOCK_CARS
    from carwars_desktop.storage import NewDesign, open_database

    with open_database(str(path)) as database:
        database.library.install_catalog()
        extra = DESIGNS - database.library.count()
        database.library.add_many([NewDesign("mini_car_wars", MiniDesign.stock_design(
            STOCK_CARS[n % len(STOCK_CARS)].key, None, f"Club car {n:03d}").to_json())
            for n in range(max(0, extra))])
        ids = {"short-a": _session(database, "mini_car_wars", "Short evening A",
                                   SHORT_EVENTS, True),
               "short-b": _session(database, "mini_car_wars", "Short evening B",
                                   SHORT_EVENTS, True),
               "battlecars": _session(database, "battlecars", "Battlecars night", 0, False),
               "autopower": _session(database, "autopower", "AUTOpower night", 0, False),
               # the last one played: start-up resumes it
               "mini_car_wars": _session(database, "mini_car_wars", "Mini Car Wars night",
                                         RUNNING_EVENTS, False)}
        return ids


# --- one case (in a child process) --------------------------------------------------------
class Child:
    def __init__(self, database: Path, folder: Path) -> None:
        from PySide6.QtCore import QSettings
        from PySide6.QtWidgets import QApplication

        from carwars_desktop.gui.main_window import MainWindow

        self.app = QApplication.instance() or QApplication(sys.argv[:1])
        settings = QSettings(str(folder / f"settings-{os.getpid()}.ini"),
                             QSettings.Format.IniFormat)
        self.window = MainWindow(db_url_hint=str(database), interactive=False,
                                 settings=settings)
        self.window.resize(1366, 768)
        self.window.show()
        self.app.processEvents()
        assert self.window.finish_startup()
        self.table = self.window.table
        self.results: dict[str, dict[str, float]] = {}
        began = time.perf_counter()
        self.run_until(lambda: time.perf_counter() - began > STARTED_S)

    def run_until(self, done: Callable[[], bool], timeout_s: float = 60.0) -> None:
        """Turn the event loop (a real one, as the app's) until ``done``, then
        :data:`SETTLE_S` more."""
        from PySide6.QtCore import QEventLoop, QTimer

        loop = QEventLoop()
        began = time.perf_counter()
        finished_at: list[float] = []

        def check() -> None:
            now = time.perf_counter()
            if not finished_at and done():
                finished_at.append(now)
            if (finished_at and now - finished_at[0] >= SETTLE_S) or now - began > timeout_s:
                loop.quit()

        timer = QTimer()
        timer.setInterval(5)
        timer.timeout.connect(check)
        timer.start()
        loop.exec()
        timer.stop()
        if not finished_at:
            raise RuntimeError("the case did not finish within the timeout")

    def measure(self, name: str, action: Callable[[], None], done: Callable[[], bool]) -> None:
        """``action`` posted (as the GM's click is), the loop turned until ``done``."""
        from gui_watchdog import watching
        from PySide6.QtCore import QTimer

        acted: list[bool] = []

        def act() -> None:
            action()
            acted.append(True)

        with watching() as dog:
            QTimer.singleShot(0, act)
            self.run_until(lambda: bool(acted) and done())
        self.results[name] = {"wall": dog.longest_gap, "cpu": dog.busiest}

    def rail(self, title: str) -> None:
        titles = [w.title for w in self.window.workspaces]
        self.window._rail.setCurrentRow(titles.index(title))

    def baseline(self) -> None:
        self.measure("baseline", lambda: self.rail("Library"), lambda: True)

    # the screens done ------------------------------------------------------------------
    def charts_drawn(self, events: int) -> bool:
        charts = self.table.play.charts
        return (f"{events} events over" in charts.summary.text() and not charts.drawing
                and len(charts.plots) == 4
                and not any(plot.isHidden() for plot in charts.plots.values()))

    def opened(self, session_id: int) -> bool:
        table = self.table
        return (table.session_id == session_id and not getattr(table, "opening", 0)
                and table.pages.currentWidget() is table.play)

    def workspace(self, title: str) -> Any:
        return next(w for w in self.window.workspaces if w.title == title)

    def chart_drawn(self, title: str) -> bool:
        chart = self.workspace(title).chart
        pending = getattr(chart, "waiting", getattr(chart, "_pending", None) is not None)
        return bool(chart.bars) and chart._plot is not None and not pending

    def open_charts(self, session_id: int) -> None:
        self.table.open_session(session_id)
        self.table.play.tabs.setCurrentIndex(1)

    # the cases -------------------------------------------------------------------------
    def run(self, case: str, ids: dict[str, int]) -> None:
        short = SHORT_EVENTS
        if case == "first-charts":
            self.rail("Table")
            self.measure("first charts", lambda: self.open_charts(ids["short-a"]),
                         lambda: self.charts_drawn(short))
        elif case in ("first-dice", "first-resolver"):
            title = "Dice" if case == "first-dice" else "Resolver"
            self.measure(f"first {title}", lambda: self.rail(title),
                         lambda: self.chart_drawn(title))
        elif case == "open":
            self.rail("Table")
            for ruleset_id in ("mini_car_wars", "battlecars", "autopower", "mini_car_wars"):
                name = f"open {ruleset_id}"
                name += " again" if name in self.results else ""
                self.table.show_sessions()
                self.run_until(lambda: True)
                self.measure(name, lambda r=ruleset_id: self.table.open_session(ids[r]),
                             lambda r=ruleset_id: self.opened(ids[r]))
        elif case == "short-charts":
            self.rail("Table")
            self.open_charts(ids["short-a"])  # the first charts of the process: not counted
            self.run_until(lambda: self.charts_drawn(short))
            for name in ("short charts (aggregated)", "short charts (kept)"):
                self.table.show_sessions()
                self.run_until(lambda: True)
                self.measure(name, lambda: self.open_charts(ids["short-b"]),
                             lambda: self.charts_drawn(short))
        else:
            raise SystemExit(f"no case {case!r}")
        self.run_until(lambda: True)
        self.baseline()


def child_main(case: str, database: Path, folder: Path, ids: dict[str, int]) -> None:
    child = Child(database, folder)
    try:
        child.run(case, ids)
    finally:
        child.window.shutdown()
    print("RESULT " + json.dumps(child.results), flush=True)


# --- the parent ---------------------------------------------------------------------------
def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="one run of each (a smoke run)")
    parser.add_argument("--child", choices=CASES, help=argparse.SUPPRESS)
    parser.add_argument("--database", help=argparse.SUPPRESS)
    parser.add_argument("--ids", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.child:
        child_main(arguments.child, Path(arguments.database), Path(arguments.database).parent,
                   json.loads(arguments.ids))
        return
    runs = 1 if arguments.quick else arguments.runs
    folder = Path(tempfile.mkdtemp(prefix="carwars-turns-bench-"))
    env = dict(os.environ, XDG_CONFIG_HOME=str(folder / "config"),
               XDG_DATA_HOME=str(folder / "data"))
    import compileall

    import carwars_desktop

    # As installed: byte-compiled (pip does it at install, the bundle holds .pyc files).
    compileall.compile_dir(str(Path(carwars_desktop.__file__).parent), quiet=1)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    figures: dict[str, dict[str, list[float]]] = {}
    print(f"Python {sys.version.split()[0]}, offscreen 1366×768, {DESIGNS} designs, running "
          f"sessions of {VEHICLES} vehicles ({RUNNING_EVENTS:,} events for Mini Car Wars), "
          f"finished ones of {SHORT_EVENTS} events; {runs} run(s), a fresh process and "
          "database each")
    for run in range(runs):
        for case in CASES:
            database = folder / f"turns-{run}-{case}.sqlite3"
            ids = build_database(database)
            output = subprocess.run(
                [sys.executable, __file__, "--child", case, "--database", str(database),
                 "--ids", json.dumps(ids)], env=env, capture_output=True, text=True)
            lines = [line for line in output.stdout.splitlines() if line.startswith("RESULT ")]
            if output.returncode != 0 or not lines:
                print(output.stdout + output.stderr, file=sys.stderr)
                raise SystemExit(f"case {case} failed")
            for name, figure in json.loads(lines[-1][len("RESULT "):]).items():
                key = "baseline" if name == "baseline" else name
                for kind, value in figure.items():
                    figures.setdefault(key, {}).setdefault(kind, []).append(value)
    from gui_watchdog import GOAL_MS

    base = figures["baseline"]
    base_wall, base_cpu = statistics.median(base["wall"]), statistics.median(base["cpu"])
    print(f"{'longest GUI-thread turn (worst of the runs)':44} {'wall':>8} {'CPU':>8}  "
          f"{'ratio':>6}  goal < {GOAL_MS:.0f} ms (CPU)")
    print(f"{'baseline: switch to the Library (median)':44} {base_wall:6.0f} ms "
          f"{base_cpu:6.0f} ms  {1.0:6.1f}")
    for name, figure in figures.items():
        if name == "baseline":
            continue
        wall, cpu = max(figure["wall"]), max(figure["cpu"])
        verdict = "pass" if cpu < GOAL_MS else "FAIL"
        print(f"{name:44} {wall:6.0f} ms {cpu:6.0f} ms  {cpu / max(base_cpu, 0.1):6.1f}  "
              f"{verdict}")


if __name__ == "__main__":
    main()
