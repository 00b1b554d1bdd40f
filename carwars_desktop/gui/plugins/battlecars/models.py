"""Thin Qt models for the Battlecars card editor: one section's components, and choices."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtWidgets import QComboBox, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from carwars_desktop.gui.record_table_model import ColumnsTableModel
from carwars_desktop.rules.battlecars import Card, Component
from carwars_desktop.rules.battlecars.terms import Facing, Kind, Section

_Index = QModelIndex | QPersistentModelIndex
COMPONENT_COLUMNS = ("Component", "Type", "Boxes", "Fires", "d8")
NAME, KIND, BOXES, FACING, FACES = range(len(COMPONENT_COLUMNS))
KIND_CHOICES = tuple(kind.value for kind in Kind)
FACING_CHOICES = ("", *(facing.value for facing in Facing))
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)

Edit = Callable[[int, int, Any], str | None]
"""(component index on the card, column, value) → None when taken, else why not."""


class ComponentsModel(ColumnsTableModel):
    """The components of one section: name, type, boxes, firing direction, d8 faces."""

    columns = COMPONENT_COLUMNS

    def __init__(self, section: Section, edit: Edit | None = None) -> None:
        super().__init__()
        self.section = section
        self._edit = edit
        self._rows: list[tuple[int, Component]] = []
        self._faces: dict[str, tuple[int, ...]] = {}
        self.last_error = ""

    def set_card(self, card: Card) -> None:
        rows = [(i, c) for i, c in enumerate(card.components) if c.section is self.section]
        faces: dict[str, tuple[int, ...]] = {}
        for table in card.hit_locations:
            if table.section is self.section:
                faces = {c.name: table.faces_of(c.name) for _, c in rows}
        if rows == self._rows and faces == self._faces:
            return
        self.beginResetModel()
        self._rows = rows
        self._faces = faces
        self.endResetModel()

    def card_index(self, row: int) -> int:
        return self._rows[row][0]

    def row_of(self, card_index: int) -> int | None:
        for row, (index, _component) in enumerate(self._rows):
            if index == card_index:
                return row
        return None

    def row_total(self) -> int:
        return len(self._rows)

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if self._edit is not None and index.column() != FACES:
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        component = self._rows[index.row()][1]
        column = index.column()
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            if column == NAME:
                return component.name
            if column == KIND:
                return component.kind.value
            if column == BOXES:
                return component.boxes if role == Qt.ItemDataRole.EditRole else str(
                    component.boxes)
            if column == FACING:
                return component.facing.value if component.facing else ""
            faces = self._faces.get(component.name, ())
            return ", ".join(str(f) for f in faces) if faces else "—"
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (BOXES, FACES):
            return _RIGHT
        if role == Qt.ItemDataRole.ToolTipRole:
            faces = self._faces.get(component.name, ())
            hit = (f"hit on a d8 roll of {', '.join(map(str, faces))}" if faces
                   else "on no face of the Hit Location Table: it can never be hit")
            return f"{component.label}: {component.boxes} boxes, {hit}"
        return None

    def setData(self, index: _Index, value: Any,  # noqa: N802
                role: int = Qt.ItemDataRole.EditRole) -> bool:
        if (self._edit is None or role != Qt.ItemDataRole.EditRole or not index.isValid()
                or not 0 <= index.row() < len(self._rows) or index.column() == FACES):
            return False
        error = self._edit(self._rows[index.row()][0], index.column(), value)
        self.last_error = error or ""
        return error is None


class ChoiceDelegate(QStyledItemDelegate):
    """A drop-down of fixed choices for some columns (component type, firing direction)."""

    def __init__(self, choices: dict[int, Sequence[str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._choices = choices

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem,  # noqa: N802
                     index: _Index) -> QWidget:
        choices = self._choices.get(index.column())
        if choices is None:
            return super().createEditor(parent, option, index)
        box = QComboBox(parent)
        box.addItems([choice or "—" for choice in choices])
        return box

    def setEditorData(self, editor: QWidget, index: _Index) -> None:  # noqa: N802
        choices = self._choices.get(index.column())
        if choices is None or not isinstance(editor, QComboBox):
            super().setEditorData(editor, index)
            return
        value = str(index.data(Qt.ItemDataRole.EditRole) or "")
        editor.setCurrentIndex(max(0, list(choices).index(value) if value in choices else 0))

    def setModelData(self, editor: QWidget, model: QAbstractItemModel,  # noqa: N802
                     index: _Index) -> None:
        choices = self._choices.get(index.column())
        if choices is None or not isinstance(editor, QComboBox):
            super().setModelData(editor, model, index)
            return
        model.setData(index, list(choices)[editor.currentIndex()], Qt.ItemDataRole.EditRole)
