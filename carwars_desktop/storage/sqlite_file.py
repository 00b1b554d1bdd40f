"""What an SQLite file's first bytes and SQLite's own check say about it, without
SQLAlchemy (the first screen reads a file before SQLAlchemy has loaded; the start-up
checks of :mod:`.preflight` make the same checks).

A file is read through :func:`read_only_uri`: a read-only connection that creates
nothing beside the file (``immutable`` when a WAL database has no ``-wal``/``-shm``: no
copy of SQLite has it open), or None when it could be read only by creating one.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

SQLITE_MAGIC = b"SQLite format 3\x00"
HEADER_SIZE = 100
_WAL_FORMAT = 2


def page_size(header: bytes) -> int | None:
    raw = int.from_bytes(header[16:18], "big")
    size = 65536 if raw == 1 else raw
    if size < 512 or size > 65536 or size & (size - 1):
        return None
    return size


def header_page_count(header: bytes) -> int | None:
    """The page count in the header, when SQLite marks it as valid (``version-valid-for``)."""
    if header[92:96] != header[24:28]:
        return None
    pages = int.from_bytes(header[28:32], "big")
    return pages or None


def file_problem(path: Path, header: bytes, size: int) -> str | None:
    """Why the file of ``size`` bytes starting with ``header`` is damaged, or None (a
    file that is not SQLite's at all is left to the caller, as is an empty one)."""
    size_of_page = page_size(header)
    if len(header) < HEADER_SIZE or size_of_page is None:
        return "its header is damaged"
    if size % size_of_page:
        return f"it is {size} bytes long, not a whole number of {size_of_page}-byte pages"
    if not path.with_name(path.name + "-wal").exists():
        pages = header_page_count(header)
        if pages is not None and pages * size_of_page > size:
            return f"it should hold {pages} pages but only {size // size_of_page} are there"
    return None


def quick_check_problems(connection: sqlite3.Connection) -> list[str]:
    """What ``PRAGMA quick_check`` finds wrong (none for a sound file)."""
    return [line.strip()
            for (row,) in connection.execute("PRAGMA quick_check").fetchall()
            for line in str(row).splitlines()
            if line.strip() not in ("ok", "*** in database main ***", "")]


def read_only_uri(path: Path, header: bytes) -> str | None:
    """A URI that reads ``path`` creating no file beside it, or None when none can: a
    WAL database with only one of its ``-wal`` and ``-shm`` files (SQLite would create
    the other)."""
    uri = path.absolute().as_uri() + "?mode=ro"
    wal = path.with_name(path.name + "-wal").exists()
    shm = path.with_name(path.name + "-shm").exists()
    if len(header) > 19 and header[18] == header[19] == _WAL_FORMAT:
        if wal and shm:
            return uri
        if wal or shm or path.with_name(path.name + "-journal").exists():
            return None
        return uri + "&immutable=1"
    return None if wal or shm else uri  # a rollback journal: read-only creates nothing
