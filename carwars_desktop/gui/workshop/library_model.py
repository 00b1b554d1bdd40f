"""The library list: a thin Qt table model over the stored design entries.

Filtering (ruleset, source, search words) and sorting are done here on plain
lists, with one folded text per design prepared in advance, so a keystroke of
search-as-you-type over 10,000 designs costs a few milliseconds. A change to a
few designs (what the change bus names) updates their rows alone:
:meth:`LibraryModel.update_entries` inserts, changes and removes rows by id.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont

from carwars_desktop.gui.record_table_model import ColumnsTableModel
from carwars_desktop.library import (
    DesignDataError,
    class_text,
    cost_text,
    design_kind,
    status_text,
    summarize_design,
)
from carwars_desktop.library.search import fold, haystack, matcher, query_words
from carwars_desktop.rules import ruleset_ids, ruleset_title

if TYPE_CHECKING:
    from carwars_desktop.storage import DesignEntry, DesignRecord

_Index = QModelIndex | QPersistentModelIndex
COLUMNS = ("Name", "Ruleset", "Kind", "Class", "Cost", "Status", "Tags", "Changed")
NAME, RULESET, KIND, CLASS, COST, STATUS, TAGS, CHANGED = range(len(COLUMNS))
ID_ROLE = Qt.ItemDataRole.UserRole
ALL, MINE, CATALOG = "all", "mine", "catalog"
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
DIGEST_STATUS = "Status (digest's defaults)"
"""The Status column's header until the GM picks house rules for it."""
Verdict = tuple[bool, int]
"""A design's verdict as the list shows it: legal, and how many problems."""


def changed_text(when: datetime, now: datetime | None = None) -> str:
    local = when.astimezone()
    today = (now or datetime.now().astimezone()).date()
    if local.date() == today:
        return f"today {local:%H:%M}"
    return f"{local:%d %b %Y}"


def _sort_key(column: int) -> Callable[[DesignEntry], Any]:
    rulesets = {r: n for n, r in enumerate(ruleset_ids())}
    keys: dict[int, Callable[[DesignEntry], Any]] = {
        NAME: lambda e: (fold(e.name), e.id),
        RULESET: lambda e: (rulesets.get(e.ruleset_id, 99), fold(e.name)),
        KIND: lambda e: (e.kind, e.is_catalog, fold(e.name)),
        CLASS: lambda e: (e.class_value is None, rulesets.get(e.ruleset_id, 99),
                          e.class_value or 0, fold(e.name)),
        COST: lambda e: (e.cost is None, e.cost or 0, fold(e.name)),
        STATUS: lambda e: (not e.legal, e.problem_count, fold(e.name)),
        TAGS: lambda e: (", ".join(e.tags), fold(e.name)),
        CHANGED: lambda e: (e.deleted_at or e.updated_at, e.id),
    }
    return keys[column]


