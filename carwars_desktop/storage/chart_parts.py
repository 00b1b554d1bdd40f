"""The charts' parts, kept with each event as it is appended (issue 35 §3, revision 0011).

Each event's :class:`~carwars_desktop.session.history.EventCharts` is written in the
transaction that appends the event (``session_chart_parts``), read through the same
engine function that replays a history from scratch
(:func:`~carwars_desktop.session.history.event_charts`), and folded at once into the
session's running aggregates: each vehicle's gauges at the end of each turn
(``session_chart_cells``) and the sums of damage taken per vehicle and dealers and of
events per turn (``session_chart_sums``). The active events are always a stack (undo
takes the newest active one, redo the oldest undone, an append abandons the undone), so
an undo takes its event's part off (:func:`pop`: each cell it set goes back to the
vehicle's previous active event of the turn) and a redo puts it back (:func:`push`), in
the transaction that changes the event's status. :func:`kept_history` reads a few hundred
rows, whatever the length of the history, where a replay of 100,000 events takes tens of
seconds; tests check the two agree.

The event's own row keeps its rolls for the luck chart (its ``gauges``:
``{"rolls": [[success, "p"], …]}``), so an undo takes them out of the luck as it takes the
event's damage out of the sums, and a redo puts them back: :func:`kept_luck` reads them
in order from the active events' rows. A row kept before (``[]``), or of a resolution
that kept no rolls, has none to read: the luck is then counted from the events.

A session whose active events do not all have their parts (an event the engine could
not read when it was kept) has none to fold: :func:`kept_history` says so and its charts
are replayed from the events, as before.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, Table, and_, delete, func, insert, select, update
from sqlalchemy.orm import Session

from carwars_desktop.rules import AnyRuleset
from carwars_desktop.rules.play import PlayRules
from carwars_desktop.session import Event, VehicleInPlay
from carwars_desktop.session.history import (
    EventCharts,
    Luck,
    Roll,
    SessionHistory,
    add_damage,
    event_charts,
    rolls_luck,
    start_history,
)
from carwars_desktop.storage.models import (
    SessionChartCellRow,
    SessionChartPartRow,
    SessionChartSumRow,
    SessionEventRow,
)
from carwars_desktop.storage.states import ACTIVE

EVENT = ""
"""The ``vehicle`` of an event's own row (the one that counts it, in its turn)."""

Remembered = dict[str, tuple[Mapping[str, Any], int]]

_PARTS: Table = SessionChartPartRow.__table__  # type: ignore[assignment]
_EVENTS: Table = SessionEventRow.__table__  # type: ignore[assignment]
_CELLS: Table = SessionChartCellRow.__table__  # type: ignore[assignment]
_SUMS: Table = SessionChartSumRow.__table__  # type: ignore[assignment]


