"""The application layer: the operations a GM performs, Qt-free, between the GUI and the core.

The Resolver, the Table's dialogs and the Library call these services instead of
the session and storage layers; each operation returns what it changed and
publishes it on the one :class:`ChangeBus` every view listens to.

- :class:`TableService` — open, start and finish sessions; resolve → pending →
  apply or discard (logged with its exact P(success)); marks, clock moves, undo.
- :class:`LibraryService` — add, save, rename, duplicate, tag, delete, restore,
  import, each returning the ids added, changed and removed; it owns the trash.
- :class:`DesignEditing` — the design open in the Workshop, each edit committed,
  with push/pop undo and redo.
"""

from carwars_desktop.services.changes import (
    ChangeBus,
    Changes,
    DesignChanges,
    RollNotice,
    RollState,
    Subscriber,
)
from carwars_desktop.services.design_editing import DesignEdit, DesignEditing, EditHistory
from carwars_desktop.services.library import LibraryResult, LibraryService, Trash
from carwars_desktop.services.table import (
    Discarded,
    Handler,
    OpenedSession,
    PendingResolution,
    PendingState,
    ResolveError,
    SessionOpenError,
    ShownGame,
    TableService,
    compact_dice,
    procedure_sides,
    resolve_dice,
    typed_dice,
)


class Services:
    """The services of one app window, sharing one bus."""

    def __init__(self, bus: ChangeBus | None = None) -> None:
        self.bus = bus if bus is not None else ChangeBus()
        self.table = TableService(self.bus)
        self.library = LibraryService(self.bus)


__all__ = [
    "ChangeBus",
    "Changes",
    "DesignChanges",
    "DesignEdit",
    "DesignEditing",
    "Discarded",
    "EditHistory",
    "Handler",
    "LibraryResult",
    "LibraryService",
    "OpenedSession",
    "ShownGame",
    "PendingResolution",
    "PendingState",
    "ResolveError",
    "RollNotice",
    "RollState",
    "Services",
    "SessionOpenError",
    "Subscriber",
    "TableService",
    "Trash",
    "resolve_dice",
    "compact_dice",
    "procedure_sides",
    "typed_dice",
]
