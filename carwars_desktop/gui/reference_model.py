"""Thin Qt models for the Resolver: the procedure list and a rules reference table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)

from carwars_desktop.gui.record_table_model import ColumnsTableModel
from carwars_desktop.procedures import Procedure
from carwars_desktop.rules import ReferenceTable

_Index = QModelIndex | QPersistentModelIndex
ProcedureRole = Qt.ItemDataRole.UserRole + 1


class ProcedureListModel(QAbstractListModel):
    """The procedures of one ruleset (and the generic ones); searchable by title, id and rule.

    A procedure the house rules do not offer (a variant left off, :meth:`set_house`) stays
    in the list, disabled, with the reason (``Ramming variant (§2.9) is off in this
    session's house rules``).
    """

    def __init__(self, procedures: Sequence[Procedure] = ()) -> None:
        super().__init__()
        self._procedures = list(procedures)
        self._house: Mapping[str, Any] = {}
        self._where = "these house rules"

    def set_house(self, house: Mapping[str, Any], where: str = "these house rules") -> None:
        """The house rules the procedures are offered under (``where``: how the reason
        names them)."""
        self._house, self._where = dict(house), where
        if self._procedures:
            self.dataChanged.emit(self.index(0), self.index(len(self._procedures) - 1))

    def not_offered(self, procedure: Procedure) -> str:
        """Why ``procedure`` is not offered under the house rules (empty: it is)."""
        return procedure.not_offered(self._house, self._where)

    def offered(self, row: int) -> bool:
        return not self.not_offered(self._procedures[row])

    def flags(self, index: _Index) -> Qt.ItemFlag:
        flags = super().flags(index)
        if index.isValid() and 0 <= index.row() < len(self._procedures) and \
                not self.offered(index.row()):
            return flags & ~(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
        return flags

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self._procedures)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._procedures):
            return None
        procedure = self._procedures[index.row()]
        reason = self.not_offered(procedure)
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{procedure.title} — {reason}" if reason else procedure.title
        if role == Qt.ItemDataRole.ToolTipRole:
            tip = f"{procedure.id} — {procedure.rule}\n{procedure.summary}".strip()
            if reason:
                tip = (f"Not offered: {reason}. Change house rules… (below the form) switches "
                       f"it on.\n{tip}")
            return tip
        if role == ProcedureRole:
            return procedure.id
        if role == Qt.ItemDataRole.UserRole:
            # What the search matches: title, id and rule reference.
            return f"{procedure.title} {procedure.id} {procedure.rule}"
        return None

    def procedure(self, row: int) -> Procedure:
        return self._procedures[row]

    def set_procedures(self, procedures: Sequence[Procedure]) -> None:
        self.beginResetModel()
        self._procedures = list(procedures)
        self.endResetModel()


class ReferenceTableModel(ColumnsTableModel):
    """One of the ruleset's tables, read-only, for the reference panel."""

    def __init__(self, table: ReferenceTable | None = None) -> None:
        super().__init__()
        self._show(table)

    def set_table(self, table: ReferenceTable | None) -> None:
        self.beginResetModel()
        self._show(table)
        self.endResetModel()

    def _show(self, table: ReferenceTable | None) -> None:
        self._table = table
        self.columns = table.columns if table is not None else ()

    def row_total(self) -> int:
        return len(self._table.rows) if self._table is not None else 0

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if self._table is None or not index.isValid():
            return None
        if not (0 <= index.row() < len(self._table.rows)
                and 0 <= index.column() < len(self._table.columns)):
            return None
        row = self._table.rows[index.row()]
        value = row[index.column()] if index.column() < len(row) else ""
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return value
        return None
