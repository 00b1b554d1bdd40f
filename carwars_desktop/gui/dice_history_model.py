"""A thin Qt table model over the saved dice rolls (newest first)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from carwars_desktop.rules.registry import ruleset_title

if TYPE_CHECKING:
    from carwars_desktop.storage import DiceRollRecord

_Index = QModelIndex | QPersistentModelIndex
COLUMNS = ("Time", "Ruleset", "Roll", "Dice", "Total", "Result", "Dice from")


def result_text(record: DiceRollRecord) -> str:
    if record.success is None or record.target is None:
        return ""
    verdict = "success" if record.success else "failure"
    return f"{verdict} (≥{record.target})"


def how_text(record: DiceRollRecord) -> str:
    return "typed" if record.entered else f"seed {record.seed}"


class DiceHistoryModel(QAbstractTableModel):
    def __init__(self, records: Sequence[DiceRollRecord] = ()) -> None:
        super().__init__()
        self._records: list[DiceRollRecord] = list(records)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self._records)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if (orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole
                and 0 <= section < len(COLUMNS)):
            return COLUMNS[section]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._records):
            return None
        record = self._records[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(record, column)
        if role == Qt.ItemDataRole.TextAlignmentRole and column == 4:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            when = record.created_at.astimezone().strftime("%Y-%m-%d %H:%M:%S")
            dice = " ".join(map(str, record.dice_values))
            return (f"{when} — {record.expression}: dice {dice}, natural {record.natural}, "
                    f"total {record.total} — {how_text(record)}")
        return None

    @staticmethod
    def _display(record: DiceRollRecord, column: int) -> str:
        if column == 0:
            local = record.created_at.astimezone()
            today = datetime.now().astimezone().date()
            return local.strftime("%H:%M:%S" if local.date() == today else "%d %b %H:%M")
        if column == 1:
            return ruleset_title(record.ruleset_id) if record.ruleset_id else ""
        if column == 2:
            return record.expression
        if column == 3:
            return " ".join(str(v) for v in record.dice_values)
        if column == 4:
            return str(record.total)
        if column == 5:
            return result_text(record)
        return how_text(record)

    def record(self, row: int) -> DiceRollRecord:
        return self._records[row]

    def reset(self, records: Sequence[DiceRollRecord]) -> None:
        self.beginResetModel()
        self._records = list(records)
        self.endResetModel()

    def prepend(self, record: DiceRollRecord) -> None:
        self.beginInsertRows(QModelIndex(), 0, 0)
        self._records.insert(0, record)
        self.endInsertRows()
