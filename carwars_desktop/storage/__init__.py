"""Storage: SQLAlchemy models and repositories, Alembic migrations run at start-up.

No Qt here and no dialogs: problems are raised as :class:`DatabaseError`
subclasses whose messages the GUI can show as they are.

The names of the modules that need SQLAlchemy are imported when first asked for
(PEP 562), so that what needs no database engine (:mod:`.first_screen`, the entries,
the errors, the revisions) is imported without it: the app's first screen is read
before SQLAlchemy has loaded (see ``gui/main_window.py``). Alembic comes only with
``single_head``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from carwars_desktop.storage.entries import DesignEntry
from carwars_desktop.storage.errors import (
    CorruptDatabaseError,
    DatabaseError,
    MigrationHeadsError,
    NewerSchemaError,
    NotADatabaseError,
)
from carwars_desktop.storage.revisions import head_revision

if TYPE_CHECKING:  # the names below, typed (``X as X``: re-exported)
    from carwars_desktop.storage.database import Database as Database
    from carwars_desktop.storage.database import open_database as open_database
    from carwars_desktop.storage.dice_history import DiceHistory as DiceHistory
    from carwars_desktop.storage.dice_history import DiceRollRecord as DiceRollRecord
    from carwars_desktop.storage.dice_history import InvalidDiceRollError as InvalidDiceRollError
    from carwars_desktop.storage.dice_history import NewDiceRoll as NewDiceRoll
    from carwars_desktop.storage.engine import create_engine_for as create_engine_for
    from carwars_desktop.storage.engine import default_url as default_url
    from carwars_desktop.storage.engine import resolve_url as resolve_url
    from carwars_desktop.storage.game_sessions import GameSessions as GameSessions
    from carwars_desktop.storage.game_sessions import NewVehicle as NewVehicle
    from carwars_desktop.storage.game_sessions import SessionEvents as SessionEvents
    from carwars_desktop.storage.game_sessions import SessionNotFoundError as SessionNotFoundError
    from carwars_desktop.storage.library import CatalogDesignError as CatalogDesignError
    from carwars_desktop.storage.library import DesignNameTakenError as DesignNameTakenError
    from carwars_desktop.storage.library import DesignNotFoundError as DesignNotFoundError
    from carwars_desktop.storage.library import DesignRecord as DesignRecord
    from carwars_desktop.storage.library import ImportChoice as ImportChoice
    from carwars_desktop.storage.library import InvalidDesignError as InvalidDesignError
    from carwars_desktop.storage.library import Library as Library
    from carwars_desktop.storage.library import LibraryWriteError as LibraryWriteError
    from carwars_desktop.storage.library import NewDesign as NewDesign
    from carwars_desktop.storage.library import RevisionRecord as RevisionRecord
    from carwars_desktop.storage.migrations import single_head as single_head
    from carwars_desktop.storage.session_records import LoadedSession as LoadedSession
    from carwars_desktop.storage.session_records import SessionDataError as SessionDataError
    from carwars_desktop.storage.session_records import SessionInfo as SessionInfo

_WITH_SQLALCHEMY = {
    "database": ("Database", "open_database"),
    "dice_history": ("DiceHistory", "DiceRollRecord", "InvalidDiceRollError", "NewDiceRoll"),
    "engine": ("create_engine_for", "default_url", "resolve_url"),
    "game_sessions": ("GameSessions", "NewVehicle", "SessionEvents", "SessionNotFoundError"),
    "library": ("CatalogDesignError", "DesignNameTakenError", "DesignNotFoundError",
                "DesignRecord", "ImportChoice", "InvalidDesignError", "Library",
                "LibraryWriteError", "NewDesign", "RevisionRecord"),
}
_WITHOUT_SQLALCHEMY = {  # but imported when asked for too: the session core comes with them
    "session_records": ("LoadedSession", "SessionDataError", "SessionInfo"),
}
_HOME_OF = {name: module for modules in (_WITH_SQLALCHEMY, _WITHOUT_SQLALCHEMY)
            for module, names in modules.items() for name in names}

__all__ = [
    "CatalogDesignError",
    "CorruptDatabaseError",
    "Database",
    "DatabaseError",
    "DesignEntry",
    "DesignNameTakenError",
    "DesignNotFoundError",
    "DesignRecord",
    "DiceHistory",
    "DiceRollRecord",
    "GameSessions",
    "ImportChoice",
    "InvalidDesignError",
    "InvalidDiceRollError",
    "Library",
    "LibraryWriteError",
    "LoadedSession",
    "MigrationHeadsError",
    "NewDesign",
    "NewDiceRoll",
    "NewVehicle",
    "NewerSchemaError",
    "NotADatabaseError",
    "RevisionRecord",
    "SessionDataError",
    "SessionEvents",
    "SessionInfo",
    "SessionNotFoundError",
    "create_engine_for",
    "default_url",
    "head_revision",
    "open_database",
    "resolve_url",
    "single_head",
]


def __getattr__(name: str) -> object:
    if name == "single_head":  # Alembic's reading of the scripts: Alembic only when asked
        from carwars_desktop.storage.migrations import single_head

        return single_head
    home = _HOME_OF.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    if home == "session_records":
        from carwars_desktop.storage import session_records

        value = getattr(session_records, name)
        globals()[name] = value
        return value
    # Imported by name, statically (the bundle's analysis sees every import).
    from carwars_desktop.storage import database, dice_history, engine, game_sessions, library

    modules = {"database": database, "dice_history": dice_history, "engine": engine,
               "game_sessions": game_sessions, "library": library}
    value = getattr(modules[home], name)
    globals()[name] = value
    return value
