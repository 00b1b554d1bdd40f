"""Thin Qt models over an AUTOpower deck: its deck list (editable) and its counts grid."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from carwars_desktop.gui.record_table_model import ColumnsTableModel
from carwars_desktop.rules.autopower import Deck, Icon
from carwars_desktop.rules.autopower.deck_lines import DeckLine

_Index = QModelIndex | QPersistentModelIndex
LINE_COLUMNS = ("Count", "Card", *(icon.label for icon in Icon))
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)

Edit = Callable[[int, int, str], str | None]
"""(row, column, typed text) → None when taken, else why not."""


class DeckLinesModel(ColumnsTableModel):
    """One row per deck line: count, title, and the value of each numbered icon."""

    columns = LINE_COLUMNS

    def __init__(self, edit: Edit | None = None) -> None:
        super().__init__()
        self._lines: tuple[DeckLine, ...] = ()
        self._edit = edit
        self.last_error = ""

    def set_lines(self, lines: Sequence[DeckLine]) -> None:
        self.beginResetModel()
        self._lines = tuple(lines)
        self.endResetModel()

    @property
    def lines(self) -> tuple[DeckLine, ...]:
        return self._lines

    def row_total(self) -> int:
        return len(self._lines)

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if (orientation == Qt.Orientation.Vertical and role == Qt.ItemDataRole.DisplayRole
                and 0 <= section < len(self._lines)):
            return str(section + 1)
        return super().headerData(section, orientation, role)

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        return base | Qt.ItemFlag.ItemIsEditable if self._edit is not None else base

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._lines):
            return None
        line = self._lines[index.row()]
        column = index.column()
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            if column == 0:
                return str(line.count)
            if column == 1:
                return line.card.title
            value = self.icon_value(line, list(Icon)[column - 2])
            return "" if value is None else str(value)
        if role == Qt.ItemDataRole.TextAlignmentRole and column != 1:
            return _RIGHT
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{line.count} × {line.card.title}: {line.icons_text}"
        return None

    @staticmethod
    def icon_value(line: DeckLine, icon: Icon) -> int | None:
        for choice in line.card.icons:
            if choice.icon is icon:
                return choice.value
        return None

    def setData(self, index: _Index, value: Any,  # noqa: N802
                role: int = Qt.ItemDataRole.EditRole) -> bool:
        if (self._edit is None or not index.isValid() or role != Qt.ItemDataRole.EditRole
                or not 0 <= index.row() < len(self._lines)):
            return False
        error = self._edit(index.row(), index.column(), str(value))
        self.last_error = error or ""
        return error is None


class DeckCountsModel(QAbstractTableModel):
    """How many cards carry each icon at each value (``Deck.counts``), with row totals."""

    def __init__(self, values: Sequence[int]) -> None:
        super().__init__()
        self._values = tuple(values)
        self._counts: dict[Icon, dict[int, int]] = {icon: {} for icon in Icon}

    def set_deck(self, deck: Deck) -> None:
        self.beginResetModel()
        self._counts = deck.counts()
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(Icon)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self._values) + 1

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Vertical and 0 <= section < len(Icon):
            return list(Icon)[section].label
        if orientation == Qt.Orientation.Horizontal:
            if 0 <= section < len(self._values):
                return str(self._values[section])
            if section == len(self._values):
                return "All"
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(Icon):
            return None
        icon = list(Icon)[index.row()]
        column = index.column()
        if not 0 <= column <= len(self._values):
            return None
        by_value = self._counts.get(icon, {})
        count = (sum(by_value.values()) if column == len(self._values)
                 else by_value.get(self._values[column], 0))
        if role == Qt.ItemDataRole.DisplayRole:
            return str(count) if count else ("0" if column == len(self._values) else "")
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _RIGHT
        if role == Qt.ItemDataRole.ToolTipRole and column < len(self._values):
            return f"{count} card(s) with {icon.label} {self._values[column]}"
        return None
