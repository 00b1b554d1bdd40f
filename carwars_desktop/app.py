"""Entry point: ``carwars-desktop [--db URL] [--smoke | --self-check] [--version]`` or
``… resolve``, ``… design``, ``… report``.

Only the standard library is imported here, so ``--version`` and ``resolve``
start fast and the GUI's imports happen only when the window is wanted.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence


class _VersionAction(argparse.Action):
    """``--version``: the installed version, read only when asked for (reading the
    package metadata is start-up time the window need not pay)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings=option_strings, dest=dest, default=default, nargs=0,
                         help=help or "show program's version number and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        from carwars_desktop import __version__

        print(f"carwars-desktop {__version__}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    from carwars_desktop.cli_support import OneLineParser

    parser = OneLineParser(
        prog="carwars-desktop",
        description="A game master's companion for Mini Car Wars, Battlecars and AUTOpower. "
        "Run `carwars-desktop resolve --help` for the rules on the command line and "
        "`carwars-desktop design --help` for designs.",
    )
    parser.add_argument(
        "--db",
        metavar="URL",
        default=None,
        help="SQLAlchemy URL or SQLite file path of the database "
        "(default: $CARWARS_DB, else carwars.sqlite3 in the user data folder)",
    )
    unattended = parser.add_mutually_exclusive_group()
    unattended.add_argument(
        "--smoke",
        action="store_true",
        help="start, open the database, build every workspace, and exit "
        "(non-zero with the reason on stderr if anything failed)",
    )
    unattended.add_argument(
        "--self-check",
        action="store_true",
        help="as --smoke, then serve the players' phones page once on loopback "
        "(127.0.0.1) and read it back, and exit (non-zero with the reason on stderr)",
    )
    parser.add_argument("--version", action=_VersionAction)
    return parser


def _uses_no_feature(module: object) -> bool:
    return False


def skip_pyside_source_scan() -> bool:
    """Import PySide6 without its scan of every later module's source.

    Once imported, PySide6 checks each module imported after it for its opt-in
    ``from __feature__ import snake_case, true_property`` syntax by reading the
    module's whole source (``inspect.getsource``): some 450 modules at start-up, about
    0.3 s of CPU (SQLAlchemy's and the app's own). Nothing here uses ``__feature__``,
    so each module is marked "no feature" without reading it (a module that did
    opt in would still be switched by its own ``from __feature__ import``). The
    scan's function is PySide's own internal one: when a PySide release no longer
    has it, nothing is changed (False).
    """
    import PySide6.QtCore  # noqa: F401 (installs PySide's import hook)

    feature = sys.modules.get("shibokensupport.feature")
    if feature is None or not callable(getattr(feature, "_mod_uses_pyside", None)):
        return False
    setattr(feature, "_mod_uses_pyside", _uses_no_feature)  # noqa: B010 (a module's)
    return True


SUBCOMMANDS = ("resolve", "design", "report", "ledger")


def _subcommand_first(args: list[str]) -> list[str]:
    """``--db URL design check …`` as ``design --db URL check …``: the database may be named
    before the subcommand (docs/command-line.md's synopsis) as well as after it."""
    if len(args) >= 3 and args[0] == "--db" and args[2] in SUBCOMMANDS:
        return [args[2], "--db", args[1], *args[3:]]
    if len(args) >= 2 and args[0].startswith("--db=") and args[1] in SUBCOMMANDS:
        return [args[1], args[0], *args[2:]]
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = _subcommand_first(list(sys.argv[1:] if argv is None else argv))
    if args and args[0] == "resolve":
        from carwars_desktop.cli import resolve_main

        return resolve_main(args[1:])
    if args and args[0] == "design":
        from carwars_desktop.design_cli import design_main

        return design_main(args[1:])
    if args and args[0] == "report":
        from carwars_desktop.report_cli import report_main

        return report_main(args[1:])
    if args and args[0] == "ledger":
        from carwars_desktop.ledger_cli import ledger_main

        return ledger_main(args[1:])
    options = build_parser().parse_args(args)
    skip_pyside_source_scan()  # before the GUI's modules are imported
    from carwars_desktop.gui.application import run_gui

    return run_gui(db=options.db or os.environ.get("CARWARS_DB"), smoke=options.smoke,
                   self_check=options.self_check)
