"""A database URL's password kept out of what the command lines print.

argparse quotes what it could not place ("unrecognized arguments: postgresql://ann:pw@…"),
and a misplaced ``--db URL`` holds the club's password: the command lines' one parser
(:class:`carwars_desktop.cli_support.OneLineParser`) hides it. Standard library only
(``--version`` and the command lines start fast).
"""

from __future__ import annotations

import re

_URL_PASSWORD = re.compile(r"(?P<head>[A-Za-z][\w+.-]*://[^\s:/?#@]*):\S*@")


def hide_passwords(text: str) -> str:
    """``text`` with the password of each ``scheme://user:password@host`` as ``***``."""
    return _URL_PASSWORD.sub(r"\g<head>:***@", text)
