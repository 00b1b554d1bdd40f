"""Where the databases are: the default file, the environment variable, and the SQLite
file a database setting names, worked out without SQLAlchemy (the first screen is read
before it has loaded; :func:`sqlite_path` agrees with :func:`engine.resolve_url`)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import platformdirs

APP_NAME = "carwars-desktop"
APP_AUTHOR = "carwars"
DEFAULT_FILE_NAME = "carwars.sqlite3"
ENV_VAR = "CARWARS_DB"


def default_path() -> Path:
    """``carwars.sqlite3`` in the user's data folder, which is created if needed."""
    folder = Path(platformdirs.user_data_dir(APP_NAME, APP_AUTHOR))
    folder.mkdir(parents=True, exist_ok=True)
    return folder / DEFAULT_FILE_NAME


def absolute(path: str | os.PathLike[str]) -> str:
    return os.path.abspath(os.path.expanduser(os.fspath(path)))


def sqlite_path(cli_value: str | None, env: Mapping[str, str]) -> Path | None:
    """The SQLite file that ``resolve_url(cli_value, env)`` opens; None when the setting
    is anything else (a server's URL, an SQLite URL with options or escapes)."""
    for value in (cli_value, env.get(ENV_VAR)):
        if value is not None and value.strip():
            value = value.strip()
            if "://" not in value:
                return Path(absolute(value))
            prefix = "sqlite:///"
            rest = value[len(prefix):]
            if (not value.startswith(prefix) or not rest or rest == ":memory:"
                    or rest.startswith("file:") or any(c in rest for c in "?%#")):
                return None
            return Path(rest)
    return Path(absolute(default_path()))
