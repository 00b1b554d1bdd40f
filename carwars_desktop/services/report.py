"""A battle report of a session (issue 36 §2), Qt-free: what the HTML writer
(:mod:`carwars_desktop.services.report_html`) and the PDF print draw.

Everything comes from what the session keeps: the vehicles' sheets as they entered play
and as they stand, and the event log (each applied roll with the exact odds shown before
its dice, :attr:`~carwars_desktop.session.Event.rolls`). The players' copy follows the
session's visibility exactly as the players' display does (``services/players_view.py``):
a vehicle hidden from the players is absent everywhere, secret sheets show only what is
seen at the table (the ruleset's ``public``), the GM's hand marks and settings are not
told, and hidden odds leave out the need, the chance and the luck chart. The GM's copy
(``gm_copy``) shows everything.

The report is a pure function of the session: the same session gives the same report.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from carwars_desktop.dice import EnteredDice
from carwars_desktop.procedures import (
    InputError,
    Procedure,
    RulesRefusal,
    SheetInput,
    percent,
)
from carwars_desktop.rules import AnyRuleset, find_procedure, find_ruleset
from carwars_desktop.rules.play import PlayRules, PublicFact, play_rules
from carwars_desktop.services.table import all_events
from carwars_desktop.session import Event, EventKind, StoredEvent, VehicleInPlay
from carwars_desktop.session.house_rules import HouseRules
from carwars_desktop.session.visibility import Visibility, hidden_names
from carwars_desktop.storage import Database
from carwars_desktop.storage.session_records import LoadedSession, SessionInfo


class ReportError(ValueError):
    """A session that cannot be reported as asked (unknown, ambiguous, unreadable)."""


@dataclass(frozen=True)
class SheetView:
    """One vehicle's sheet in the report: its status words and its facts."""

    key: str
    name: str
    player: str
    status: tuple[str, ...]
    facts: tuple[PublicFact, ...]
    out: bool


@dataclass(frozen=True)
class NarrativeLine:
    seq: int
    turn: int | None
    phase: str | None
    text: str
    details: tuple[str, ...] = ()
    """The event's steps (the GM's copy, or open sheets)."""

    @property
    def when(self) -> str:
        if self.turn is None:
            return ""
        return f"Turn {self.turn}" + (f", {self.phase}" if self.phase else "")


@dataclass(frozen=True)
class Kill:
    victim: str
    by: tuple[str, ...]
    """Who caused it: the other vehicles of the event, else those whose damage it last
    took (a crash after a shot); empty: nobody."""
    turn: int | None
    phase: str | None
    how: str


@dataclass(frozen=True)
class PlayerLuck:
    """A player's rolls against their exact odds: successes thrown and expected, and
    the running totals roll by roll (for the chart)."""

    player: str
    rolls: int
    successes: int
    expected: Fraction
    running: tuple[tuple[int, Fraction], ...]
    """After each of the player's rolls: (successes so far, expected so far)."""

    @property
    def verdict(self) -> str:
        if self.successes > self.expected:
            return "luckier than the odds"
        if self.successes < self.expected:
            return "unluckier than the odds"
        return "exactly as the odds"


@dataclass(frozen=True)
class VictoryCheck:
    title: str
    procedure_id: str
    outcome: str
    steps: tuple[str, ...] = ()
    winners: tuple[str, ...] = ()
    """The vehicles (keys) the check names as the winners: ``X wins`` names one by its
    sheet's name; Mini Car Wars' Pack Attack says "the car wins" (the lone car, its first
    vehicle) or "the cycles win" (the others). None: a draw, no winner yet, not checked."""


def victory_winners(outcome: str, vehicles: Sequence[VehicleInPlay],
                    names: Mapping[str, str]) -> tuple[str, ...]:
    """The keys of the vehicles a victory check's ``outcome`` names as winning (``names``:
    vehicle key → the name its sheet carries)."""
    for vehicle in sorted(vehicles, key=lambda v: -len(names.get(v.key, v.name))):
        if outcome.startswith(f"{names.get(vehicle.key, vehicle.name)} wins"):
            return (vehicle.key,)
    if outcome.startswith("the car wins") and vehicles:
        return (vehicles[0].key,)
    if outcome.startswith("the cycles win"):
        return tuple(v.key for v in vehicles[1:])
    return ()


