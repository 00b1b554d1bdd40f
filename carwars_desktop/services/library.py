"""The library's operations: each one returns what it changed and publishes it.

Add, save, rename, duplicate, tag, delete, restore, import: every operation is
one committed write (or, for several designs, one per design, with whatever was
done published even when a later one is refused), and returns a
:class:`LibraryResult` — the designs it wrote and the ids it added, changed or
removed. The service owns the trash: designs deleted during this run can be
restored until :meth:`LibraryService.empty_trash` (the app closing) removes them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from carwars_desktop.services.changes import ChangeBus, Changes, DesignChanges

if TYPE_CHECKING:
    from carwars_desktop.library import ExchangedDesign
    from carwars_desktop.storage import (
        Database,
        DesignEntry,
        DesignRecord,
        ImportChoice,
        Library,
        NewDesign,
        RevisionRecord,
    )
    from carwars_desktop.storage.library import Progress

LEFTOVER_AGE = timedelta(days=1)
"""Designs deleted by a run that ended without closing normally are removed after this."""


@dataclass(frozen=True)
class LibraryResult:
    """What one operation did: the designs it wrote (in the order asked) and the ids."""

    records: tuple[DesignRecord, ...] = ()
    changes: DesignChanges = field(default_factory=DesignChanges)

    @property
    def record(self) -> DesignRecord:
        """The one design written (an operation on one design)."""
        return self.records[0]


class Trash:
    """The designs deleted during this run (restorable), and the last ones deleted."""

    def __init__(self) -> None:
        self.this_run: list[int] = []
        self.last: list[int] = []

    def put(self, ids: Sequence[int]) -> None:
        self.this_run += [i for i in ids if i not in self.this_run]
        self.last = list(ids)

    def take(self, ids: Iterable[int]) -> None:
        gone = set(ids)
        self.this_run = [i for i in self.this_run if i not in gone]
        self.last = [i for i in self.last if i not in gone]


class LibraryService:
    """See the module docstring. Reads go straight to the stored library."""

    def __init__(self, bus: ChangeBus | None = None) -> None:
        self.bus = bus if bus is not None else ChangeBus()
        self.database: Database | None = None
        self.trash = Trash()

    # --- set-up and reading ------------------------------------------------------------------
    def attach(self, database: Database, now: datetime | None = None,
               defer_check: bool = False) -> int | None:
        """Install the catalog (first start), drop old leftovers of deleted designs.

        With ``defer_check``, a library that already holds the catalog (every start but the
        first) is left as it is and ``None`` returned: :meth:`tidy` checks it later, off
        the start-up path. Otherwise returns how many catalog designs were added.
        """
        self.database = database
        library = database.library
        if defer_check and library.has_catalog():
            return None
        added = library.install_catalog()
        library.purge(deleted_before=(now or datetime.now(UTC)) - LEFTOVER_AGE)
        return added

    def tidy(self, database: Database, now: datetime | None = None) -> int:
        """Bring the catalog up to date with the rules and drop old leftovers; how many
        designs changed (safe on a worker thread: the lists are refreshed after)."""
        library = database.library
        return (library.update_catalog()
                + library.purge(deleted_before=(now or datetime.now(UTC)) - LEFTOVER_AGE))

    @property
    def store(self) -> Library:
        if self.database is None:
            raise RuntimeError("the database is not open yet")
        return self.database.library

    def entries(self, ruleset_id: str | None = None, deleted: bool = False,
                ids: Iterable[int] | None = None) -> list[DesignEntry]:
        return self.store.entries(ruleset_id, deleted=deleted, ids=ids)

    def get(self, design_id: int) -> DesignRecord:
        return self.store.get(design_id)

    def data_size(self, design_id: int) -> int:
        return self.store.data_size(design_id)

    def own_names(self, ruleset_id: str, kind: str) -> dict[str, int]:
        return self.store.own_names(ruleset_id, kind)

    def taken_names(self, ruleset_id: str, kind: str) -> set[str]:
        return self.store.taken_names(ruleset_id, kind)

    def revisions(self, design_id: int) -> list[RevisionRecord]:
        return self.store.revisions(design_id)

    def revision(self, design_id: int, number: int) -> RevisionRecord:
        return self.store.revision(design_id, number)

    def exported(self, design_ids: Sequence[int],
                 progress: Progress | None = None) -> list[ExchangedDesign]:
        return self.store.exported(design_ids, progress)

    # --- publishing ----------------------------------------------------------------------------
    def _done(self, records: Sequence[DesignRecord], initiator: object, *,
              added: Iterable[int] = (), changed: Iterable[int] = (),
              removed: Iterable[int] = ()) -> LibraryResult:
        changes = DesignChanges.of(added, changed, removed)
        if changes:
            self.bus.publish(Changes(initiator, designs=changes))
        return LibraryResult(tuple(records), changes)

    # --- writing -------------------------------------------------------------------------------
    def add(self, new: NewDesign, initiator: object = None) -> LibraryResult:
        return self.added(self.store.add(new), initiator)

    def added(self, record: DesignRecord, initiator: object = None) -> LibraryResult:
        """Publish a design added straight to :attr:`store` (the Workshop writes the copy of
        a huge design on a worker, and publishes it back on the GUI thread)."""
        return self._done([record], initiator, added=[record.id])

    def new_design(self, ruleset_id: str, kind: str, initiator: object = None) -> LibraryResult:
        """A new design of ``ruleset_id``/``kind`` under a name none of the GM's has."""
        from carwars_desktop.library.templates import new_design, renamed
        from carwars_desktop.storage import NewDesign

        taken = self.own_names(ruleset_id, kind)
        design = new_design(ruleset_id, kind)
        name = design.name
        number = 2
        while name in taken:
            name = f"{design.name} {number}"
            number += 1
        return self.add(NewDesign(ruleset_id, renamed(design, name).to_json(), kind), initiator)

    def save(self, design_id: int, data: dict[str, Any],
             initiator: object = None, expected_revision: int | None = None) -> LibraryResult:
        """A new revision (legal or a draft); the unsaved edits are cleared.

        With ``expected_revision``, raises ``DesignConflictError`` (and writes nothing)
        when another copy of the app saved the design since that revision.
        """
        record = self.store.save(design_id, data, expected_revision=expected_revision)
        return self._done([record], initiator, changed=[design_id])

    def wrote(self, design_id: int, initiator: object = None,
              record: DesignRecord | None = None) -> LibraryResult:
        """Publish a write made straight to :attr:`store` (the Workshop writes a huge
        design's edits on a worker, and publishes them back on the GUI thread)."""
        return self._done([] if record is None else [record], initiator, changed=[design_id])

    def set_working(self, design_id: int, data: dict[str, Any] | None,
                    initiator: object = None,
                    expected_revision: int | None = None) -> LibraryResult:
        """Commit the Workshop's unsaved edits (``None``: there are none); a conflict as
        in :meth:`save`."""
        self.store.set_working(design_id, data, expected_revision=expected_revision)
        return self._done([], initiator, changed=[design_id])

    def rename(self, design_id: int, name: str, initiator: object = None) -> LibraryResult:
        return self._done([self.store.rename(design_id, name)], initiator, changed=[design_id])

    def set_tags(self, design_ids: Sequence[int], tags: Iterable[str],
                 initiator: object = None) -> LibraryResult:
        """The same tags on every design given; those tagged before a refusal stay tagged
        (and are published) before the refusal is raised."""
        clean = tuple(tags)
        records: list[DesignRecord] = []
        try:
            for design_id in design_ids:
                records.append(self.store.set_tags(design_id, clean))
        finally:
            result = self._done(records, initiator, changed=[r.id for r in records])
        return result

    def duplicate(self, design_id: int, initiator: object = None) -> LibraryResult:
        """A copy of the GM's own (a catalog design keeps its name when it is free)."""
        copy = self.store.duplicate(design_id)
        return self._done([copy], initiator, added=[copy.id])

    def go_back(self, design_id: int, number: int, initiator: object = None) -> LibraryResult:
        return self._done([self.store.go_back(design_id, number)], initiator,
                          changed=[design_id])

    def import_designs(self, choices: Sequence[ImportChoice], initiator: object = None,
                       progress: Progress | None = None) -> LibraryResult:
        """All the chosen designs in one transaction (replaced ones are *changed*)."""
        return self.imported(choices, self.store.import_designs(choices, progress), initiator)

    def imported(self, choices: Sequence[ImportChoice], records: Sequence[DesignRecord],
                 initiator: object = None) -> LibraryResult:
        """Publish an import the store wrote elsewhere (on a worker thread, with progress):
        the bus is told on the caller's thread."""
        records = list(records)
        replaced = {c.replace_id for c in choices if c.replace_id is not None}
        return self._done(records, initiator,
                          added=[r.id for r in records if r.id not in replaced],
                          changed=[r.id for r in records if r.id in replaced])

    # --- the trash -----------------------------------------------------------------------------
    def delete(self, design_ids: Sequence[int], initiator: object = None) -> LibraryResult:
        """Into the trash: hidden from the lists, restorable until the app closes."""
        records: list[DesignRecord] = []
        try:
            for design_id in design_ids:
                records.append(self.store.delete(design_id))
        finally:
            done = [r.id for r in records]
            if done:
                self.trash.put(done)
            result = self._done(records, initiator, removed=done)
        return result

    def restore(self, design_ids: Sequence[int], initiator: object = None) -> LibraryResult:
        """Back from the trash into the lists."""
        records = [self.store.restore(design_id) for design_id in design_ids]
        self.trash.take(design_ids)
        return self._done(records, initiator, added=[r.id for r in records])

    def restore_last_deleted(self, initiator: object = None) -> LibraryResult | None:
        """Undo the last delete (None when there is nothing to restore)."""
        if not self.trash.last:
            return None
        return self.restore(list(self.trash.last), initiator)

    def discard_new(self, design_id: int, initiator: object = None) -> LibraryResult:
        """Remove for good a design New made and nobody touched (New then Close)."""
        record = self.store.delete(design_id)
        self.store.purge([design_id])
        return self._done([record], initiator, removed=[design_id])

    def empty_trash(self, initiator: object = None) -> int:
        """Remove for good what this run deleted (the app is closing); how many were."""
        if self.database is None or not self.trash.this_run:
            return 0
        ids = list(self.trash.this_run)
        removed = self.store.purge(ids)
        self.trash = Trash()
        self._done([], initiator, removed=ids)
        return removed
