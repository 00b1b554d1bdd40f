"""Hover explanations in a long session: the sheet boxes' "which event" and the log's rows.

    .venv/bin/python benchmarks/hover.py [--long 100000] [--hovers 5] [--quick]

A Mini Car Wars session of ``--long`` events (twelve vehicles, bulk-written as in
benchmarks/table.py) and, as the baseline in the same run, one of 100 events. Printed:

1. A box hovered on each of the twelve vehicles, then ``--hovers`` times more each:
   without the cache (each hover works its explanation out afresh: the history read and
   each event's sheets parsed, as every vehicle's first hover did before) and with it
   (one :class:`Provenance`: the history read once, each event's boxes worked out once).
2. The session log: 2,000 row hovers over 200 rows, without the cache (each hover builds
   the row's explanation) and with the model's kept ones.

``--quick``: a 2,000-event session, one hover more (./dev test runs it).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402
from table import bulk_session  # noqa: E402

from carwars_desktop.gui.table.event_log import EventLogModel, tooltip_text  # noqa: E402
from carwars_desktop.rules import find_ruleset  # noqa: E402
from carwars_desktop.session import EventPages  # noqa: E402
from carwars_desktop.session.provenance import Provenance  # noqa: E402
from carwars_desktop.storage import open_database  # noqa: E402

VEHICLES = [f"v{n}" for n in range(1, 13)]
BOX = "driver:1"


def sheet_hovers(pages: EventPages, hovers: int) -> tuple[float, float, int]:
    """Seconds per hover without the cache and with it, and the boxes worked out."""
    ruleset = find_ruleset("mini_car_wars")
    rules = ruleset.play()
    count = len(VEHICLES) * (1 + hovers)
    start = time.perf_counter()
    for _ in range(1 + hovers):
        for key in VEHICLES:
            Provenance(ruleset, rules, pages).explain(key, BOX)
    without = (time.perf_counter() - start) / count
    provenance = Provenance(ruleset, rules, pages)
    start = time.perf_counter()
    for _ in range(1 + hovers):
        for key in VEHICLES:
            provenance.explain(key, BOX)
    return without, (time.perf_counter() - start) / count, provenance.builds


def log_hovers(pages: EventPages) -> tuple[float, float, int]:
    model = EventLogModel(pages)
    rows = [model.rowCount() - 1 - n for n in range(min(200, model.rowCount()))]
    start = time.perf_counter()
    for _ in range(10):
        for row in rows:
            stored = model.event_at(row)
            assert stored is not None
            tooltip_text(stored)
    without = (time.perf_counter() - start) / (10 * len(rows))
    start = time.perf_counter()
    for _ in range(10):
        for row in rows:
            model.data(model.index(row, 2), Qt.ItemDataRole.ToolTipRole)
    return without, (time.perf_counter() - start) / (10 * len(rows)), model.tooltip_builds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--long", type=int, default=100_000)
    parser.add_argument("--hovers", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    arguments = parser.parse_args()
    if arguments.quick:
        arguments.long, arguments.hovers = 2_000, 1
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert app is not None
    folder = Path(tempfile.mkdtemp(prefix="carwars-hover-bench-"))
    database = open_database(f"sqlite:///{folder / 'bench.sqlite3'}")
    try:
        short = bulk_session(database, 100, "short")
        long = bulk_session(database, arguments.long, "long")
        print(f"Python {sys.version.split()[0]}, database {folder / 'bench.sqlite3'}")
        for label, session_id in (("100 events (baseline)", short),
                                  (f"{arguments.long:,} events", long)):
            pages = database.game_sessions.events(session_id, read_only="benchmark")
            without, with_cache, builds = sheet_hovers(pages, arguments.hovers)
            print(f"sheet box hover, {label}: without the cache {without * 1000:.2f} ms, "
                  f"with it {with_cache * 1000:.3f} ms per hover "
                  f"(ratio {without / with_cache:.0f}x; {builds:,} event boxes worked out)")
            without, with_cache, builds = log_hovers(pages)
            print(f"log row hover,   {label}: without the cache {without * 1e6:.1f} µs, "
                  f"with it {with_cache * 1e6:.1f} µs per hover "
                  f"({builds} explanations built for 2,000 hovers)")
    finally:
        database.close()


if __name__ == "__main__":
    main()
