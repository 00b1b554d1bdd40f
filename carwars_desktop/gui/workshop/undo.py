"""Undo and redo of design edits: each edit is a command holding the design before and after.

Designs are immutable values, so a command is just two designs. Consecutive
edits of one field (typing a name, spinning armor) merge into one step.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QKeyEvent, QKeySequence, QUndoCommand
from PySide6.QtWidgets import QAbstractSpinBox, QComboBox, QLineEdit, QPlainTextEdit, QWidget

from carwars_desktop.rules import Design

_MERGE_IDS: dict[str, int] = {}


def merge_id(key: str) -> int:
    """A small positive id per merge key (``-1`` for edits that never merge)."""
    if not key:
        return -1
    return _MERGE_IDS.setdefault(key, len(_MERGE_IDS) + 1)


class DesignEdit(QUndoCommand):
    """One edit: ``apply`` shows (and commits) a design; undo applies the one before."""

    def __init__(self, before: Design, after: Design, label: str, key: str,
                 apply: Callable[[Design], None]) -> None:
        super().__init__(label)
        self.before = before
        self.after = after
        self._key = key
        self._apply = apply

    def id(self) -> int:
        return merge_id(self._key)

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 - Qt's name
        if not isinstance(other, DesignEdit) or other._key != self._key or not self._key:
            return False
        self.after = other.after
        if self.after == self.before:
            self.setObsolete(True)
        return True

    def redo(self) -> None:
        self._apply(self.after)

    def undo(self) -> None:
        self._apply(self.before)


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
    return QKeySequence(event.keyCombination()) == QKeySequence("Ctrl+Shift+Z")


_INPUTS = (QLineEdit, QAbstractSpinBox, QPlainTextEdit, QComboBox)


def route_undo_keys(root: QWidget, keys: UndoKeys) -> None:
    """Install ``keys`` on every input field under ``root`` (call again after adding fields)."""
    for child in root.findChildren(QWidget):
        if isinstance(child, _INPUTS) and not child.property("undo-routed"):
            child.installEventFilter(keys)
            child.setProperty("undo-routed", True)
