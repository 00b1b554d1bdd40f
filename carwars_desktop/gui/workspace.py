"""What every workspace of the main window offers (Dice, and later Workshop, Table, Resolver)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QShortcut
from PySide6.QtWidgets import QWidget

from carwars_desktop.gui.shortcuts import declared, shortcut

if TYPE_CHECKING:
    from carwars_desktop.storage import Database


class Workspace(QWidget):
    """A page of the main window. Subclasses override the hooks they need."""

    title = "Workspace"
    shortcut_context = ""
    """This workspace's context in :mod:`carwars_desktop.gui.shortcuts`."""

    def _shortcut(self, action_id: str, slot: Callable[[], object]) -> QShortcut:
        """The declared shortcut ``action_id``, working while this workspace (or a child)
        has the focus."""
        context = declared(action_id).context
        if context != self.shortcut_context:
            raise ValueError(f"{action_id} is a {context} shortcut, not a "
                             f"{self.shortcut_context or 'workspace'} one")
        return shortcut(action_id, self, slot, Qt.ShortcutContext.WidgetWithChildrenShortcut)

    def set_ruleset(self, ruleset_id: str) -> None:
        """The GM switched the rule system."""

    def attach_database(self, database: Database) -> None:
        """The database is open (after the first paint)."""

    def focus_default(self) -> None:
        """Take the keyboard focus when shown (Ctrl+1…5): the child last focused, else the
        workspace itself, so that its shortcuts work at once."""
        child = self.focusWidget()
        if child is not None and child is not self and self.isAncestorOf(child) \
                and child.isVisible():
            child.setFocus()
        else:
            self.setFocus()

    def load_deferred(self) -> None:
        """Build the heavy parts (charts) once the window has been painted."""

    def show_loading(self) -> None:
        """The GM switched here before the heavy parts were built: they are built on the
        next turn (:meth:`load_deferred`); meanwhile what they will show says so."""
