"""Scripted sessions of each ruleset for the replay's tests: played through the services
with fixed (typed) dice, each recording the state the live game showed after every
operation, keyed by the event it showed (the last in force, or the one just applied)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from carwars_desktop.rules import find_procedure, find_ruleset
from carwars_desktop.rules.battlecars import EXAMPLE_CARD_NAME
from carwars_desktop.services import Services, typed_dice
from carwars_desktop.session import Game
from carwars_desktop.session.setup import Entry, prepare
from carwars_desktop.session.visibility import Visibility


@dataclass
class Played:
    session_id: int
    shown: dict[int, dict[str, Any]] = field(default_factory=dict)
    """seq of an event → the state (sheets, clock, settings as JSON) shown right after it
    was applied (undone ones included: their state as it was before the undo)."""
    main_line: list[int] = field(default_factory=list)
    """The seqs in force at the end."""
    undone: list[int] = field(default_factory=list)


def state_json(game: Game) -> dict[str, Any]:
    """As :meth:`ReplayState.to_json`, through JSON (as the database keeps it)."""
    data = {"sheets": {v.key: game.sheet(v.key).to_json() for v in game.vehicles},
            "clock": game.clock.to_json(), "settings": dict(game.settings)}
    return dict(json.loads(json.dumps(data)))


class _Recorder:
    def __init__(self, services: Services, session_id: int) -> None:
        self.table = services.table
        self.played = Played(session_id)

    @property
    def game(self) -> Game:
        return self.table.running()

    def seen(self) -> None:
        seq = self.game.last_active_seq()
        state = state_json(self.game)
        if seq in self.played.shown:
            assert self.played.shown[seq] == state  # an undo shows the state before it
        self.played.shown[seq] = state

    def fire(self, procedure_id: str, values: dict[str, Any], dice: str,
             bindings: dict[str, str]) -> None:
        procedure = find_procedure(procedure_id)
        raw = {**values, **{name: self.game.sheet(key) for name, key in bindings.items()}}
        bound = procedure.bind(raw, self.table.house_for(self.game.ruleset.id))
        pending = self.table.resolve(procedure, bound, typed_dice(dice), bindings=bindings)
        pending.apply()
        self.seen()

    def next_turn(self) -> None:
        clock = self.game.clock
        while clock.turn == self.game.clock.turn:
            clock = clock.advanced()
        sheets = None
        if self.game.ruleset.id == "mini_car_wars":  # the weapons may fire again
            sheets = {v.key: self.game.sheet(v.key).started_turn(0, False)  # type: ignore[attr-defined]
                      for v in self.game.vehicles}
        self.table.set_clock(clock, f"Turn {clock.turn} begins", sheets)
        self.seen()

    def advance(self) -> None:
        self.table.set_clock(self.game.clock.advanced(), "on")
        self.seen()

    def to_phase(self, phase: str) -> None:
        """The clock on, one event a phase, to ``phase`` (AUTOpower §2.3 step 4: a car
        attacks in its own Combat phase)."""
        for _ in range(len(self.game.clock.phases)):
            if self.game.clock.phase_name == phase:
                return
            self.advance()
        assert self.game.clock.phase_name == phase

    def undo(self) -> None:
        self.table.undo()
        self.seen()

    def note(self, text: str) -> None:
        self.table.note(text)
        self.seen()

    def hide_odds(self) -> None:
        self.table.set_visibility(Visibility(odds_shown=False))
        self.seen()

    def done(self) -> Played:
        store = self.table.running().store
        events = store.page(0, store.count(True))  # type: ignore[attr-defined]
        self.played.main_line = [e.seq for e in events if not e.undone]
        self.played.undone = [e.seq for e in events if e.undone]
        return self.played


def _start(services: Services, ruleset_id: str, names: list[str],
           scenario: str = "") -> _Recorder:
    ruleset = find_ruleset(ruleset_id)
    catalog = ruleset.catalog()
    entries = [Entry(f"Player {n}", name,
                     catalog[name if name in catalog else EXAMPLE_CARD_NAME].to_json())
               for n, name in enumerate(names, start=1)]
    setup = prepare(ruleset, entries, scenario) if scenario else prepare(ruleset, entries)
    session_id = services.table.start(ruleset_id, f"Replay {ruleset_id}", scenario, setup)
    services.table.open(session_id)
    recorder = _Recorder(services, session_id)
    recorder.seen()  # the start, no event yet
    return recorder


def play_mini(services: Services) -> Played:
    """Shots that hit and miss, turns, an undo of two events then a new shot (a branch),
    a note and a settings change."""
    r = _start(services, "mini_car_wars", ["Rocket Special", "Courier"])
    shot = {"side": "F", "range": "5"}
    r.fire("mini.fire", shot, "5 5 6 6", {"firer": "v1", "target": "v2"})
    r.fire("mini.fire", shot, "2 3", {"firer": "v2", "target": "v1"})
    r.next_turn()
    r.fire("mini.fire", shot, "6 6 6 6", {"firer": "v1", "target": "v2"})
    r.fire("mini.fire", shot, "6 5 3 4", {"firer": "v2", "target": "v1"})
    r.undo()
    r.undo()
    r.fire("mini.fire", shot, "4 4 1 2", {"firer": "v2", "target": "v1"})  # the branch
    r.note("Bob's driver swears loudly")
    r.hide_odds()
    r.next_turn()
    r.fire("mini.fire", shot, "6 6 6 6", {"firer": "v1", "target": "v2"})
    return r.done()


def play_battlecars(services: Services) -> Played:
    r = _start(services, "battlecars", ["Interceptor", "Wasp"], "street")
    shot = {"mount": "Pod D", "area": "front", "points_between": 2, "mode": "own-turn"}
    r.advance()
    r.fire("battlecars.fire", shot, "7 6", {"firer": "v1", "target": "v2"})
    r.advance()
    r.fire("battlecars.fire", shot, "2 1", {"firer": "v2", "target": "v1"})
    r.undo()
    r.fire("battlecars.fire", shot, "8 5", {"firer": "v2", "target": "v1"})
    r.next_turn()
    r.note("the street narrows")
    return r.done()


def play_autopower(services: Services) -> Played:
    r = _start(services, "autopower", ["Longshot", "Bishop"])
    r.to_phase("Longshot: combat")  # each attack in its car's own Combat phase (§2.3)
    r.fire("autopower.attack", {"cards": "4"}, "6 5", {"firer": "v1", "target": "v2"})
    r.to_phase("Bishop: combat")
    r.fire("autopower.attack", {"cards": "3"}, "1 2", {"firer": "v2", "target": "v1"})
    r.undo()
    r.note("Bishop's player changes his mind")
    r.fire("autopower.attack", {"cards": "3"}, "6 4", {"firer": "v2", "target": "v1"})
    r.next_turn()
    return r.done()


SCRIPTS = {"mini_car_wars": play_mini, "battlecars": play_battlecars,
           "autopower": play_autopower}
