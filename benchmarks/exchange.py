"""Design files through the Library: import, "keep both" renaming, export.

    .venv/bin/python benchmarks/exchange.py [--designs 20000] [--copies 5000] [--pasted 10000]
                                            [--quick]

Offscreen, in this process, through the Library workspace (what the GM's click does):

1. import a file of ``--designs`` varied designs (the documented limit is 20,000) into an
   empty library — target ≤ 10 s, with progress shown;
2. import 1,000 designs all named "Courier" into a library holding ``--copies`` of them,
   "keep both" for every clash (the renaming that used to be quadratic);
3. export every design of the library to one file;
4. Paste design… of a code holding ``--pasted`` designs (Couriers of distinct names, a few
   MiB unpacked): the dialog's check (“Checking…” until its verdict), then the import —
   the same path as a file's, on workers.

While each runs, the watchdog (benchmarks/gui_watchdog.py) records the longest the window
was frozen and the most the GUI thread itself worked in one turn of its event loop
(goal < 100 ms: pass or FAIL printed; tests/gui/test_responsiveness.py asserts instead
that the work runs on workers). Figures are printed, with the ratio of each to the
baseline (reading the file's JSON alone).
``--quick``: small sizes, one run (./dev test runs it so the benchmark keeps working).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
_HOME = tempfile.mkdtemp(prefix="carwars-bench-exchange-")
os.environ["XDG_CONFIG_HOME"] = str(Path(_HOME) / "config")
os.environ["XDG_DATA_HOME"] = str(Path(_HOME) / "data")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from gui_watchdog import Watchdog, watching  # noqa: E402
from library import designs  # noqa: E402
from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from carwars_desktop.gui.main_window import MainWindow  # noqa: E402
from carwars_desktop.gui.workshop import LibraryWorkspace  # noqa: E402
from carwars_desktop.gui.workshop.exchange_actions import Clash  # noqa: E402
from carwars_desktop.gui.workshop.share_actions import PasteDesignDialog  # noqa: E402
from carwars_desktop.library import (  # noqa: E402
    FORMAT,
    VERSION,
    ExchangedDesign,
    make_exchanged,
)
from carwars_desktop.library.text_code import encode_designs  # noqa: E402
from carwars_desktop.rules.mini_car_wars import MiniDesign  # noqa: E402
from carwars_desktop.storage import NewDesign  # noqa: E402


def write_file(path: Path, count: int) -> None:
    items = [{"ruleset": d.ruleset_id, "kind": d.kind, "tags": list(d.tags), "design": d.data}
             for d in designs(count, seed=2026)]
    path.write_text(json.dumps({"format": FORMAT, "version": VERSION, "designs": items}))


def courier_file(path: Path, count: int) -> None:
    data = MiniDesign.stock_design("courier", "b", name="Courier").to_json()
    items = [{"ruleset": "mini_car_wars", "kind": "vehicle", "design": data}] * count
    path.write_text(json.dumps({"format": FORMAT, "version": VERSION, "designs": items}))


def pasted_code(count: int) -> str:
    data = MiniDesign.stock_design("courier", "b", name="Courier").to_json()
    return encode_designs([make_exchanged("mini_car_wars", "vehicle",
                                          {**data, "name": f"Pasted {n:05d}"})
                           for n in range(count)])


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.0f} ms"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--designs", type=int, default=20_000)
    parser.add_argument("--copies", type=int, default=5_000)
    parser.add_argument("--incoming", type=int, default=1_000)
    parser.add_argument("--pasted", type=int, default=10_000)
    parser.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    arguments = parser.parse_args()
    if arguments.quick:
        arguments.designs, arguments.copies, arguments.incoming = 300, 200, 50
        arguments.pasted = 100
    app = QApplication(sys.argv[:1])
    folder = Path(_HOME)
    big, couriers = folder / "big.carwars.json", folder / "couriers.carwars.json"
    write_file(big, arguments.designs)
    courier_file(couriers, arguments.incoming)
    started, cpu = time.perf_counter(), time.process_time()
    json.loads(big.read_bytes())
    baseline = time.perf_counter() - started
    baseline_cpu = time.process_time() - cpu
    print(f"{arguments.designs:,} designs in {big.stat().st_size / 1024 / 1024:.1f} MiB; "
          f"baseline (json.loads of the file) {ms(baseline)} (CPU {ms(baseline_cpu)}); "
          "offscreen, "
          f"Python {sys.version.split()[0]}")

    settings = QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(db_url_hint=str(folder / "exchange.sqlite3"), interactive=False,
                        settings=settings)
    window.show()
    assert window.finish_startup()
    app.processEvents()
    library = next(w for w in window.workspaces if isinstance(w, LibraryWorkspace))
    library.ask_clash = lambda *_: (Clash.KEEP_BOTH, True)  # type: ignore[method-assign]

    def report(label: str, seconds: float, dog: Watchdog, target: str) -> None:
        print(f"{label:52} {ms(seconds)} (CPU {dog.cpu:8.0f} ms)   ratio "
              f"{seconds / baseline:7.1f}   {dog.verdict()}"
              f"{'   (' + target + ')' if target else ''}")

    with watching() as dog:
        started = time.perf_counter()
        imported = library.import_designs(str(big))
        took = time.perf_counter() - started
    assert imported == arguments.designs, imported
    report(f"import {arguments.designs:,} designs", took, dog, "target ≤ 10 s")

    library.library.add_many([NewDesign("mini_car_wars", MiniDesign.stock_design(
        "courier", "b", name="Courier").to_json())] * arguments.copies)
    with watching() as dog:
        started = time.perf_counter()
        imported = library.import_designs(str(couriers))
        took = time.perf_counter() - started
    assert imported == arguments.incoming, imported
    report(f"import {arguments.incoming:,} × Courier into {arguments.copies:,} copies",
           took, dog, "keep both")

    library.ruleset_box.setCurrentIndex(0)
    library.source_box.setCurrentIndex(0)
    library.search.clear()
    library.refresh()
    library.view.selectAll()
    with watching() as dog:
        started = time.perf_counter()
        written = library.export_selected(str(folder / "all.carwars.json"))
        took = time.perf_counter() - started
    assert written is not None
    report(f"export {len(library.selected_ids()):,} designs", took, dog, "")

    code = pasted_code(arguments.pasted)
    checked: list[float] = []

    def ask(text: str) -> tuple[ExchangedDesign, ...] | None:
        """The paste dialog, driven as the GM would: open it on the text, wait for the
        verdict, press Import."""
        with watching() as dog:
            started = time.perf_counter()
            dialog = PasteDesignDialog(text, window)
            while dialog.checking:
                app.processEvents()
            checked.append(time.perf_counter() - started)
        report(f"paste: check {arguments.pasted:,} designs ({len(text):,} chars)",
               checked[-1], dog, "")
        designs = dialog.designs
        dialog.deleteLater()
        return designs or None

    library.share_button.ask_paste = ask
    with watching() as dog:
        started = time.perf_counter()
        imported = library.share_button.paste_design(code)
        took = time.perf_counter() - started - checked[0]
    assert imported == arguments.pasted, imported
    report(f"paste: import {arguments.pasted:,} designs", took, dog, "")
    window.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
