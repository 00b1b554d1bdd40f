"""AUTOpower and Battlecars at the Table: hand marks through the engines, statuses, clocks."""

from __future__ import annotations

import pytest

from carwars_desktop.rules.autopower import new_sheet, sample_cars
from carwars_desktop.rules.autopower.play import clock as ap_clock
from carwars_desktop.rules.autopower.play import marks as ap
from carwars_desktop.rules.battlecars import CarSheet as BattleSheet
from carwars_desktop.rules.battlecars import example_card
from carwars_desktop.rules.battlecars.play import clock as bc_clock
from carwars_desktop.rules.battlecars.play import marks as bc
from carwars_desktop.rules.battlecars.terms import Block, Weapon
from carwars_desktop.rules.clock import Clock
from carwars_desktop.rules.play import MarkError, TurnError, play_rules

AP = play_rules("autopower")
BC = play_rules("battlecars")


def test_autopower_damage_goes_through_the_kill_check() -> None:
    rhino = new_sheet(sample_cars()["Rhino"])  # Armor 4
    hurt = ap.add_damage(rhino, 4)
    assert not hurt.sheet.killed  # type: ignore[attr-defined]
    assert "one more point kills" in [f.word for f in AP.status(hurt.sheet)]
    dead = ap.add_damage(hurt.sheet, 1)
    assert dead.sheet.killed and AP.out_of_play(dead.sheet)  # type: ignore[attr-defined]
    assert "damage 4 + 1 = 5 > Armor 4 → killed" in dead.steps[0]
    assert AP.damage_points(dead.sheet) == 5
    with pytest.raises(MarkError, match="already killed"):
        ap.kill(dead.sheet)


def test_autopower_cards_and_refusals() -> None:
    bishop = new_sheet(sample_cars()["Bishop"])
    armored = ap.play_strength(bishop, 9).sheet
    assert armored.armor == 13 and armored.hand_size == 6  # type: ignore[attr-defined]
    rhino = ap.play_strength(new_sheet(sample_cars()["Rhino"]), 15).sheet  # cap 10 × E2
    with pytest.raises(MarkError, match="over the cap"):
        ap.play_strength(rhino, 9)
    with pytest.raises(MarkError):
        ap.set_declared_speed(bishop, 7)  # above E6
    assert ap.remove_card(armored, "strength", 0).sheet.armor == 4  # type: ignore[attr-defined]


def test_autopower_clock_skips_killed_cars() -> None:
    clock = Clock.start("autopower", ["Longshot", "Rhino"])
    assert ap_clock.current(clock) == ("Longshot", "draw")
    clock = ap_clock.ordered(clock, ["Rhino", "Longshot"])
    assert ap_clock.order(clock) == ("Rhino", "Longshot")
    last = Clock(1, 3, clock.phases, clock.word)  # Rhino: combat
    following = ap_clock.next_phase(last, out={"Rhino"})
    assert str(following) == "Turn 1, Longshot: draw"
    again = ap_clock.next_phase(Clock(1, 7, clock.phases, clock.word), out={"Rhino"})
    assert str(again) == "Turn 2, Longshot: draw"


def test_battlecars_marks_use_the_cover_rules() -> None:
    car = BattleSheet.fresh(example_card(), "Wasp")
    pod = bc.set_component(car, "Pod A", 4)  # a rocket fills 4 slots: the first point hits one
    assert pod.sheet.load("Pod A") == (Weapon.ROCKET,)  # type: ignore[attr-defined]
    engine = bc.set_component(car, "Engine", 4)
    assert "max speed 9 → 5" in " ".join(engine.steps)
    breached = bc.set_armour(car, "front", 6)
    assert "breached" in breached.steps[0]
    assert BC.damage_points(breached.sheet) == 6
    driver = bc.set_component(car, "Driver", 3)
    assert "driver killed" in [f.word for f in BC.status(driver.sheet)]
    with pytest.raises(MarkError, match="holds no"):
        bc.take_round(car, "Pod A", "mines")
    assert BC.gauges(car)[0].value == sum(car.armour_left(b) for b in Block)


def test_battlecars_speeds_and_turns() -> None:
    cars = {"a": BattleSheet.fresh(example_card(), "Wasp"),
            "b": BattleSheet.fresh(example_card(), "Hammer")}
    names = {"a": "Wasp", "b": "Hammer"}
    with pytest.raises(TurnError) as refused:
        bc_clock.set_speeds(cars, {"a": (6, "forward", "road"), "b": (2, "forward", "road")},
                            names)
    assert set(refused.value.reasons) == {"a"}
    step = bc_clock.set_speeds(cars, {"a": (3, "forward", "road"),
                                      "b": (2, "forward", "road")}, names)
    assert [s.speed for s in step.sheets.values()] == [3, 2]  # type: ignore[attr-defined]
    clock = Clock.start("battlecars", ["Wasp", "Hammer"])
    assert bc_clock.is_speeds(clock) and bc_clock.order(clock) == ("Wasp", "Hammer")
    first = bc_clock.next_phase(clock, out=set())
    assert first is not None and first.phase_name == "Wasp's turn"
    assert bc_clock.next_phase(first, out={"Hammer"}) is None
    assert bc_clock.fire_allowance(cars["a"]) == "targets fired at this turn: 0 of 3"


def test_battlecars_return_fire_defaults_and_refusals() -> None:
    """§2.9 step 2 / BC-D26, read off the clock and the phase's results (Qt-free)."""
    from carwars_desktop.rules.battlecars.play import return_fire as rf
    from carwars_desktop.rules.play import Done

    clock = Clock.start("battlecars", ["Wasp", "Hammer", "Kart"]).advanced()
    assert rf.turn_of(clock) == "Wasp"
    fire = "battlecars.fire"
    sheet = BattleSheet.fresh(example_card())
    wasp, hammer = {"firer": ("Wasp", sheet)}, {"firer": ("Hammer", sheet)}
    assert BC.table_defaults(fire, wasp, clock) == {"mode": "own-turn"}
    assert BC.table_defaults(fire, hammer, clock) == {"mode": "return-fire"}
    speeds = Clock.start("battlecars", ["Wasp", "Hammer"])
    assert BC.table_defaults(fire, hammer, speeds) == {}

    def problems(firer: str, target: str, mode: str, done: tuple[Done, ...]) -> str:
        return " ".join(BC.table_problems(fire, {"firer": firer, "target": target},
                                          {"mode": mode}, clock, done))

    attack = Done(fire, {"firer": "Wasp", "target": "Hammer"}, {"mode": "own-turn"})
    returned = Done(fire, {"firer": "Hammer", "target": "Wasp"}, {"mode": "return-fire"})
    assert problems("Wasp", "Hammer", "own-turn", ()) == ""
    assert "may only return fire" in problems("Hammer", "Wasp", "own-turn", (attack,))
    assert "return fire is fired outside it" in problems("Wasp", "Hammer", "return-fire", ())
    assert "has not fired at Hammer" in problems("Hammer", "Wasp", "return-fire", ())
    assert problems("Hammer", "Wasp", "return-fire", (attack,)) == ""
    assert "only at its attacker, Wasp, not at Kart" in problems(
        "Hammer", "Kart", "return-fire", (attack,))
    assert "has not fired at Kart" in problems("Kart", "Wasp", "return-fire", (attack,))
    assert "already returned fire" in problems("Hammer", "Wasp", "return-fire",
                                               (attack, returned))
    assert problems("Hammer", "Wasp", "detonation", ()) == ""