@dataclass(frozen=True)
class BattleReport:
    title: str
    ruleset: str
    status: str
    started: str
    finished: str
    gm_copy: bool
    visibility: tuple[str, ...]
    """What the players' copy leaves out, in words (empty for the GM's copy)."""
    house_rules: str
    house_departures: tuple[str, ...]
    start: tuple[SheetView, ...]
    end: tuple[SheetView, ...]
    narrative: tuple[NarrativeLine, ...]
    kills: tuple[Kill, ...]
    victory: VictoryCheck | None
    luck: tuple[PlayerLuck, ...]
    luck_note: str
    """Why there is no luck chart (hidden odds, no roll with exact odds), or empty."""


def who(vehicle: VehicleInPlay) -> str:
    """``Ann's Rocket Special`` (the vehicle alone when no player is named)."""
    return f"{vehicle.player}'s {vehicle.name}" if vehicle.player.strip() else vehicle.name


def _sheet_view(ruleset: AnyRuleset, rules: PlayRules, vehicle: VehicleInPlay,
                sheet_json: Mapping[str, Any], sheets_open: bool) -> SheetView:
    sheet = ruleset.sheet_from_json(sheet_json)
    status = tuple(f.word for f in rules.status(sheet)
                   if sheets_open or rules.seen_at_the_table(f))
    return SheetView(vehicle.key, vehicle.name, vehicle.player, status or ("in play",),
                     tuple(rules.public(sheet, sheets_open)), rules.out_of_play(sheet))


def _value_text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _procedure(procedure_id: str | None) -> Procedure | None:
    if not procedure_id:
        return None
    try:
        return find_procedure(procedure_id)
    except LookupError:
        return None


def _inputs_words(procedure: Procedure | None, inputs: Mapping[str, Any]) -> str:
    """The choices the GM made (weapon, side, range…), not the house rules'."""
    if procedure is None:
        return ""
    decided = {spec.name for spec in procedure.decision_inputs}
    words = []
    for item in procedure.inputs:
        if isinstance(item, SheetInput) or item.name in decided or item.name not in inputs:
            continue
        value = inputs[item.name]
        if value is None or value == "" or value is False or \
                value == getattr(item, "default", None):
            continue
        label = item.label.split(" (")[0].lower()
        words.append(f"{label} {_value_text(value)}")
    return ", ".join(words)


def _odds_words(rolls: Sequence[Mapping[str, Any]]) -> str:
    parts = []
    for roll in rolls:
        need, p = roll.get("need"), roll.get("p_success")
        text = f"need {need}+" if need is not None else ""
        if p is not None:
            chance = percent(Fraction(str(p)))
            text = f"{text}, {chance}" if text else chance
        if text:
            parts.append(text)
    return "; ".join(parts)


