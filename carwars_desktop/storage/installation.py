"""This installation's stable holder id: which session leases are its own.

A session lease (:mod:`carwars_desktop.storage.game_sessions`) names the copy of the app
that plays the session. Its token starts with this installation's id, kept in the app's
data folder (``installation-id``, beside the offline queue) and made once, at the first
lease this installation takes. An installation knows its own leases by that id, never by
the machine's name (two laptops may both be called ``laptop``): a lease of its own whose
copy no longer runs is its to resume.
"""

from __future__ import annotations

import getpass
import os
import re
import secrets
from pathlib import Path

import platformdirs

from carwars_desktop.storage.locations import APP_AUTHOR, APP_NAME

ID_FILE_NAME = "installation-id"
_ID = re.compile(r"[0-9a-f]{24}")

_known: dict[Path, str] = {}


def default_id_path() -> Path:

    return Path(platformdirs.user_data_dir(APP_NAME, APP_AUTHOR)) / ID_FILE_NAME


def installation_id(path: Path | None = None) -> str:
    """The id (24 hex digits) kept in ``path``; a new one is written there if there is none.

    If the data folder cannot be written, the id lives as long as this process: its leases
    then are not resumed by a later start, they lapse (``LEASE_TIMEOUT``) as a crashed
    copy's do.
    """
    path = path or default_id_path()
    known = _known.get(path)
    if known is not None:
        return known
    try:
        text = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        text = ""
    if _ID.fullmatch(text) is None:
        text = _write_new(path)
    _known[path] = text
    return text


def draft_owner(path: Path | None = None) -> str:
    """Whose unsaved Workshop edits a draft is: this installation's id and the user's name
    (two GMs sharing one computer account share their drafts, as they share the files)."""

    try:
        user = getpass.getuser()
    except (OSError, KeyError, ImportError):
        user = ""
    return f"{installation_id(path)}/{user}"[:200]


def _write_new(path: Path) -> str:
    new = secrets.token_hex(12)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # Made at most once: two copies starting together agree on the first one written.
        with open(path, "x", encoding="ascii") as file:
            file.write(new + "\n")
    except FileExistsError:
        try:
            text = path.read_text(encoding="ascii").strip()
        except (OSError, UnicodeDecodeError):
            return new
        if _ID.fullmatch(text) is not None:
            return text
        # A damaged file: replace it (atomically, so no reader sees half an id).
        return _replace(path, new)
    except OSError:
        return new
    return new


def _replace(path: Path, new: str) -> str:
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_text(new + "\n", encoding="ascii")
        os.replace(temporary, path)
    except OSError:
        temporary.unlink(missing_ok=True)
    return new
