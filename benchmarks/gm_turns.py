"""The GUI thread's longest turn in what a GM does (issue #35 §2: none over 100 ms).

    .venv/bin/python benchmarks/gm_turns.py [--runs 3] [--events 300] [--quick]

Every case runs in a process of its own (so "first" means first in a process: pyqtgraph
and numpy not imported yet), offscreen, and the watchdog (benchmarks/gui_watchdog.py)
reports the longest turn of the event loop meanwhile: its wall time (the window not
answering; it includes waiting for a core on a busy machine) and the GUI thread's own CPU
time (the goal). The cases, the worst of ``--runs`` processes each:

- **ready**: the turn the database becomes ready after the first screen, and every
  turn until every workspace is built (``--smoke``, as benchmarks/startup.py measures
  it), on the Library and with a game running;
- **first switch to Dice** / **to Resolver**: the GM clicks it on the rail the moment
  the database is ready; from that turn to its distribution chart drawn;
- **open a session at the Table** (``TableWorkspace.open_session``): the first open in
  the process (a running session), a finished one, and the running one again;
- **first charts in a process**: a finished session's Charts tab chosen right after it
  opened, to its four plots drawn (pyqtgraph and numpy imported meanwhile);
- **charts of a short finished session** (``--events`` events, ≤ 300): with its
  aggregates kept (revision 0011) and without (replayed from its events on a worker).

The Table's cases use benchmarks/table.py's sessions (twelve Mini Car Wars vehicles).
``--quick``: one run each (``./dev test`` runs it so the benchmark keeps working).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

GOAL_MS = 100.0
TIMEOUT_S = 60.0


def emit(case: str, wall: float, cpu: float) -> None:
    """One case's figures, for the parent (ms)."""
    print(f"gm-turn {case}|{wall:.1f}|{cpu:.1f}", flush=True)


def wait(app: object, done: Callable[[], bool], what: str) -> None:
    from PySide6.QtWidgets import QApplication

    assert isinstance(app, QApplication)
    t0 = time.perf_counter()
    while not done():
        app.processEvents()
        time.sleep(0.001)
        if time.perf_counter() - t0 > TIMEOUT_S:
            raise SystemExit(f"{what}: not done after {TIMEOUT_S:.0f} s")


def child_table(database_path: str, events: int) -> None:
    """Open sessions and their charts at a Table on its own (see the module docstring)."""
    from gui_watchdog import watching
    from PySide6.QtWidgets import QApplication

    from carwars_desktop.gui.game_context import GameContext
    from carwars_desktop.gui.table import TableWorkspace
    from carwars_desktop.storage import open_database

    app = QApplication.instance() or QApplication(sys.argv[:1])
    database = open_database(f"sqlite:///{database_path}")
    rows = {row.name: row.id for row in database.game_sessions.all()}
    table = TableWorkspace(GameContext())
    table.resize(1280, 800)
    table.show()
    table.attach_database(database)
    wait(app, lambda: True, "attach")
    app.processEvents()

    def opened(name: str, session_id: int) -> None:
        table.show_sessions()
        app.processEvents()
        with watching() as dog:
            table.open_session(session_id)
            app.processEvents()
        emit(name, dog.longest_gap, dog.busiest)

    def charts(name: str, count: int) -> None:
        charts = table.play.charts

        def drawn() -> bool:
            return (not charts.drawing and len(charts.plots) == 4
                    and f"{count} events over" in charts.summary.text().replace(",", "")
                    and not any(plot.isHidden() for plot in charts.plots.values()))

        with watching() as dog:
            table.play.tabs.setCurrentIndex(1)
            wait(app, drawn, name)
            charts.repaint()
        emit(name, dog.longest_gap, dog.busiest)

    opened("open: first in the process (running)", rows["running"])
    opened("open: a finished session (kept)", rows["finished, kept"])
    charts("first charts in a process (kept)", events)
    opened("open: a finished session (replayed)", rows["finished, replayed"])
    charts(f"charts, {events} events, replayed", events)
    opened("open: another finished session (kept)", rows["finished, kept 2"])
    charts(f"charts, {events} events, kept", events)
    opened("open: the running session again", rows["running"])
    database.close()


def child_switch(database_path: str, title: str) -> None:
    """The app's window started as the app starts it; at the database ready, the GM
    clicks ``title`` on the rail; watched until its distribution chart is drawn."""
    from gui_watchdog import watching
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from carwars_desktop.gui.application import create_application
    from carwars_desktop.gui.distribution_chart import DistributionChart
    from carwars_desktop.gui.main_window import WORKSPACE_TITLES, MainWindow

    app = create_application()
    assert isinstance(app, QApplication)
    window = MainWindow(db_url_hint=database_path, interactive=False)
    window.show()
    row = WORKSPACE_TITLES.index(title)
    state: dict[str, object] = {}

    def ready(_opened: bool = True) -> None:
        dog = watching()
        state["dog"] = dog.__enter__()
        state["exit"] = dog
        window._rail.setCurrentRow(row)  # the GM's click on the rail

    def first_idle() -> None:
        window.finish_startup(defer_hidden=True)
        if window.opening:
            window.database_ready.connect(ready)
        else:
            ready()

    QTimer.singleShot(0, first_idle)

    def drawn() -> bool:
        workspace = window.workspace_at(row)  # (built alone, ahead of the rows above)
        if "dog" not in state or workspace is None:
            return False
        chart = workspace.findChild(DistributionChart)
        return (chart is not None and chart.isVisible() and not chart.waiting
                and chart._plot is not None and bool(chart.bars))

    wait(app, drawn, f"the {title}'s chart")
    shown = window.workspace_at(row)
    assert shown is not None
    shown.repaint()
    state["exit"].__exit__(None, None, None)  # type: ignore[attr-defined]
    dog = state["dog"]
    emit(f"first switch to {title}, at ready", dog.longest_gap, dog.busiest)  # type: ignore[attr-defined]
    window.shutdown()


