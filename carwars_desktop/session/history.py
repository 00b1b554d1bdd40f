"""What a finished session's charts show, computed from its events (pure, no plotting).

* gauges per vehicle over the turns (Mini Car Wars armor and DP, AUTOpower Armor
  and what is left of it, Battlecars armour and component boxes left);
* damage taken and dealt per vehicle: a vehicle's damage points that rise in an
  event are *taken*; they are *dealt* by the other vehicles bound to the
  procedure (the firer of a shot, the other car of a collision), shared equally;
  hand marks name no dealer;
* luck: the hits thrown against the exact odds of the Resolver's rolls.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from carwars_desktop.rules import AnyRuleset
from carwars_desktop.rules.play import PlayRules
from carwars_desktop.session.events import Event, StoredEvent
from carwars_desktop.session.game import VehicleInPlay

UNATTRIBUTED = ""


@dataclass
class VehicleHistory:
    """One vehicle's gauges per turn (turn 0 = the start) and its damage taken and dealt."""

    key: str
    name: str
    gauges: dict[str, dict[int, int]] = field(default_factory=dict)
    taken: int = 0
    dealt: Fraction = Fraction(0)

    def series(self, label: str, last_turn: int) -> list[tuple[int, int]]:
        """(turn, value at the end of that turn) for turns 0…last_turn, carried forward."""
        values = self.gauges.get(label, {})
        points: list[tuple[int, int]] = []
        current: int | None = None
        for turn in range(0, last_turn + 1):
            if turn in values:
                current = values[turn]
            if current is not None:
                points.append((turn, current))
        return points


@dataclass
class SessionHistory:
    vehicles: dict[str, VehicleHistory]
    gauge_labels: tuple[str, ...]
    last_turn: int
    unattributed: int = 0
    events: int = 0


@dataclass(frozen=True)
class UpdateCharts:
    """One sheet update's part of the charts: the vehicle's gauges after it (in the order
    of the ruleset's gauge labels), the damage points it took and the vehicles the event
    binds besides it (its dealers, once unknown keys are left out)."""

    vehicle: str
    gauges: tuple[int, ...]
    taken: int
    dealers: tuple[str, ...]


@dataclass(frozen=True)
class EventCharts:
    """One active event's part of the charts (kept with the event as it is appended,
    revision 0011): the turn it counts in and its sheet updates'."""

    turn: int
    updates: tuple[UpdateCharts, ...]


def event_turn(event: Event) -> int:
    """The turn an event's gauges count in (the one it moved the clock to, if later)."""
    turn = event.turn or 1
    if event.clock_after is not None:
        turn = max(turn, int(event.clock_after.get("turn", turn)))
    return turn


def event_charts(ruleset: AnyRuleset, rules: PlayRules, event: Event,
                 remembered: dict[str, tuple[Mapping[str, Any], int]] | None = None
                 ) -> EventCharts:
    """What ``event`` adds to the charts, read through the engine.

    ``remembered``: vehicle → (its last sheet after, that sheet's damage points), kept
    from one event to the next: each update's "before" is nearly always the same
    vehicle's previous "after", so each event then reads one sheet, not two.
    """
    memo = remembered if remembered is not None else {}
    updates = []
    for update in event.updates:
        known = memo.get(update.vehicle)
        if known is not None and known[0] == update.before:
            points_before = known[1]
        else:
            points_before = rules.damage_points(ruleset.sheet_from_json(update.before))
        after = ruleset.sheet_from_json(update.after)
        points_after = rules.damage_points(after)
        memo[update.vehicle] = (update.after, points_after)
        dealers = tuple(sorted({key for key in event.bindings.values()
                                if key != update.vehicle}))
        updates.append(UpdateCharts(update.vehicle,
                                    tuple(gauge.value for gauge in rules.gauges(after)),
                                    points_after - points_before, dealers))
    return EventCharts(event_turn(event), tuple(updates))


def start_history(ruleset: AnyRuleset, rules: PlayRules, vehicles: Sequence[VehicleInPlay],
                  initial_sheets: Mapping[str, Mapping[str, Any]]) -> SessionHistory:
    """The charts before any event: every vehicle's gauges at turn 0."""
    histories = {v.key: VehicleHistory(v.key, v.name) for v in vehicles}
    labels: tuple[str, ...] = ()
    for vehicle in vehicles:
        gauges = rules.gauges(ruleset.sheet_from_json(initial_sheets[vehicle.key]))
        labels = tuple(g.label for g in gauges)
        histories[vehicle.key].gauges = {g.label: {0: g.value} for g in gauges}
    return SessionHistory(histories, labels, 0)


