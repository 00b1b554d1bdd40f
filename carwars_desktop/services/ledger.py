"""The club's ledger (issue 36 §3), Qt-free: per player and per vehicle design, across
every finished session of the database — games, wins, kills, deaths, damage dealt and
taken, shots and hits, and luck.

Everything is derived from the sessions' events (no second truth), with the battle
report's own derivations (:mod:`carwars_desktop.services.report`): the kills and who
caused them (:func:`~carwars_desktop.services.report.damage_trail`), the victory check
of the ruleset (``Ruleset.victory``: ``mini.victory``, ``battlecars.winner``,
``autopower.victory``, :func:`~carwars_desktop.services.report.victory_check`) and the
rolls kept with their exact odds (:attr:`~carwars_desktop.session.Event.rolls`).

- games: the vehicle was in play in a finished session (a player with two vehicles in
  one session plays two games);
- wins: the victory check, on the sheets as the session finished, names it the winner;
- kills: vehicles it put out of play (the report's "by"); deaths: it was put out of play;
- damage dealt and taken: the ruleset's damage points a vehicle took in an event, taken
  by it and dealt by each other vehicle of that event (none for a crash alone);
- shots and hits: its rolls of a procedure with a ``target`` (fire, attack) kept with
  exact odds, and those that succeeded;
- luck: over every roll it made kept with exact odds and a success or failure,
  Σ (success − P(success)): hits beyond (positive) or short of (negative) what the odds
  promised, in successes.

Each finished session's summary is computed once and kept in the database with the
session's write counter (``session_ledger``, a cache: derived, so it may be dropped at
any time); a summary whose session has moved on since is computed again. So the ledger
grows as sessions finish. A finished session publishes ``Changes(sessions=True)`` on the
change bus; :meth:`LedgerService.poll` publishes the same when another copy of the app
sharing the database finished one (a cheap stamp of the finished sessions moved).
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction
from typing import Any

from carwars_desktop.rules import find_ruleset
from carwars_desktop.rules.play import play_rules
from carwars_desktop.services.changes import ChangeBus, Changes
from carwars_desktop.services.report import (
    damage_trail,
    judged_rolls,
    victory_check,
    with_logged_odds,
)
from carwars_desktop.services.table import all_events
from carwars_desktop.session import StoredEvent, VehicleInPlay
from carwars_desktop.session.house_rules import HouseRules
from carwars_desktop.storage import Database
from carwars_desktop.storage.errors import WriteFailedError
from carwars_desktop.storage.ledger import LedgerSession, Stamp
from carwars_desktop.storage.session_records import LoadedSession

SUMMARY_FORMAT = 1
"""The summaries' form; a kept summary of another form is computed again."""
NO_PLAYER = "(no player)"
PLAYER, DESIGN = "player", "design"
COLUMNS = ("games", "wins", "kills", "deaths", "damage_dealt", "damage_taken", "shots",
           "hits", "luck")
HEADINGS = {"games": "Games", "wins": "Wins", "kills": "Kills", "deaths": "Deaths",
            "damage_dealt": "Damage dealt", "damage_taken": "Damage taken",
            "shots": "Shots", "hits": "Hits", "luck": "Luck"}


def _fraction(text: Any) -> Fraction:
    return Fraction(str(text))


