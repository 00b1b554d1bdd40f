"""Entry point: ``carwars-desktop [--db URL] [--smoke] [--version]`` or ``… resolve``.

Only the standard library is imported here, so ``--version`` and ``resolve``
start fast and the GUI's imports happen only when the window is wanted.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence


def build_parser() -> argparse.ArgumentParser:
    from carwars_desktop import __version__

    parser = argparse.ArgumentParser(
        prog="carwars-desktop",
        description="A game master's companion for Mini Car Wars, Battlecars and AUTOpower. "
        "Run `carwars-desktop resolve --help` for the rules on the command line.",
    )
    parser.add_argument(
        "--db",
        metavar="URL",
        default=None,
        help="SQLAlchemy URL or SQLite file path of the database "
        "(default: $CARWARS_DB, else carwars.sqlite3 in the user data folder)",
    )
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="open the main window, wait until the event loop is idle, and exit "
        "(non-zero with the reason on stderr if anything failed)",
    )
    parser.add_argument("--version", action="version", version=f"carwars-desktop {__version__}")
    return parser


def _warm_up_storage() -> None:
    """Import the database layer (SQLAlchemy, the ORM models) on a thread while Qt starts
    and paints the window: the two overlap on a machine with more than one core, and the
    window opens the database sooner. Only the standard library runs here; the import's
    own errors surface where the window imports it again."""
    import threading

    def work() -> None:
        try:
            import carwars_desktop.storage  # noqa: F401
        except Exception:  # noqa: BLE001 (reported by the GUI's own import)
            return

    threading.Thread(target=work, name="carwars-warm-up", daemon=True).start()


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "resolve":
        from carwars_desktop.cli import resolve_main

        return resolve_main(args[1:])
    options = build_parser().parse_args(args)
    _warm_up_storage()
    from carwars_desktop.gui.application import run_gui

    return run_gui(db=options.db or os.environ.get("CARWARS_DB"), smoke=options.smoke)
