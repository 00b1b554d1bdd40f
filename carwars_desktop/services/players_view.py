"""The players' view: everything the table may see, as plain JSON-able values.

The one place that applies the session's :class:`~carwars_desktop.session.visibility.Visibility`:
the players' display window draws a :class:`PlayersView` and nothing else, and the
phones' page can serve its :meth:`PlayersView.to_json`. A value the players may not
know is never put in it: secret record sheets keep out armor left and weapons (the
ruleset's :attr:`~carwars_desktop.rules.play.PlayRules.public` says what is seen at
the table), hidden odds keep out the need and the chance, and a hidden vehicle (an
ambush) is absent everywhere — its card, the clock, the roll, the log.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from carwars_desktop.procedures import SheetInput, odds_text
from carwars_desktop.rules import find_procedure
from carwars_desktop.rules.play import PlayRules, PublicFact, play_rules
from carwars_desktop.services.changes import RollNotice, RollState
from carwars_desktop.session import Changes as GameChanges
from carwars_desktop.session import EventKind, Game, StoredEvent
from carwars_desktop.session.visibility import Visibility, hidden_names

LOG_LINES = 5
"""How many of the last events the display lists."""


@dataclass(frozen=True)
class StatusView:
    word: str
    symbol: str
    level: str

    def to_json(self) -> dict[str, str]:
        return {"word": self.word, "symbol": self.symbol, "level": self.level}


IN_PLAY = StatusView("in play", "●", "info")


@dataclass(frozen=True)
class VehicleView:
    """One vehicle as the players see it; ``turn`` is ``now``, ``next`` or empty."""

    key: str
    name: str
    player: str
    status: tuple[StatusView, ...]
    facts: tuple[PublicFact, ...]
    out: bool
    turn: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "name": self.name, "player": self.player,
                "status": [s.to_json() for s in self.status],
                "facts": [f.to_json() for f in self.facts], "out": self.out,
                "turn": self.turn}


@dataclass(frozen=True)
class ClockView:
    word: str
    turn: int
    phase: str
    now: tuple[str, ...]
    next: tuple[str, ...]

    @property
    def title(self) -> str:
        return f"{self.word.capitalize()} {self.turn}" + (f" · {self.phase}" if self.phase
                                                          else "")

    def to_json(self) -> dict[str, Any]:
        return {"word": self.word, "turn": self.turn, "phase": self.phase,
                "now": list(self.now), "next": list(self.next)}


@dataclass(frozen=True)
class RollView:
    """The roll in progress: before Apply its need and exact odds (unless hidden); once
    applied, the dice and the result."""

    state: str
    title: str
    parties: tuple[tuple[str, str], ...]
    """(input label, vehicle name): ``("Firing vehicle", "Kart")``."""
    modifiers: tuple[tuple[str, int], ...] = ()
    need: int | None = None
    odds: str = ""
    """``7/12 · 58.3%`` (empty when hidden or unknown)."""
    dice: tuple[int, ...] = ()
    outcome: str = ""
    success: bool | None = None

    def to_json(self) -> dict[str, Any]:
        return {"state": self.state, "title": self.title,
                "parties": [list(p) for p in self.parties],
                "modifiers": [list(m) for m in self.modifiers], "need": self.need,
                "odds": self.odds, "dice": list(self.dice), "outcome": self.outcome,
                "success": self.success}


@dataclass(frozen=True)
class PlayersView:
    title: str
    ruleset: str
    vehicles: tuple[VehicleView, ...]
    clock: ClockView | None
    roll: RollView | None
    log: tuple[str, ...]
    sheets_open: bool
    odds_shown: bool
    seats: Mapping[str, VehicleView | None] | None = field(default=None, compare=False)
    """Each vehicle's own sheet for its seat link at the same moment (a replayed moment
    carries them, :func:`own_sheets` of the replayed game); never in :meth:`to_json`, which
    is what every screen may see."""

    def vehicle(self, key: str) -> VehicleView | None:
        return next((v for v in self.vehicles if v.key == key), None)

    def to_json(self) -> dict[str, Any]:
        return {"title": self.title, "ruleset": self.ruleset,
                "vehicles": [v.to_json() for v in self.vehicles],
                "clock": None if self.clock is None else self.clock.to_json(),
                "roll": None if self.roll is None else self.roll.to_json(),
                "log": list(self.log), "sheets_open": self.sheets_open,
                "odds_shown": self.odds_shown}


EMPTY = PlayersView("No session at the table", "", (), None, None, (), True, True)


def vehicle_view(game: Game, rules: PlayRules, visibility: Visibility, key: str,
                 turn: str = "") -> VehicleView | None:
    """One vehicle's card, or None when it is hidden from the players."""
    if not visibility.shows(key):
        return None
    vehicle = game.vehicle(key)
    sheet = game.sheet(key)
    flags = tuple(StatusView(f.word, f.symbol, f.level.value) for f in rules.status(sheet)
                  if visibility.sheets_open or rules.seen_at_the_table(f))
    return VehicleView(key, vehicle.name, vehicle.player, flags or (IN_PLAY,),
                       tuple(rules.public(sheet, visibility.sheets_open)),
                       rules.out_of_play(sheet), turn)