def add_damage(history: SessionHistory, vehicle: str, taken: int,
               dealers: Iterable[str]) -> None:
    """``taken`` damage points of ``vehicle``, dealt by ``dealers`` in equal shares (the
    keys that are no vehicle of the session left out; with none it is unattributed)."""
    histories = history.vehicles
    own = histories.get(vehicle)
    if own is None or taken <= 0:
        return
    own.taken += taken
    named = [key for key in dealers if key in histories]
    if not named:
        history.unattributed += taken
    for dealer in named:
        histories[dealer].dealt += Fraction(taken, len(named))


def add_event(history: SessionHistory, charts: EventCharts) -> None:
    """Fold one active event's part into the charts."""
    history.events += 1
    history.last_turn = max(history.last_turn, charts.turn)
    for update in charts.updates:
        own = history.vehicles.get(update.vehicle)
        if own is None:
            continue
        for label, value in zip(history.gauge_labels, update.gauges, strict=False):
            own.gauges.setdefault(label, {})[charts.turn] = value
        add_damage(history, update.vehicle, update.taken, update.dealers)


def replay_history(ruleset: AnyRuleset, rules: PlayRules, vehicles: Sequence[VehicleInPlay],
                   initial_sheets: Mapping[str, Mapping[str, Any]],
                   events: Iterable[StoredEvent]) -> SessionHistory:
    """Walk the active events once, reading each changed sheet through the engine (the
    charts from scratch; the ones kept as events are appended must equal them)."""
    history = start_history(ruleset, rules, vehicles, initial_sheets)
    remembered: dict[str, tuple[Mapping[str, Any], int]] = {}
    for stored in events:
        if stored.undone:
            continue
        add_event(history, event_charts(ruleset, rules, stored.event, remembered))
    return history


@dataclass(frozen=True)
class Luck:
    """Cumulative successes thrown and expected, roll by roll (exact expectations)."""

    thrown: tuple[int, ...]
    expected: tuple[Fraction, ...]

    @property
    def rolls(self) -> int:
        return len(self.thrown)

    def summary(self) -> str:
        if not self.thrown:
            return "no Resolver roll with exact odds was applied in this session"
        hits, expected = self.thrown[-1], self.expected[-1]
        verdict = "luckier than the odds" if hits > expected else \
            "unluckier than the odds" if hits < expected else "exactly as the odds"
        return (f"{hits} success{'' if hits == 1 else 'es'} in {self.rolls} "
                f"roll{'' if self.rolls == 1 else 's'}, {float(expected):.1f} expected: "
                f"{verdict}")


def luck(resolutions: Sequence[tuple[str, bool | None, str | None, bool]]) -> Luck:
    """From ``GameSessions.resolutions()``: applied rolls that had a success and exact odds."""
    thrown: list[int] = []
    expected: list[Fraction] = []
    hits = 0
    total = Fraction(0)
    for _procedure, success, p_success, applied in resolutions:
        if not applied or success is None or p_success is None:
            continue
        hits += int(success)
        total += Fraction(p_success)
        thrown.append(hits)
        expected.append(total)
    return Luck(tuple(thrown), tuple(expected))


CHARTS_FORMAT = 1
"""The version of :func:`charts_to_json`'s form (stored with finished sessions)."""


def _fraction(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def charts_to_json(history: SessionHistory, luck_: Luck) -> dict[str, Any]:
    """The charts' aggregates as JSON, to keep with the finished session."""
    return {
        "format": CHARTS_FORMAT,
        "gauge_labels": list(history.gauge_labels),
        "last_turn": history.last_turn,
        "unattributed": history.unattributed,
        "events": history.events,
        "vehicles": [{"key": v.key, "name": v.name, "taken": v.taken,
                      "dealt": _fraction(v.dealt),
                      "gauges": {label: [[turn, value] for turn, value in sorted(by_turn.items())]
                                 for label, by_turn in v.gauges.items()}}
                     for v in history.vehicles.values()],
        "luck": {"thrown": list(luck_.thrown),
                 "expected": [_fraction(e) for e in luck_.expected]},
    }


def charts_from_json(data: Mapping[str, Any]) -> tuple[SessionHistory, Luck]:
    """What :func:`charts_to_json` kept; ValueError if it is not that form."""
    if data.get("format") != CHARTS_FORMAT:
        raise ValueError(f"stored charts of format {data.get('format')!r}, "
                         f"not {CHARTS_FORMAT}")
    vehicles = {}
    for raw in data["vehicles"]:
        vehicle = VehicleHistory(str(raw["key"]), str(raw["name"]),
                                 {str(label): {int(t): int(v) for t, v in points}
                                  for label, points in raw["gauges"].items()},
                                 int(raw["taken"]), Fraction(raw["dealt"]))
        vehicles[vehicle.key] = vehicle
    history = SessionHistory(vehicles, tuple(str(x) for x in data["gauge_labels"]),
                             int(data["last_turn"]), int(data["unattributed"]),
                             int(data["events"]))
    luck_ = Luck(tuple(int(x) for x in data["luck"]["thrown"]),
                 tuple(Fraction(x) for x in data["luck"]["expected"]))
    return history, luck_