def child_ready(database_path: str, label: str) -> None:
    """``--smoke`` as benchmarks/startup.py runs it; its longest turn, first screen →
    everything built (gui/application.py's trace)."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", CARWARS_TRACE_STARTUP="1")
    result = subprocess.run([sys.executable, "-m", "carwars_desktop", "--smoke", "--db",
                             database_path], env=env, capture_output=True, text=True,
                            timeout=300)
    if result.returncode != 0:
        raise SystemExit(f"--smoke exited {result.returncode}:\n{result.stderr}")
    for line in result.stderr.splitlines():
        if line.startswith("carwars-startup longest-turn "):
            wall, cpu = line.split()[3:5]
            emit(f"ready → everything built, {label}", float(wall) * 1000, float(cpu) * 1000)


def make_databases(folder: Path, events: int) -> dict[str, Path]:
    """The Library's database (catalog and more designs), one with a game running, one for
    the Table's cases."""
    import startup
    import table

    from carwars_desktop.storage import open_database

    library = folder / "library.sqlite3"
    subprocess.run([sys.executable, "-m", "carwars_desktop", "--smoke", "--db", str(library)],
                   env=dict(os.environ, QT_QPA_PLATFORM="offscreen"), check=True,
                   capture_output=True, timeout=300)  # creates and migrates it
    startup.fill_library(library, 200)
    playing = folder / "playing.sqlite3"
    shutil.copyfile(library, playing)
    startup.start_a_game(playing, events)
    sessions = folder / "table.sqlite3"
    table.VEHICLES = ("Courier", "Killer Kart", "Mini Sherman", "Rocket Special",
                      "Courier (a)", "Mini Sherman (b)", "Rocket Special (b)", "Courier (b)",
                      "Mini Sherman (a)", "Rocket Special (a)", "Courier", "Killer Kart")
    with open_database(f"sqlite:///{sessions}") as database:
        table.bulk_session(database, events, "running")
        for name, parts in (("finished, kept", True), ("finished, replayed", False),
                            ("finished, kept 2", True)):
            database.game_sessions.finish(table.bulk_session(database, events, name, parts))
    return {"library": library, "playing": playing, "table": sessions}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--events", type=int, default=300,
                        help="events of the Table's sessions (≤ 300: a short one)")
    parser.add_argument("--quick", action="store_true", help="one run each (a smoke run)")
    parser.add_argument("--child", nargs=2, metavar=("CASE", "DATABASE"),
                        help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.child:
        case, path = arguments.child
        if case == "table":
            child_table(path, arguments.events)
        elif case in ("Dice", "Resolver"):
            child_switch(path, case)
        else:
            child_ready(path, case)
        return
    runs = 1 if arguments.quick else arguments.runs
    folder = Path(tempfile.mkdtemp(prefix="carwars-gm-turns-"))
    databases = make_databases(folder, arguments.events)
    children = [("the Library", databases["library"]), ("a game running", databases["playing"]),
                ("Dice", databases["library"]), ("Resolver", databases["library"]),
                ("table", databases["table"])]
    worst: dict[str, tuple[float, float]] = {}
    for _ in range(runs):  # interleaved: every case sees the same machine
        for case, path in children:
            result = subprocess.run(
                [sys.executable, __file__, "--events", str(arguments.events),
                 "--child", case, str(path)],
                env=dict(os.environ, XDG_CONFIG_HOME=str(folder / "config"),
                         XDG_DATA_HOME=str(folder / "data")),
                capture_output=True, text=True, timeout=600)
            if result.returncode != 0:
                raise SystemExit(f"{case} exited {result.returncode}:\n{result.stderr}"
                                 f"{result.stdout}")
            for line in result.stdout.splitlines():
                if line.startswith("gm-turn "):
                    name, wall, cpu = line.removeprefix("gm-turn ").split("|")
                    was = worst.get(name, (0.0, 0.0))
                    worst[name] = (max(was[0], float(wall)), max(was[1], float(cpu)))
    print(f"The GUI thread's longest turn per case, worst of {runs} process(es) each, "
          f"offscreen, Python {sys.version.split()[0]} (goal: GUI CPU < {GOAL_MS:.0f} ms)")
    failed = 0
    for name, (wall, cpu) in worst.items():
        verdict = "pass" if cpu < GOAL_MS else "FAIL"
        failed += verdict == "FAIL"
        print(f"  {name:<46} {wall:7.1f} ms wall  {cpu:7.1f} ms GUI CPU  {verdict}")
    print(f"{len(worst) - failed} of {len(worst)} cases pass")


if __name__ == "__main__":
    main()
