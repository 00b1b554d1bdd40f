"""A thin Qt table model over the saved dice rolls (newest first)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from PySide6.QtCore import Qt

from carwars_desktop.gui.record_table_model import RIGHT_ALIGNED, RecordTableModel
from carwars_desktop.rules.registry import ruleset_title
from carwars_desktop.storage import DiceRollRecord

COLUMNS = ("Time", "Ruleset", "Roll", "Dice", "Total", "Result", "Dice from")


def result_text(record: DiceRollRecord) -> str:
    """The roll's result; a procedure's dice say what became of the result they were
    thrown for: applied, shown and not applied yet, or discarded and why."""
    state = record.resolution_state
    if state == "discarded":
        return f"discarded: {record.resolution_note or 'not applied'}"
    if state == "pending":
        return "shown, not applied yet"
    if state == "applied":
        return "applied" if record.success is None else \
            f"applied: {'success' if record.success else 'failure'}"
    if record.success is None or record.target is None:
        return ""
    verdict = "success" if record.success else "failure"
    return f"{verdict} (≥{record.target})"


def how_text(record: DiceRollRecord) -> str:
    return "typed" if record.entered else f"seed {record.seed}"


class DiceHistoryModel(RecordTableModel["DiceRollRecord"]):
    columns = COLUMNS

    def cell(self, record: DiceRollRecord, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(record, column)
        if role == Qt.ItemDataRole.TextAlignmentRole and column == 4:
            return RIGHT_ALIGNED
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
