"""Copies of an SQLite database file, made with SQLite's backup API (consistent even
while the file is open): before a migration upgrades it, and when the GM asks."""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from pathlib import Path

from carwars_desktop.storage.errors import DatabaseError

PARTIAL_SUFFIX = ".partial"


def backup_path_for(path: Path, revision: str) -> Path:
    """``carwars.sqlite3.bak-0002`` beside ``carwars.sqlite3`` (a number added if taken)."""
    candidate = path.with_name(f"{path.name}.bak-{revision}")
    number = 2
    while candidate.exists():
        candidate = path.with_name(f"{path.name}.bak-{revision}-{number}")
        number += 1
    return candidate


def partial_path_for(target: Path) -> Path:
    """Where the backup ``target`` is written before it is checked: a name no GM would
    restore (``carwars.sqlite3.bak-0002.partial``)."""
    return target.with_name(f"{target.name}{PARTIAL_SUFFIX}")


def backup_sqlite_file(source: Path, target: Path) -> Path:
    """Copy the database ``source`` into a new file ``target`` (never over an existing one).

    The copy is written under :func:`partial_path_for`'s name (one a kill left there is
    written over), checked with ``PRAGMA integrity_check``, flushed to disk and only then
    given its name: a file under a backup's name is always a whole, sound copy.

    Raises:
        DatabaseError: the copy could not be made or is not sound (the source is left as
            it was, and nothing under the backup's name).
    """
    if target.exists():
        raise DatabaseError(f"Cannot back up to {target}: a file of that name exists already.")
    partial = partial_path_for(target)
    journal = partial.with_name(partial.name + "-journal")
    try:
        journal.unlink(missing_ok=True)  # what a kill left: no transaction of ours to keep
        partial.unlink(missing_ok=True)
        with closing(sqlite3.connect(source.resolve().as_uri() + "?mode=ro", uri=True,
                                     timeout=1.0)) as reader, \
                closing(sqlite3.connect(partial)) as writer:
            reader.backup(writer)
            problems = [str(row) for (row,) in writer.execute("PRAGMA integrity_check")]
        if problems != ["ok"]:
            raise DatabaseError(f"The backup {target} could not be made: its copy is not "
                                f"sound ({'; '.join(problems[:3])}).")
        with partial.open("rb+") as stream:
            os.fsync(stream.fileno())
        os.rename(partial, target)
        _sync_folder(target.parent)
    except (sqlite3.Error, OSError) as error:
        partial.unlink(missing_ok=True)
        raise DatabaseError(f"The backup {target} could not be made: {error}.") from error
    except DatabaseError:
        partial.unlink(missing_ok=True)
        raise
    return target


def _sync_folder(folder: Path) -> None:
    """The new name on disk too (where the platform lets a folder be flushed)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)
