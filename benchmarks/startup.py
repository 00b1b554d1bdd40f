"""Start-up time: process start → ready, against a bare PySide6 window in the same run.

    .venv/bin/python benchmarks/startup.py [--runs 7] [--designs 524] [--events 1000]
        [--quick] [--cold] [--before CHECKOUT]

The bare window is a ``QMainWindow`` shown, quitting on the first idle turn. The app runs
``--smoke`` (start, open the database, build every workspace, exit), offscreen, as
separate processes started the same way and interleaved with the bare window's. It
reports its milestones through CARWARS_TRACE_STARTUP (``gui/application.py``):

- **first paint**: the first idle turn after the window was shown;
- **first screen**: the Library's list, or the running game's sheets at the Table;
- **ready** (the headline): the database open and checked, every workspace on screen
  has it, and the GM's first key is handled without waiting for anything;
- **everything built**: every workspace built and loaded (what ``--smoke`` waits for);
- the **longest turn** of the event loop from the first screen to everything built,
  wall time and the GUI thread's CPU time (goal: none over 100 ms).

The database is a realistic one: the catalog and ``--designs`` more designs (524 in
all by default), and for the second start a running 4-vehicle Mini Car Wars session of
``--events`` events (1,000), the sizes of the original goals. Each figure is a median
and a ratio to the bare window's. Goals: ready ≤ 4× warm
(byte-compiled, as installed), ≤ 5× cold; everything built ≤ 5×. Both starts are
measured: on the Library (no game running) and with a Mini Car Wars game running (it
is resumed at the Table).

Warm (the default) measures the installed state: ``pip install`` byte-compiles the
package and the bundle holds ``.pyc`` files, so the package is byte-compiled first and
the children run without PYTHONDONTWRITEBYTECODE. ``--cold``: every child runs with
``-B`` and its ``__pycache__`` folders removed first (nothing compiled is kept).
``--before CHECKOUT``: the app of another checkout (e.g. ``git worktree add /tmp/before
main``) is measured in the same runs, interleaved, on the same databases.
``--quick``: one run each, a smaller database (``./dev test`` runs it so the benchmark
keeps working).
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

BARE = r"""
import sys, time
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMainWindow
app = QApplication(sys.argv)
window = QMainWindow()
window.resize(1280, 800)
window.show()
def idle():
    print(f"carwars-startup window-idle {time.time():.6f}", file=sys.stderr, flush=True)
    app.quit()