def _dumps(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def part_rows(session_id: int, seq: int, charts: EventCharts) -> list[dict[str, Any]]:
    """The ``session_chart_parts`` rows of one event."""
    rolls = "[]" if charts.rolls is None else _dumps(
        {"rolls": [[success, p] for success, p in charts.rolls]})
    rows: list[dict[str, Any]] = [{"session_id": session_id, "seq": seq, "vehicle": EVENT,
                                   "turn": charts.turn, "taken": 0, "dealers": "[]",
                                   "gauges": rolls}]
    for part in charts.updates:
        rows.append({"session_id": session_id, "seq": seq, "vehicle": part.vehicle,
                     "turn": charts.turn, "taken": part.taken,
                     "dealers": _dumps(list(part.dealers)),
                     "gauges": _dumps(list(part.gauges))})
    return rows


def event_part_rows(ruleset: AnyRuleset, rules: PlayRules, session_id: int, seq: int,
                    event: Event, remembered: Remembered | None = None
                    ) -> list[dict[str, Any]] | None:
    """The rows of ``event``'s part, or None when the engine cannot read its sheets (the
    session's charts are then replayed from its events)."""
    try:
        charts = event_charts(ruleset, rules, event, remembered)
    except Exception:  # whatever the engine raised, the event itself must be kept
        return None
    return part_rows(session_id, seq, charts)


def _active(session_id: int) -> Any:
    """Parts of the session's active events."""
    return and_(_PARTS.c.session_id == session_id, _EVENTS.c.session_id == session_id,
                _EVENTS.c.seq == _PARTS.c.seq, _EVENTS.c.status == ACTIVE)


def _upsert(connection: Connection, table: Any, key: Mapping[str, Any],
            values: Mapping[str, Any], added: Mapping[str, Any] | None = None) -> None:
    """Update the row of ``key`` (``values`` set, ``added`` added to), or insert it (one
    writer per session: the compare-and-append of the transaction's first write)."""
    changes: dict[str, Any] = dict(values)
    for column, amount in (added or {}).items():
        changes[column] = table.c[column] + amount
    result = connection.execute(update(table).where(*(table.c[name] == value
                                                     for name, value in key.items()))
                                .values(**changes))
    if result.rowcount == 0:
        connection.execute(insert(table).values(**key, **values, **(added or {})))


def _sums(connection: Connection, session_id: int, rows: Sequence[Mapping[str, Any]],
          sign: int) -> None:
    for row in rows:
        if row["vehicle"] == EVENT:
            key = {"session_id": session_id, "vehicle": EVENT, "dealers": "",
                   "turn": int(row["turn"])}
            _upsert(connection, _SUMS, key, {}, {"amount": sign})
        elif row["taken"] > 0:
            key = {"session_id": session_id, "vehicle": str(row["vehicle"]),
                   "dealers": str(row["dealers"]), "turn": 0}
            _upsert(connection, _SUMS, key, {}, {"amount": sign * int(row["taken"])})


def push(session: Session, session_id: int, rows: Sequence[Mapping[str, Any]]) -> None:
    """An event became active (appended or redone): it is the newest active one, so its
    gauges are each vehicle's last of its turn."""
    connection = session.connection()
    _sums(connection, session_id, rows, 1)
    for row in rows:
        if row["vehicle"] == EVENT:
            continue
        key = {"session_id": session_id, "vehicle": str(row["vehicle"]),
               "turn": int(row["turn"])}
        _upsert(connection, _CELLS, key, {"seq": int(row["seq"]),
                                          "gauges": str(row["gauges"])})


def pop(session: Session, session_id: int, seq: int) -> None:
    """The newest active event was undone (its status already changed in ``session``):
    its sums come off, and each cell it set goes back to the vehicle's previous active
    event of that turn (or away)."""
    rows = event_rows(session, session_id, seq)
    _sums(session.connection(), session_id, rows, -1)
    connection = session.connection()
    for row in rows:
        if row["vehicle"] == EVENT:
            continue
        vehicle, turn = str(row["vehicle"]), int(row["turn"])
        where = (_CELLS.c.session_id == session_id, _CELLS.c.vehicle == vehicle,
                 _CELLS.c.turn == turn, _CELLS.c.seq == seq)
        if connection.execute(select(_CELLS.c.seq).where(*where)).first() is None:
            continue  # (a later event of the turn set it: never, the event was the newest)
        previous = connection.execute(
            select(_PARTS.c.seq, _PARTS.c.gauges).select_from(_PARTS.join(
                _EVENTS, _active(session_id)))
            .where(_PARTS.c.vehicle == vehicle, _PARTS.c.turn == turn, _PARTS.c.seq < seq)
            .order_by(_PARTS.c.seq.desc()).limit(1)).first()
        if previous is None:
            connection.execute(delete(_CELLS).where(*where))
        else:
            connection.execute(update(_CELLS).where(*where).values(
                seq=int(previous[0]), gauges=str(previous[1])))


def event_rows(session: Session, session_id: int, seq: int) -> list[dict[str, Any]]:
    """The kept part of one event (its rows)."""
    result = session.execute(select(_PARTS).where(_PARTS.c.session_id == session_id,
                                                  _PARTS.c.seq == seq)
                             .order_by(_PARTS.c.id))
    return [dict(row._mapping) for row in result]


def complete(session: Session, session_id: int) -> bool:
    """Every active event of the session has its part in the sums."""
    events = session.scalar(select(func.count()).select_from(_EVENTS)
                            .where(_EVENTS.c.session_id == session_id,
                                   _EVENTS.c.status == ACTIVE)) or 0
    counted = session.scalar(select(func.sum(_SUMS.c.amount))
                             .where(_SUMS.c.session_id == session_id,
                                    _SUMS.c.vehicle == EVENT)) or 0
    return bool(events == counted)


def kept_history(session: Session, session_id: int, ruleset: AnyRuleset, rules: PlayRules,
                 vehicles: Sequence[VehicleInPlay],
                 initial_sheets: Mapping[str, Mapping[str, Any]]) -> SessionHistory | None:
    """The charts from the kept cells and sums (a few hundred rows whatever the length of
    the history); None when some active event has no part (see the module docstring)."""
    if not complete(session, session_id):
        return None
    history = start_history(ruleset, rules, vehicles, initial_sheets)
    sums = session.execute(select(_SUMS.c.vehicle, _SUMS.c.dealers, _SUMS.c.turn,
                                  _SUMS.c.amount)
                           .where(_SUMS.c.session_id == session_id, _SUMS.c.amount > 0)
                           .order_by(_SUMS.c.vehicle, _SUMS.c.dealers, _SUMS.c.turn)).all()
    for vehicle, dealers, turn, amount in sums:
        if vehicle == EVENT:
            history.events += int(amount)
            history.last_turn = max(history.last_turn, int(turn))
        else:
            add_damage(history, str(vehicle), int(amount), json.loads(dealers))
    cells = session.execute(select(_CELLS.c.vehicle, _CELLS.c.turn, _CELLS.c.gauges)
                            .where(_CELLS.c.session_id == session_id)
                            .order_by(_CELLS.c.vehicle, _CELLS.c.turn)).all()
    for vehicle, turn, values in cells:
        own = history.vehicles.get(str(vehicle))
        if own is None:
            continue
        for label, value in zip(history.gauge_labels, json.loads(values), strict=False):
            own.gauges.setdefault(label, {})[int(turn)] = int(value)
    return history


def kept_luck(session: Session, session_id: int) -> Luck | None:
    """The luck of the rolls kept with the active events (in order); None when some
    active event's row keeps none (see the module docstring) or some has no part."""
    if not complete(session, session_id):
        return None
    result = session.execute(select(_PARTS.c.gauges).select_from(_PARTS.join(
        _EVENTS, _active(session_id))).where(_PARTS.c.vehicle == EVENT)
        .order_by(_PARTS.c.seq))
    rolls: list[Roll] = []
    for (kept,) in result:
        value = json.loads(kept)
        if not isinstance(value, dict):
            return None
        rolls += [(bool(success), str(p)) for success, p in value.get("rolls", ())]
    return rolls_luck(rolls)


def all_part_rows(ruleset: AnyRuleset, rules: PlayRules, session_id: int,
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


def aggregate_rows(session_id: int, rows: Sequence[Mapping[str, Any]],
                   active: Collection[int]) -> tuple[list[dict[str, Any]],
                                                     list[dict[str, Any]]]:
    """The cells and sums rows of a session's parts (``rows`` in seq order), its events
    of ``active`` seq pushed one by one (revision 0011 keeps them once)."""
    cells: dict[tuple[str, int], dict[str, Any]] = {}
    sums: dict[tuple[str, str, int], int] = {}
    for row in rows:
        if int(row["seq"]) not in active:
            continue
        vehicle, turn = str(row["vehicle"]), int(row["turn"])
        if vehicle == EVENT:
            sums[EVENT, "", turn] = sums.get((EVENT, "", turn), 0) + 1
            continue
        if row["taken"] > 0:
            key = (vehicle, str(row["dealers"]), 0)
            sums[key] = sums.get(key, 0) + int(row["taken"])
        cells[vehicle, turn] = {"session_id": session_id, "vehicle": vehicle, "turn": turn,
                                "seq": int(row["seq"]), "gauges": str(row["gauges"])}
    return list(cells.values()), [
        {"session_id": session_id, "vehicle": vehicle, "dealers": dealers, "turn": turn,
         "amount": amount} for (vehicle, dealers, turn), amount in sums.items()]
