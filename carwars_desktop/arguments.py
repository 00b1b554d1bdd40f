"""The command lines' argument parser: argparse, which never echoes a database password.

argparse quotes what it could not place ("unrecognized arguments: postgresql://ann:pw@…"),
and a misplaced ``--db URL`` holds the club's password. :class:`ArgumentParser` hides the
password of every URL in its error messages. Standard library only (``--version`` and the
command lines start fast).
"""

from __future__ import annotations

import argparse
import re
from typing import NoReturn

_URL_PASSWORD = re.compile(r"(?P<head>[A-Za-z][\w+.-]*://[^\s:/?#@]*):\S*@")


def hide_passwords(text: str) -> str:
    """``text`` with the password of each ``scheme://user:password@host`` as ``***``."""
    return _URL_PASSWORD.sub(r"\g<head>:***@", text)


class ArgumentParser(argparse.ArgumentParser):
    """argparse's, its error messages without a URL's password."""

    def error(self, message: str) -> NoReturn:
        super().error(hide_passwords(message))
