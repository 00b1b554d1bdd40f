"""Copies of an SQLite database file, made with SQLite's backup API (consistent even
while the file is open): before a migration upgrades it, and when the GM asks."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from carwars_desktop.storage.errors import DatabaseError


def backup_path_for(path: Path, revision: str) -> Path:
    """``carwars.sqlite3.bak-0002`` beside ``carwars.sqlite3`` (a number added if taken)."""
    candidate = path.with_name(f"{path.name}.bak-{revision}")
    number = 2
    while candidate.exists():
        candidate = path.with_name(f"{path.name}.bak-{revision}-{number}")
        number += 1
    return candidate


def backup_sqlite_file(source: Path, target: Path) -> Path:
    """Copy the database ``source`` into a new file ``target`` (never over an existing one).

    Raises:
        DatabaseError: the copy could not be made (the source is left as it was).
    """
    if target.exists():
        raise DatabaseError(f"Cannot back up to {target}: a file of that name exists already.")
    try:
        with closing(sqlite3.connect(source.resolve().as_uri() + "?mode=ro", uri=True,
                                     timeout=1.0)) as reader, \
                closing(sqlite3.connect(target)) as writer:
            reader.backup(writer)
    except (sqlite3.Error, OSError) as error:
        target.unlink(missing_ok=True)
        raise DatabaseError(f"The backup {target} could not be made: {error}.") from error
    return target
