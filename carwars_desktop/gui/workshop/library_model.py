"""The library list: a thin Qt table model over the stored design entries.

Filtering (ruleset, source, search words) and sorting are done here on plain
lists, with one folded text per design prepared in advance, so a keystroke of
search-as-you-type over 10,000 designs costs a few milliseconds. A change to a
few designs (what the change bus names) updates their rows alone:
:meth:`LibraryModel.update_entries` inserts, changes and removes rows by id.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont

from carwars_desktop.library import class_text, cost_text, design_kind, status_text
from carwars_desktop.library.search import fold, haystack, matcher, query_words
from carwars_desktop.rules import ruleset_ids, ruleset_title

if TYPE_CHECKING:
    from carwars_desktop.storage import DesignEntry

_Index = QModelIndex | QPersistentModelIndex
COLUMNS = ("Name", "Ruleset", "Kind", "Class", "Cost", "Status", "Tags", "Changed")
NAME, RULESET, KIND, CLASS, COST, STATUS, TAGS, CHANGED = range(len(COLUMNS))
ID_ROLE = Qt.ItemDataRole.UserRole
ALL, MINE, CATALOG = "all", "mine", "catalog"
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


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


class LibraryModel(QAbstractTableModel):
    def __init__(self) -> None:
        super().__init__()
        self._entries: list[DesignEntry] = []
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

    # --- Qt's model interface --------------------------------------------------------------
    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(COLUMNS):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
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
        self.beginResetModel()
        self._entries = list(entries)
        self._haystacks = [haystack(e.name, e.tags) for e in self._entries]
        self._sort_all()
        self._rescope()
        self._rows = self._matching(self._scope)
        self.endResetModel()

    def update_entries(self, entries: Sequence[DesignEntry], removed: Iterable[int]) -> None:
        """Rows by id: ``entries`` are new or changed designs, ``removed`` the ids gone.

        A changed design keeps its row (``dataChanged``) unless the sort order or the
        filters move it; new rows are inserted where the sort puts them
        (``beginInsertRows``), gone ones removed (``beginRemoveRows``). Nothing is reset.
        """
        by_id = {e.id: e for e in self._entries}
        gone = {i for i in removed if i in by_id}
        fresh: list[DesignEntry] = []
        changed: set[int] = set()
        for entry in entries:
            gone.discard(entry.id)
            old = by_id.get(entry.id)
            if old is None:
                fresh.append(entry)
            elif old != entry:
                changed.add(entry.id)
            by_id[entry.id] = entry
        for design_id in gone:
            del by_id[design_id]
        if not (fresh or changed or gone):
            return
        old_rows = [self._entries[i].id for i in self._rows]
        # The new contents, in the old order (so that ties in the sort stay where they were).
        new_entries = [by_id[e.id] for e in self._entries if e.id in by_id] + fresh
        index_of = {e.id: n for n, e in enumerate(new_entries)}
        saved = self._entries, self._haystacks, self._order, self._scope
        self._entries = new_entries
        self._haystacks = [haystack(e.name, e.tags) for e in new_entries]
        self._sort_all()
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

    def row_of(self, design_id: int) -> int | None:
        for row, index in enumerate(self._rows):
            if self._entries[index].id == design_id:
                return row
        return None

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
        key = _sort_key(self._sort_column)
        self._order = sorted(range(len(self._entries)), key=lambda i: key(self._entries[i]),
                             reverse=self._sort_order == Qt.SortOrder.DescendingOrder)

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


def _runs(rows: Sequence[int]) -> list[tuple[int, int]]:
    """Sorted row numbers as (first, last) runs of consecutive rows."""
    runs: list[tuple[int, int]] = []
    for row in rows:
        if runs and runs[-1][1] == row - 1:
            runs[-1] = (runs[-1][0], row)
        else:
            runs.append((row, row))
    return runs
