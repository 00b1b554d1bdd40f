"""The live game: vehicles in play, their sheets, the clock, and an event history with undo.

Pure Python (no Qt, no SQLAlchemy): a :class:`Game` writes every event through
an :class:`EventStore` (the database, or memory in tests) *before* it changes
its state, and each operation returns the :class:`Changes` the GUI redraws.
"""

from carwars_desktop.rules.clock import Clock
from carwars_desktop.session.events import Event, EventKind, SheetUpdate, StoredEvent
from carwars_desktop.session.game import Changes, Game, GameError, VehicleInPlay
from carwars_desktop.session.store import (
    EventPages,
    EventStore,
    MemoryEventStore,
    RollLine,
    RollRecord,
    StaleSessionError,
    ThrownDice,
)

__all__ = [
    "Changes",
    "Clock",
    "Event",
    "EventKind",
    "EventPages",
    "EventStore",
    "Game",
    "GameError",
    "MemoryEventStore",
    "RollLine",
    "RollRecord",
    "SheetUpdate",
    "StaleSessionError",
    "StoredEvent",
    "ThrownDice",
    "VehicleInPlay",
]