QTimer.singleShot(0, idle)
app.exec()
"""

MILESTONES = (("ready", "ready", "database open and checked, the first key answered at once"),
              ("window-idle", "first paint", "the window's first idle turn"),
              ("first-screen", "first screen", "the Library's list or the game's sheets"),
              ("built", "everything built", "every workspace built and loaded"))
GOALS = {"ready": 4.0, "built": 5.0}
COLD_GOALS = {"ready": 5.0}


@dataclass
class Figures:
    """The milestones of one kind of start, over the runs (seconds after process start)."""

    times: dict[str, list[float]] = field(default_factory=dict)
    longest_wall: list[float] = field(default_factory=list)
    longest_cpu: list[float] = field(default_factory=list)

    def add(self, stderr: str, start: float) -> None:
        for line in stderr.splitlines():
            if not line.startswith("carwars-startup "):
                continue
            _, event, stamp, *figures = line.split()
            if event == "longest-turn":
                self.longest_wall.append(float(figures[0]))
                self.longest_cpu.append(float(figures[1]))
            else:
                self.times.setdefault(event, []).append(float(stamp) - start)

    def median(self, event: str) -> float | None:
        values = self.times.get(event)
        return statistics.median(values) if values else None


def run(command: list[str], env: dict[str, str], figures: Figures) -> None:
    start = time.time()
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited {result.returncode}:\n{result.stderr}")
    figures.add(result.stderr, start)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="one run each (a smoke run)")
    parser.add_argument("--designs", type=int, default=524,
                        help="designs in the library in all (the catalog and more)")
    parser.add_argument("--events", type=int, default=1000,
                        help="events of the running session")
    parser.add_argument("--cold", action="store_true",
                        help="nothing byte-compiled: every child runs with -B")
    parser.add_argument("--before", type=Path, default=None, metavar="CHECKOUT",
                        help="also measure the app of this checkout, in the same runs")
    arguments = parser.parse_args()
    runs = 1 if arguments.quick else arguments.runs
    if arguments.quick:
        arguments.designs, arguments.events = 60, 100
    folder = Path(tempfile.mkdtemp(prefix="carwars-bench-"))
    import carwars_desktop

    checkouts = {"after": Path(carwars_desktop.__file__).parent.parent}
    if arguments.before is not None:
        checkouts = {"before": arguments.before.resolve(), **checkouts}
    for checkout in checkouts.values():
        package = checkout / "carwars_desktop"
        if arguments.cold:
            for cache in package.rglob("__pycache__"):
                shutil.rmtree(cache)
        else:
            compileall.compile_dir(str(package), quiet=1)  # as `pip install` does
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", CARWARS_TRACE_STARTUP="1",
               XDG_CONFIG_HOME=str(folder / "config"), XDG_DATA_HOME=str(folder / "data"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    python = [sys.executable, *(["-B"] if arguments.cold else [])]
    library_db = folder / "bench.sqlite3"
    first_start = Figures()
    run([*python, "-m", "carwars_desktop", "--smoke", "--db", str(library_db)],
        dict(env, PYTHONPATH=str(checkouts["after"])), first_start)  # creates, migrates
    fill_library(library_db, arguments.designs)
    playing = folder / "playing.sqlite3"
    shutil.copyfile(library_db, playing)
    start_a_game(playing, arguments.events)

    def app(checkout: str, database: Path) -> tuple[list[str], dict[str, str]]:
        return ([*python, "-m", "carwars_desktop", "--smoke", "--db", str(database)],
                dict(env, PYTHONPATH=str(checkouts[checkout])))

    cases = {(checkout, start): Figures() for checkout in checkouts
             for start in ("library", "game")}
    bare = Figures()
    for _ in range(runs):  # interleaved, so all see the same machine state
        for (checkout, start), figures in cases.items():
            command, child_env = app(checkout, library_db if start == "library" else playing)
            run(command, child_env, figures)
            if start == "library":
                run([*python, "-c", BARE], env, bare)
    bare_paint = bare.median("window-idle")
    assert bare_paint is not None
    state = "cold (-B, nothing byte-compiled)" if arguments.cold else \
        "warm (byte-compiled first, as installed)"
    goals = COLD_GOALS if arguments.cold else GOALS
    after_ready = cases[("after", "library")].median("ready")
    assert after_ready is not None
    goal = f" (goal ≤ {goals['ready']:g})"
    print(f"READY: ratio {after_ready / bare_paint:.2f} to a bare PySide6 window{goal}")
    print(f"runs: {runs} each, interleaved, offscreen, {state}, Python "
          f"{sys.version.split()[0]}")
    print(f"bare PySide6 QMainWindow    first paint       median {bare_paint * 1000:7.1f} ms")
    for (checkout, start), figures in cases.items():
        label = f"{checkout}, {'a game running' if start == 'game' else 'the Library'}"
        print(f"-- {label}")
        for event, name, meaning in MILESTONES:
            value = figures.median(event)
            if value is None:
                print(f"  {name:<24}  (not reported by this checkout)")
                continue
            mark = "  <- headline" if event == "ready" else ""
            target = f", goal ≤ {goals[event]:g}" if event in goals else ""
            print(f"  {name:<24}  median {value * 1000:7.1f} ms   ratio "
                  f"{value / bare_paint:5.2f}   ({meaning}{target}){mark}")
        if figures.longest_wall:
            wall = statistics.median(figures.longest_wall) * 1000
            cpu = statistics.median(figures.longest_cpu) * 1000
            print(f"  {'longest turn':<24}  median {wall:7.1f} ms wall, {cpu:6.1f} ms GUI CPU"
                  f"   (worst {max(figures.longest_wall) * 1000:.1f} ms wall, "
                  f"{max(figures.longest_cpu) * 1000:.1f} ms CPU; first screen → everything "
                  "built, goal ≤ 100 ms)")


def fill_library(path: Path, total: int) -> None:
    """The library at ``path`` with ``total`` designs in all (varied, as benchmarks/library.py
    makes them)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from library import designs

    from carwars_desktop.storage import open_database

    with open_database(str(path)) as database:
        database.library.install_catalog()
        more = total - database.library.count()
        if more > 0:
            database.library.add_many(designs(more))


def start_a_game(path: Path, events: int) -> None:
    """A running 4-vehicle Mini Car Wars session of ``events`` events in the database at
    ``path`` (start-up resumes it), as benchmarks/table.py writes one."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import table

    from carwars_desktop.storage import open_database

    table.VEHICLES = ("Courier", "Killer Kart", "Mini Sherman", "Rocket Special")
    with open_database(str(path)) as database:
        table.bulk_session(database, events, "Benchmark night")


if __name__ == "__main__":
    main()