def summarise(ruleset_id: str, loaded: LoadedSession, events: Iterable[StoredEvent],
              players: Mapping[str, int | None]) -> dict[str, Any]:
    """One finished session's summary (JSON): for each vehicle in play, its player (id)
    and design, and its counts. ``players``: vehicle key → the player linked to it."""
    ruleset = find_ruleset(ruleset_id)
    rules = play_rules(ruleset.id)
    vehicles = {v.key: v for v in loaded.vehicles}
    counts: dict[str, dict[str, Any]] = {
        v.key: {"kills": 0, "deaths": 0, "damage_dealt": 0, "damage_taken": 0, "shots": 0,
                "hits": 0, "rolls": 0, "luck": Fraction(0)} for v in loaded.vehicles}
    for stored, damages, fallen in damage_trail(ruleset, rules, loaded.vehicles,
                                                loaded.initial_sheets, events):
        for damage in damages:
            counts[damage.vehicle]["damage_taken"] += damage.amount
            for dealer in damage.dealers:
                counts[dealer]["damage_dealt"] += damage.amount
        for fell in fallen:
            counts[fell.victim]["deaths"] += 1
            for killer in fell.by:
                counts[killer]["kills"] += 1
        for roll, keys in judged_rolls(stored.event, vehicles):
            mine = counts[keys[0]]
            success = bool(roll["success"])
            mine["rolls"] += 1
            mine["luck"] += int(success) - _fraction(roll["p_success"])
            if "target" in (roll.get("bindings") or {}):
                mine["shots"] += 1
                mine["hits"] += int(success)
    try:
        house = HouseRules.of(loaded.settings).checked(ruleset)
    except ValueError:
        house = {}
    check = victory_check(ruleset, loaded.vehicles, loaded.sheets, house, False)
    winners = set(check.winners) if check is not None else set()
    return {"format": SUMMARY_FORMAT, "ruleset": ruleset.id,
            "victory": check.outcome if check is not None else "",
            "vehicles": [{"key": v.key, "player_id": players.get(v.key),
                          "player": v.player, "design": design_name(v),
                          "won": v.key in winners,
                          **{k: (str(val) if isinstance(val, Fraction) else val)
                             for k, val in counts[v.key].items()}}
                         for v in loaded.vehicles]}


def design_name(vehicle: VehicleInPlay) -> str:
    """The design a vehicle in play is a copy of: the name its copy entered play under,
    without the number a second copy of one design gets (``Courier #2`` is a Courier). A
    vehicle given a name of its own at the table counts under that name."""
    name = vehicle.design.get("name") if isinstance(vehicle.design, Mapping) else None
    text = str(name).strip() if isinstance(name, str) and name.strip() else vehicle.name
    return re.sub(r" #\d+$", "", text)


@dataclass(frozen=True)
class LedgerFilter:
    """Which finished sessions count: a ruleset, a date range (the day a session was
    started, in UTC, both ends included) and a house-rules profile; None: any."""

    ruleset: str | None = None
    since: date | None = None
    until: date | None = None
    profile: str | None = None

    def admits(self, info: LedgerSession) -> bool:
        day = info.created_at.date()
        return ((self.ruleset is None or info.ruleset_id == self.ruleset)
                and (self.since is None or day >= self.since)
                and (self.until is None or day <= self.until)
                and (self.profile is None or info.profile == self.profile))


@dataclass
class LedgerRow:
    """One line of the ledger: a player (``ruleset`` empty) or a design of a ruleset."""

    name: str
    ruleset: str = ""
    games: int = 0
    wins: int = 0
    kills: int = 0
    deaths: int = 0
    damage_dealt: int = 0
    damage_taken: int = 0
    shots: int = 0
    hits: int = 0
    rolls: int = 0
    luck: Fraction = field(default_factory=Fraction)

    def add(self, vehicle: Mapping[str, Any]) -> None:
        self.games += 1
        self.wins += int(bool(vehicle.get("won")))
        for name in ("kills", "deaths", "damage_dealt", "damage_taken", "shots", "hits",
                     "rolls"):
            setattr(self, name, getattr(self, name) + int(vehicle.get(name, 0)))
        self.luck += _fraction(vehicle.get("luck", "0"))

    def value(self, column: str) -> int | Fraction:
        return getattr(self, column)  # type: ignore[no-any-return]

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, **({"ruleset": self.ruleset} if self.ruleset else {}),
                **{c: (round(float(self.luck), 4) if c == "luck" else self.value(c))
                   for c in COLUMNS}, "rolls": self.rolls, "luck_exact": str(self.luck)}


