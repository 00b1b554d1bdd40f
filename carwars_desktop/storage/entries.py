"""The library list's rows (:class:`DesignEntry`), read by SQL shared by the two readers.

:meth:`Library.entries` reads them through SQLAlchemy; :mod:`first_screen` reads the
same columns with the standard ``sqlite3`` before SQLAlchemy has loaded. Both turn a
row into an entry here, so the two cannot disagree. No SQLAlchemy in this module.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

ENTRY_COLUMNS = ("id", "ruleset_id", "kind", "name", "tags", "legal", "problem_count", "cost",
                 "class_value", "catalog_name", "updated_at", "deleted_at")
"""The ``designs`` columns of an entry, in order; then whether ``working_data`` is set."""


@dataclass(frozen=True)
class DesignEntry:
    """A design as the library list shows it (no design JSON is read for it)."""

    id: int
    ruleset_id: str
    kind: str
    name: str
    tags: tuple[str, ...]
    legal: bool
    problem_count: int
    cost: int | None
    class_value: int | None
    catalog_name: str | None
    updated_at: datetime
    deleted_at: datetime | None
    unsaved: bool

    @property
    def is_catalog(self) -> bool:
        return self.catalog_name is not None


def tags_of(row_tags: str) -> tuple[str, ...]:
    """A design's tags, from their JSON text."""
    loaded = json.loads(row_tags) if row_tags else []
    return tuple(str(tag) for tag in loaded)


def entries_from_rows(rows: Sequence[Sequence[Any]],
                      moment: Callable[[Any], Any] = lambda value: value) -> list[DesignEntry]:
    """Entries from rows of :data:`ENTRY_COLUMNS` then the unsaved flag; ``moment`` reads
    a stored time (SQLAlchemy's rows hold datetimes already)."""
    tags: dict[str, tuple[str, ...]] = {}  # most designs share a few tag lists
    return [DesignEntry(r[0], r[1], r[2], r[3],
                        tags[r[4]] if r[4] in tags else tags.setdefault(r[4], tags_of(r[4])),
                        bool(r[5]), r[6], r[7], r[8], r[9], moment(r[10]),
                        None if r[11] is None else moment(r[11]), bool(r[12]))
            for r in rows]
