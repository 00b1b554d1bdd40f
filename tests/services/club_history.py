"""A generated club history for the ledger's tests and benchmark: sessions of the three
rulesets played through the services with fixed dice (seeded), each shot's effects noted
from the live game as it was played — the totals the ledger must find again from the
stored events, computed here without the ledger's code."""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from typing import Any

from carwars_desktop.dice import SeededDice
from carwars_desktop.procedures import RulesRefusal
from carwars_desktop.rules import find_procedure, find_ruleset
from carwars_desktop.rules.battlecars import EXAMPLE_CARD_NAME
from carwars_desktop.rules.play import play_rules
from carwars_desktop.services import Services
from carwars_desktop.session import Game
from carwars_desktop.session.setup import Entry, prepare

PLAYERS = ("Ann", "Bob", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana")
RULESETS = ("mini_car_wars", "battlecars", "autopower")
DESIGNS = {"mini_car_wars": ("Rocket Special", "Courier", "Killer Kart", "Mini Sherman"),
           "battlecars": (EXAMPLE_CARD_NAME,),
           "autopower": ("Longshot", "Bishop", "Rhino", "Black Cat")}
FIRE = {"mini_car_wars": ("mini.fire", {"side": "F", "range": "5"}),
        "battlecars": ("battlecars.fire", {"mount": "Pod D", "area": "front",
                                           "points_between": 2, "mode": "own-turn"}),
        "autopower": ("autopower.attack", {"cards": "4"})}
START = datetime(2026, 1, 2, 19, 0, tzinfo=UTC)
COUNTED = ("games", "wins", "kills", "deaths", "damage_dealt", "damage_taken", "shots",
           "hits")


@dataclass
class Totals:
    """What happened at the table, per player and per (ruleset, design)."""

    players: dict[str, dict[str, Any]] = field(
        default_factory=lambda: defaultdict(_zero))
    designs: dict[tuple[str, str], dict[str, Any]] = field(
        default_factory=lambda: defaultdict(_zero))
    sessions: list[tuple[int, str, datetime]] = field(default_factory=list)
    """(id, ruleset, started) of each session."""
    per_session: dict[int, dict[str, dict[str, Any]]] = field(default_factory=dict)
    """Session id → player → their counts in it (for filtered totals)."""


def _zero() -> dict[str, Any]:
    return {**{name: 0 for name in COUNTED}, "luck": Fraction(0)}


def _points(game: Game, key: str) -> int:
    return play_rules(game.ruleset.id).damage_points(game.sheet(key))


def _out(game: Game, key: str) -> bool:
    return play_rules(game.ruleset.id).out_of_play(game.sheet(key))


def play_session(services: Services, number: int, rng: random.Random,
                 totals: Totals, max_rounds: int = 8) -> int:
    """One session of two players; its id."""
    ruleset_id = RULESETS[number % len(RULESETS)]
    ruleset = find_ruleset(ruleset_id)
    catalog = ruleset.catalog()
    names = rng.sample(PLAYERS, 2)
    # (the same player typed differently is the same player)
    # (a player's first session names them; later ones may type them otherwise)
    typed = [name if name not in totals.players else
             name.upper() if rng.random() < 0.3 else f" {name.lower()} " for name in names]
    designs = [rng.choice(DESIGNS[ruleset_id]) for _ in names]
    entries = [Entry(t, d, catalog[d].to_json()) for t, d in zip(typed, designs, strict=True)]
    scenario = "street" if ruleset_id == "battlecars" else ""
    setup = prepare(ruleset, entries, scenario) if scenario else prepare(ruleset, entries)
    table = services.table
    session_id = table.start(ruleset_id, f"Club night {number}", scenario, setup)
    table.open(session_id)
    game = table.running()
    keys = [v.key for v in game.vehicles]
    who = dict(zip(keys, names, strict=True))
    design_of = dict(zip(keys, designs, strict=True))
    mine: dict[str, dict[str, Any]] = defaultdict(_zero)

    def count(key: str, what: str, amount: Any = 1) -> None:
        mine[who[key]][what] += amount
        totals.designs[(ruleset_id, design_of[key])][what] += amount

    procedure_id, shot = FIRE[ruleset_id]
    procedure = find_procedure(procedure_id)
    for _round in range(max_rounds):
        for firer, target in ((keys[0], keys[1]), (keys[1], keys[0])):
            if _out(game, firer) or _out(game, target):
                continue
            if ruleset_id == "battlecars":
                table.set_clock(game.clock.advanced(), "on")
            if ruleset_id == "autopower":  # AUTOpower §2.3 step 4: in its own Combat phase
                combat = f"{game.sheet(firer).name}: combat"  # type: ignore[attr-defined]
                for _ in range(len(game.clock.phases)):
                    if game.clock.phase_name == combat:
                        break
                    table.set_clock(game.clock.advanced(), "on")
            raw = {**shot, "firer": game.sheet(firer), "target": game.sheet(target)}
            try:
                values = procedure.bind(raw, table.house_for(ruleset_id))
            except RulesRefusal:  # (the rules say no this turn: no shot)
                continue
            before = {k: (_points(game, k), _out(game, k)) for k in keys}
            pending = table.resolve(procedure, values, SeededDice(rng.randrange(10**6)),
                                    bindings={"firer": firer, "target": target})
            p, success = pending.p_success(), pending.resolution.success
            if not pending.can_apply():
                pending.discard()
                continue
            pending.apply()
            if p is not None and isinstance(success, bool):
                count(firer, "shots")
                count(firer, "hits", int(success))
                count(firer, "luck", int(success) - Fraction(p))
            for key, other in ((firer, target), (target, firer)):
                taken = _points(game, key) - before[key][0]
                if taken > 0:
                    count(key, "damage_taken", taken)
                    count(other, "damage_dealt", taken)
                if _out(game, key) and not before[key][1]:
                    count(key, "deaths")
                    count(other, "kills")
        if any(_out(game, k) for k in keys):
            break
        clock = game.clock
        while clock.turn == game.clock.turn:
            clock = clock.advanced()
        sheets = None
        if ruleset_id == "mini_car_wars":  # the weapons may fire again
            sheets = {k: game.sheet(k).started_turn(0, False)  # type: ignore[attr-defined]
                      for k in keys}
        table.set_clock(clock, f"Turn {clock.turn} begins", sheets)
    verdict = play_rules(ruleset_id).verdict(
        {k: (game.vehicle(k).name, game.sheet(k)) for k in keys})
    for key in keys:
        count(key, "games")
        if verdict.startswith(f"{game.sheet(key).name} wins"):  # type: ignore[attr-defined]
            count(key, "wins")
    table.finish()
    table.close()
    started = START + timedelta(days=7 * number)
    _dated(services, session_id, started)
    totals.sessions.append((session_id, ruleset_id, started))
    totals.per_session[session_id] = {p: dict(c) for p, c in mine.items()}
    for player, counts in mine.items():
        for what, amount in counts.items():
            totals.players[player][what] += amount
    return session_id


def _dated(services: Services, session_id: int, started: datetime) -> None:
    from sqlalchemy import update

    from carwars_desktop.storage.models import GameSessionRow

    database = services.table.database
    assert database is not None
    with database.engine.begin() as connection:
        connection.execute(update(GameSessionRow).where(GameSessionRow.id == session_id)
                           .values(created_at=started,
                                   finished_at=started + timedelta(hours=3)))


def play_history(services: Services, sessions: int = 50, seed: int = 36) -> Totals:
    rng = random.Random(seed)
    totals = Totals()
    for number in range(sessions):
        play_session(services, number, rng, totals)
    return totals
