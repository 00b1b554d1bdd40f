"""The vehicle library: designs, their saved revisions, the shipped catalog.

Plain frozen values go in and come out (:class:`DesignRecord`, :class:`DesignEntry`,
:class:`RevisionRecord`); every write is one committed transaction. Cost, class
and legality are computed by the rules engines (through :mod:`carwars_desktop.library`)
when a design is written, so listing 10,000 designs reads no design JSON.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    Table,
    delete,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from carwars_desktop.library import (
    VEHICLE,
    CatalogEntry,
    DesignDataError,
    DesignSummary,
    ExchangedDesign,
    InvalidNameError,
    UnknownKindError,
    catalog_entries,
    clean_name,
    clean_tags,
    copy_name,
    design_kind,
    summarize,
    summarize_design,
    unique_name,
)
from carwars_desktop.storage.entries import ENTRY_COLUMNS, DesignEntry, entries_from_rows, tags_of
from carwars_desktop.storage.errors import WriteFailedError
from carwars_desktop.storage.installation import draft_owner
from carwars_desktop.storage.models import (
    WIDE_MAX,
    WIDE_MIN,
    DesignDraftRow,
    DesignRevisionRow,
    DesignRow,
)
from carwars_desktop.storage.shared_queries import DESIGNS_ORDER, LEGACY_DRAFT, LISTED_DESIGNS
from carwars_desktop.storage.writes import write_failure_reason


class DesignNotFoundError(LookupError):
    """No design (or no revision) has that id."""


class InvalidDesignError(ValueError):
    """A design the library refuses to keep (its engine cannot read it, a bad name…)."""


class DesignNameTakenError(InvalidDesignError):
    """Another design of the ruleset and kind has the name (names are unique per ruleset
    and kind, the catalog's too): nothing was changed. ``name`` is the name asked for,
    ``free`` the next free one (``Courier (2)``)."""

    def __init__(self, name: str, free: str) -> None:
        super().__init__(f"another design is already called “{name}”: choose another name, "
                         f"such as “{free}”")
        self.name = name
        self.free = free


class CatalogDesignError(ValueError):
    """A change to a design the rules ship: those are read-only, copy one to change it."""


class LibraryWriteError(WriteFailedError):
    """The database refused a write (the message says why); nothing was changed."""

    def __init__(self, message: str, reason: str = "") -> None:
        super().__init__(message, reason or message)


class DesignConflictError(Exception):
    """Another copy of the app saved the design since this one opened it: nothing was saved.

    ``theirs`` is the design as now saved; the GM chooses to keep theirs, save theirs
    over (as the newest revision, with ``expected_revision=theirs.revision``), or save
    a copy.
    """

    def __init__(self, theirs: DesignRecord, expected: int) -> None:
        super().__init__(f"{theirs.name} was saved elsewhere since you opened it "
                         f"(revision {theirs.revision}, you started from {expected})")
        self.theirs = theirs
        self.expected = expected


@dataclass(frozen=True)
class DesignRecord:
    """A design as stored. ``data`` is its saved JSON (what ``design_from_json`` reads);
    ``working`` the Workshop's unsaved edits, or ``None``."""

    id: int
    ruleset_id: str
    kind: str
    name: str
    tags: tuple[str, ...]
    data: dict[str, Any]
    legal: bool
    problem_count: int
    cost: int | None
    class_value: int | None
    catalog_name: str | None
    created_at: datetime
    updated_at: datetime
    deleted_at: datetime | None
    working: dict[str, Any] | None = None
    revision: int = 0

    @property
    def is_catalog(self) -> bool:
        return self.catalog_name is not None

    @property
    def current(self) -> dict[str, Any]:
        """What the Workshop shows: the unsaved edits if any, else the saved design."""
        return self.working if self.working is not None else self.data


@dataclass(frozen=True)
class NewDesign:
    """A design to add: its ruleset, kind, JSON and tags."""

    ruleset_id: str
    data: Mapping[str, Any]
    kind: str = VEHICLE
    tags: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class RevisionRecord:
    """A saved state of a design; number 1 is the first save."""

    design_id: int
    number: int
    name: str
    data: dict[str, Any]
    saved_at: datetime


@dataclass(frozen=True)
class ImportChoice:
    """One design of an import file and what to do with it: add it (as ``name``, to
    avoid a clash) or replace the design ``replace_id`` (a new revision of it)."""

    design: ExchangedDesign
    replace_id: int | None = None
    name: str | None = None


def _now() -> datetime:
    return datetime.now(UTC)


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)



def _record(row: DesignRow, revision: int = 0, working: str | None = None) -> DesignRecord:
    return DesignRecord(
        id=row.id, ruleset_id=row.ruleset_id, kind=row.kind, name=row.name,
        tags=tags_of(row.tags), data=json.loads(row.data), legal=row.legal,
        problem_count=row.problem_count, cost=row.cost, class_value=row.class_value,
        catalog_name=row.catalog_name, created_at=row.created_at, updated_at=row.updated_at,
        deleted_at=row.deleted_at,
        working=None if working is None else json.loads(working),
        revision=revision)


