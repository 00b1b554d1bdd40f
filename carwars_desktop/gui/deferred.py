"""What start-up puts off until the database is ready, in one place.

The first screen (the Library's list, or the running game's sheets at the Table) is
shown before the database is open; once it is open the GM's first key is answered at
once (:meth:`MainWindow._take_over`). The other workspaces come after that, one per
turn of the event loop, so that no turn keeps a key waiting long. Their modules are
imported first, here, on a worker thread (:func:`import_for_workspaces`): importing
the Workshop's or the Table's modules alone took longer than a turn should. The
workspaces themselves are still created on the GUI thread, by the main window, the one
way they are ever created; this only imports.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence

from PySide6.QtCore import QObject

from carwars_desktop.gui.background import Job, start

WORKSPACE_MODULES = {
    "Library": ("carwars_desktop.gui.workshop",),
    "Workshop": ("carwars_desktop.gui.workshop",),
    "Table": ("carwars_desktop.gui.table",),
    "Resolver": ("carwars_desktop.gui.resolver_workspace",),
    "Dice": ("carwars_desktop.gui.dice_workspace",),
}
"""The modules each workspace of the rail is built from."""


def modules_for(titles: Sequence[str]) -> list[str]:
    """The modules of the workspaces ``titles``, each once, in order."""
    names: list[str] = []
    for title in titles:
        names.extend(name for name in WORKSPACE_MODULES[title] if name not in names)
    return names


def import_for_workspaces(titles: Sequence[str], then: Callable[[], None],
                          parent: QObject | None = None) -> Job:
    """Import the modules of the workspaces ``titles`` on a worker, then call ``then`` on
    the GUI thread. A module that fails to import is not reported here: ``then`` runs
    anyway, and building its workspace on the GUI thread imports it again and shows why."""

    def work(_job: Job) -> None:
        for name in modules_for(titles):
            importlib.import_module(name)

    return start(work, lambda _: then(), lambda _: then(), parent=parent)