class LibraryModel(ColumnsTableModel):
    columns = COLUMNS

    def __init__(self) -> None:
        super().__init__()
        self._entries: list[DesignEntry] = []
        self._index_of: dict[int, int] = {}
        self._haystacks: list[str] = []
        self._order: list[int] = []
        self._rows: list[int] = []
        self._scope: list[int] = []
        self._query = ""
        self._words: tuple[str, ...] = ()
        self._ruleset: str | None = None
        self._source = ALL
        self._sort_column = NAME
        self._sort_order = Qt.SortOrder.AscendingOrder
        self._status_header = DIGEST_STATUS

    def set_status_header(self, text: str) -> None:
        """What the Status column's header says: whose verdict it shows (the digest's
        defaults, or the house-rules profile the GM picked)."""
        if text != self._status_header:
            self._status_header = text
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, STATUS, STATUS)

    @property
    def status_header(self) -> str:
        return self._status_header

    # --- Qt's model interface --------------------------------------------------------------
    def row_total(self) -> int:
        return len(self._rows)

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(COLUMNS):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self._status_header if section == STATUS else COLUMNS[section]
        if role == Qt.ItemDataRole.TextAlignmentRole and section in (CLASS, COST):
            return _RIGHT
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        entry = self._entries[self._rows[index.row()]]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(entry, column)
        if role == ID_ROLE:
            return entry.id
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (CLASS, COST):
            return _RIGHT
        if role == Qt.ItemDataRole.FontRole and entry.is_catalog and column == NAME:
            font = QFont()
            font.setItalic(True)
            return font
        if role == Qt.ItemDataRole.ToolTipRole:
            kind = design_kind(entry.ruleset_id, entry.kind)
            source = "shipped with the rules (read-only)" if entry.is_catalog else "yours"
            return (f"{entry.name} — {kind.ruleset_title} {kind.title.lower()}, {source}; "
                    f"{status_text(entry.legal, entry.problem_count)}"
                    + ("; unsaved edits in the Workshop" if entry.unsaved else ""))
        return None

    @staticmethod
    def _display(entry: DesignEntry, column: int) -> str:
        if column == NAME:
            return entry.name
        if column == RULESET:
            return ruleset_title(entry.ruleset_id)
        if column == KIND:
            title = design_kind(entry.ruleset_id, entry.kind).title
            return f"{title} · catalog" if entry.is_catalog else title
        if column == CLASS:
            return class_text(entry.ruleset_id, entry.kind, entry.class_value)
        if column == COST:
            return cost_text(entry.ruleset_id, entry.kind, entry.cost)
        if column == STATUS:
            return status_text(entry.legal, entry.problem_count) + (
                " · ● unsaved" if entry.unsaved else "")
        if column == TAGS:
            return ", ".join(entry.tags)
        when = entry.deleted_at or entry.updated_at
        return ("deleted " if entry.deleted_at else "") + changed_text(when)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if not 0 <= column < len(COLUMNS):
            return
        self.layoutAboutToBeChanged.emit()
        old = self.persistentIndexList()
        ids = [self._entries[self._rows[i.row()]].id
               if i.isValid() and 0 <= i.row() < len(self._rows) else None for i in old]
        visible = set(self._rows)
        self._sort_column = column
        self._sort_order = order
        self._sort_all()
        self._rescope()
        self._rows = [i for i in self._order if i in visible]
        rows = {self._entries[index].id: row for row, index in enumerate(self._rows)}
        new = [QModelIndex() if design_id is None or design_id not in rows
               else self.index(rows[design_id], index.column())
               for design_id, index in zip(ids, old, strict=True)]
        self.changePersistentIndexList(old, new)
        self.layoutChanged.emit()

    # --- contents --------------------------------------------------------------------------
    def set_entries(self, entries: Sequence[DesignEntry]) -> None:
        self.install(prepare_contents(entries, *self.sort_state()))

    def sort_state(self) -> tuple[int, Qt.SortOrder]:
        """The column sorted by and the order (what :func:`prepare_contents` needs)."""
        return self._sort_column, self._sort_order

    def install(self, contents: Contents) -> None:
        """Show the entries :func:`prepare_contents` prepared (on a worker thread: here only
        the filters are applied, a pass over a list). Sorted again if the sort changed
        meanwhile."""
        self.beginResetModel()
        self._entries = contents.entries
        self._index_of = contents.index_of
        self._haystacks = contents.haystacks
        self._order = contents.order
        if contents.sort != self.sort_state():
            self._sort_all()
        self._rescope()
        self._rows = self._matching(self._scope)
        self.endResetModel()

    def update_entries(self, entries: Sequence[DesignEntry], removed: Iterable[int]) -> None:
        """Rows by id: ``entries`` are new or changed designs, ``removed`` the ids gone.

        A changed design keeps its row (``dataChanged``) unless the sort order or the
        filters move it; new rows are inserted where the sort puts them
        (``beginInsertRows``), gone ones removed (``beginRemoveRows``). Nothing is reset.
        Without removals this costs a few binary searches, not a pass over every design.
        """
        index_of = self._index_of
        gone = {i for i in removed if i in index_of}
        fresh: dict[int, DesignEntry] = {}
        changed: dict[int, DesignEntry] = {}
        for entry in entries:
            gone.discard(entry.id)
            at = index_of.get(entry.id)
            if at is None:
                fresh[entry.id] = entry
            elif self._entries[at] != entry:
                changed[entry.id] = entry
        if gone:
            self._update_with_removals(list(fresh.values()), changed, gone)
        elif fresh or changed:
            self._update_in_place(list(fresh.values()), changed)

    def differing(self, entries: Sequence[DesignEntry], removed: Iterable[int]) -> int:
        """How many rows :meth:`update_entries` would insert, change or remove."""
        index_of, shown = self._index_of, self._entries
        changed = sum(1 for e in entries
                      if e.id not in index_of or shown[index_of[e.id]] != e)
        return changed + sum(1 for i in set(removed) if i in index_of)

    def _before(self) -> Callable[[DesignEntry], tuple[Any, int]]:
        """The sort key, worked out once per design in one update (an import of a thousand
        designs places each by binary search: without this, every step folds a name)."""
        key = _sort_key(self._sort_column)
        memo: dict[int, tuple[Any, int]] = {}

        def before(entry: DesignEntry) -> tuple[Any, int]:
            # The entries live in the model's lists for the whole update: id() is stable.
            found = memo.get(id(entry))
            if found is None:
                found = memo[id(entry)] = (key(entry), entry.id)
            return found

        return before

    def _place(self, seq: Sequence[int], entries: Sequence[DesignEntry], entry: DesignEntry,
               before: Callable[[DesignEntry], tuple[Any, int]]) -> int:
        """Where ``entry`` goes in ``seq`` (indices into ``entries``, in the sort order)."""
        return _insertion_point(seq, before(entry), lambda n: before(entries[n]),
                                self._sort_order == Qt.SortOrder.DescendingOrder)

    def _matches(self, text: str) -> bool:
        """A design's folded text matches the search words (any, when there are none)."""
        return not self._words or matcher(" ".join(self._words))(text)

    def _update_in_place(self, fresh: list[DesignEntry], changed: dict[int, DesignEntry]) -> None:
        old_entries, old_rows = self._entries, self._rows
        entries = old_entries.copy()
        texts = self._haystacks.copy()
        for design_id, entry in changed.items():
            at = self._index_of[design_id]
            entries[at] = entry
            texts[at] = haystack(entry.name, entry.tags)
        kept_moving = sorted(self._index_of[i] for i in changed)
        new_indices: dict[int, int] = {}
        for entry in fresh:
            new_indices[entry.id] = len(entries)
            entries.append(entry)
            texts.append(haystack(entry.name, entry.tags))
        moving = kept_moving + sorted(new_indices.values())
        before = self._before()
        shown_before = set(old_rows).intersection(kept_moving)
        # The backbone: what stays in the sort order, the scope and the rows unchanged.
        order, scope, backbone = self._order.copy(), self._scope.copy(), old_rows.copy()
        for index in kept_moving:
            order.remove(index)
            if self._in_scope(old_entries[index]):
                scope.remove(index)
            if index in shown_before:
                backbone.remove(index)
        final = backbone.copy()
        slots_old: dict[int, int] = {n: self._place(backbone, entries, old_entries[n], before)
                                     for n in shown_before}
        slots_new: dict[int, int] = {}
        for index in moving:
            entry = entries[index]
            order.insert(self._place(order, entries, entry, before), index)
            if self._in_scope(entry):
                scope.insert(self._place(scope, entries, entry, before), index)
                if self._matches(texts[index]):
                    final.insert(self._place(final, entries, entry, before), index)
                    slots_new[index] = self._place(backbone, entries, entry, before)
        crowded_old = _crowded(slots_old.values())
        crowded_new = _crowded(slots_new.values())
        staying = {n for n in shown_before
                   if n in slots_new and slots_old[n] == slots_new[n]
                   and slots_old[n] not in crowded_old and slots_new[n] not in crowded_new}
        # 1. Remove the rows that go (or move), bottom up, on the old contents.
        rows = old_rows.copy()
        for row in sorted((rows.index(n) for n in shown_before - staying), reverse=True):
            self.beginRemoveRows(QModelIndex(), row, row)
            del self._rows[row]
            del rows[row]
            self.endRemoveRows()
        # 2. The same rows on the new contents (indices of kept designs do not change).
        self._entries, self._haystacks, self._order, self._scope = entries, texts, order, scope
        self._index_of.update(new_indices)
        # 3. Insert the rows that arrive, top down.
        present = set(rows)
        for row in sorted(final.index(n) for n in slots_new if n not in present):
            self.beginInsertRows(QModelIndex(), row, row)
            self._rows.insert(row, final[row])
            self.endInsertRows()
        # 4. The rows that stayed but show something new.
        last_column = len(COLUMNS) - 1
        for index in staying:
            row = self._rows.index(index)
            self.dataChanged.emit(self.index(row, 0), self.index(row, last_column))

    def _in_scope(self, entry: DesignEntry) -> bool:
        """Of the ruleset shown (or any) and of the source shown (mine, the catalog, all)."""
        return ((self._ruleset is None or entry.ruleset_id == self._ruleset)
                and (self._source == ALL or entry.is_catalog == (self._source == CATALOG)))

    def _update_with_removals(self, fresh: list[DesignEntry], changed: dict[int, DesignEntry],
                              gone: set[int]) -> None:
        old_rows = [self._entries[i].id for i in self._rows]
        kept = [n for n, e in enumerate(self._entries) if e.id not in gone]
        new_entries = [changed.get(self._entries[n].id, self._entries[n]) for n in kept] + fresh
        new_haystacks = [self._haystacks[n] if self._entries[n].id not in changed
                         else haystack(changed[self._entries[n].id].name,
                                       changed[self._entries[n].id].tags) for n in kept]
        new_haystacks += [haystack(e.name, e.tags) for e in fresh]
        index_of = {e.id: n for n, e in enumerate(new_entries)}
        moving = set(changed) | {e.id for e in fresh}
        order = [index_of[self._entries[n].id] for n in self._order
                 if self._entries[n].id in index_of and self._entries[n].id not in moving]
        before = self._before()
        for design_id in sorted(moving, key=index_of.__getitem__):
            index = index_of[design_id]
            order.insert(self._place(order, new_entries, new_entries[index], before), index)
        saved = self._entries, self._haystacks, self._order, self._scope
        self._entries, self._haystacks, self._order = new_entries, new_haystacks, order
        self._rescope()
        target = [self._entries[i].id for i in self._matching(self._scope)]
        new_state = self._entries, self._haystacks, self._order, self._scope
        self._entries, self._haystacks, self._order, self._scope = saved

        target_set, old_set = set(target), set(old_rows)
        staying_old = [i for i in old_rows if i in target_set]
        staying_new = [i for i in target if i in old_set]
        moved = ({i for i in changed if i in target_set and i in old_set}
                 if staying_old != staying_new else set())
        # 1. Remove the rows that go (or move), bottom up, in runs, on the old contents.
        doomed = [row for row, design_id in enumerate(old_rows)
                  if design_id not in target_set or design_id in moved]
        for first, last in reversed(_runs(doomed)):
            self.beginRemoveRows(QModelIndex(), first, last)
            del self._rows[first:last + 1]
            del old_rows[first:last + 1]
            self.endRemoveRows()
        # 2. The rows left are the same designs in the same order: switch to the new contents.
        self._entries, self._haystacks, self._order, self._scope = new_state
        self._index_of = index_of
        self._rows = [index_of[i] for i in old_rows]
        # 3. Insert the new (and moved) rows where they belong, top down, in runs.
        present = set(old_rows)
        arriving = [row for row, design_id in enumerate(target) if design_id not in present]
        for first, last in _runs(arriving):
            self.beginInsertRows(QModelIndex(), first, last)
            self._rows[first:first] = [index_of[i] for i in target[first:last + 1]]
            self.endInsertRows()
        # 4. The rows that stayed but show something new.
        last_column = len(COLUMNS) - 1
        for row, design_id in enumerate(target):
            if design_id in changed and design_id in present:
                self.dataChanged.emit(self.index(row, 0), self.index(row, last_column))

    def entries(self) -> list[DesignEntry]:
        return list(self._entries)

    def entry(self, row: int) -> DesignEntry:
        return self._entries[self._rows[row]]

    def entries_at(self, rows: Iterable[int]) -> list[DesignEntry]:
        """The entries shown in ``rows`` (ascending; rows past the end are left out)."""
        entries, shown = self._entries, self._rows
        count = len(shown)
        return [entries[shown[row]] for row in rows if 0 <= row < count]

    def row_of(self, design_id: int) -> int | None:
        for row, index in enumerate(self._rows):
            if self._entries[index].id == design_id:
                return row
        return None

    def rows_of(self, design_ids: Sequence[int]) -> list[int]:
        """The rows showing ``design_ids`` (those shown), in one pass over the rows."""
        index_of = self._index_of
        wanted = {index_of[i] for i in design_ids if i in index_of}
        found = {index: row for row, index in enumerate(self._rows) if index in wanted}
        return [found[index_of[i]] for i in design_ids
                if i in index_of and index_of[i] in found]

    def total(self) -> int:
        return len(self._scope)

    # --- filtering and sorting ---------------------------------------------------------------
    def set_scope(self, ruleset_id: str | None, source: str) -> None:
        """Only one ruleset's designs (None: all), and only mine, the catalog, or all."""
        if (ruleset_id, source) == (self._ruleset, self._source):
            return
        self.beginResetModel()
        self._ruleset = ruleset_id
        self._source = source
        self._rescope()
        self._rows = self._matching(self._scope)
        self.endResetModel()

    def set_query(self, query: str) -> None:
        """Search as you type: a longer query narrows the rows already shown."""
        words = query_words(query)
        if words == self._words:
            self._query = query
            return
        narrowing = bool(self._words) and all(
            any(old in new for new in words) for old in self._words) and len(words) >= len(
            self._words)
        self.beginResetModel()
        self._query = query
        self._words = words
        self._rows = self._matching(self._rows if narrowing else self._scope)
        self.endResetModel()

    @property
    def query(self) -> str:
        return self._query

    def _sort_all(self) -> None:
        """Sort by the column, then by id (ascending either way): a total order, so that a
        design changed later finds its place by a binary search."""
        self._order = _sorted(self._entries, self._sort_column, self._sort_order)

    def _rescope(self) -> None:
        ruleset, source = self._ruleset, self._source
        self._scope = [i for i in self._order
                       if (ruleset is None or self._entries[i].ruleset_id == ruleset)
                       and (source == ALL or self._entries[i].is_catalog == (source == CATALOG))]

    def _matching(self, among: Sequence[int]) -> list[int]:
        if not self._words:
            return list(among)
        test = matcher(" ".join(self._words))
        haystacks = self._haystacks
        return [i for i in among if test(haystacks[i])]


