"""Storage: SQLAlchemy models and repositories, Alembic migrations run at start-up.

No Qt here and no dialogs: problems are raised as :class:`DatabaseError`
subclasses whose messages the GUI can show as they are.

The names below are imported when first asked for (PEP 562), so that a module that
needs no database engine (:mod:`carwars_desktop.storage.first_screen`, the errors, the
revisions) can be imported without SQLAlchemy: the app's first screen is read before
SQLAlchemy has loaded (see ``gui/main_window.py``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the names, typed (``X as X``: re-exported)
    from carwars_desktop.storage.database import Database as Database
    from carwars_desktop.storage.database import open_database as open_database
    from carwars_desktop.storage.dice_history import DiceHistory as DiceHistory
    from carwars_desktop.storage.dice_history import DiceRollRecord as DiceRollRecord
    from carwars_desktop.storage.dice_history import InvalidDiceRollError as InvalidDiceRollError
    from carwars_desktop.storage.dice_history import NewDiceRoll as NewDiceRoll
    from carwars_desktop.storage.engine import create_engine_for as create_engine_for
    from carwars_desktop.storage.engine import default_url as default_url
    from carwars_desktop.storage.engine import resolve_url as resolve_url
    from carwars_desktop.storage.entries import DesignEntry as DesignEntry
    from carwars_desktop.storage.errors import CorruptDatabaseError as CorruptDatabaseError
    from carwars_desktop.storage.errors import DatabaseError as DatabaseError
    from carwars_desktop.storage.errors import MigrationHeadsError as MigrationHeadsError
    from carwars_desktop.storage.errors import NewerSchemaError as NewerSchemaError
    from carwars_desktop.storage.errors import NotADatabaseError as NotADatabaseError
    from carwars_desktop.storage.game_sessions import GameSessions as GameSessions
    from carwars_desktop.storage.game_sessions import LoadedSession as LoadedSession
    from carwars_desktop.storage.game_sessions import NewVehicle as NewVehicle
    from carwars_desktop.storage.game_sessions import SessionDataError as SessionDataError
    from carwars_desktop.storage.game_sessions import SessionEvents as SessionEvents
    from carwars_desktop.storage.game_sessions import SessionInfo as SessionInfo
    from carwars_desktop.storage.game_sessions import SessionNotFoundError as SessionNotFoundError
    from carwars_desktop.storage.library import CatalogDesignError as CatalogDesignError
    from carwars_desktop.storage.library import DesignNotFoundError as DesignNotFoundError
    from carwars_desktop.storage.library import DesignRecord as DesignRecord
    from carwars_desktop.storage.library import ImportChoice as ImportChoice
    from carwars_desktop.storage.library import InvalidDesignError as InvalidDesignError
    from carwars_desktop.storage.library import Library as Library
    from carwars_desktop.storage.library import LibraryWriteError as LibraryWriteError
    from carwars_desktop.storage.library import NewDesign as NewDesign
    from carwars_desktop.storage.library import RevisionRecord as RevisionRecord
    from carwars_desktop.storage.migrations import single_head as single_head
    from carwars_desktop.storage.revisions import head_revision as head_revision

_HOMES = {
    "carwars_desktop.storage.database": ("Database", "open_database"),
    "carwars_desktop.storage.dice_history": ("DiceHistory", "DiceRollRecord",
                                             "InvalidDiceRollError", "NewDiceRoll"),
    "carwars_desktop.storage.engine": ("create_engine_for", "default_url", "resolve_url"),
    "carwars_desktop.storage.entries": ("DesignEntry",),
    "carwars_desktop.storage.errors": ("CorruptDatabaseError", "DatabaseError",
                                       "MigrationHeadsError", "NewerSchemaError",
                                       "NotADatabaseError"),
    "carwars_desktop.storage.game_sessions": ("GameSessions", "LoadedSession", "NewVehicle",
                                              "SessionDataError", "SessionEvents",
                                              "SessionInfo", "SessionNotFoundError"),
    "carwars_desktop.storage.library": ("CatalogDesignError", "DesignNotFoundError",
                                        "DesignRecord", "ImportChoice", "InvalidDesignError",
                                        "Library", "LibraryWriteError", "NewDesign",
                                        "RevisionRecord"),
    # Alembic's reading of the scripts: Alembic is imported only when asked for.
    "carwars_desktop.storage.migrations": ("single_head",),
    "carwars_desktop.storage.revisions": ("head_revision",),
}
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}

__all__ = sorted(_HOME_OF)


def __getattr__(name: str) -> object:
    module = _HOME_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
