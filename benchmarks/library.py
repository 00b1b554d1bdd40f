"""The vehicle library with 10,000 designs: opening it, and search-as-you-type per keystroke.

    .venv/bin/python benchmarks/library.py [--designs 10000] [--runs 5] [--db URL] [--quick]

Fills a throwaway SQLite database (or the given URL's empty database) with designs of
every ruleset, then, offscreen, in this process:

* opens the main window on it (``finish_startup``: migrations checked, catalog checked,
  every workspace attached) and the Library list painted;
* reloads the Library list (10,000 entries read and shown) — what every change costs;
* opens a design of each kind in the Workshop editor;
* types search words one key at a time, and erases them, each keystroke timed until the
  list is repainted. Target: under 50 ms per keystroke.

Figures are printed (median and worst), never asserted. ``--quick``: 300 designs, one
run (./dev test runs it so the benchmark keeps working).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
_HOME = tempfile.mkdtemp(prefix="carwars-bench-library-")
os.environ["XDG_CONFIG_HOME"] = str(Path(_HOME) / "config")
os.environ["XDG_DATA_HOME"] = str(Path(_HOME) / "data")

from PySide6.QtCore import QSettings, Qt  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from carwars_desktop.gui.main_window import MainWindow  # noqa: E402
from carwars_desktop.gui.workshop import LibraryWorkspace  # noqa: E402
from carwars_desktop.rules.autopower import Car, Deck, Icon, IconValue, PowerCard  # noqa: E402
from carwars_desktop.rules.autopower.kinds import DECK  # noqa: E402
from carwars_desktop.rules.battlecars import example_card  # noqa: E402
from carwars_desktop.rules.mini_car_wars import MiniDesign, PersonKit  # noqa: E402
from carwars_desktop.rules.mini_car_wars.tables import STOCK_CARS  # noqa: E402
from carwars_desktop.storage import NewDesign, open_database  # noqa: E402

WORDS = ("night", "road", "iron", "red", "duel", "black", "fury", "storm", "rust", "viper",
         "ghost", "hammer", "courier", "kart", "special", "rider", "lancer", "wolf")
TAGS = ("club", "road duel", "pack attack", "convoy", "arena", "campaign", "test", "cheap")
QUERIES = ("courier", "night fury", "duel")


def designs(count: int, seed: int = 1987) -> list[NewDesign]:
    """``count`` varied designs: 70% Mini Car Wars, 20% AUTOpower cars, 5% cards, 5% decks."""
    rng = random.Random(seed)
    card = example_card()
    deck = Deck("deck", tuple(PowerCard(f"E{n % 8 + 1}", (IconValue(Icon.ENERGY, n % 8 + 1),))
                              for n in range(60)))
    result: list[NewDesign] = []
    for number in range(count):
        name = f"{rng.choice(WORDS).title()} {rng.choice(WORDS).title()} {number:05d}"
        tags = tuple(rng.sample(TAGS, rng.randint(0, 3)))
        roll = rng.random()
        if roll < 0.70:
            vehicle = rng.choice(STOCK_CARS)
            option = rng.choice([None, *(o.key for o in vehicle.options)])
            design = MiniDesign.stock_design(vehicle.key, option, name,
                                             PersonKit(rng.randint(0, 1), 0, rng.random() < .3))
            result.append(NewDesign("mini_car_wars", design.to_json(), tags=tags))
        elif roll < 0.90:
            car = Car(name, rng.randint(1, 8), rng.randint(1, 8), rng.randint(1, 8),
                      rng.randint(0, 4))
            result.append(NewDesign("autopower", car.to_json(), tags=tags))
        elif roll < 0.95:
            result.append(NewDesign("battlecars", {**card.to_json(), "name": name}, tags=tags))
        else:
            result.append(NewDesign("autopower", {**deck.to_json(), "name": name}, DECK, tags))
    return result


def timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def settle(app: QApplication) -> None:
    app.processEvents()
    app.processEvents()


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f} ms"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--designs", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--db", default="")
    parser.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    arguments = parser.parse_args()
    if arguments.quick:
        arguments.designs, arguments.runs = 300, 1
    url = arguments.db or str(Path(_HOME) / "library.sqlite3")
    app = QApplication(sys.argv[:1])

    fill = time.perf_counter()
    with open_database(url) as database:
        database.library.install_catalog()
        new = designs(arguments.designs)
        for start in range(0, len(new), 1000):
            database.library.add_many(new[start:start + 1000])
        total = database.library.count()
    fill = time.perf_counter() - fill
    print(f"library: {total:,} designs ({arguments.designs:,} added in {fill:.1f} s), "
          f"offscreen, Python {sys.version.split()[0]}")

    openings: list[float] = []
    reloads: list[float] = []
    editors: dict[str, list[float]] = {}
    keystrokes: list[float] = []
    for run in range(arguments.runs):
        settings = QSettings(str(Path(_HOME) / f"settings-{run}.ini"), QSettings.Format.IniFormat)
        window = MainWindow(db_url_hint=url, interactive=False, settings=settings)
        window.show()
        settle(app)

        def start_up(window: MainWindow = window) -> None:
            assert window.finish_startup()
            settle(app)

        openings.append(timed(start_up))
        # The workspaces are built by finish_startup, after the first paint.
        library = next(w for w in window.workspaces if isinstance(w, LibraryWorkspace))
        library.ruleset_box.setCurrentIndex(0)  # every ruleset: all 10,000 in the list
        settle(app)
        reloads.append(timed(lambda library=library: (library.refresh(), settle(app))))
        for ruleset_id, kind in (("mini_car_wars", "vehicle"), ("battlecars", "vehicle"),
                                 ("autopower", "vehicle"), ("autopower", DECK)):
            entry = next(e for e in library.model.entries()
                         if (e.ruleset_id, e.kind) == (ruleset_id, kind) and not e.is_catalog)
            editors.setdefault(f"{ruleset_id}/{kind}", []).append(timed(
                lambda entry=entry, window=window: (window.workshop.open_design(entry.id),
                                                    settle(app))))
        window._rail.setCurrentRow(window.workspaces.index(library))
        settle(app)
        library.search.setFocus()
        for query in QUERIES:
            for character in query:
                keystrokes.append(timed(lambda c=character, library=library: (
                    QTest.keyClicks(library.search, c), settle(app))))
            for _ in query:
                keystrokes.append(timed(lambda library=library: (
                    QTest.keyClick(library.search, Qt.Key.Key_Backspace), settle(app))))
        window.shutdown()
        window.deleteLater()
        settle(app)

    print(f"runs: {arguments.runs}")
    print(f"open the main window (Library listed, Workshop ready) median "
          f"{ms(statistics.median(openings))}   worst {ms(max(openings))}")
    print(f"reload the Library list ({total:,} rows)               median "
          f"{ms(statistics.median(reloads))}   worst {ms(max(reloads))}")
    for label, values in editors.items():
        print(f"open a design in the Workshop: {label:<24} median "
              f"{ms(statistics.median(values))}   worst {ms(max(values))}")
    print(f"search as you type, per keystroke ({len(keystrokes)} keys)     median "
          f"{ms(statistics.median(keystrokes))}   worst {ms(max(keystrokes))}   "
          "(target < 50 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
