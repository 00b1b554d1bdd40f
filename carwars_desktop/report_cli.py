"""``carwars-desktop report``: a session's battle report as HTML or PDF (issue 36 §2).

    carwars-desktop [--db URL] report SESSION [--html FILE] [--pdf FILE] [--gm-copy]

SESSION is the session's number (``12`` or ``#12``) or its name; a name several sessions
share is refused with their numbers. The players' copy follows the session's visibility
settings; ``--gm-copy`` shows everything. Exit status: 0 written, 2 bad input (an unknown
or ambiguous session, no output named, a file that cannot be written) with a one-line
reason on stderr. See docs/command-line.md.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from pathlib import Path

from carwars_desktop.cli_support import OneLineParser, refuse, run_command
from carwars_desktop.gui.workshop.printing.report import write_report_pdf
from carwars_desktop.services.report import ReportError, find_session, session_report
from carwars_desktop.services.report_html import report_html
from carwars_desktop.storage import open_database, resolve_url

PROG = "carwars-desktop report"


def _parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog=PROG,
        description="Write a session's battle report: the vehicles as they started and "
                    "ended, the game turn by turn, the kills, the victory check, the house "
                    "rules and the luck chart. See docs/command-line.md.")
    parser.add_argument("session", help="the session's number (12, #12) or its name")
    parser.add_argument("--html", metavar="FILE", default=None,
                        help="write one self-contained HTML file")
    parser.add_argument("--pdf", metavar="FILE", default=None, help="write a PDF")
    parser.add_argument("--gm-copy", action="store_true",
                        help="everything, hidden information included (else the players' "
                             "copy: what the session's visibility lets them see)")
    parser.add_argument("--db", metavar="URL", default=None,
                        help="the database (default: $CARWARS_DB, else the app's own file)")
    return parser


def _run(options: argparse.Namespace) -> int:
    if options.html is None and options.pdf is None:
        return refuse(PROG, "name the output: --html FILE and/or --pdf FILE")
    database = open_database(resolve_url(options.db, os.environ))
    try:
        try:
            info = find_session(database, options.session)
            report = session_report(database, info, gm_copy=options.gm_copy)
        except ReportError as error:
            return refuse(PROG, str(error))
    finally:
        database.close()
    if options.html is not None:
        Path(options.html).write_bytes(report_html(report).encode("utf-8"))
        print(f"wrote {options.html}")
    if options.pdf is not None:

        pages = write_report_pdf(options.pdf, report, standalone=True)
        print(f"wrote {options.pdf} ({pages} page{'s' if pages != 1 else ''})")
    return 0


def report_main(argv: Sequence[str]) -> int:
    options = _parser().parse_args(list(argv))
    return run_command(PROG, lambda: _run(options))
