"""Durations that end by themselves (issue #13): each appears, counts down with the clock,
is gone when its rule says, and undo brings it back. Wording cited from the digests."""

from __future__ import annotations

from typing import Any

from carwars_desktop.dice import EnteredDice
from carwars_desktop.rules import find_procedure, find_ruleset
from carwars_desktop.rules.autopower.car import Car
from carwars_desktop.rules.autopower.play import marks as ap_marks
from carwars_desktop.rules.battlecars.play import dispersed, smoke_markers
from carwars_desktop.rules.battlecars.play import marks as bc_marks
from carwars_desktop.rules.play import ShownDuration
from carwars_desktop.session import Clock, Game, MemoryEventStore
from carwars_desktop.session.setup import Entry, prepare


def _game(ruleset_id: str, entries: list[Entry]) -> Game:
    ruleset = find_ruleset(ruleset_id)
    setup = prepare(ruleset, entries)
    return Game(ruleset, setup.vehicles, setup.sheets, setup.clock, MemoryEventStore())


def _shown(game: Game) -> list[ShownDuration]:
    return list(game.ruleset.play().durations(game.clock, game.vehicles_view()))


def _at(game: Game, turn: int, phase: int = 0) -> Clock:
    clock = game.clock
    return Clock(turn, phase, clock.phases, clock.word)


def _apply(game: Game, procedure_id: str, inputs: dict[str, Any], bindings: dict[str, str],
           dice: list[int]) -> None:
    procedure = find_procedure(procedure_id)
    sheets = {name: game.sheet(key) for name, key in bindings.items()}
    resolution = procedure.resolve(procedure.bind({**inputs, **sheets}), EnteredDice(dice))
    game.apply_resolution(resolution, bindings)


# --- Mini Car Wars: "The cloud lasts 60 turns" (§2.13 step 3, MCW-A4) -----------------------
def _mini() -> Game:
    catalog = find_ruleset("mini_car_wars").catalog()
    return _game("mini_car_wars", [Entry("Ann", "Mini Sherman", catalog["Mini Sherman"].to_json()),
                                   Entry("Bo", "Courier", catalog["Courier"].to_json())])


def test_mini_car_wars_smoke_cloud_lasts_60_turns() -> None:
    game = _mini()
    _apply(game, "mini.fire", {"weapon": "smokescreen"}, {"firer": "v1"}, [])
    [cloud] = _shown(game)
    assert cloud.vehicle == "v1" and "smoke cloud behind Mini Sherman" in cloud.label
    assert cloud.left == "60 turns left (gone at turn 61)" and "MCW-A4" in cloud.rule
    assert "60 turns left" in game.store.events[-1].event.steps[-1]  # type: ignore[attr-defined]
    game.set_clock(game.clock.advanced(), "phase 2")  # the clock moves: it goes on
    game.set_clock(_at(game, 2), "turn 2")
    assert _shown(game)[0].left == "59 turns left (gone at turn 61)"
    game.set_clock(_at(game, 60, 9), "turn 60, phase 10")
    assert _shown(game)[0].left == "1 turn left (gone at turn 61)"
    game.set_clock(_at(game, 61), "turn 61")
    assert _shown(game) == [] and game.clock.kept() == ()
    assert any("its time is up" in step for step in game.store.events[-1].event.steps)  # type: ignore[attr-defined]
    game.undo()
    assert [d.left for d in _shown(game)] == ["1 turn left (gone at turn 61)"]
    game.redo()
    assert _shown(game) == []
    # Undo as far as the shot itself: the cloud was never laid.
    while game.can_undo():
        game.undo()
    assert _shown(game) == []


def test_the_smoke_cloud_survives_a_reload_of_the_clock() -> None:
    game = _mini()
    _apply(game, "mini.fire", {"weapon": "smokescreen"}, {"firer": "v1"}, [])
    again = Clock.from_json(game.clock.to_json())
    assert again.kept() == game.clock.kept() and len(again.kept()) == 1


# --- Battlecars: stunned "until the end of the current Round" (§2.16 step 4) -----------------
def _battlecars() -> Game:
    catalog = find_ruleset("battlecars").catalog()
    design = next(iter(catalog.values())).to_json()
    return _game("battlecars", [Entry(p, f"Car {p}", {**design, "name": f"Car {p}"})
                                for p in ("A", "B")])


def test_battlecars_stun_ends_with_the_round() -> None:
    game = _battlecars()
    mark = bc_marks.set_stunned(game.sheet("v2"), True)
    game.mark("v2", mark.sheet, mark.summary)
    [stun] = _shown(game)
    assert stun.vehicle == "v2" and "driver stunned" in stun.label
    assert stun.left == "until the end of round 1" and "§2.16" in stun.rule
    game.set_clock(_at(game, 1, 1), "Car A's turn")  # within the Round: still stunned
    assert [d.left for d in _shown(game)] == ["until the end of round 1"]
    game.set_clock(_at(game, 2), "Round 2")
    assert _shown(game) == [] and not game.sheet("v2").stunned  # type: ignore[attr-defined]
    game.undo()
    assert game.sheet("v2").stunned and len(_shown(game)) == 1  # type: ignore[attr-defined]