class _Narrator:
    def __init__(self, ruleset: AnyRuleset, vehicles: Sequence[VehicleInPlay],
                 visibility: Visibility, gm_copy: bool,
                 sheets: Mapping[str, Mapping[str, Any]] | None = None) -> None:
        self.ruleset = ruleset
        self.sheets: dict[str, Mapping[str, Any]] = dict(sheets or {})
        """Each vehicle's sheet as it stands at the event told (the first ones, then each
        event's: :meth:`advance`)."""
        self.vehicles = {v.key: v for v in vehicles}
        self.visibility = visibility
        self.gm_copy = gm_copy
        self.hidden = frozenset() if gm_copy else hidden_names(
            visibility, ((v.key, v.name) for v in vehicles))

    def readable(self, stored: StoredEvent) -> bool:
        event = stored.event
        if stored.undone:
            return False
        if self.gm_copy:
            return True
        if event.kind is EventKind.SETTINGS:
            return False
        keys = set(event.vehicles()) | set(event.bindings.values())
        if any(not self.visibility.shows(k) for k in keys):
            return False
        return not any(name in event.summary for name in self.hidden)

    def line(self, stored: StoredEvent) -> NarrativeLine:
        event = stored.event
        # the steps tell the sheets' facts and the need and odds of each roll
        details = tuple(event.steps) if self.gm_copy or (
            self.visibility.sheets_open and self.visibility.odds_shown) else ()
        if event.kind is EventKind.RESOLUTION:
            text = self._resolution(stored)
        elif event.kind is EventKind.MARK and not (self.gm_copy or
                                                   self.visibility.sheets_open):
            marked = ", ".join(who(self.vehicles[k]) if k in self.vehicles else k
                               for k in event.vehicles())
            text = f"{marked}: the GM marked the sheet"
        elif event.kind is EventKind.MARK:
            text = f"the GM marked the sheet: {event.summary}"
        else:
            text = event.summary
        return NarrativeLine(stored.seq, event.turn, self.phase(event.phase), text, details)

    def advance(self, stored: StoredEvent) -> None:
        """The sheets after an event in force (the next event's weapons are read on them)."""
        for update in stored.event.updates:
            self.sheets[update.vehicle] = update.after

    def _weapon(self, procedure: Procedure | None, stored: StoredEvent) -> str:
        """The weapon a shot was made with, by its name on the firer's sheet as it stood
        (``RL (F)``: the weapon input's choice), or its value when the input names it
        itself; empty when the procedure has no weapon input or it cannot be read."""
        if procedure is None:
            return ""
        spec = next((i for i in procedure.inputs
                     if i.name == "weapon" and not isinstance(i, SheetInput)), None)
        event = stored.event
        value = event.inputs.get("weapon")
        if spec is None or value is None or value == "":
            return ""
        choices_from = getattr(spec, "choices_from", None)
        if choices_from is None:
            return str(value)
        values: dict[str, Any] = dict(event.inputs)
        try:
            for name, key in event.bindings.items():
                values[name] = self.ruleset.sheet_from_json(self.sheets[key])
            pairs = choices_from(values)
        except (KeyError, LookupError, TypeError, ValueError):
            return ""
        for choice, label in pairs:
            if str(choice) == str(value):
                return re.sub(r"^\d+: ", "", str(label).split(" — ")[0]).strip()
        return ""

    def phase(self, phase: str | None) -> str | None:
        """The phase, unless it names a vehicle hidden from the players (``Kart's turn``)."""
        if phase is not None and any(name in phase for name in self.hidden):
            return None
        return phase

    def _resolution(self, stored: StoredEvent) -> str:
        event = stored.event
        procedure = _procedure(event.procedure_id)
        title = procedure.title if procedure is not None else (event.procedure_id or "a roll")
        order = [i.name for i in procedure.inputs if isinstance(i, SheetInput)] \
            if procedure is not None else []
        bound = sorted(event.bindings.items(),
                       key=lambda item: order.index(item[0]) if item[0] in order else 99)
        parties = [who(self.vehicles[key]) for _name, key in bound if key in self.vehicles]
        actor = parties[0] if parties else ""
        others = parties[1:]
        weapon = self._weapon(procedure, stored) if actor and others else ""
        if weapon:  # "Ann's Rocket Special fired its RL (F) at Bob's Courier"
            head = f"{actor} fired its {weapon} at {' and '.join(others)}"
        else:
            head = f"{actor}: {title}" if actor else title
            if others:
                head += f" against {' and '.join(others)}"
        chosen = _inputs_words(procedure, {k: v for k, v in event.inputs.items()
                                           if not (weapon and k == "weapon")})
        if chosen:
            head += f" ({chosen})"
        odds = _odds_words(event.rolls) if self.gm_copy or self.visibility.odds_shown else ""
        if odds:
            head += f" — {odds} —"
        text = f"{head} {event.summary}" if odds else f"{head}: {event.summary}"
        names = [v.name for v in self.vehicles.values()]
        effects = [step for step in event.steps
                   if any(step.startswith(f"{name}:") for name in names)]
        if effects and (self.gm_copy or self.visibility.sheets_open):
            text += ". " + "; ".join(effects)
        return text


def _luck(rolls: Iterable[tuple[str, bool, Fraction]]) -> tuple[PlayerLuck, ...]:
    by_player: dict[str, list[tuple[bool, Fraction]]] = {}
    for player, success, p in rolls:
        by_player.setdefault(player, []).append((success, p))
    result = []
    for player, thrown in by_player.items():
        hits, expected = 0, Fraction(0)
        running = []
        for success, p in thrown:
            hits += int(success)
            expected += p
            running.append((hits, expected))
        result.append(PlayerLuck(player, len(thrown), hits, expected, tuple(running)))
    return tuple(result)


