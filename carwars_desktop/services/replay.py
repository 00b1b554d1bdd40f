"""A stored session opened for replay (issue 36 §1), and "what were the odds?" of each
roll, Qt-free. Reading only: nothing here writes to the database (a running session is
replayed as it stands, without its lease).

The states come from :class:`~carwars_desktop.session.replay.Replay`; the odds of a roll
from what its event kept (:attr:`~carwars_desktop.session.Event.rolls`): its need and
exact P(success) as shown before the dice, and its first throw (the one the need is of),
whose place among every possible throw of those dice is its percentile.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from carwars_desktop.dice.distribution import Distribution, dice_sum
from carwars_desktop.procedures import percent
from carwars_desktop.rules import AnyRuleset, find_procedure, find_ruleset
from carwars_desktop.services.players_view import KEPT_EVENTS, PlayersView, own_sheets, players_view
from carwars_desktop.session import (
    Clock,
    Game,
    MemoryEventStore,
    StoredEvent,
    VehicleInPlay,
)
from carwars_desktop.session.replay import SNAPSHOT_EVERY, Replay
from carwars_desktop.storage import Database
from carwars_desktop.storage.session_records import SessionInfo

NO_ODDS = "odds not kept for this roll"


class ReplayError(ValueError):
    """A session that cannot be replayed (unknown, unreadable)."""


@dataclass(frozen=True)
class ReplaySession:
    """A session's replay: its vehicles and every position's state."""

    info: SessionInfo
    ruleset: AnyRuleset
    vehicles: tuple[VehicleInPlay, ...]
    replay: Replay

    @property
    def title(self) -> str:
        return self.info.title

    def game_at(self, index: int) -> Game:
        """A game standing as the session did after position ``index``, on a store of its
        own in memory (what reads a game reads it; nothing reaches the database)."""
        state = self.replay.state(index)
        sheets = {key: self.ruleset.sheet_from_json(data) for key, data in state.sheets.items()}
        return Game(self.ruleset, self.vehicles, sheets, Clock.from_json(state.clock),
                    MemoryEventStore(), state.settings)

    def players_view_at(self, index: int) -> PlayersView:
        """What the players' display showed after position ``index`` (the session's
        visibility then), its log the last events of that line."""

        game = self.game_at(index)
        view = players_view(game, f"{self.title} (replay)",
                            self.replay.line_events(index, KEPT_EVENTS))
        return dataclasses.replace(view, seats=own_sheets(game))  # the seat links follow too


def open_replay(database: Database, session_id: int,
                snapshot_every: int = SNAPSHOT_EVERY) -> ReplaySession:
    """Read a stored session's events once and index them for replay (read only; safe on
    a worker thread). Its steps read their events again through the session's pages."""
    sessions = database.game_sessions
    try:
        loaded = sessions.load(session_id, readable=True)
        ruleset = find_ruleset(loaded.info.ruleset_id)
    except (LookupError, ValueError) as error:
        raise ReplayError(f"session #{session_id} cannot be replayed: {error}") from error
    events = sessions.events(session_id, None, loaded.info.version, "a replay reads only")
    # a clock that cannot be read: as every session starts, unless an event moved it
    clock = loaded.clock or ruleset.start_clock([v.name for v in loaded.vehicles]).to_json()
    replay = Replay(loaded.initial_sheets, events, clock, loaded.settings, snapshot_every)
    return ReplaySession(loaded.info, ruleset, loaded.vehicles, replay)


@dataclass(frozen=True)
class RollOdds:
    """One roll of an event, as "what were the odds?" tells it."""

    procedure: str
    """Its title (``Fire (to hit, damage, allocation)``)."""
    need: int | None
    p_success: Fraction | None
    success: bool | None
    throw: str
    """The throw the need is of, in words (``10 on 2d6 (to hit (RL (F)))``), or empty."""
    percentile: Fraction | None
    """Where the throw fell among every throw of those dice: P(lower) + P(same)/2."""
    kept: bool = True
    """False: the event was recorded before rolls kept their odds."""

    def words(self) -> str:
        if not self.kept:
            return f"{self.procedure}: {NO_ODDS}"
        parts = []
        if self.need is not None:
            parts.append(f"need {self.need}+")
        if self.p_success is not None:
            parts.append(f"P(success) = {self.p_success.numerator}/"
                         f"{self.p_success.denominator} ({percent(self.p_success)})")
        else:
            parts.append("no exact chance of success for this roll")
        text = f"{self.procedure}: " + ", ".join(parts)
        if self.throw:
            text += f"; threw {self.throw}"
        if self.percentile is not None:
            text += (f", at the {ordinal(round(self.percentile * 100))} percentile "
                     "of those dice")
        if self.success is not None:
            text += " — " + ("success" if self.success else "failure")
        return text


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def percentile(distribution: Distribution, value: int) -> Fraction:
    """The mid-rank percentile of ``value``: P(lower) + P(equal)/2 (exact)."""
    return distribution.p_le(value - 1) + distribution.p_eq(value) / 2


def _title(procedure_id: Any) -> str:
    try:
        return find_procedure(str(procedure_id)).title
    except LookupError:
        return str(procedure_id or "a roll")


def _throw(roll: Mapping[str, Any], event_dice: Sequence[Mapping[str, Any]],
           alone: bool) -> tuple[str, Fraction | None]:
    """The throw in words and its percentile: the roll's own first throw, or (a roll kept
    before throws were, alone in its event) the event's first dice of one purpose."""
    throw = roll.get("throw")
    faces: list[tuple[int, int]] = []
    purpose = ""
    if isinstance(throw, Mapping):
        purpose = str(throw.get("purpose", ""))
        faces = [(int(sides), int(value)) for sides, value in throw.get("dice", ())]
    elif alone and event_dice:
        purpose = str(event_dice[0].get("purpose", ""))
        for die in event_dice:
            if die.get("purpose") != purpose:
                break
            faces.append((int(die["sides"]), int(die["value"])))
    if not faces:
        return "", None
    sides = {s for s, _v in faces}
    total = sum(v for _s, v in faces)
    words = f"{total} on {len(faces)}d{faces[0][0]}" if len(sides) == 1 else str(total)
    if purpose:
        words += f" ({purpose})"
    if len(sides) != 1:
        return words, None
    return words, percentile(dice_sum(len(faces), faces[0][0]), total)


def roll_odds(stored: StoredEvent) -> tuple[RollOdds, ...]:
    """Every roll of the event with its odds; an applied roll of an event recorded before
    rolls kept their odds says so (``kept`` False); an event without a roll has none."""
    event = stored.event
    if not event.rolls:
        if event.procedure_id and event.dice:
            return (RollOdds(_title(event.procedure_id), None, None, None, "", None,
                             kept=False),)
        return ()
    found = []
    for roll in event.rolls:
        p = roll.get("p_success")
        need = roll.get("need")
        success = roll.get("success")
        throw, where = _throw(roll, event.dice, len(event.rolls) == 1)
        found.append(RollOdds(_title(roll.get("procedure")),
                              None if need is None else int(need),
                              None if p is None else Fraction(str(p)),
                              success if isinstance(success, bool) else None, throw, where))
    return tuple(found)