# --- Battlecars Smoke markers: "1–4 it stays, 5–8 it is removed" (§2.2 step 4) ---------------
def test_battlecars_smoke_markers_go_by_their_dispersal_roll() -> None:
    game = _battlecars()
    drop = {"mount": "Pod C", "weapon": "smoke"}
    _apply(game, "battlecars.drop", drop, {"vehicle": "v1"}, [])
    _apply(game, "battlecars.drop", drop, {"vehicle": "v2"}, [])
    assert [d.vehicle for d in smoke_markers(game.clock)] == ["v1", "v2"]
    assert all(d.left == "until the end-of-round dispersal roll removes it"
               for d in _shown(game))
    # Other clock moves never remove them, a new Round included.
    game.set_clock(_at(game, 1, 1), "Car A's turn")
    assert len(smoke_markers(game.clock)) == 2
    # The end-of-round roll, dice typed from the table: 3 stays, 6 goes.
    end = find_procedure("battlecars.end_round")
    resolution = end.resolve(end.bind({"smoke_markers": len(smoke_markers(game.clock))}),
                             EnteredDice([3, 6]))
    assert resolution.values["smoke_removed"] == 1
    after = Clock(2, 0, game.clock.phases, game.clock.word, dispersed(game.clock, resolution))
    game.set_clock(after, "Round 1 over")
    assert [d.vehicle for d in smoke_markers(game.clock)] == ["v1"]
    game.undo()
    assert len(smoke_markers(game.clock)) == 2
    game.undo()
    game.undo()
    assert len(smoke_markers(game.clock)) == 1  # undo the second drop: its marker goes


# --- AUTOpower: a control penalty for "the car's next own turn only" (AP-D12) ----------------
def test_autopower_control_penalty_holds_for_the_next_own_turn_only() -> None:
    game = _game("autopower", [Entry("Ann", "Fast", Car("Fast", 6, 4, 4, 2).to_json()),
                               Entry("Bo", "Slow", Car("Slow", 4, 4, 4, 2).to_json())])
    assert game.clock.phase_name == "Fast: draw"
    # Slow failed a control roll in Fast's turn: "at −3" in its next own turn.
    mark = ap_marks.set_penalty(game.sheet("v2"), "next_turn", "-3")
    game.mark("v2", mark.sheet, mark.summary)
    [penalty] = _shown(game)
    assert penalty.vehicle == "v2" and penalty.left == "in Slow's next own turn (turn 1)"
    assert "AP-D12" in penalty.rule
    for _ in range(3):  # Fast accelerates, arms, fights
        game.set_clock(game.clock.advanced(), "next")
    assert len(_shown(game)) == 1
    game.set_clock(game.clock.advanced(), "Slow: draw")  # Slow's turn begins
    sheet: Any = game.sheet("v2")
    assert sheet.penalty_this_turn.value == "-3" and sheet.next_turn_penalty.value == "none"
    assert [d.left for d in _shown(game)] == ["until the end of Slow's turn"]
    for _ in range(3):
        game.set_clock(game.clock.advanced(), "next")
    assert len(_shown(game)) == 1  # still Slow's combat
    game.set_clock(game.clock.advanced(), "Fast: draw")  # Slow's turn is over
    assert _shown(game) == [] and game.sheet("v2").penalty_this_turn.value == "none"  # type: ignore[attr-defined]
    game.undo()
    assert [d.left for d in _shown(game)] == ["until the end of Slow's turn"]


def test_autopower_attacked_this_turn_goes_when_the_car_s_turn_ends() -> None:
    """§2.3: at most one attack, then "The turn ends": the mark is off the car at once,
    not kept (shown as "attacked this turn") through the other cars' turns."""
    game = _game("autopower", [Entry("Ann", "Fast", Car("Fast", 6, 4, 4, 2).to_json()),
                               Entry("Bo", "Slow", Car("Slow", 4, 4, 4, 2).to_json())])
    rules = game.ruleset.play()
    for _ in range(3):  # Fast draws, accelerates, arms: now its combat
        game.set_clock(game.clock.advanced(), "next")
    _apply(game, "autopower.attack", {"cards": "3"}, {"firer": "v1", "target": "v2"}, [3, 4])
    assert game.sheet("v1").attacked_this_turn  # type: ignore[attr-defined]
    assert "attacked this turn" in [f.word for f in rules.status(game.sheet("v1"))]
    game.set_clock(game.clock.advanced(), "Slow: draw")  # Fast's turn is over
    assert not game.sheet("v1").attacked_this_turn  # type: ignore[attr-defined]
    assert "attacked this turn" not in [f.word for f in rules.status(game.sheet("v1"))]
    game.undo()
    assert game.sheet("v1").attacked_this_turn  # type: ignore[attr-defined]
