"""A huge AUTOpower deck in the Workshop: opening it, against a 60-card deck.

    .venv/bin/python benchmarks/deck.py [--cards 30000] [--runs 3] [--quick]

Offscreen, in this process: a deck of ``--cards`` cards (40 distinct cards, several
icons each, a few of them illegal so that problems are listed) and a 60-card deck are
saved to a throwaway library; each is opened in the Workshop (the editor shown, its
list, counts and problems filled in, the event loop settled), interleaved, after one
warm-up opening that builds the deck editor. The figure
printed is the huge deck's median and its ratio to the 60-card deck's (the baseline,
measured in the same run); the watchdog (benchmarks/gui_watchdog.py) also reports the
most the GUI thread itself worked in one turn, with pass or FAIL against the 100 ms goal
(tests/gui/test_deck_responsiveness.py asserts instead that the deck is read, checked
and written on workers). Then the huge deck is edited in the editor (a line's count
typed), the edit undone, redone and saved, and saved again after another copy saved it
meanwhile (the conflict, "keep mine"): each step's time and the GUI thread's longest
turn. Nothing is asserted. The default size is the goal's (30,000 cards).
``--quick``: 3,000 cards, one run (./dev test runs it so the benchmark keeps working).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
_HOME = tempfile.mkdtemp(prefix="carwars-bench-deck-")
os.environ["XDG_CONFIG_HOME"] = str(Path(_HOME) / "config")
os.environ["XDG_DATA_HOME"] = str(Path(_HOME) / "data")

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gui_watchdog import watching  # noqa: E402
from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from carwars_desktop.gui.main_window import MainWindow  # noqa: E402
from carwars_desktop.gui.workshop.workshop_workspace import ConflictChoice  # noqa: E402
from carwars_desktop.rules.autopower import Deck, Icon, IconValue, PowerCard  # noqa: E402
from carwars_desktop.rules.autopower.kinds import DECK  # noqa: E402
from carwars_desktop.storage import NewDesign  # noqa: E402


def deck(name: str, cards: int) -> Deck:
    icons = list(Icon)
    distinct = [PowerCard(f"Card {n:02d}", () if n == 39 else tuple(
        IconValue(icons[(n + k) % len(icons)], (n + k) % 8 + 1) for k in range(1 + n % 3)))
        for n in range(40)]
    return Deck(name, tuple(distinct[n % len(distinct)] for n in range(cards)))


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.0f} ms"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cards", type=int, default=30_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    arguments = parser.parse_args()
    if arguments.quick:
        arguments.cards, arguments.runs = 3_000, 1
    app = QApplication(sys.argv[:1])
    folder = Path(_HOME)
    settings = QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(db_url_hint=str(folder / "deck.sqlite3"), interactive=False,
                        settings=settings)
    window.show()
    assert window.finish_startup()
    app.processEvents()
    library = window.workshop.services.library
    big = library.add(NewDesign("autopower", deck("Huge deck", arguments.cards).to_json(),
                                DECK)).record
    small = library.add(NewDesign("autopower", deck("Club deck", 60).to_json(), DECK)).record
    window._rail.setCurrentRow(window.workspaces.index(window.workshop))
    app.processEvents()
    window.workshop.open_design(small.id)  # the deck editor is built on its first use
    app.processEvents()
    window.workshop.close_design()
    times: dict[int, list[float]] = {big.id: [], small.id: []}
    verdict = verdict_small = ""
    worst = worst_small = 0.0
    for _ in range(arguments.runs):
        for design_id in (small.id, big.id):  # interleaved: both see the same machine
            with watching() as dog:
                started = time.perf_counter()
                window.workshop.open_design(design_id)
                app.processEvents()
                app.processEvents()
                times[design_id].append(time.perf_counter() - started)
            if design_id == big.id:
                if not verdict or dog.busiest > worst:
                    verdict, worst = dog.verdict(), dog.busiest
            elif not verdict_small or dog.busiest > worst_small:
                verdict_small, worst_small = dog.verdict(), dog.busiest
            window.workshop.close_design()
            app.processEvents()
    huge, baseline = statistics.median(times[big.id]), statistics.median(times[small.id])
    print(f"runs: {arguments.runs} each, interleaved, offscreen, Python {sys.version.split()[0]}")
    print(f"open a 60-card deck in the Workshop (baseline)   median {ms(baseline)}   "
          f"             {verdict_small}")
    print(f"open a {arguments.cards:,}-card deck in the Workshop      median {ms(huge)}   "
          f"ratio {huge / baseline:6.1f}   {verdict}")
    workshop = window.workshop
    workshop.open_design(big.id)
    app.processEvents()
    editor = workshop.editor
    lines = editor.lines_model  # type: ignore[union-attr]
    asked: list[object] = []

    def keep_mine(theirs: object) -> ConflictChoice:
        asked.append(theirs)
        return ConflictChoice.KEEP_MINE

    def saved_elsewhere() -> None:  # another copy saved the deck meanwhile, then save
        current = library.get(big.id)
        library.store.save(big.id, deck("Huge deck", arguments.cards - 40).to_json(),
                           expected_revision=current.revision)
        workshop.ask_conflict = keep_mine  # type: ignore[method-assign]
        lines.setData(lines.index(1, 0), "6")
        app.processEvents()

    steps = (("type a line's count", lambda: lines.setData(lines.index(0, 0), "5")),
             ("undo it", workshop.undo), ("redo it", workshop.redo), ("save", workshop.save),
             ("save over a conflict, keep mine", workshop.save))
    for label, step in steps:
        if step is steps[-1][1]:
            saved_elsewhere()
        with watching() as dog:
            started = time.perf_counter()
            step()
            app.processEvents()
            took = time.perf_counter() - started
        print(f"{label + ', ' + format(arguments.cards, ',') + ' cards':<45}        {ms(took)}"
              f"                {dog.verdict()}")
    assert len(asked) == 1, asked  # the last save did meet the conflict
    window.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