def victory_check(ruleset: AnyRuleset, vehicles: Sequence[VehicleInPlay],
             sheets: Mapping[str, Mapping[str, Any]], house: Mapping[str, Any],
             show_steps: bool) -> VictoryCheck | None:
    procedure = _procedure(ruleset.victory)
    if procedure is None:
        return None
    slots = [i for i in procedure.inputs if isinstance(i, SheetInput)]
    required = [i for i in slots if not getattr(i, "optional", False)]
    if len(vehicles) > len(slots):
        return VictoryCheck(procedure.title, procedure.id,
                            f"not checked: the check takes at most {len(slots)} vehicles, "
                            f"{len(vehicles)} were in play")
    if len(vehicles) < len(required):
        return VictoryCheck(procedure.title, procedure.id,
                            f"not checked: the check takes at least {len(required)} vehicles")
    raw = {slot.name: ruleset.sheet_from_json(sheets[vehicle.key])
           for slot, vehicle in zip(slots, vehicles, strict=False)}
    try:
        values = procedure.bind(raw, house)
        resolution = procedure.resolve(values, EnteredDice(()), house)
    except RulesRefusal as refused:
        return VictoryCheck(procedure.title, procedure.id, refused.refusal.text())
    except (InputError, ValueError) as error:
        return VictoryCheck(procedure.title, procedure.id, f"not checked: {error}")
    steps = tuple(str(step) for step in resolution.steps) if show_steps else ()
    names = {vehicle.key: str(getattr(raw[slot.name], "name", vehicle.name))
             for slot, vehicle in zip(slots, vehicles, strict=False)}
    return VictoryCheck(procedure.title, procedure.id, resolution.outcome, steps,
                        victory_winners(resolution.outcome, vehicles, names))


def _date(value: Any) -> str:
    """In UTC, as stored: the same report on every machine, whatever its time zone."""
    return "" if value is None else value.strftime("%Y-%m-%d %H:%M UTC")


@dataclass(frozen=True)
class Damage:
    """Damage a vehicle took in one event (in the ruleset's damage points) and the other
    vehicles of that event (who dealt it; none for a crash alone)."""

    vehicle: str
    amount: int
    dealers: tuple[str, ...]


@dataclass(frozen=True)
class Fell:
    """A vehicle put out of play by an event, and who caused it (keys): the other vehicles
    of the event, else those whose damage it last took (a crash after a shot)."""

    victim: str
    by: tuple[str, ...]


def damage_trail(ruleset: AnyRuleset, rules: PlayRules, vehicles: Sequence[VehicleInPlay],
                 initial_sheets: Mapping[str, Mapping[str, Any]],
                 events: Iterable[StoredEvent],
                 shown: Callable[[str], bool] = lambda _key: True,
                 ) -> Iterator[tuple[StoredEvent, tuple[Damage, ...], tuple[Fell, ...]]]:
    """Each event in force, in order, with the damage it dealt and the vehicles it put out
    of play, and by whom: the one derivation of kills (the battle report's and the club
    ledger's). ``shown``: the vehicles that may be named (the players' copy leaves hidden
    ones out: as dealers, and as victims)."""
    keys = {v.key for v in vehicles}
    out = {v.key: rules.out_of_play(ruleset.sheet_from_json(initial_sheets[v.key]))
           for v in vehicles}
    last_damaged_by: dict[str, tuple[str, ...]] = {}
    last_after: dict[str, tuple[Mapping[str, Any], int]] = {}
    """Each vehicle's last sheet read and its damage points (the next event's "before" is
    nearly always that sheet: it is not read again)."""

    def points_before(vehicle: str, sheet: Mapping[str, Any]) -> int:
        known = last_after.get(vehicle)
        if known is not None and known[0] == sheet:
            return known[1]
        return rules.damage_points(ruleset.sheet_from_json(sheet))

    for stored in events:
        if stored.undone:
            continue
        event = stored.event
        damages: list[Damage] = []
        fallen: list[Fell] = []
        for update in event.updates:
            if update.vehicle not in out:
                continue
            after = ruleset.sheet_from_json(update.after)
            dealers = tuple(dict.fromkeys(k for k in event.bindings.values()
                                          if k != update.vehicle and k in keys and shown(k)))
            after_points = rules.damage_points(after)
            amount = after_points - points_before(update.vehicle, update.before)
            last_after[update.vehicle] = (update.after, after_points)
            if amount > 0:
                damages.append(Damage(update.vehicle, amount, dealers))
                if dealers:
                    last_damaged_by[update.vehicle] = dealers
            now_out = rules.out_of_play(after)
            if now_out and not out[update.vehicle] and shown(update.vehicle):
                fallen.append(Fell(update.vehicle,
                                   dealers or last_damaged_by.get(update.vehicle, ())))
            out[update.vehicle] = now_out
        yield stored, tuple(damages), tuple(fallen)


