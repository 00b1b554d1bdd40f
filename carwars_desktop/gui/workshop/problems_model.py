"""The live validation list: every problem of the design (and warnings), with its rule."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt

from carwars_desktop.rules import Problem

_Index = QModelIndex | QPersistentModelIndex
FIELD_ROLE = Qt.ItemDataRole.UserRole
SEVERITY_ROLE = Qt.ItemDataRole.UserRole + 1
PROBLEM = "problem"
WARNING = "warning"


class ProblemListModel(QAbstractListModel):
    """Problems first (⚠, they make the design a draft), then warnings (ℹ, they do not)."""

    def __init__(self) -> None:
        super().__init__()
        self._items: list[tuple[Problem, str]] = []

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self._items)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._items):
            return None
        problem, severity = self._items[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            mark = "⚠" if severity == PROBLEM else "ℹ"
            return f"{mark} {_sentence(problem.message)}\n    {problem.rule}"
        if role == Qt.ItemDataRole.ToolTipRole:
            kind = ("makes the design a draft" if severity == PROBLEM
                    else "a recommendation: the design stays legal")
            where = "; click to go to the field" if problem.field else ""
            return f"{problem.message} [{problem.rule}] — {kind}{where}"
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return f"{severity}: {problem.message}, {problem.rule}"
        if role == FIELD_ROLE:
            return problem.field
        if role == SEVERITY_ROLE:
            return severity
        return None

    def problem(self, row: int) -> Problem:
        return self._items[row][0]

    def set_problems(self, problems: Sequence[Problem], warnings: Sequence[Problem] = ()) -> None:
        self.beginResetModel()
        self._items = [(p, PROBLEM) for p in problems] + [(w, WARNING) for w in warnings]
        self.endResetModel()

    def counts(self) -> tuple[int, int]:
        problems = sum(1 for _, severity in self._items if severity == PROBLEM)
        return problems, len(self._items) - problems


def _sentence(message: str) -> str:
    return message[:1].upper() + message[1:] if message else message
