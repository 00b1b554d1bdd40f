"""What every ``carwars-desktop`` subcommand does at its edges: one line, never a traceback.

A usage error is one line (``carwars-desktop resolve: <reason> (see --help)``), a database
that cannot be opened or a file that cannot be read is one line with its reason (exit
status 2), and a closed pipe (``resolve --list | head -1``) ends quietly with status 0.
See docs/command-line.md.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import NoReturn

from carwars_desktop.arguments import hide_passwords
from carwars_desktop.storage.errors import DatabaseError

EXIT_BAD_INPUT = 2


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr (exit status 2), never
    with a database URL's password."""

    def error(self, message: str) -> NoReturn:
        # argparse quotes what it could not place: a misplaced --db URL holds a password.
        self.exit(EXIT_BAD_INPUT,
                  f"{self.prog}: {hide_passwords(message)} (see {self.prog} --help)\n")


def run_command(prog: str, body: Callable[[], int]) -> int:
    """``body()``'s exit status; a database refused or a file unreadable → its reason on
    one line (exit status 2); a closed standard output → quiet, status 0."""

    try:
        status = body()
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        _quiet_stdout()
        return 0
    except DatabaseError as error:
        return refuse(prog, str(error))
    except OSError as error:
        where = f"{error.filename}: " if error.filename else ""
        name = where if len(where) <= 80 else f"{where[:60]}…: "
        return refuse(prog, f"{name}{error.strerror or error}")


def refuse(prog: str, message: str) -> int:
    """``message`` on one line of stderr after the command's name; the bad-input status."""
    print(f"{prog}: {' '.join(message.split())}", file=sys.stderr)
    return EXIT_BAD_INPUT


def _quiet_stdout() -> None:
    """Point stdout at the null device so that Python's flush at exit writes nowhere."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
