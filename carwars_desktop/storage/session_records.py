"""What a stored session reads back as: its list entry, everything needed to resume it,
and each event of its history.

Without SQLAlchemy, like :mod:`.leases`: :mod:`~carwars_desktop.storage.game_sessions`
builds these from its rows, and :mod:`~carwars_desktop.storage.first_screen` from the
same columns read with ``sqlite3`` before SQLAlchemy has loaded (a running game shown at
start-up). The JSON columns are decoded here, once, for both.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from carwars_desktop.session import Event, StoredEvent, VehicleInPlay
from carwars_desktop.storage.leases import LeaseInfo
from carwars_desktop.storage.states import ABANDONED, RUNNING, UNDONE


class SessionDataError(ValueError):
    """A session, player or vehicle name the database cannot keep, or a stored value it
    cannot read back (the message says why)."""


@dataclass(frozen=True)
class SessionInfo:
    """A session as the session list shows it."""

    id: int
    ruleset_id: str
    name: str
    scenario: str
    status: str
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    vehicle_count: int
    event_count: int
    version: int = 0
    lease: LeaseInfo | None = None
    """Who plays it now, if another copy of the app (or this one) holds it."""

    @property
    def running(self) -> bool:
        return self.status == RUNNING

    @property
    def title(self) -> str:
        """The session's name, and its scenario when it has one."""
        return self.name + (f" — {self.scenario}" if self.scenario else "")


@dataclass(frozen=True)
class LoadedSession:
    """Everything needed to resume a session: no event is read."""

    info: SessionInfo
    vehicles: tuple[VehicleInPlay, ...]
    sheets: Mapping[str, Mapping[str, Any]]
    initial_sheets: Mapping[str, Mapping[str, Any]]
    clock: Mapping[str, Any]
    settings: Mapping[str, Any] = field(default_factory=dict)
    unreadable: str = ""
    """Why part of its stored state cannot be read (read with ``readable=True``; that
    part is left empty, and the session opens read-only); empty when all of it reads."""


VEHICLE_COLUMNS = ("key", "name", "player", "design", "current_sheet", "initial_sheet")
"""The ``session_vehicles`` columns :func:`loaded_session` reads, in order."""


def loaded_session(info: SessionInfo, vehicles: Sequence[Sequence[Any]], clock: str,
                   settings: str | None, readable: bool = False) -> LoadedSession:
    """A session to resume from its stored text: ``vehicles`` are rows of
    :data:`VEHICLE_COLUMNS` in seating order. With ``readable``, a clock or settings
    that cannot be read are left empty and the reason kept in
    :attr:`LoadedSession.unreadable` instead of raising :class:`SessionDataError`."""
    if readable:
        reasons: list[str] = []
        try:
            read_clock: Mapping[str, Any] = _read(clock, "clock")
        except SessionDataError as error:
            read_clock, clock = {}, "{}"
            reasons.append(str(error))
        try:
            settings_from_text(settings)
        except SessionDataError as error:
            settings = None
            reasons.append(str(error))
        loaded = loaded_session(info, vehicles, clock, settings)
        return LoadedSession(loaded.info, loaded.vehicles, loaded.sheets,
                             loaded.initial_sheets, read_clock, loaded.settings,
                             "; ".join(reasons))
    return LoadedSession(
        info=info,
        vehicles=tuple(VehicleInPlay(key, name, player,
                                     _read(design, f"design of vehicle {key!r}"))
                       for key, name, player, design, _current, _initial in vehicles),
        sheets={row[0]: _read(row[4], f"sheet of vehicle {row[0]!r}") for row in vehicles},
        initial_sheets={row[0]: _read(row[5], f"first sheet of vehicle {row[0]!r}")
                        for row in vehicles},
        clock=_read(clock, "clock"),
        settings=settings_from_text(settings),
    )


def _read(text: str, what: str) -> Any:
    """A stored JSON value; :class:`SessionDataError` naming ``what`` when it is not one."""
    try:
        return json.loads(text)
    except (ValueError, TypeError) as error:
        shown = text if len(str(text)) <= 40 else f"{str(text)[:40]}…"
        raise SessionDataError(f"the session's stored {what} cannot be read ({error}: "
                               f"{shown!r})") from error


def settings_from_text(text: str | None) -> dict[str, Any]:
    value = _read(text or "{}", "settings")
    if not isinstance(value, dict):
        raise SessionDataError(f"the session's settings are not a JSON object: {text!r}")
    return value


def stored_event(seq: int, body: str, created_at: datetime, status: str) -> StoredEvent:
    """One event of a session's history, from its ``session_events`` row."""
    return StoredEvent(seq, Event.from_json(json.loads(body)), created_at,
                       undone=status in (UNDONE, ABANDONED), abandoned=status == ABANDONED)