def judged_rolls(event: Event, vehicles: Mapping[str, VehicleInPlay]
                 ) -> Iterator[tuple[Mapping[str, Any], list[str]]]:
    """The event's rolls kept with their exact odds and a success or failure, each with its
    vehicles (the one who rolled first): what luck is counted on."""
    for roll in event.rolls:
        p, success = roll.get("p_success"), roll.get("success")
        if p is None or not isinstance(success, bool):
            continue
        keys = _actor_keys(roll)
        if not keys or keys[0] not in vehicles:
            continue
        yield roll, keys


def with_logged_odds(events: Iterable[StoredEvent],
                     logged: Sequence[tuple[str, bool | None, str | None]]
                     ) -> Iterator[StoredEvent]:
    """The events, each resolution recorded before events kept their rolls given the odds
    the roll log kept for it (``logged``: :meth:`GameSessions.applied_rolls`).

    The log names no event: its applied lines are matched to the resolution events in
    order (undone ones included: undoing an event leaves its line applied), each event to
    the next line of its own procedure. An event that kept its rolls uses up its line too
    (the log has one for it), so the two stay in step. A line applied with no event (a
    result applied offline, a clock move's roll) of a procedure that also has events
    would shift the matching: the odds of such a session are then a close reading, and a
    line with no event left unmatched is never counted."""
    queue = list(logged)
    position = 0
    for stored in events:
        event = stored.event
        if event.kind is not EventKind.RESOLUTION or not event.procedure_id:
            yield stored
            continue
        found = next((i for i in range(position, len(queue))
                      if queue[i][0] == event.procedure_id), None)
        if found is None:
            yield stored
            continue
        position = found + 1
        if event.rolls:
            yield stored
            continue
        _procedure_id, success, p_success = queue[found]
        roll = {"procedure": event.procedure_id, "bindings": dict(event.bindings),
                "need": None, "p_success": p_success, "success": success, "from_log": True}
        yield replace(stored, event=replace(event, rolls=(roll,)))


