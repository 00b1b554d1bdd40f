"""Start-up, in one place: first paint, the first screen, and what is built later.

The order (start-up time is a feature; ``benchmarks/startup.py`` measures each step):

1. **First paint.** ``gui/application.py`` shows the main window with its rail, menus and
   status bar and nothing in it; no workspace's module is imported yet.
2. **The first screen.** On the first idle turn (``MainWindow.finish_startup``): when the
   database is a local file with nothing to migrate, the first screen is read from it with
   ``sqlite3`` before SQLAlchemy has loaded (``storage/first_screen.py``, running the
   statements of ``storage/shared_queries.py`` that the repositories run too) — the
   running game the app resumes, its Table alone built, or the Library's list — and the
   database opens on a worker meanwhile (:class:`Opening`). The GM's first key or click
   before it is open waits for it (:class:`FirstInput`).
3. **Ready.** Once it is open, the first screen's workspaces get it in one turn and the
   GM's first key is answered at once.
4. **Everything built.** The other workspaces' modules are imported on a worker
   (:func:`import_for_workspaces`: importing the Workshop's or the Table's modules took
   longer than a turn should), then the workspaces are built on the GUI thread, get the
   database and load their heavy parts, one per turn of the event loop. When the GM
   switches to one not built yet, that one alone is built in that turn (the rows above
   it on the rail still come one per later turn) and it loads its heavy parts on the
   next turn, saying so meanwhile (``Workspace.show_loading``: the Dice' and the
   Resolver's charts say they are being drawn).

What start-up puts off it puts off through :func:`lazy` (a loader run once, on first
use). Modules start-up needs anyway are imported at the top of the modules that use them.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from functools import wraps
from typing import TYPE_CHECKING, TypeVar

from PySide6.QtCore import QEvent, QObject, QTimer

from carwars_desktop.gui.background import Job, start

if TYPE_CHECKING:
    from carwars_desktop.gui.dice_workspace import DiceWorkspace
    from carwars_desktop.gui.ledger_workspace import LedgerWorkspace
    from carwars_desktop.gui.resolver_workspace import ResolverWorkspace
    from carwars_desktop.gui.table import TableWorkspace
    from carwars_desktop.gui.table.phone_queue import PhoneQueue
    from carwars_desktop.gui.workshop import LibraryWorkspace, WorkshopWorkspace
    from carwars_desktop.storage import Database

T = TypeVar("T")


def lazy(load: Callable[[], T]) -> Callable[[], T]:
    """``load`` run on the first call only, its result kept: what start-up imports or builds
    later than the module that names it (the import stays written out in ``load``, so the
    bundle's analysis sees it)."""
    loaded: list[T] = []
    lock = threading.Lock()  # (a worker may import while the GUI thread asks)

    @wraps(load)
    def get() -> T:
        with lock:
            if not loaded:
                loaded.append(load())
            return loaded[0]

    return get


@lazy
def workshop() -> tuple[type[LibraryWorkspace], type[WorkshopWorkspace]]:
    """The Library's and the Workshop's workspaces (one package)."""
    from carwars_desktop.gui.workshop import LibraryWorkspace, WorkshopWorkspace

    return LibraryWorkspace, WorkshopWorkspace


@lazy
def table() -> type[TableWorkspace]:
    from carwars_desktop.gui.table import TableWorkspace

    return TableWorkspace


@lazy
def phone_queue() -> type[PhoneQueue]:
    """The phones' request queue, docked at the Table (built with it)."""
    from carwars_desktop.gui.table.phone_queue import PhoneQueue

    return PhoneQueue


@lazy
def resolver() -> type[ResolverWorkspace]:
    from carwars_desktop.gui.resolver_workspace import ResolverWorkspace

    return ResolverWorkspace


@lazy
def dice() -> type[DiceWorkspace]:
    from carwars_desktop.gui.dice_workspace import DiceWorkspace

    return DiceWorkspace


@lazy
def ledger() -> type[LedgerWorkspace]:
    from carwars_desktop.gui.ledger_workspace import LedgerWorkspace

    return LedgerWorkspace


WORKSPACE_MODULES: dict[str, Callable[[], object]] = {
    "Library": workshop, "Workshop": workshop, "Table": table, "Resolver": resolver,
    "Dice": dice, "Ledger": ledger,
}
"""What imports the modules each workspace of the rail is built from (and gives its
class: :class:`MainWindow` builds the workspaces from these)."""


def imports_for(titles: Sequence[str]) -> list[Callable[[], object]]:
    """The imports of the workspaces ``titles``, each once, in order."""
    imports: list[Callable[[], object]] = []
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


class Opening:
    """The database being opened on a worker behind the first screen."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.database: Database | None = None
        self.error: BaseException | None = None
        self.begin: Callable[[], object] = lambda: None
        self._begun = False

    def open_on_worker(self, hint: str | None, then: Callable[[], None],
                       parent: QObject) -> None:
        """Open the database ``hint`` names on a worker, begun on the next turn (or at once
        by :meth:`start`), then call ``then`` on the GUI thread. Begun once the first
        screen's turn is done: a worker importing SQLAlchemy meanwhile made that turn half
        as slow again (the interpreter shared)."""

        def open_it(_job: object) -> Database:
            from carwars_desktop.storage import open_database, resolve_url

            try:
                self.database = open_database(resolve_url(hint, os.environ))
                return self.database
            except BaseException as error:
                self.error = error
                raise
            finally:
                self.done.set()

        self.begin = lambda: start(open_it, lambda _: then(), lambda _: then(), parent=parent)
        QTimer.singleShot(0, parent, self.start)

    def start(self) -> None:
        """Begin the opening (once)."""
        if not self._begun:
            self._begun = True
            self.begin()


class FirstInput(QObject):
    """While the database opens after the first screen, the GM's first key or click (or
    closing the window) waits for it, a fraction of a second at most, then goes on."""

    WAITS_FOR = frozenset({QEvent.Type.KeyPress, QEvent.Type.ShortcutOverride,
                           QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonDblClick,
                           QEvent.Type.Close})

    def __init__(self, opening: Callable[[], bool], wait_until_open: Callable[[], None],
                 parent: QObject) -> None:
        super().__init__(parent)
        self._opening = opening
        self._wait_until_open = wait_until_open

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() in self.WAITS_FOR and self._opening():
            self._wait_until_open()
        return False
