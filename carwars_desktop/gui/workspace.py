"""What every workspace of the main window offers (Dice, and later Workshop, Table, Resolver)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QWidget

if TYPE_CHECKING:
    from carwars_desktop.storage import Database


class Workspace(QWidget):
    """A page of the main window. Subclasses override the hooks they need."""

    title = "Workspace"

    def _shortcut(self, keys: str, slot: Callable[[], object]) -> QShortcut:
        """A shortcut that works while this workspace (or a child) has the focus."""
        shortcut = QShortcut(QKeySequence(keys), self)
        shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        shortcut.activated.connect(slot)
        return shortcut

    def set_ruleset(self, ruleset_id: str) -> None:
        """The GM switched the rule system."""

    def attach_database(self, database: Database) -> None:
        """The database is open (after the first paint)."""

    def load_deferred(self) -> None:
        """Build the heavy parts (charts) once the window has been painted."""
