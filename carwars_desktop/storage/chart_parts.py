"""The charts' parts, kept with each event as it is appended (issue 35 §3, revision 0011).

Each event's :class:`~carwars_desktop.session.history.EventCharts` is written in the
transaction that appends the event (``session_chart_parts``), read through the same
engine function that replays a history from scratch
(:func:`~carwars_desktop.session.history.event_charts`). Undo and redo change only the
event's status, and the charts are the parts of the *active* events, so nothing is kept
twice: :func:`kept_history` folds them with a few grouped queries (the last gauges of
each vehicle per turn, the damage taken per vehicle and dealers) in well under a second
at 100,000 events, where a replay takes tens of seconds.

A session whose events do not all have their parts (an event the engine could not read
when it was kept) has none to fold: :func:`kept_history` says so and its charts are
replayed from the events, as before.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, and_, func, insert, select
from sqlalchemy.orm import Session

from carwars_desktop.rules import Ruleset
from carwars_desktop.rules.play import PlayRules
from carwars_desktop.session import Event, VehicleInPlay
from carwars_desktop.session.history import (
    EventCharts,
    SessionHistory,
    add_damage,
    event_charts,
    start_history,
)
from carwars_desktop.storage.models import SessionChartPartRow, SessionEventRow
from carwars_desktop.storage.states import ACTIVE

EVENT = ""
"""The ``vehicle`` of an event's own row (the one that counts it, in its turn)."""

Remembered = dict[str, tuple[Mapping[str, Any], int]]

_PARTS = SessionChartPartRow.__table__
_EVENTS = SessionEventRow.__table__


def _dumps(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def part_rows(session_id: int, seq: int, charts: EventCharts) -> list[dict[str, Any]]:
    """The ``session_chart_parts`` rows of one event."""
    rows: list[dict[str, Any]] = [{"session_id": session_id, "seq": seq, "vehicle": EVENT,
                                   "turn": charts.turn, "taken": 0, "dealers": "[]",
                                   "gauges": "[]"}]
    for update in charts.updates:
        rows.append({"session_id": session_id, "seq": seq, "vehicle": update.vehicle,
                     "turn": charts.turn, "taken": update.taken,
                     "dealers": _dumps(list(update.dealers)),
                     "gauges": _dumps(list(update.gauges))})
    return rows


def event_part_rows(ruleset: Ruleset, rules: PlayRules, session_id: int, seq: int,
                    event: Event, remembered: Remembered | None = None
                    ) -> list[dict[str, Any]] | None:
    """The rows of ``event``'s part, or None when the engine cannot read its sheets (the
    session's charts are then replayed from its events)."""
    try:
        charts = event_charts(ruleset, rules, event, remembered)
    except (KeyError, TypeError, ValueError):
        return None
    return part_rows(session_id, seq, charts)


def write_parts(connection: Connection | Session, rows: Sequence[Mapping[str, Any]]) -> None:
    if rows:
        connection.execute(insert(_PARTS), list(rows))


def _active(session_id: int) -> Any:
    """Parts of the session's active events."""
    return and_(_PARTS.c.session_id == session_id, _EVENTS.c.session_id == session_id,
                _EVENTS.c.seq == _PARTS.c.seq, _EVENTS.c.status == ACTIVE)


def complete(session: Session, session_id: int) -> bool:
    """Every event of the session (whatever its status) has its part kept."""
    events = session.scalar(select(func.count()).select_from(_EVENTS)
                            .where(_EVENTS.c.session_id == session_id)) or 0
    parts = session.scalar(select(func.count()).select_from(_PARTS)
                           .where(_PARTS.c.session_id == session_id,
                                  _PARTS.c.vehicle == EVENT)) or 0
    return bool(events == parts)


def kept_history(session: Session, session_id: int, ruleset: Ruleset, rules: PlayRules,
                 vehicles: Sequence[VehicleInPlay],
                 initial_sheets: Mapping[str, Mapping[str, Any]]) -> SessionHistory | None:
    """The charts folded from the kept parts of the active events; None when some event
    has no part (see the module docstring)."""
    if not complete(session, session_id):
        return None
    history = start_history(ruleset, rules, vehicles, initial_sheets)
    joined = _PARTS.join(_EVENTS, _active(session_id))
    count, last_turn = session.execute(
        select(func.count(), func.max(_PARTS.c.turn)).select_from(joined)
        .where(_PARTS.c.vehicle == EVENT)).one()
    history.events = int(count or 0)
    history.last_turn = max(0, int(last_turn or 0))
    # Damage: the sums per vehicle and dealers, shared out as the replay does it.
    damage = session.execute(
        select(_PARTS.c.vehicle, _PARTS.c.dealers, func.sum(_PARTS.c.taken))
        .select_from(joined)
        .where(_PARTS.c.vehicle != EVENT, _PARTS.c.taken > 0)
        .group_by(_PARTS.c.vehicle, _PARTS.c.dealers)
        .order_by(_PARTS.c.vehicle, _PARTS.c.dealers)).all()
    for vehicle, dealers, taken in damage:
        add_damage(history, str(vehicle), int(taken), json.loads(dealers))
    # Gauges: each vehicle's after its last active event of each turn.
    last = (select(_PARTS.c.vehicle, _PARTS.c.turn, func.max(_PARTS.c.seq).label("seq"))
            .select_from(joined).where(_PARTS.c.vehicle != EVENT)
            .group_by(_PARTS.c.vehicle, _PARTS.c.turn).subquery())
    gauges = session.execute(
        select(_PARTS.c.vehicle, _PARTS.c.turn, _PARTS.c.gauges)
        .join(last, and_(_PARTS.c.vehicle == last.c.vehicle, _PARTS.c.seq == last.c.seq))
        .where(_PARTS.c.session_id == session_id)).all()
    for vehicle, turn, values in gauges:
        own = history.vehicles.get(str(vehicle))
        if own is None:
            continue
        for label, value in zip(history.gauge_labels, json.loads(values), strict=False):
            own.gauges.setdefault(label, {})[int(turn)] = int(value)
    return history


def all_part_rows(ruleset: Ruleset, rules: PlayRules, session_id: int,
                  events: Iterable[tuple[int, Event]]) -> list[dict[str, Any]] | None:
    """The rows of every event of a session, in order (revision 0011 keeps them once);
    None when one cannot be read."""
    remembered: Remembered = {}
    rows: list[dict[str, Any]] = []
    for seq, event in events:
        part = event_part_rows(ruleset, rules, session_id, seq, event, remembered)
        if part is None:
            return None
        rows.extend(part)
    return rows