def _entry_columns(owner: str) -> tuple[ColumnElement[Any], ...]:
    """:data:`ENTRY_COLUMNS`, then whether ``owner`` has unsaved edits of the design."""
    mine = (select(DesignDraftRow.design_id)
            .where(DesignDraftRow.design_id == DesignRow.id,
                   DesignDraftRow.owner.in_((owner, LEGACY_DRAFT))).exists())
    return (*(getattr(DesignRow, name) for name in ENTRY_COLUMNS), mine)


def _summary(ruleset_id: str, kind: str, data: Mapping[str, Any]) -> DesignSummary:
    try:
        summary = summarize(ruleset_id, kind, data)
        clean_name(summary.name)
    except (DesignDataError, UnknownKindError, InvalidNameError) as error:
        raise InvalidDesignError(str(error)) from error
    return _bounded(summary)


def _bounded(summary: DesignSummary) -> DesignSummary:
    """The summary, refused if its cost or class does not fit the library's columns."""
    for what, number in (("cost", summary.cost), ("class", summary.class_value)):
        # One bound on SQLite and PostgreSQL: both columns are 64-bit.
        if number is not None and not WIDE_MIN <= number <= WIDE_MAX:
            digits = int(abs(number).bit_length() * 0.30103) + 1
            raise InvalidDesignError(f"its {what} has about {digits:,} digits: "
                                     "the library keeps at most 19")
    return summary


