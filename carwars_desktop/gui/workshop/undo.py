"""Ctrl+Z and Ctrl+Shift+Z in a Workshop field are the design's, not the field's.

The undo history itself is the design-editing service's
(:class:`carwars_desktop.services.DesignEditing`): every edit is a design before
and after, consecutive edits of one field merged into one step.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import QAbstractSpinBox, QComboBox, QLineEdit, QPlainTextEdit, QWidget

from carwars_desktop.gui.shortcuts import declared


class UndoKeys(QObject):
    """Lets the workspace's Ctrl+Z / Ctrl+Shift+Z win over a text field's own undo.

    Every keystroke already is a design edit, so the field's private undo would
    only fight the design's history.
    """

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent) and (
                event.matches(QKeySequence.StandardKey.Undo)
                or event.matches(QKeySequence.StandardKey.Redo)
                or _is_shift_undo(event)):
            event.ignore()
            return True
        return False


def _is_shift_undo(event: QKeyEvent) -> bool:
    """One of the Workshop's own undo or redo keys (Ctrl+Shift+Z, Ctrl+Y…)."""
    pressed = QKeySequence(event.keyCombination())
    return any(pressed == sequence for action_id in ("workshop.undo", "workshop.redo")
               for sequence in declared(action_id).sequences())


_INPUTS = (QLineEdit, QAbstractSpinBox, QPlainTextEdit, QComboBox)


def route_undo_keys(root: QWidget, keys: UndoKeys) -> None:
    """Install ``keys`` on every input field under ``root`` (call again after adding fields)."""
    for child in root.findChildren(QWidget):
        if isinstance(child, _INPUTS) and not child.property("undo-routed"):
            child.installEventFilter(keys)
            child.setProperty("undo-routed", True)
