"""Storage: SQLAlchemy models and repositories, Alembic migrations run at start-up.

No Qt here and no dialogs: problems are raised as :class:`DatabaseError`
subclasses whose messages the GUI can show as they are.
"""

from carwars_desktop.storage.database import Database, open_database
from carwars_desktop.storage.dice_history import (
    DiceHistory,
    DiceRollRecord,
    InvalidDiceRollError,
    NewDiceRoll,
)
from carwars_desktop.storage.engine import (
    create_engine_for,
    default_url,
    resolve_url,
)
from carwars_desktop.storage.errors import (
    CorruptDatabaseError,
    DatabaseError,
    MigrationHeadsError,
    NewerSchemaError,
    NotADatabaseError,
)
from carwars_desktop.storage.game_sessions import (
    GameSessions,
    LoadedSession,
    NewVehicle,
    SessionDataError,
    SessionEvents,
    SessionInfo,
    SessionNotFoundError,
)
from carwars_desktop.storage.library import (
    CatalogDesignError,
    DesignEntry,
    DesignNotFoundError,
    DesignRecord,
    ImportChoice,
    InvalidDesignError,
    Library,
    LibraryWriteError,
    NewDesign,
    RevisionRecord,
)
from carwars_desktop.storage.revisions import head_revision

__all__ = [
    "CatalogDesignError",
    "DesignEntry",
    "DesignNotFoundError",
    "DesignRecord",
    "ImportChoice",
    "InvalidDesignError",
    "Library",
    "LibraryWriteError",
    "NewDesign",
    "RevisionRecord",
    "GameSessions",
    "LoadedSession",
    "NewVehicle",
    "SessionEvents",
    "SessionDataError",
    "SessionInfo",
    "SessionNotFoundError",
    "CorruptDatabaseError",
    "Database",
    "DatabaseError",
    "DiceHistory",
    "DiceRollRecord",
    "InvalidDiceRollError",
    "MigrationHeadsError",
    "NewDiceRoll",
    "NewerSchemaError",
    "NotADatabaseError",
    "create_engine_for",
    "default_url",
    "open_database",
    "resolve_url",
    "head_revision",
    "single_head",
]


def __getattr__(name: str) -> object:
    """``single_head`` (Alembic's reading of the scripts) imports Alembic only when asked for."""
    if name == "single_head":
        from carwars_desktop.storage.migrations import single_head

        return single_head
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