def luck_text(luck: Fraction) -> str:
    """``+1.25``, ``−0.50``, ``0.00``: successes beyond the odds, two decimals."""
    value = round(float(luck), 2)
    if value == 0:
        return "0.00"
    return f"+{value:.2f}" if value > 0 else f"−{-value:.2f}"


@dataclass(frozen=True)
class Ledger:
    """The table: one row per player and one per design (with its ruleset)."""

    players: tuple[LedgerRow, ...]
    designs: tuple[LedgerRow, ...]
    sessions: int
    """How many finished sessions it counts."""

    def rows(self, by: str) -> tuple[LedgerRow, ...]:
        return self.players if by == PLAYER else self.designs

    def to_json(self) -> dict[str, Any]:
        return {"sessions": self.sessions,
                "players": [r.to_json() for r in self.players],
                "designs": [r.to_json() for r in self.designs]}

    def csv(self, by: str = PLAYER) -> str:
        """The rows as CSV (a heading line; luck with two decimals, a plain minus)."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        first = ["Player"] if by == PLAYER else ["Design", "Ruleset"]
        writer.writerow(first + [HEADINGS[c] for c in COLUMNS])
        for row in self.rows(by):
            lead = [row.name] if by == PLAYER else [row.name, row.ruleset]
            writer.writerow(lead + [f"{float(row.luck):.2f}" if c == "luck"
                                    else str(row.value(c)) for c in COLUMNS])
        return out.getvalue()

    def text(self, by: str = PLAYER) -> str:
        """An aligned plain-text table (the command line's)."""
        first = ["Player"] if by == PLAYER else ["Design", "Ruleset"]
        table = [first + [HEADINGS[c] for c in COLUMNS]]
        for row in self.rows(by):
            lead = [row.name] if by == PLAYER else [row.name, row.ruleset]
            table.append(lead + [luck_text(row.luck) if c == "luck" else str(row.value(c))
                                 for c in COLUMNS])
        widths = [max(len(line[i]) for line in table) for i in range(len(table[0]))]
        lead_columns = len(first)
        lines = ["  ".join(cell.ljust(w) if i < lead_columns else cell.rjust(w)
                           for i, (cell, w) in enumerate(zip(line, widths, strict=True)))
                 .rstrip() for line in table]
        return "\n".join(lines) + f"\n({self.sessions} finished session"\
            f"{'s' if self.sessions != 1 else ''})\n"


def build_ledger(summaries: Iterable[Mapping[str, Any]],
                 player_names: Mapping[int, str]) -> Ledger:
    """The ledger of the sessions' summaries (players by their one name; a vehicle with
    no player counts for its design only)."""
    players: dict[object, LedgerRow] = {}
    designs: dict[tuple[str, str], LedgerRow] = {}
    count = 0
    for summary in summaries:
        count += 1
        ruleset = str(summary.get("ruleset", ""))
        for vehicle in summary.get("vehicles", ()):
            player_id = vehicle.get("player_id")
            if player_id is not None:
                name = player_names.get(int(player_id), str(vehicle.get("player", "")))
                players.setdefault(int(player_id), LedgerRow(name)).add(vehicle)
            design = str(vehicle.get("design", ""))
            designs.setdefault((ruleset, design), LedgerRow(design, ruleset)).add(vehicle)
    return Ledger(tuple(sorted(players.values(), key=lambda r: (r.name.casefold(), r.name))),
                  tuple(sorted(designs.values(),
                               key=lambda r: (r.name.casefold(), r.ruleset))), count)


class LedgerService:
    """The ledger of one database: summaries kept up to date, filtered and totalled."""

    def __init__(self, database: Database, bus: ChangeBus | None = None) -> None:
        self.database = database
        self.bus = bus
        self._summaries: dict[int, tuple[int, dict[str, Any]]] = {}
        """Session id → (version, summary): those read or computed this run."""
        self._stamp: Stamp | None = None
        self.computed = 0
        """How many summaries this service computed from events (the others were kept)."""

    def _summary(self, info: LedgerSession) -> dict[str, Any] | None:
        sessions = self.database.game_sessions
        loaded = sessions.load(info.id, readable=True)
        if loaded.unreadable:
            return None
        events = sessions.events(info.id, None, info.version, "the ledger reads only")
        links = self.database.ledger.player_links(info.id)
        self.computed += 1
        read = with_logged_odds(all_events(events), sessions.applied_rolls(info.id))
        return summarise(info.ruleset_id, loaded, read, links)

    def summaries(self, progress: Callable[[int, int], None] | None = None
                  ) -> list[tuple[LedgerSession, dict[str, Any]]]:
        """Every finished session with its summary, oldest first: kept ones read, stale or
        missing ones computed from the events (and kept)."""
        store = self.database.ledger
        finished = store.finished()
        wanted = [i for i in finished if self._summaries.get(i.id, (None,))[0] != i.version]
        if wanted:
            for session_id, kept in store.cached(i.id for i in wanted).items():
                if kept[1].get("format") == SUMMARY_FORMAT:
                    self._summaries[session_id] = kept
        stale = [i for i in finished if self._summaries.get(i.id, (None,))[0] != i.version]
        fresh: dict[int, tuple[int, dict[str, Any]]] = {}
        for number, info in enumerate(stale, 1):
            try:
                summary = self._summary(info)
            except (LookupError, ValueError, TypeError):
                summary = None  # a session the rules cannot read counts for nothing
            if summary is not None:
                fresh[info.id] = (info.version, summary)
            if progress is not None:
                progress(number, len(stale))
        if fresh:
            self._summaries.update(fresh)

            with suppress(WriteFailedError):  # a cache: computed again next time
                store.store(fresh)
        return [(i, self._summaries[i.id][1]) for i in finished if i.id in self._summaries]

    def up_to_date(self) -> bool:
        """Every finished session's summary is at hand (read or computed this run): the
        ledger is then only totalled (quick); otherwise summaries are read or computed."""
        return all(self._summaries.get(i.id, (None,))[0] == i.version
                   for i in self.database.ledger.finished())

    def ledger(self, wanted: LedgerFilter | None = None) -> Ledger:
        wanted = wanted or LedgerFilter()
        chosen = [summary for info, summary in self.summaries() if wanted.admits(info)]
        return build_ledger(chosen, self.database.ledger.player_names())

    def profiles(self) -> list[str]:
        """The house-rules profiles the finished sessions were played under."""
        return sorted({i.profile for i in self.database.ledger.finished()}, key=str.casefold)

    def poll(self, initiator: object = None) -> bool:
        """Look whether a session finished since the last look (by another copy of the app
        sharing the database, or this one); if so tell the bus (``sessions=True``)."""
        stamp = self.database.ledger.stamp()
        moved = self._stamp is not None and stamp != self._stamp
        self._stamp = stamp
        if moved and self.bus is not None:
            self.bus.publish(Changes(initiator, sessions=True))
        return moved


def ledger_json(ledger: Ledger) -> str:
    return json.dumps(ledger.to_json(), indent=2, ensure_ascii=False) + "\n"


def parse_day(text: str) -> date:
    """``2026-11-27``; ValueError with the reason otherwise."""
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"{text!r} is not a date (give YYYY-MM-DD)") from None


def by_column(rows: Sequence[LedgerRow], column: str, descending: bool = True
              ) -> list[LedgerRow]:
    """The rows sorted on one column (names break ties)."""
    if column == "name":
        return sorted(rows, key=lambda r: r.name.casefold(), reverse=not descending)
    return sorted(rows, key=lambda r: (-r.value(column) if descending else r.value(column),
                                       r.name.casefold()))