def _normalized(ruleset_id: str, kind: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """The design as its engine writes it (so stored JSON is always the engine's form)."""
    try:
        return dict(design_kind(ruleset_id, kind).load(data).to_json())
    except (DesignDataError, UnknownKindError) as error:
        raise InvalidDesignError(str(error)) from error


def _summary_of(ruleset_id: str, kind: str, design: object) -> DesignSummary:
    """:func:`_summary` of a design the engine already read."""
    try:
        summary = summarize_design(ruleset_id, kind, design_kind(ruleset_id, kind).own(design))
        clean_name(summary.name)
    except (DesignDataError, UnknownKindError, InvalidNameError, TypeError) as error:
        raise InvalidDesignError(str(error)) from error
    return _bounded(summary)


def _read(ruleset_id: str, kind: str,
          data: Mapping[str, Any]) -> tuple[DesignSummary, dict[str, Any]]:
    """:func:`_summary` and :func:`_normalized` from one read of the engine."""
    try:
        design = design_kind(ruleset_id, kind).load(data)
        summary = summarize_design(ruleset_id, kind, design)
        clean_name(summary.name)
    except (DesignDataError, UnknownKindError, InvalidNameError) as error:
        raise InvalidDesignError(str(error)) from error
    return _bounded(summary), dict(design.to_json())


def _apply_summary(row: DesignRow, summary: DesignSummary) -> None:
    row.name = clean_name(summary.name)
    row.legal = summary.legal
    row.problem_count = len(summary.problems)
    row.cost = summary.cost
    row.class_value = summary.class_value


_DESIGNS: Table = DesignRow.__table__  # type: ignore[assignment]
_REVISIONS: Table = DesignRevisionRow.__table__  # type: ignore[assignment]

PROGRESS_EVERY = 500
"""Long operations report their progress (and write their batches) every 500 designs."""
Progress = Callable[[int, int], None]
"""``progress(done, total)``; raising from it stops the operation (nothing written)."""


def _insert_many(connection: Connection, table: Table, rows: list[dict[str, Any]]) -> None:
    """``connection.execute(insert(table), rows)`` on SQLite, each column's value made
    ready for the database by its type once per distinct value (the batch's timestamps
    are one value) rather than once per row and column: the rows go to the driver's
    ``executemany`` as they are."""
    dialect = connection.dialect
    names = list(rows[0])
    processors = [table.c[name].type.dialect_impl(dialect).bind_processor(dialect)
                  for name in names]
    quote = dialect.identifier_preparer.quote
    statement = (f"INSERT INTO {quote(table.name)} ({', '.join(quote(n) for n in names)}) "
                 f"VALUES ({', '.join('?' for _ in names)})")
    ready: list[dict[Any, Any]] = [{} for _ in names]

    def value(column: int, raw: Any) -> Any:
        process = processors[column]
        if process is None or raw is None:
            return raw
        try:
            key = (type(raw), raw)
            known = ready[column].get(key, _NOTHING)
        except TypeError:  # not hashable: made ready each time
            return process(raw)
        if known is _NOTHING:
            known = ready[column][key] = process(raw)
        return known

    connection.exec_driver_sql(statement, [
        tuple(value(column, row[name]) for column, name in enumerate(names)) for row in rows])


_NOTHING = object()


def _insert_designs(connection: Connection, rows: list[dict[str, Any]]) -> list[int]:
    """INSERT the design rows (one batch, in a write transaction); their ids in order.

    Where the database says which id went to which row of one multi-row INSERT
    (PostgreSQL), that is asked (RETURNING, sorted). SQLite cannot say it, and SQLAlchemy
    then falls back to one INSERT per row; there the rows go in as one ``executemany``
    and their ids are the batch's last ones: the transaction holds SQLite's write lock
    from its first write, and SQLite numbers new rows above every id in the table. The
    names read back are checked against the batch's all the same.
    """
    if connection.dialect.name != "sqlite":
        return list(connection.execute(
            insert(_DESIGNS).returning(_DESIGNS.c.id, sort_by_parameter_order=True),
            rows).scalars().all())
    _insert_many(connection, _DESIGNS, rows)
    written = list(reversed(connection.execute(
        select(_DESIGNS.c.id, _DESIGNS.c.name).order_by(_DESIGNS.c.id.desc())
        .limit(len(rows))).all()))
    if [name for _, name in written] != [row["name"] for row in rows]:
        reason = "the imported designs were not numbered in order"
        raise LibraryWriteError(f"The library could not be written (nothing was changed): "
                                f"{reason}", reason)
    return [design_id for design_id, _ in written]


class Library:
    """Add, list, save, rename, tag, duplicate, delete and restore designs.

    Unsaved Workshop edits (drafts) are per copy of the app: ``owner`` (this installation
    and user, :func:`~carwars_desktop.storage.installation.draft_owner`, unless given)
    reads and writes its own only; a legacy draft (made before migration 0010) is every
    copy's until one edits, saves or discards it. Another copy's save never drops this
    copy's draft (its next edit or save then meets the conflict, as before).
    """

    def __init__(self, sessions: sessionmaker[Session], owner: str | None = None) -> None:
        self._sessions = sessions
        self._owner = owner

    @property
    def owner(self) -> str:
        """Whose drafts this library reads and writes."""
        if self._owner is None:

            self._owner = draft_owner()
        return self._owner

    @owner.setter
    def owner(self, value: str) -> None:
        self._owner = value

    def _drafts(self, session: Session, design_ids: Iterable[int]) -> dict[int, str]:
        """This copy's drafts of those designs (its own before a legacy one)."""
        wanted = list(design_ids)
        found: dict[int, str] = {}
        for start in range(0, len(wanted), PROGRESS_EVERY):
            rows = session.execute(
                select(DesignDraftRow.design_id, DesignDraftRow.owner, DesignDraftRow.data)
                .where(DesignDraftRow.design_id.in_(wanted[start:start + PROGRESS_EVERY]),
                       DesignDraftRow.owner.in_((self.owner, LEGACY_DRAFT)))).all()
            for design_id, owner, data in rows:
                if owner != LEGACY_DRAFT or design_id not in found:
                    found[design_id] = data
        return found

    def _draft_rows(self, session: Session, design_id: int) -> list[DesignDraftRow]:
        """This copy's draft rows of the design (its own and a legacy one)."""
        return list(session.scalars(select(DesignDraftRow).where(
            DesignDraftRow.design_id == design_id,
            DesignDraftRow.owner.in_((self.owner, LEGACY_DRAFT)))))

    def _set_draft(self, session: Session, row: DesignRow, text: str | None) -> None:
        """This copy's draft of ``row`` becomes ``text`` (None: no draft); a legacy draft
        is taken over (or dropped) with it. Other copies' drafts are left as they are."""
        for draft in self._draft_rows(session, row.id):
            session.delete(draft)
        session.flush()
        if text is not None and text != row.data:
            session.add(DesignDraftRow(design_id=row.id, owner=self.owner, data=text,
                                       updated_at=_now()))

    # --- reading -----------------------------------------------------------------------
    def all(self, ruleset_id: str | None = None, kind: str | None = VEHICLE) -> list[DesignRecord]:
        """Every design not deleted (catalog included), by name; ``kind=None``: every kind."""
        query = select(DesignRow).where(DesignRow.deleted_at.is_(None))
        if ruleset_id is not None:
            query = query.where(DesignRow.ruleset_id == ruleset_id)
        if kind is not None:
            query = query.where(DesignRow.kind == kind)
        query = query.order_by(func.lower(DesignRow.name), DesignRow.id)
        with self._sessions() as session:
            rows = list(session.scalars(query))
            drafts = self._drafts(session, (row.id for row in rows))
            return [_record(row, working=drafts.get(row.id)) for row in rows]

    def entries(self, ruleset_id: str | None = None, deleted: bool = False,
                ids: Iterable[int] | None = None) -> list[DesignEntry]:
        """The list view of every design (or of the deleted ones), without design JSON;
        ``ids``: only those designs (the rows a change named)."""
        query = select(*_entry_columns(self.owner)).where(
            DesignRow.deleted_at.is_not(None) if deleted else text(LISTED_DESIGNS))
        if ruleset_id is not None:
            query = query.where(DesignRow.ruleset_id == ruleset_id)
        if ids is not None:
            wanted = list(ids)
            if not wanted:
                return []
            query = query.where(DesignRow.id.in_(wanted))
        query = query.order_by(text(DESIGNS_ORDER))
        with self._sessions() as session:
            rows = session.connection().execute(query).all()
        return entries_from_rows(rows)

    def get(self, design_id: int) -> DesignRecord:
        """The design (deleted or not) with its latest revision number."""
        with self._sessions() as session:
            row = self._row(session, design_id)
            return _record(row, self._last_revision(session, design_id),
                           self._drafts(session, [design_id]).get(design_id))

    def data_size(self, design_id: int) -> int:
        """How long the design's stored JSON is, its unsaved edits included (characters),
        without reading it: whether :meth:`get` is quick or worth a worker."""
        drafts = (select(func.coalesce(func.sum(func.length(DesignDraftRow.data)), 0))
                  .where(DesignDraftRow.design_id == design_id,
                         DesignDraftRow.owner.in_((self.owner, LEGACY_DRAFT)))
                  .scalar_subquery())
        query = select(func.coalesce(func.length(DesignRow.data), 0) + drafts
                       ).where(DesignRow.id == design_id)
        with self._sessions() as session:
            return int(session.scalar(query) or 0)

    def count(self) -> int:
        with self._sessions() as session:
            return session.scalar(select(func.count()).select_from(DesignRow)
                                  .where(DesignRow.deleted_at.is_(None))) or 0

    def own_names(self, ruleset_id: str, kind: str = VEHICLE) -> dict[str, int]:
        """The names of the GM's own designs (not deleted, not catalog) and their ids."""
        query = (select(DesignRow.name, DesignRow.id)
                 .where(DesignRow.ruleset_id == ruleset_id, DesignRow.kind == kind,
                        DesignRow.deleted_at.is_(None), DesignRow.catalog_name.is_(None))
                 .order_by(DesignRow.id))
        with self._sessions() as session:
            return {name: design_id for name, design_id in session.execute(query)}

    def taken_names(self, ruleset_id: str, kind: str = VEHICLE) -> set[str]:
        """Every name a new design of ``ruleset_id``/``kind`` may not take: the GM's own
        designs' and the catalog's (names are unique per ruleset and kind)."""
        query = (select(DesignRow.name)
                 .where(DesignRow.ruleset_id == ruleset_id, DesignRow.kind == kind,
                        DesignRow.deleted_at.is_(None)))
        with self._sessions() as session:
            return set(session.scalars(query))

    def revisions(self, design_id: int) -> list[RevisionRecord]:
        """Every saved revision of a design, newest first."""
        with self._sessions() as session:
            self._row(session, design_id)
            rows = session.scalars(select(DesignRevisionRow)
                                   .where(DesignRevisionRow.design_id == design_id)
                                   .order_by(DesignRevisionRow.number.desc())).all()
            return [RevisionRecord(r.design_id, r.number, r.name, json.loads(r.data), r.saved_at)
                    for r in rows]

    def revision(self, design_id: int, number: int) -> RevisionRecord:
        with self._sessions() as session:
            row = session.scalars(select(DesignRevisionRow).where(
                DesignRevisionRow.design_id == design_id,
                DesignRevisionRow.number == number)).first()
            if row is None:
                raise DesignNotFoundError(f"design {design_id} has no revision {number}")
            return RevisionRecord(row.design_id, row.number, row.name, json.loads(row.data),
                                  row.saved_at)

    # --- writing -----------------------------------------------------------------------
    def add(self, new: NewDesign) -> DesignRecord:
        """Keep a new design (revision 1), legal or a draft."""
        return self.add_many([new])[0]

    def add_many(self, designs: Sequence[NewDesign]) -> list[DesignRecord]:
        """Keep several new designs in one transaction (all or none)."""
        prepared = [(new, _summary(new.ruleset_id, new.kind, new.data),
                     _normalized(new.ruleset_id, new.kind, new.data), self._clean_tags(new.tags))
                    for new in designs]
        now = _now()
        with self._write() as session:
            rows: list[DesignRow] = []
            for new, summary, data, tags in prepared:
                row = DesignRow(ruleset_id=new.ruleset_id, kind=new.kind, tags=_dumps(tags),
                                data=_dumps(data), working_data=None, catalog_name=None,
                                created_at=now, updated_at=now, deleted_at=None)
                _apply_summary(row, summary)
                session.add(row)
                rows.append(row)
            session.flush()
            for row in rows:
                self._add_revision(session, row, now)
            return [_record(row, 1) for row in rows]

    def save(self, design_id: int, data: Mapping[str, Any],
             expected_revision: int | None = None) -> DesignRecord:
        """Save ``data`` as the design's new revision; unsaved edits are cleared.

        With ``expected_revision`` (the revision the edit started from) the save is
        refused if another copy of the app saved the design since: optimistic
        concurrency, never a silent overwrite.

        Raises:
            DesignConflictError: the design's last revision is not ``expected_revision``.
        """
        with self._write() as session:
            row = self._unconflicted_row(session, design_id, expected_revision)
            return self._save_row(session, row, data)

    def _unconflicted_row(self, session: Session, design_id: int,
                          expected_revision: int | None) -> DesignRow:
        """The user's design row to write, once no other copy of the app has saved the
        design since ``expected_revision`` (None: not checked)."""
        if expected_revision is not None:
            conflict = self._conflict(session, design_id, expected_revision)
            if conflict is not None:
                raise DesignConflictError(conflict, expected_revision)
        return self._own_row(session, design_id)

    def _conflict(self, session: Session, design_id: int,
                  expected_revision: int) -> DesignRecord | None:
        """The design as saved now, if its last revision is not ``expected_revision``."""
        # Take the write lock first (a row lock on PostgreSQL, the file's on SQLite), so
        # the revision read next is the newest committed one.
        session.execute(update(DesignRow).where(DesignRow.id == design_id)
                        .values(id=DesignRow.id)
                        .execution_options(synchronize_session=False))
        row = self._own_row(session, design_id)
        current = self._last_revision(session, design_id)
        return None if current == expected_revision else _record(row, current)

    def set_working(self, design_id: int, data: Mapping[str, Any] | None,
                    expected_revision: int | None = None) -> None:
        """Commit the Workshop's unsaved edits (``None``: there are none).

        With ``expected_revision`` they are refused once another copy of the app saved
        the design since (its save would otherwise be edited over without a word).

        Raises:
            DesignConflictError: the design's last revision is not ``expected_revision``.
        """
        text = None
        with self._write() as session:
            row = self._unconflicted_row(session, design_id, expected_revision)
            if data is not None:
                text = _dumps(_normalized(row.ruleset_id, row.kind, data))
            self._set_draft(session, row, text)

    def rename(self, design_id: int, name: str) -> DesignRecord:
        """A new revision with the new name (unsaved edits are renamed too)."""
        try:
            name = clean_name(name)
        except InvalidNameError as error:
            raise InvalidDesignError(str(error)) from error
        with self._write() as session:
            self._hold_names(session, design_id)
            row = self._own_row(session, design_id)
            taken = self._names_in_use(session, row.ruleset_id, row.kind, but=design_id)
            if name.casefold() in {n.casefold() for n in taken}:
                raise DesignNameTakenError(name, _free_name(name, taken))
            every = session.scalars(select(DesignDraftRow)
                                    .where(DesignDraftRow.design_id == design_id)).all()
            for draft in every:  # every copy's draft takes the new name
                working = json.loads(draft.data)
                working["name"] = name
                draft.data = _dumps(_normalized(row.ruleset_id, row.kind, working))
            data = json.loads(row.data)
            data["name"] = name
            return self._save_row(session, row, data, keep_working=True)

    def set_tags(self, design_id: int, tags: Iterable[str]) -> DesignRecord:
        """Replace a design's tags (catalog designs may be tagged too)."""
        clean = self._clean_tags(tags)
        with self._write() as session:
            row = self._row(session, design_id)
            row.tags = _dumps(clean)
            session.flush()
            return _record(row, self._last_revision(session, design_id))

    def duplicate(self, design_id: int) -> DesignRecord:
        """A new design of the GM's own, copied from any design's saved state.

        The copy is called ``… (copy)`` (then ``… (copy) (2)``…), a catalog design's too:
        no two designs of a ruleset and kind share a name, even when two copies of the
        app duplicate at once (the name is chosen under the library's name lock).
        """
        with self._write() as session:
            source = self._hold_names(session, design_id)
            taken = self._names_in_use(session, source.ruleset_id, source.kind)
            name = copy_name(source.name, _FoldedNames(taken | {source.name}))
            data = json.loads(source.data)
            data["name"] = name
            normalized = _normalized(source.ruleset_id, source.kind, data)
            now = _now()
            row = DesignRow(ruleset_id=source.ruleset_id, kind=source.kind, tags=source.tags,
                            data=_dumps(normalized), working_data=None, catalog_name=None,
                            created_at=now, updated_at=now, deleted_at=None)
            _apply_summary(row, _summary(source.ruleset_id, source.kind, normalized))
            session.add(row)
            session.flush()
            self._add_revision(session, row, now)
            return _record(row, 1)

    def delete(self, design_id: int) -> DesignRecord:
        """Set a design aside: hidden from the lists, restorable until :meth:`purge`."""
        with self._write() as session:
            row = self._own_row(session, design_id, allow_deleted=True)
            if row.deleted_at is None:
                row.deleted_at = _now()
            session.flush()
            return _record(row, self._last_revision(session, design_id))

    def restore(self, design_id: int) -> DesignRecord:
        with self._write() as session:
            row = self._row(session, design_id)
            row.deleted_at = None
            session.flush()
            return _record(row, self._last_revision(session, design_id))

    def purge(self, design_ids: Iterable[int] | None = None,
              deleted_before: datetime | None = None) -> int:
        """Remove deleted designs for good (those given, or deleted before a time, or all).

        Designs not deleted are never removed. Returns how many were.
        """
        conditions: list[ColumnElement[bool]] = [DesignRow.deleted_at.is_not(None)]
        if design_ids is not None:
            ids = list(design_ids)
            if not ids:
                return 0
            conditions.append(DesignRow.id.in_(ids))
        if deleted_before is not None:
            conditions.append(DesignRow.deleted_at < deleted_before)
        with self._write() as session:
            doomed = session.scalars(select(DesignRow.id).where(*conditions)).all()
            if not doomed:
                return 0
            session.execute(delete(DesignRevisionRow)
                            .where(DesignRevisionRow.design_id.in_(doomed)))
            session.execute(delete(DesignDraftRow)
                            .where(DesignDraftRow.design_id.in_(doomed)))
            session.execute(delete(DesignRow).where(DesignRow.id.in_(doomed)))
            return len(doomed)

    def go_back(self, design_id: int, number: int) -> DesignRecord:
        """Make revision ``number`` current again, as a new revision (nothing is lost)."""
        revision = self.revision(design_id, number)
        return self.save(design_id, revision.data)

    # --- catalog -----------------------------------------------------------------------
    def install_catalog(self, entries: Sequence[CatalogEntry] | None = None) -> int:
        """Put the designs the rules ship into the library (read-only, once each).

        Entries already there are brought up to date; the GM's tags are kept.
        Returns how many were added. Safe when two apps share the database.
        """
        return self._sync_catalog(entries)[0]

    def update_catalog(self) -> int:
        """:meth:`install_catalog`, returning how many designs it added or brought up to date."""
        return sum(self._sync_catalog(None))

    def has_catalog(self) -> bool:
        """Whether any catalog design is installed (one indexed row read)."""
        with self._sessions() as session:
            return session.scalar(select(DesignRow.id).where(DesignRow.catalog_name.is_not(None))
                                  .limit(1)) is not None

    def _sync_catalog(self, entries: Sequence[CatalogEntry] | None) -> tuple[int, int]:
        """(added, updated) catalog designs; see :meth:`install_catalog`."""
        wanted = catalog_entries() if entries is None else entries
        with self._sessions() as session:
            present = {(r.ruleset_id, r.kind, r.catalog_name): (r.id, r.data) for r in
                       session.execute(select(DesignRow.ruleset_id, DesignRow.kind,
                                              DesignRow.catalog_name, DesignRow.id,
                                              DesignRow.data)
                                       .where(DesignRow.catalog_name.is_not(None)))}
        added = updated = 0
        now = _now()
        for entry in wanted:
            data = _normalized(entry.ruleset_id, entry.kind, entry.data)
            text = _dumps(data)
            known = present.get((entry.ruleset_id, entry.kind, entry.name))
            if known is not None and known[1] == text:
                continue
            summary = _summary(entry.ruleset_id, entry.kind, data)
            try:
                with self._write() as session:
                    if known is None:
                        row = DesignRow(ruleset_id=entry.ruleset_id, kind=entry.kind,
                                        tags=_dumps([]), data=text, working_data=None,
                                        catalog_name=entry.name, created_at=now,
                                        updated_at=now, deleted_at=None)
                        _apply_summary(row, summary)
                        session.add(row)
                        session.flush()
                        self._add_revision(session, row, now)
                        added += 1
                    else:
                        row = self._row(session, known[0])
                        self._save_row(session, row, data)
                        updated += 1
            except LibraryWriteError as error:
                if not isinstance(error.__cause__, IntegrityError):
                    raise
                # Another app sharing the database installed it at the same moment.
        return added, updated

    # --- import and export --------------------------------------------------------------
    def import_designs(self, choices: Sequence[ImportChoice],
                       progress: Progress | None = None) -> list[DesignRecord]:
        """Add or replace every chosen design in one transaction: all of them, or none.

        ``progress(done, total)`` is called as the designs are checked and written; an
        exception it raises (the GM's Cancel) rolls everything back. Each design is read
        by its engine once (its summary and stored form from the same read); new designs
        are written with one multi-row INSERT per batch (designs, then their revision 1),
        no per-design query: 20,000 in seconds.
        """
        now = _now()
        total = len(choices)
        prepared = []
        for number, choice in enumerate(choices, 1):
            design = choice.design
            data = dict(design.data)
            if choice.name is not None:
                data["name"] = choice.name
            engine_design = design.design
            if choice.name is None and engine_design is not None:  # read with the file
                summary = _summary_of(design.ruleset_id, design.kind, engine_design)
                normalized = data
            else:
                summary, normalized = _read(design.ruleset_id, design.kind, data)
            prepared.append((choice, summary, normalized, self._clean_tags(design.tags)))
            if progress is not None and number % PROGRESS_EVERY == 0:
                progress(number, 2 * total)
        records: list[DesignRecord | None] = [None] * total
        tags_of = [tags for _, _, _, tags in prepared]
        with self._write() as session:
            new: list[tuple[int, dict[str, Any], dict[str, Any]]] = []
            for number, (choice, summary, normalized, tags) in enumerate(prepared):
                design = choice.design
                if choice.replace_id is not None:
                    row = self._own_row(session, choice.replace_id)
                    if (row.ruleset_id, row.kind) != (design.ruleset_id, design.kind):
                        raise InvalidDesignError(f"{row.name} is not a {design.kind} of "
                                                 f"{design.ruleset_id}: it cannot be replaced "
                                                 "by the imported design")
                    row.tags = _dumps(tags)
                    records[number] = self._save_row(session, row, normalized)
                    continue
                values: dict[str, Any] = {"ruleset_id": design.ruleset_id, "kind": design.kind,
                    "name": clean_name(summary.name), "tags": _dumps(tags),
                    "data": _dumps(normalized), "working_data": None, "legal": summary.legal,
                    "problem_count": len(summary.problems), "cost": summary.cost,
                    "class_value": summary.class_value, "catalog_name": None,
                    "created_at": now, "updated_at": now, "deleted_at": None}
                new.append((number, values, normalized))
            for start in range(0, len(new), PROGRESS_EVERY):
                batch = new[start:start + PROGRESS_EVERY]
                connection = session.connection()
                ids = _insert_designs(connection, [values for _, values, _ in batch])
                revisions = [{"design_id": design_id, "number": 1, "name": values["name"],
                              "data": values["data"], "saved_at": now}
                             for design_id, (_, values, _) in zip(ids, batch, strict=True)]
                if connection.dialect.name == "sqlite":
                    _insert_many(connection, _REVISIONS, revisions)
                else:
                    connection.execute(insert(_REVISIONS), revisions)
                for design_id, (number, values, normalized) in zip(ids, batch, strict=True):
                    records[number] = DesignRecord(
                        id=design_id, ruleset_id=values["ruleset_id"], kind=values["kind"],
                        name=values["name"], tags=tags_of[number], data=normalized,
                        legal=values["legal"], problem_count=values["problem_count"],
                        cost=values["cost"], class_value=values["class_value"],
                        catalog_name=None, created_at=now, updated_at=now, deleted_at=None,
                        revision=1)
                if progress is not None:
                    progress(total + start + len(batch), 2 * total)
        return [record for record in records if record is not None]

    def exported(self, design_ids: Sequence[int],
                 progress: Progress | None = None) -> list[ExchangedDesign]:
        """The saved state of each design, ready for an exchange file, in the order given."""
        found: dict[int, ExchangedDesign] = {}
        wanted = list(dict.fromkeys(design_ids))
        with self._sessions() as session:
            for start in range(0, len(wanted), PROGRESS_EVERY):
                chunk = wanted[start:start + PROGRESS_EVERY]
                for row in session.execute(
                        select(DesignRow.id, DesignRow.ruleset_id, DesignRow.kind,
                               DesignRow.name, DesignRow.data, DesignRow.tags)
                        .where(DesignRow.id.in_(chunk))):
                    found[row.id] = ExchangedDesign(row.ruleset_id, row.kind, row.name,
                                                    json.loads(row.data), tags_of(row.tags))
                if progress is not None:
                    progress(start + len(chunk), len(wanted))
        missing = [design_id for design_id in design_ids if design_id not in found]
        if missing:
            raise DesignNotFoundError(f"no design {missing[0]} in the library")
        return [found[design_id] for design_id in design_ids]

    # --- helpers -----------------------------------------------------------------------
    def _write(self) -> _WriteTransaction:
        return _WriteTransaction(self._sessions)

    @staticmethod
    def _clean_tags(tags: Iterable[str]) -> tuple[str, ...]:
        try:
            return clean_tags(tags)
        except InvalidNameError as error:
            raise InvalidDesignError(str(error)) from error

    @staticmethod
    def _row(session: Session, design_id: int) -> DesignRow:
        row = session.get(DesignRow, design_id)
        if row is None:
            raise DesignNotFoundError(f"no design {design_id} in the library")
        return row

    def _own_row(self, session: Session, design_id: int,
                 allow_deleted: bool = False) -> DesignRow:
        row = self._row(session, design_id)
        if row.catalog_name is not None:
            raise CatalogDesignError(f"{row.name} is shipped with the rules and cannot be "
                                     "changed: copy it into your designs first")
        if row.deleted_at is not None and not allow_deleted:
            raise DesignNotFoundError(f"{row.name} was deleted: restore it first")
        return row

    def _hold_names(self, session: Session, design_id: int) -> DesignRow:
        """Design ``design_id``, its ruleset's and kind's names held until the transaction
        ends, so two writers cannot both take one free name: on SQLite the database's
        write lock, taken before anything is read (a read first would make the later write
        fail when the other writer commits in between); on PostgreSQL a transaction
        advisory lock of the ruleset and kind, before the names are read."""
        postgres = session.get_bind().dialect.name == "postgresql"
        if not postgres:
            session.execute(update(DesignRow).where(DesignRow.id == -1)
                            .values(id=DesignRow.id)
                            .execution_options(synchronize_session=False))
        row = self._row(session, design_id)
        if postgres:
            key = zlib.crc32(f"carwars design names {row.ruleset_id}/{row.kind}".encode())
            session.execute(select(func.pg_advisory_xact_lock(key)))
        return row

    @staticmethod
    def _names_in_use(session: Session, ruleset_id: str, kind: str,
                      but: int | None = None) -> set[str]:
        """The names designs of ``ruleset_id``/``kind`` have (not deleted; the catalog's
        too), but design ``but``'s."""
        query = select(DesignRow.name).where(DesignRow.ruleset_id == ruleset_id,
                                             DesignRow.kind == kind,
                                             DesignRow.deleted_at.is_(None))
        if but is not None:
            query = query.where(DesignRow.id != but)
        return set(session.scalars(query))

    @staticmethod
    def _last_revision(session: Session, design_id: int) -> int:
        return session.scalar(select(func.max(DesignRevisionRow.number))
                              .where(DesignRevisionRow.design_id == design_id)) or 0

    def _add_revision(self, session: Session, row: DesignRow, when: datetime) -> int:
        number = self._last_revision(session, row.id) + 1
        session.add(DesignRevisionRow(design_id=row.id, number=number, name=row.name,
                                      data=row.data, saved_at=when))
        return number

    def _save_row(self, session: Session, row: DesignRow, data: Mapping[str, Any],
                  keep_working: bool = False) -> DesignRecord:
        normalized = _normalized(row.ruleset_id, row.kind, data)
        summary = _summary(row.ruleset_id, row.kind, normalized)
        now = _now()
        row.data = _dumps(normalized)
        _apply_summary(row, summary)
        row.working_data = None
        mine = self._draft_rows(session, row.id)
        working: str | None = None
        for draft in mine:
            if keep_working and draft.data != row.data and (
                    draft.owner != LEGACY_DRAFT or working is None):
                working = draft.data
        if not keep_working or working is None:
            for draft in mine:  # this copy's edits are saved; other copies' stay theirs
                session.delete(draft)
        row.updated_at = now
        session.flush()
        number = self._add_revision(session, row, now)
        session.flush()
        return _record(row, number, working)


class _FoldedNames:
    """Names compared as the library finds them (``courier`` is ``Courier``)."""

    def __init__(self, names: Iterable[str]) -> None:
        self._folded = {name.casefold() for name in names}

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.casefold() in self._folded

    def __len__(self) -> int:
        return len(self._folded)

    def __iter__(self) -> Iterator[str]:
        return iter(self._folded)


def _free_name(name: str, taken: Iterable[str]) -> str:
    """The first of ``name (2)``, ``name (3)``… no design has (compared case-blind)."""
    return unique_name(name, _FoldedNames(taken))


class _WriteTransaction:
    """``with`` a committed transaction; database failures become :class:`LibraryWriteError`."""

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self._sessions = sessions
        self._session: Session | None = None

    def __enter__(self) -> Session:
        self._session = self._sessions()
        self._session.begin()
        return self._session

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 _trace: object) -> None:
        session = self._session
        assert session is not None
        try:
            if error is None:
                try:
                    session.commit()
                except SQLAlchemyError as failure:
                    session.rollback()
                    raise LibraryWriteError(_reason(failure),
                                            write_failure_reason(failure)) from failure
            else:
                session.rollback()
                if isinstance(error, SQLAlchemyError):
                    raise LibraryWriteError(_reason(error),
                                            write_failure_reason(error)) from error
        finally:
            session.close()


def _reason(error: SQLAlchemyError) -> str:
    reason = write_failure_reason(error)
    return f"The library could not be written (nothing was changed): {reason}"
