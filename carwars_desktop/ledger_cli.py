"""``carwars-desktop ledger``: the club's ledger on the command line (issue 36 §3).

    carwars-desktop [--db URL] ledger [--ruleset ID] [--since YYYY-MM-DD] [--until YYYY-MM-DD]
        [--profile NAME] [--by player|design] [--json|--csv]

The same table as the Ledger workspace: per player (or per vehicle design), across every
finished session of the database. ``--json`` prints both tables; ``--csv`` the one asked
for. Exit status: 0 printed, 2 bad input (an unknown ruleset, a malformed date) with a
one-line reason on stderr. See docs/command-line.md.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from carwars_desktop.cli_support import OneLineParser, refuse, run_command
from carwars_desktop.rules.registry import ruleset_ids
from carwars_desktop.services.ledger import LedgerFilter, LedgerService, ledger_json, parse_day
from carwars_desktop.storage import open_database, resolve_url

PROG = "carwars-desktop ledger"


def _parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog=PROG,
        description="Print the club's ledger: per player or per vehicle design, games, wins, "
                    "kills, deaths, damage dealt and taken, shots, hits and luck over every "
                    "finished session. See docs/command-line.md.")
    parser.add_argument("--ruleset", metavar="ID", default=None,
                        help="only this ruleset's sessions")
    parser.add_argument("--since", metavar="YYYY-MM-DD", default=None,
                        help="only sessions started that day or later (UTC)")
    parser.add_argument("--until", metavar="YYYY-MM-DD", default=None,
                        help="only sessions started that day or earlier (UTC)")
    parser.add_argument("--profile", metavar="NAME", default=None,
                        help="only sessions played under this house-rules profile")
    parser.add_argument("--by", choices=("player", "design"), default="player",
                        help="one row per player (the default) or per vehicle design")
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="both tables as JSON")
    out.add_argument("--csv", action="store_true", help="the table as CSV")
    parser.add_argument("--db", metavar="URL", default=None,
                        help="the database (default: $CARWARS_DB, else the app's own file)")
    return parser


def _run(options: argparse.Namespace) -> int:
    if options.ruleset is not None and options.ruleset not in ruleset_ids():
        return refuse(PROG, f"no ruleset {options.ruleset!r} "
                      f"(rulesets: {', '.join(ruleset_ids())})")
    try:
        since = None if options.since is None else parse_day(options.since)
        until = None if options.until is None else parse_day(options.until)
    except ValueError as error:
        return refuse(PROG, str(error))
    wanted = LedgerFilter(options.ruleset, since, until, options.profile)
    database = open_database(resolve_url(options.db, os.environ))
    try:
        ledger = LedgerService(database).ledger(wanted)
    finally:
        database.close()
    if options.json:
        sys.stdout.write(ledger_json(ledger))
    elif options.csv:
        sys.stdout.write(ledger.csv(options.by))
    else:
        sys.stdout.write(ledger.text(options.by))
    return 0


def ledger_main(argv: Sequence[str]) -> int:
    options = _parser().parse_args(list(argv))
    return run_command(PROG, lambda: _run(options))