def verdicts_under(records: Iterable[DesignRecord], options: Any) -> dict[int, Verdict]:
    """Each design's verdict under the house rules ``options`` (the ruleset's options value),
    by the one verdict function the Workshop, New Session and ``design check --rules`` use
    (:func:`summarize_design`). Qt-free: a worker thread computes it for a whole library. A
    design its engine refuses keeps the verdict stored with it (left out here)."""
    verdicts: dict[int, Verdict] = {}
    for record in records:
        try:
            kind = design_kind(record.ruleset_id, record.kind)
            summary = summarize_design(record.ruleset_id, record.kind, kind.load(record.data),
                                       options)
        except DesignDataError:
            continue
        verdicts[record.id] = (summary.legal, len(summary.problems))
    return verdicts


def with_verdicts(entries: Iterable[DesignEntry],
                  verdicts: Mapping[int, Verdict]) -> list[DesignEntry]:
    """``entries`` with the verdicts ``verdicts`` names instead of the stored ones."""
    result = []
    for entry in entries:
        found = verdicts.get(entry.id)
        if found is not None and found != (entry.legal, entry.problem_count):
            entry = replace(entry, legal=found[0], problem_count=found[1])
        result.append(entry)
    return result


@dataclass(frozen=True)
class Contents:
    """The model's lists for a set of entries, sorted (see :func:`prepare_contents`)."""

    entries: list[DesignEntry]
    index_of: dict[int, int]
    haystacks: list[str]
    order: list[int]
    sort: tuple[int, Qt.SortOrder]