def turns(game: Game, rules: PlayRules, visibility: Visibility) -> dict[str, str]:
    """Vehicle key → ``now`` / ``next`` for the shown vehicles."""
    order = rules.turn_order(game.clock, {v.key: (v.name, game.sheet(v.key))
                                          for v in game.vehicles})
    found = {key: "next" for key in order.next}
    found.update({key: "now" for key in order.now})
    return {key: turn for key, turn in found.items() if visibility.shows(key)}


def clock_view(game: Game, turn_of: Mapping[str, str], visibility: Visibility) -> ClockView:
    clock = game.clock
    names = {v.key: v.name for v in game.vehicles}
    hidden = hidden_names(visibility, names.items())
    phase = "" if any(name in clock.phase_name for name in hidden) else clock.phase_name
    return ClockView(clock.word, clock.turn, phase,
                     tuple(names[k] for k, t in turn_of.items() if t == "now"),
                     tuple(names[k] for k, t in turn_of.items() if t == "next"))


def _percent(p: Any) -> str:
    return odds_text(p)


def roll_view(game: Game | None, notice: RollNotice | None,
              visibility: Visibility) -> RollView | None:
    """The roll in progress as the players may see it; None when there is none, when it
    was discarded, or when it involves a vehicle hidden from them."""

    if notice is None or notice.state is RollState.DISCARDED:
        return None
    if notice.pending is None:
        return _prepared_view(game, notice, visibility)
    pending = notice.pending
    resolution = pending.resolution
    if any(not visibility.shows(key) for key in pending.bindings.values()):
        return None
    try:
        procedure = find_procedure(resolution.procedure_id)
    except LookupError:
        return None
    hidden = hidden_names(visibility, ((v.key, v.name) for v in game.vehicles)) \
        if game is not None else frozenset()
    parties: list[tuple[str, str]] = []
    for item in procedure.inputs:
        if not isinstance(item, SheetInput) or item.name not in resolution.inputs:
            continue
        key = pending.bindings.get(item.name)
        if key is not None and game is not None:
            name = game.vehicle(key).name
        else:
            name = str(getattr(resolution.inputs[item.name], "name", ""))
        if name in hidden:
            return None
        parties.append((item.label, name))
    odds = pending.odds
    shown = odds is not None and visibility.odds_shown
    p = odds.p_success() if odds is not None else None
    applied = notice.state is RollState.APPLIED
    return RollView(
        state=notice.state.value, title=procedure.title, parties=tuple(parties),
        modifiers=tuple((m.label, m.value) for m in odds.modifiers)
        if shown and odds is not None else (),
        need=odds.need if shown and odds is not None else None,
        odds=_percent(p) if shown and p is not None else "",
        dice=tuple(d.value for d in resolution.dice) if applied else (),
        outcome=resolution.outcome if applied else "",
        success=resolution.success if applied else None)


def _prepared_view(game: Game | None, notice: RollNotice,
                   visibility: Visibility) -> RollView | None:
    """The roll the GM is preparing: its vehicles, need and exact odds (unless hidden),
    before any die; None when it involves a vehicle hidden from the players."""

    prepared = notice.prepared
    if prepared is None or game is None:
        return None
    if any(not visibility.shows(key) for key in prepared.bindings.values()):
        return None
    try:
        procedure = find_procedure(prepared.procedure_id)
        parties = tuple((item.label, game.vehicle(prepared.bindings[item.name]).name)
                        for item in procedure.inputs
                        if isinstance(item, SheetInput) and item.name in prepared.bindings)
    except (LookupError, ValueError):
        return None
    hidden = hidden_names(visibility, ((v.key, v.name) for v in game.vehicles))
    if any(name in hidden for _label, name in parties):
        return None
    odds = prepared.odds if visibility.odds_shown else None
    p = odds.p_success() if odds is not None else None
    return RollView(state=notice.state.value, title=procedure.title, parties=parties,
                    modifiers=tuple((m.label, m.value) for m in odds.modifiers)
                    if odds is not None else (),
                    need=odds.need if odds is not None else None,
                    odds=_percent(p) if p is not None else "")


