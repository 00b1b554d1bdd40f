"""The players' display: from an event's commit to the display redrawn.

    .venv/bin/python benchmarks/player_display.py [--events 1000] [--quick]

Twelve Mini Car Wars vehicles in a session on SQLite, the players' display open
offscreen at 1920×1080. Each event is a hand mark through the Table service (one
committed transaction, then published on the change bus); the time runs from the
moment the commit returns to the display's redraw painted (the event loop turned
until nothing is pending). Median, 95th percentile and worst are printed (the issue's
target: within 100 ms), with the cards redrawn per event (one: only the vehicle that
changed) and, for comparison, a full rebuild of the display. ``--quick`` plays 100
events. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings, qInstallMessageHandler  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from carwars_desktop.gui.players_display import PlayerDisplay  # noqa: E402
from carwars_desktop.rules import find_ruleset  # noqa: E402
from carwars_desktop.rules.mini_car_wars import MiniSheet  # noqa: E402
from carwars_desktop.rules.mini_car_wars.model import Side  # noqa: E402
from carwars_desktop.rules.mini_car_wars.play.marks import set_armor  # noqa: E402
from carwars_desktop.services import Services  # noqa: E402
from carwars_desktop.session.setup import Entry, prepare  # noqa: E402
from carwars_desktop.storage import open_database  # noqa: E402

VEHICLES = 12
SIDES = (Side.FRONT, Side.RIGHT, Side.LEFT, Side.BACK)


def quiet(kind: Any, context: Any, message: str) -> None:
    """The offscreen platform's note on every relayout of a top-level window is noise."""
    if "propagateSizeHints" not in message:
        print(message, file=sys.stderr)


def settle(app: QApplication) -> None:
    app.processEvents()
    app.processEvents()


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.2f} ms"


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=1000)
    parser.add_argument("--quick", action="store_true", help="100 events")
    arguments = parser.parse_args()
    events = 100 if arguments.quick else arguments.events
    folder = Path(tempfile.mkdtemp(prefix="carwars-bench-"))
    qInstallMessageHandler(quiet)
    app = QApplication(sys.argv[:1])
    database = open_database(f"sqlite:///{folder / 'display.sqlite3'}")
    services = Services()
    services.table.database = database
    ruleset = find_ruleset("mini_car_wars")
    catalog = ruleset.catalog()
    designs = list(catalog)
    entries = [Entry(f"Player {n + 1}", f"Car {n + 1}",
                     catalog[designs[n % len(designs)]].to_json()) for n in range(VEHICLES)]
    session_id = services.table.start("mini_car_wars", "Benchmark", "",
                                      prepare(ruleset, entries))
    services.table.open(session_id)
    game = services.table.running()
    display = PlayerDisplay(services, QSettings(str(folder / "display.ini"),
                                                QSettings.Format.IniFormat))
    display.resize(1920, 1080)
    display.show()
    settle(app)

    committed: list[float] = []
    store: Any = game.store
    append = store.append

    def timed_append(*args: Any, **kwargs: Any) -> Any:
        stored = append(*args, **kwargs)
        committed.append(time.perf_counter())
        return stored

    store.append = timed_append
    redrawn: list[int] = []
    display.redrawn.connect(lambda keys: redrawn.append(len(keys)))
    latencies: list[float] = []
    for number in range(events):
        key = f"v{number % VEHICLES + 1}"
        sheet = game.sheet(key)
        assert isinstance(sheet, MiniSheet)
        armored = [s for s in SIDES if sheet.starting_armor.get(s)]
        side = armored[(number // VEHICLES) % len(armored)]
        left = sheet.armor.get(side)
        new = left - 1 if left > 0 else sheet.starting_armor.get(side)
        mark = set_armor(sheet, side.value, new)
        services.table.mark(key, mark.sheet, mark.summary)
        settle(app)
        latencies.append(time.perf_counter() - committed[-1])
    per_event = redrawn[-events:]
    rebuilds: list[float] = []
    for _ in range(20):
        start = time.perf_counter()
        display.rebuild()
        settle(app)
        rebuilds.append(time.perf_counter() - start)
    median = statistics.median(latencies)
    print(f"players' display, {VEHICLES} vehicles, {events} events (hand marks on SQLite)")
    print(f"  commit → redraw painted: median {ms(median)}   p95 "
          f"{ms(percentile(latencies, 0.95))}   worst {ms(max(latencies))}   (target 100 ms)")
    print(f"  cards redrawn per event: {statistics.mean(per_event):.2f} of {VEHICLES}")
    rebuild = statistics.median(rebuilds)
    print(f"  a full rebuild of the display: median {ms(rebuild)} "
          f"({rebuild / median:.1f}× one event's redraw)")
    display.close()
    database.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
