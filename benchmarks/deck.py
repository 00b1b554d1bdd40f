"""A huge AUTOpower deck in the Workshop: opening it, against a 60-card deck.

    .venv/bin/python benchmarks/deck.py [--cards 90000] [--runs 3] [--quick]

Offscreen, in this process: a deck of ``--cards`` cards (40 distinct cards, several
icons each, a few of them illegal so that problems are listed) and a 60-card deck are
saved to a throwaway library; each is opened in the Workshop (the editor shown, its
list, counts and problems filled in, the event loop settled), interleaved, after one
warm-up opening that builds the deck editor. The figure
printed is the huge deck's median and its ratio to the 60-card deck's (the baseline,
measured in the same run); a 10 ms timer on the GUI thread also reports the longest
the GUI thread was busy between two turns (its CPU time). Then the huge deck is edited
in the editor (a line's count typed), the edit undone, redone and saved: each step's
time and the GUI thread's longest turn. Nothing is asserted.
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

from PySide6.QtCore import QSettings, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from carwars_desktop.gui.main_window import MainWindow  # noqa: E402
from carwars_desktop.rules.autopower import Deck, Icon, IconValue, PowerCard  # noqa: E402
from carwars_desktop.rules.autopower.kinds import DECK  # noqa: E402
from carwars_desktop.storage import NewDesign  # noqa: E402


def deck(name: str, cards: int) -> Deck:
    icons = list(Icon)
    distinct = [PowerCard(f"Card {n:02d}", () if n == 39 else tuple(
        IconValue(icons[(n + k) % len(icons)], (n + k) % 8 + 1) for k in range(1 + n % 3)))
        for n in range(40)]
    return Deck(name, tuple(distinct[n % len(distinct)] for n in range(cards)))


class Busy:
    """The longest the GUI thread itself worked between two turns of a 10 ms timer."""

    def __init__(self) -> None:
        self.longest = 0.0
        self._last = time.thread_time()
        self._timer = QTimer()
        self._timer.setInterval(10)
        self._timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now = time.thread_time()
        self.longest = max(self.longest, now - self._last)
        self._last = now

    def __enter__(self) -> Busy:
        self._last = time.thread_time()
        self._timer.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._tick()
        self._timer.stop()


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.0f} ms"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cards", type=int, default=90_000)
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
    busiest = busiest_small = 0.0
    for _ in range(arguments.runs):
        for design_id in (small.id, big.id):  # interleaved: both see the same machine
            with Busy() as busy:
                started = time.perf_counter()
                window.workshop.open_design(design_id)
                app.processEvents()
                app.processEvents()
                times[design_id].append(time.perf_counter() - started)
            if design_id == big.id:
                busiest = max(busiest, busy.longest)
            else:
                busiest_small = max(busiest_small, busy.longest)
            window.workshop.close_design()
            app.processEvents()
    huge, baseline = statistics.median(times[big.id]), statistics.median(times[small.id])
    print(f"runs: {arguments.runs} each, interleaved, offscreen, Python {sys.version.split()[0]}")
    print(f"open a 60-card deck in the Workshop (baseline)   median {ms(baseline)}   "
          f"             (GUI thread busy at most {ms(busiest_small)} in one turn)")
    print(f"open a {arguments.cards:,}-card deck in the Workshop      median {ms(huge)}   "
          f"ratio {huge / baseline:6.1f}   (GUI thread busy at most {ms(busiest)} in one turn)")
    workshop = window.workshop
    workshop.open_design(big.id)
    app.processEvents()
    editor = workshop.editor
    lines = editor.lines_model  # type: ignore[union-attr]
    steps = (("type a line's count", lambda: lines.setData(lines.index(0, 0), "5")),
             ("undo it", workshop.undo), ("redo it", workshop.redo), ("save", workshop.save))
    for label, step in steps:
        with Busy() as busy:
            started = time.perf_counter()
            step()
            app.processEvents()
            took = time.perf_counter() - started
        print(f"{label + ', ' + format(arguments.cards, ',') + ' cards':<45}        {ms(took)}"
              f"                (GUI thread busy at most {ms(busy.longest)} in one turn)")
    window.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
