"""The Library list after a change to one design: its rows updated by id, against a reload.

    .venv/bin/python benchmarks/library_rows.py [--designs 10000] [--runs 7]

Fills a throwaway SQLite database with designs (as benchmarks/library.py does), opens the
main window offscreen with every ruleset listed, then times, until the list is repainted:

* a reload of the whole list (what every change cost before the change bus);
* a rename, a tag and a duplicate through the library service, each published on the
  bus and applied to the list row by row (``LibraryModel.update_entries``).

Figures and ratios are printed, never asserted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from library import _HOME, designs, settle  # noqa: E402
from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from carwars_desktop.gui.main_window import MainWindow  # noqa: E402
from carwars_desktop.gui.workshop import LibraryWorkspace  # noqa: E402
from carwars_desktop.storage import open_database  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--designs", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--quick", action="store_true",
                        help="one run over 200 designs, so the benchmark cannot rot (CI)")
    arguments = parser.parse_args()
    if arguments.quick:
        arguments.designs, arguments.runs = 200, 1
    url = str(Path(_HOME) / "rows.sqlite3")
    app = QApplication(sys.argv[:1])
    with open_database(url) as database:
        database.library.install_catalog()
        new = designs(arguments.designs)
        for start in range(0, len(new), 1000):
            database.library.add_many(new[start:start + 1000])
        total = database.library.count()
    window = MainWindow(db_url_hint=url, interactive=False,
                        settings=QSettings(str(Path(_HOME) / "rows.ini"),
                                           QSettings.Format.IniFormat))
    window.show()
    settle(app)
    assert window.finish_startup()
    library = next(w for w in window.workspaces if isinstance(w, LibraryWorkspace))
    library.ruleset_box.setCurrentIndex(0)
    settle(app)
    service = window.services.library
    mine = [e.id for e in library.model.entries() if not e.is_catalog][:arguments.runs]
    times: dict[str, list[float]] = {"reload the whole list": [], "rename one design": [],
                                     "tag one design": [], "duplicate one design": []}

    def timed(label: str, action: object) -> None:
        start = time.perf_counter()
        action()  # type: ignore[operator]
        settle(app)
        times[label].append(time.perf_counter() - start)

    for n, design_id in enumerate(mine):
        timed("reload the whole list", library.refresh)
        timed("rename one design", lambda i=design_id, n=n: service.rename(i, f"Renamed {n}"))
        timed("tag one design", lambda i=design_id: service.set_tags([i], ["benchmark"]))
        timed("duplicate one design", lambda i=design_id: service.duplicate(i))
    window.shutdown()
    reload = statistics.median(times["reload the whole list"])
    print(f"library: {total:,} designs listed, {arguments.runs} runs, offscreen, "
          f"Python {sys.version.split()[0]}")
    for label, values in times.items():
        median = statistics.median(values)
        print(f"{label:<24} median {median * 1000:8.1f} ms   worst {max(values) * 1000:8.1f} ms"
              f"   reload/this {reload / median:6.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
