"""The library list: a thin Qt table model over the stored design entries.

Filtering (ruleset, source, search words) and sorting are done here on plain
lists, with one folded text per design prepared in advance, so a keystroke of
search-as-you-type over 10,000 designs costs a few milliseconds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
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

    def entries(self) -> list[DesignEntry]:
        return list(self._entries)

    def entry(self, row: int) -> DesignEntry:
        return self._entries[self._rows[row]]

    def row_of(self, design_id: int) -> int | None:
        for row, index in enumerate(self._rows):
            if self._entries[index].id == design_id:
                return row
        return None

    def rows_of(self, design_ids: Sequence[int]) -> list[int]:
        """The rows showing ``design_ids`` (those shown), in one pass over the rows."""
        wanted = set(design_ids)
        found = {self._entries[index].id: row for row, index in enumerate(self._rows)
                 if self._entries[index].id in wanted}
        return [found[design_id] for design_id in design_ids if design_id in found]

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