def build_report(info: SessionInfo, loaded: LoadedSession, events: Iterable[StoredEvent],
                 gm_copy: bool = False) -> BattleReport:
    """The report of one session from its stored state and its events, in order."""
    ruleset = find_ruleset(info.ruleset_id)
    rules = play_rules(ruleset.id)
    settings = dict(loaded.settings)
    visibility = Visibility.of(settings)
    house = HouseRules.of(settings)
    sheets_open = gm_copy or visibility.sheets_open
    shown = [v for v in loaded.vehicles if gm_copy or visibility.shows(v.key)]
    narrator = _Narrator(ruleset, loaded.vehicles, visibility, gm_copy,
                         loaded.initial_sheets)
    vehicles = {v.key: v for v in loaded.vehicles}
    narrative: list[NarrativeLine] = []
    kills: list[Kill] = []
    luck_rolls: list[tuple[str, bool, Fraction]] = []
    shown_to = (lambda _key: True) if gm_copy else visibility.shows
    trail = damage_trail(ruleset, rules, loaded.vehicles, loaded.initial_sheets, events,
                         shown_to)
    for stored, _damages, fallen in trail:
        event = stored.event
        for fell in fallen:
            by = tuple(sorted({who(vehicles[k]) for k in fell.by}))
            kills.append(Kill(who(vehicles[fell.victim]), by, event.turn,
                              narrator.phase(event.phase), narrator.line(stored).text
                              if narrator.readable(stored) else "out of play"))
        if narrator.readable(stored):
            narrative.append(narrator.line(stored))
        for roll, keys in judged_rolls(event, vehicles):
            if not gm_copy and any(not visibility.shows(k) for k in keys):
                continue
            actor = vehicles[keys[0]]
            luck_rolls.append((actor.player or actor.name, bool(roll["success"]),
                               Fraction(str(roll["p_success"]))))
        narrator.advance(stored)
    luck = _luck(luck_rolls) if gm_copy or visibility.odds_shown else ()
    luck_note = "" if luck else (
        "the odds are hidden from the players in this session" if not (
            gm_copy or visibility.odds_shown)
        else "no roll with exact odds was applied in this session")
    left_out: list[str] = []
    if not gm_copy:
        if not visibility.sheets_open:
            left_out.append("record sheets are secret: only what is seen at the table")
        if not visibility.odds_shown:
            left_out.append("the odds are hidden")
        if visibility.hidden_vehicles:
            left_out.append("vehicles hidden from the players are left out")
    return BattleReport(
        title=info.title, ruleset=ruleset.title,
        status="running" if info.running else "finished",
        started=_date(info.created_at), finished=_date(info.finished_at), gm_copy=gm_copy,
        visibility=tuple(left_out), house_rules=house.words(ruleset),
        house_departures=tuple(house.departures(ruleset)),
        start=tuple(_sheet_view(ruleset, rules, v, loaded.initial_sheets[v.key], sheets_open)
                    for v in shown),
        end=tuple(_sheet_view(ruleset, rules, v, loaded.sheets[v.key], sheets_open)
                  for v in shown),
        narrative=tuple(narrative), kills=tuple(kills),
        victory=victory_check(ruleset, loaded.vehicles, loaded.sheets, house.checked(ruleset),
                         sheets_open) if gm_copy or not visibility.hidden_vehicles else None,
        luck=luck, luck_note=luck_note)


def _actor_keys(roll: Mapping[str, Any]) -> list[str]:
    """The vehicles of a roll, the one who rolled first (its procedure's first sheet
    input: the firer, the driver)."""
    bindings = roll.get("bindings") or {}
    procedure = _procedure(roll.get("procedure"))
    order = [i.name for i in procedure.inputs if isinstance(i, SheetInput)] \
        if procedure is not None else sorted(bindings)
    return [str(bindings[name]) for name in order if name in bindings]


def find_session(database: Database, text: str) -> SessionInfo:
    """A session by its id (``12``, ``#12``) or its name (or name — scenario); a name
    several sessions share is refused with their ids."""
    sessions = database.game_sessions.all()
    wanted = text.strip()
    number = wanted.lstrip("#")
    if number.isdigit():
        for info in sessions:
            if info.id == int(number):
                return info
    matches = [info for info in sessions if wanted in (info.name, info.title)]
    if not matches:
        matches = [info for info in sessions
                   if info.title.casefold() == wanted.casefold()
                   or info.name.casefold() == wanted.casefold()]
    if len(matches) == 1:
        return matches[0]
    if matches:
        listed = "; ".join(f"#{info.id} {info.title} ({_date(info.created_at)})"
                           for info in sorted(matches, key=lambda i: i.id))
        raise ReportError(f"{wanted!r} names {len(matches)} sessions: {listed} "
                          f"(give the number)")
    known = ", ".join(f"#{info.id} {info.title}" for info in sessions[:8]) or "none"
    raise ReportError(f"no session {wanted!r} (sessions: {known})")


def session_report(database: Database, session: SessionInfo | int,
                   gm_copy: bool = False) -> BattleReport:
    """The report of a stored session (read only: nothing is written)."""

    session_id = session if isinstance(session, int) else session.id
    sessions = database.game_sessions
    loaded = sessions.load(session_id, readable=True)
    if loaded.unreadable:
        raise ReportError(f"session #{session_id} cannot be read: {loaded.unreadable}")
    events = sessions.events(session_id, None, loaded.info.version, "a report reads only")
    read = with_logged_odds(all_events(events), sessions.applied_rolls(session_id))
    return build_report(loaded.info, loaded, read, gm_copy)
