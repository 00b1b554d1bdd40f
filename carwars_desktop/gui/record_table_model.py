"""A read-only Qt table over a list of plain records: the shared part of the thin models."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Generic, TypeVar

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

Index = QModelIndex | QPersistentModelIndex
RecordT = TypeVar("RecordT")

RIGHT_ALIGNED = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


class ColumnsTableModel(QAbstractTableModel):
    """A flat table whose columns are :attr:`columns`, named in the horizontal header;
    subclasses say how many rows it has (:meth:`row_total`)."""

    columns: tuple[str, ...] = ()

    def row_total(self) -> int:
        """How many rows the table has."""
        return 0

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else self.row_total()

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if (orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole
                and 0 <= section < len(self.columns)):
            return self.columns[section]
        return None


class RecordTableModel(ColumnsTableModel, Generic[RecordT]):
    """Rows are records, columns are :attr:`columns`; subclasses answer :meth:`cell`."""

    def __init__(self, records: Sequence[RecordT] = ()) -> None:
        super().__init__()
        self._records: list[RecordT] = list(records)

    def cell(self, record: RecordT, column: int, role: int) -> Any:
        """The data of one cell for ``role`` (None: nothing)."""
        return None

    def record(self, row: int) -> RecordT:
        return self._records[row]

    def reset(self, records: Sequence[RecordT]) -> None:
        self.beginResetModel()
        self._records = list(records)
        self.endResetModel()

    def prepend(self, record: RecordT) -> None:
        self.beginInsertRows(QModelIndex(), 0, 0)
        self._records.insert(0, record)
        self.endInsertRows()

    def row_total(self) -> int:
        return len(self._records)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._records):
            return None
        return self.cell(self._records[index.row()], index.column(), role)