def prepare_contents(entries: Sequence[DesignEntry], column: int,
                     order: Qt.SortOrder) -> Contents:
    """Everything :meth:`LibraryModel.install` needs for ``entries``, sorted by ``column``:
    the costly part of showing a whole list (folded texts, the sort), Qt-free, so that a
    worker thread can do it while the window keeps answering."""
    listed = list(entries)
    return Contents(listed, {e.id: n for n, e in enumerate(listed)},
                    [haystack(e.name, e.tags) for e in listed],
                    _sorted(listed, column, order), (column, order))


def _sorted(entries: Sequence[DesignEntry], column: int, order: Qt.SortOrder) -> list[int]:
    key = _sort_key(column)
    result = sorted(range(len(entries)), key=lambda i: entries[i].id)
    result.sort(key=lambda i: key(entries[i]), reverse=order == Qt.SortOrder.DescendingOrder)
    return result


def _insertion_point(order: Sequence[int], wanted: tuple[Any, int],
                     key: Callable[[int], tuple[Any, int]], descending: bool) -> int:
    """Where an item of (sort key, id) ``wanted`` goes in ``order``: by the key (descending
    or not), then by id, ascending either way — as :meth:`LibraryModel._sort_all` sorts."""
    low, high = 0, len(order)
    while low < high:
        middle = (low + high) // 2
        here = key(order[middle])
        if wanted[0] == here[0]:
            goes_before = wanted[1] < here[1]
        else:
            goes_before = wanted[0] > here[0] if descending else wanted[0] < here[0]
        if goes_before:
            high = middle
        else:
            low = middle + 1
    return low


def _crowded(slots: Iterable[int]) -> set[int]:
    """The slots taken by more than one moving row (their order among them may change)."""
    seen: set[int] = set()
    twice: set[int] = set()
    for slot in slots:
        (twice if slot in seen else seen).add(slot)
    return twice


def _runs(rows: Sequence[int]) -> list[tuple[int, int]]:
    """Sorted row numbers as (first, last) runs of consecutive rows."""
    runs: list[tuple[int, int]] = []
    for row in rows:
        if runs and runs[-1][1] == row - 1:
            runs[-1] = (runs[-1][0], row)
        else:
            runs.append((row, row))
    return runs
