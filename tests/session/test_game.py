"""The session core with a tiny stand-in ruleset: events, undo, redo, the clock."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from carwars_desktop.dice import EnteredDice
from carwars_desktop.procedures import Citation, Resolution, SheetChange, Step
from carwars_desktop.rules import VEHICLE, DesignKind, ReferenceTable, Ruleset
from carwars_desktop.rules.play import play_rules
from carwars_desktop.rules.ruleset import RulesetEntry
from carwars_desktop.session import (
    Clock,
    Event,
    EventKind,
    Game,
    GameError,
    MemoryEventStore,
    VehicleInPlay,
)


@dataclass(frozen=True)
class Counter:
    name: str
    hits: int

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "hits": self.hits}


def _load(data: Mapping[str, Any]) -> Counter:
    return Counter(str(data["name"]), int(data["hits"]))


ENTRY = RulesetEntry("mini_car_wars", "Test", "tests.session.test_game", "mini")
COUNTER = DesignKind(ruleset=ENTRY, kind=VEHICLE,
                     title="Counter", default_name="New counter", design_type=Counter,
                     reader=_load, new=lambda name: Counter(name, 0))
RULESET = Ruleset(
    entry=ENTRY, dice="d6", digest="", procedures=(),
    tables=(ReferenceTable("t", "T", "", ("a",), (("1",),)),), catalog=dict,
    kinds=(COUNTER,), sheet_type=Counter, sheet_from_json=_load,
    sheet_for_design=lambda design: design,
    phases=lambda names: tuple(f"phase {n}" for n in range(1, 11)),
    play=lambda: play_rules("mini_car_wars"))


def new_game() -> tuple[Game, MemoryEventStore]:
    store = MemoryEventStore()
    vehicles = [VehicleInPlay("v1", "Courier", "Ann", {}), VehicleInPlay("v2", "Kart", "Bo", {})]
    game = Game(RULESET, vehicles, {"v1": Counter("Courier", 0), "v2": Counter("Kart", 0)},
                Clock.start("mini_car_wars", ["Courier", "Kart"]), store)
    return game, store


def test_mark_undo_redo_restore_exact_state() -> None:
    game, store = new_game()
    changes = game.mark("v1", Counter("Courier", 3), "3 hits on the Courier")
    assert changes.vehicles == {"v1"} and changes.event is not None
    assert store.sheets["v1"] == {"name": "Courier", "hits": 3}
    game.mark("v1", Counter("Courier", 5), "2 more")
    assert game.undo().vehicles == {"v1"}
    assert game.sheet("v1") == Counter("Courier", 3)
    assert store.sheets["v1"]["hits"] == 3
    assert game.redo().event is not None
    assert game.sheet("v1") == Counter("Courier", 5)
    game.undo()
    game.undo()
    assert game.sheet("v1") == Counter("Courier", 0)
    with pytest.raises(GameError, match="nothing to undo"):
        game.undo()


def test_a_new_event_ends_redo_but_keeps_the_undone_one() -> None:
    game, store = new_game()
    game.mark("v1", Counter("Courier", 1), "a")
    game.undo()
    assert game.can_redo()
    game.mark("v2", Counter("Kart", 2), "b")
    assert not game.can_redo()
    assert [(e.seq, e.event.summary, e.undone, e.abandoned) for e in store.events] == [
        (1, "a", True, True), (2, "b", False, False)]
    game.undo()  # past the branch left behind: back to the start
    assert game.last_active_seq() == 0 and not game.can_undo()
    assert game.sheet("v1") == Counter("Courier", 0) and game.sheet("v2") == Counter("Kart", 0)
    game.redo()
    assert game.sheet("v2") == Counter("Kart", 2) and not game.can_redo()


def test_clock_advances_and_undoes() -> None:
    game, _ = new_game()
    assert str(game.clock) == "Turn 1, phase 1"
    clock = game.clock
    for _ in range(10):
        clock = clock.advanced()
    assert str(clock) == "Turn 2, phase 1"
    changes = game.set_clock(clock, "turn 2 begins", {"v1": Counter("Courier", 0)})
    assert changes.clock
    game.undo()
    assert str(game.clock) == "Turn 1, phase 1"
    assert Clock.from_json(game.clock.to_json()) == game.clock


def test_resolution_applied_through_bindings() -> None:
    game, store = new_game()
    from carwars_desktop.procedures.dice_roll import DICE_ROLL

    base = DICE_ROLL.resolve({"expression": "1d6"}, EnteredDice([4]))
    resolution = Resolution(base.procedure_id, base.inputs, base.dice,
                            (Step("4 hits", Citation("X", "§1")),),
                            "4 hits", True,
                            (SheetChange("target", Counter("Kart", 4), "4 hits"),), {})
    changes = game.apply_resolution(resolution, {"target": "v2"})
    assert changes.vehicles == {"v2"}
    stored = store.events[-1].event
    assert stored.kind is EventKind.RESOLUTION
    assert stored.steps == ("4 hits  [X §1]", "Kart: 4 hits")
    assert stored.dice[0]["value"] == 4
    with pytest.raises(GameError, match="not a vehicle in play"):
        game.apply_resolution(resolution, {})


def test_event_json_round_trip() -> None:
    game, store = new_game()
    game.mark("v1", Counter("Courier", 2), "two")
    event = store.events[0].event
    assert Event.from_json(event.to_json()) == event
    assert "dealers" not in event.to_json()  # (an event without them is stored as before)
    batch = replace(event, dealers={"v2": ("v1", "v3")})
    assert batch.to_json()["dealers"] == {"v2": ["v1", "v3"]}
    assert Event.from_json(batch.to_json()) == batch


@given(st.lists(st.tuples(st.sampled_from(["v1", "v2"]), st.integers(0, 30),
                          st.sampled_from(["mark", "undo", "redo", "clock"])), max_size=40))
def test_undo_everything_returns_to_the_start(script: list[tuple[str, int, str]]) -> None:
    game, store = new_game()
    start = (game.sheet("v1"), game.sheet("v2"), game.clock)
    recorded = 0
    for key, hits, action in script:
        assert len(store.events) == recorded  # nothing is ever taken out of the history
        recorded += action in ("mark", "clock")
        if action == "mark":
            game.mark(key, Counter(game.sheet(key).name, hits), f"{hits}")
        elif action == "undo" and game.can_undo():
            game.undo()
        elif action == "redo" and game.can_redo():
            game.redo()
        elif action == "clock":
            game.set_clock(game.clock.advanced(), "next phase")
    while game.can_undo():
        game.undo()
    assert (game.sheet("v1"), game.sheet("v2"), game.clock) == start


def test_two_inputs_bound_to_one_vehicle_are_refused() -> None:
    game, store = new_game()
    from carwars_desktop.procedures.dice_roll import DICE_ROLL

    base = DICE_ROLL.resolve({"expression": "1d6"}, EnteredDice([4]))
    resolution = Resolution(base.procedure_id, base.inputs, base.dice, (), "hit", True,
                            (SheetChange("firer", Counter("Kart", 1), "fired"),
                             SheetChange("target", Counter("Kart", 4), "4 hits")), {})
    with pytest.raises(GameError, match="same vehicle"):
        game.apply_resolution(resolution, {"firer": "v2", "target": "v2"})
    assert store.events == []