def log_line(game: Game, stored: StoredEvent, visibility: Visibility) -> str | None:
    """An event in plain words, or None when the players may not read it.

    Settings events are the GM's business; events about a hidden vehicle are left
    out; with secret sheets a hand mark says only which vehicle was marked (its
    summary may tell what is left: ``left 9 → 4``).
    """
    event = stored.event
    if stored.undone or event.kind is EventKind.SETTINGS:
        return None
    names = {v.key: v.name for v in game.vehicles}
    keys = set(event.vehicles()) | set(event.bindings.values())
    if any(not visibility.shows(k) for k in keys):
        return None
    if any(name in event.summary for name in hidden_names(visibility, names.items())):
        return None
    if event.kind is EventKind.MARK and not visibility.sheets_open:
        marked = ", ".join(names.get(k, k) for k in event.vehicles())
        return f"{marked}: the GM marked the sheet"
    return event.summary


def log_lines(game: Game, events: Iterable[StoredEvent], visibility: Visibility,
              limit: int = LOG_LINES) -> tuple[str, ...]:
    """The last ``limit`` readable events, newest last."""
    lines = [line for line in (log_line(game, e, visibility) for e in events)
             if line is not None]
    return tuple(lines[-limit:])


def players_view(game: Game | None, title: str = "", events: Sequence[StoredEvent] = (),
                 roll: RollNotice | None = None) -> PlayersView:
    """The whole players' view of ``game`` (its settings say what is hidden)."""
    if game is None:
        return EMPTY
    visibility = Visibility.of(game.settings)
    rules = play_rules(game.ruleset.id)
    turn_of = turns(game, rules, visibility)
    vehicles = tuple(view for view in (vehicle_view(game, rules, visibility, v.key,
                                                    turn_of.get(v.key, ""))
                                       for v in game.vehicles) if view is not None)
    return PlayersView(title or game.ruleset.title, game.ruleset.title, vehicles,
                       clock_view(game, turn_of, visibility),
                       roll_view(game, roll, visibility),
                       log_lines(game, events, visibility), visibility.sheets_open,
                       visibility.odds_shown)


def own_sheets(game: Game | None) -> dict[str, VehicleView | None]:
    """Each vehicle's own record sheet as its driver reads it (a seat's link on the phones'
    page): every fact, as with open sheets, whatever the session keeps secret from the
    others; None for a vehicle hidden from the players (nothing of it is shown, not even
    to its own seat, until the GM shows it)."""
    if game is None:
        return {}
    visibility = Visibility.of(game.settings)
    rules = play_rules(game.ruleset.id)
    turn_of = turns(game, rules, visibility)
    own = Visibility(True, visibility.odds_shown, visibility.hidden_vehicles)
    return {v.key: vehicle_view(game, rules, own, v.key, turn_of.get(v.key, ""))
            for v in game.vehicles}


KEPT_EVENTS = LOG_LINES * 4
"""How many of the last events a view keeps (undone ones included)."""


def recent_events(pages: Any, limit: int = KEPT_EVENTS) -> list[StoredEvent]:
    """The last ``limit`` events of a store that pages (undone ones included, flagged)."""
    count = int(pages.count(include_undone=True))
    return list(pages.page(max(0, count - limit), limit))


def follow_events(events: list[StoredEvent], changes: GameChanges) -> list[StoredEvent]:
    """The last events kept in step with an event, an undo or a redo (no query): an undone
    or redone event is replaced in place; a new one forgets the undone ones (they can no
    longer be redone) and the oldest beyond :data:`KEPT_EVENTS`."""
    stored = changes.event
    if stored is None:
        return events
    mine = StoredEvent(stored.seq, stored.event, stored.created_at, changes.undone)
    if any(known.seq == stored.seq for known in events):
        return [mine if known.seq == stored.seq else known for known in events]
    return [*[e for e in events if not e.undone][-(KEPT_EVENTS - 1):], mine]
