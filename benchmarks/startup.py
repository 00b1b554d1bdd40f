"""Start-up time: process start → the app fully loaded, against a bare QMainWindow.

    .venv/bin/python benchmarks/startup.py [--runs 9] [--quick]

Both are measured in the same run, as separate processes started the same way,
offscreen. The app reports its milestones through CARWARS_TRACE_STARTUP
("window-idle": first turn of the event loop after show; "loaded": database
opened, the first screen listed, the last running session shown; "ready": SQLAlchemy
loaded and the database opened with it, which comes later when the Library was listed
before it, see storage/first_screen.py). The headline is the fully loaded ratio
(target ≤ 4, stretch 3); the first paint's and "ready" follow, then the same start with
a game running in the database (resumed at the Table: its sheets are shown from the file,
then taken over once the database is open).
``--quick``: one run each (./dev test runs it so the benchmark keeps working).

It measures the installed state: ``pip install`` byte-compiles the package and the
bundle holds ``.pyc`` files, so before measuring, the package is byte-compiled into
its ``__pycache__`` folders (as pip does at install), and the children run without
PYTHONDONTWRITEBYTECODE. Otherwise an editable checkout in an environment that sets
it would compile the app's modules from source on every start (about 0.5 s).
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


def milestones(command: list[str], env: dict[str, str]) -> dict[str, float]:
    start = time.time()
    result = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    times: dict[str, float] = {}
    for line in result.stderr.splitlines():
        if line.startswith("carwars-startup "):
            _, event, stamp = line.split()
            times[event] = float(stamp) - start
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--quick", action="store_true", help="one run each (a smoke run)")
    arguments = parser.parse_args()
    runs = 1 if arguments.quick else arguments.runs
    folder = Path(tempfile.mkdtemp(prefix="carwars-bench-"))
    import carwars_desktop

    package = Path(carwars_desktop.__file__).parent
    compileall.compile_dir(str(package), quiet=1)  # as `pip install` does
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", CARWARS_TRACE_STARTUP="1",
               XDG_CONFIG_HOME=str(folder / "config"), XDG_DATA_HOME=str(folder / "data"))
    app_command = [sys.executable, "-m", "carwars_desktop", "--smoke",
                   "--db", str(folder / "bench.sqlite3")]
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    bare_command = [sys.executable, "-c", BARE]
    milestones(app_command, env)  # first run creates and migrates the database
    playing = folder / "playing.sqlite3"
    shutil.copyfile(folder / "bench.sqlite3", playing)
    start_a_game(playing)
    game_command = [*app_command[:-1], str(playing)]
    app_idle: list[float] = []
    app_loaded: list[float] = []
    app_ready: list[float] = []
    game_loaded: list[float] = []
    game_ready: list[float] = []
    bare_idle: list[float] = []
    for _ in range(runs):  # interleaved, so all see the same machine state
        times = milestones(app_command, env)
        app_idle.append(times["window-idle"])
        app_loaded.append(times["loaded"])
        app_ready.append(times["ready"])
        bare_idle.append(milestones(bare_command, env)["window-idle"])
        times = milestones(game_command, env)
        game_loaded.append(times["loaded"])
        game_ready.append(times["ready"])
    bare = statistics.median(bare_idle)
    idle = statistics.median(app_idle)
    loaded = statistics.median(app_loaded)
    ready = statistics.median(app_ready)
    game = statistics.median(game_loaded)
    game_open = statistics.median(game_ready)
    print(f"fully loaded: ratio {loaded / bare:.2f} to a bare PySide6 window "
          "(target ≤ 4, stretch 3)")
    print(f"runs: {runs} each, interleaved, offscreen, Python {sys.version.split()[0]}, "
          "package byte-compiled first (as installed)")
    print(f"bare PySide6 QMainWindow  window idle  median {bare * 1000:7.1f} ms")
    print(f"Carwars Desktop           fully loaded median {loaded * 1000:7.1f} ms"
          f"   ratio {loaded / bare:.2f} (database open, first screen and last session shown)")
    print(f"Carwars Desktop           first paint  median {idle * 1000:7.1f} ms"
          f"   ratio {idle / bare:.2f} (window idle, before the database)")
    print(f"Carwars Desktop           ready        median {ready * 1000:7.1f} ms"
          f"   ratio {ready / bare:.2f} (SQLAlchemy loaded, the database opened with it)")
    print(f"  with a game running     fully loaded median {game * 1000:7.1f} ms"
          f"   ratio {game / bare:.2f} (its sheets shown at the Table)")
    print(f"  with a game running     ready        median {game_open * 1000:7.1f} ms"
          f"   ratio {game_open / bare:.2f} (the database open, its lease taken)")


def start_a_game(path: Path) -> None:
    """A running Mini Car Wars session in the database at ``path`` (start-up resumes it)."""
    from carwars_desktop.rules.registry import find_ruleset
    from carwars_desktop.services.table import TableService
    from carwars_desktop.session.setup import Entry, prepare
    from carwars_desktop.storage import open_database

    ruleset = find_ruleset("mini_car_wars")
    catalog = ruleset.catalog()
    setup = prepare(ruleset, [Entry("Ann", "Courier", catalog["Courier"].to_json()),
                              Entry("Bo", "Killer Kart", catalog["Killer Kart"].to_json())],
                    "road_duel")
    with open_database(str(path)) as database:
        TableService(database=database).start("mini_car_wars", "Benchmark night", "Road Duel",
                                              setup)


if __name__ == "__main__":
    main()
