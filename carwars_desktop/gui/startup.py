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

from collections.abc import Callable, Sequence

from PySide6.QtCore import QObject

from carwars_desktop.gui.background import Job, start


def _workshop() -> None:  # (imported by name: the bundle's analysis sees each import)
    import carwars_desktop.gui.workshop  # noqa: F401


def _table() -> None:
    import carwars_desktop.gui.table  # noqa: F401


def _resolver() -> None:
    import carwars_desktop.gui.resolver_workspace  # noqa: F401


def _dice() -> None:
    import carwars_desktop.gui.dice_workspace  # noqa: F401


WORKSPACE_MODULES: dict[str, Callable[[], None]] = {
    "Library": _workshop, "Workshop": _workshop, "Table": _table, "Resolver": _resolver,
    "Dice": _dice,
}
"""What imports the modules each workspace of the rail is built from."""


def imports_for(titles: Sequence[str]) -> list[Callable[[], None]]:
    """The imports of the workspaces ``titles``, each once, in order."""
    imports: list[Callable[[], None]] = []
    for title in titles:
        if WORKSPACE_MODULES[title] not in imports:
            imports.append(WORKSPACE_MODULES[title])
    return imports


def import_for_workspaces(titles: Sequence[str], then: Callable[[], None],
                          parent: QObject | None = None) -> Job:
    """Import the modules of the workspaces ``titles`` on a worker, then call ``then`` on
    the GUI thread. A module that fails to import is not reported here: ``then`` runs
    anyway, and building its workspace on the GUI thread imports it again and shows why."""
    imports = imports_for(titles)

    def work(_job: Job) -> None:
        for load in imports:
            load()

    return start(work, lambda _: then(), lambda _: then(), parent=parent)
