"""A new session's first turn goes where the rules say (AP §2.2 step 4; BC §2.1 step 7)."""

from __future__ import annotations

from carwars_desktop.dice import EnteredDice
from carwars_desktop.rules import find_ruleset
from carwars_desktop.rules.autopower.car import Car
from carwars_desktop.rules.battlecars.play.clock import order as battlecars_order
from carwars_desktop.rules.battlecars.play.clock import ordered
from carwars_desktop.rules.registry import find_procedure
from carwars_desktop.session.setup import Entry, prepare


def test_autopower_higher_speed_takes_the_first_turn() -> None:
    """§2.2 step 4: "The player with the higher Speed takes the first turn" — a Speed 4 car
    seated first no longer starts before a Speed 6 one (the bug of issue #13)."""
    ruleset = find_ruleset("autopower")
    wolverine = Car("Wolverine", 4, 5, 5, 2)
    bishop = ruleset.catalog()["Bishop"]
    setup = prepare(ruleset, [Entry("Ann", "Wolverine", wolverine.to_json()),
                              Entry("Bo", "Bishop", bishop.to_json())])
    speeds = {v.name: setup.sheets[v.key].speed for v in setup.vehicles}  # type: ignore[attr-defined]
    assert speeds == {"Wolverine": 4, "Bishop": 6}
    assert setup.clock.phase_name == "Bishop: draw"
    assert setup.clock.phases[4] == "Wolverine: draw"
    # The seats themselves do not move: the vehicles keep their keys and order.
    assert [v.name for v in setup.vehicles] == ["Wolverine", "Bishop"]


def test_autopower_ties_in_speed_break_by_energy_then_seats() -> None:
    """AP-D16: equal Speeds break as the draw order (E, F, S, I); cars equal in all keep
    their seats until the 2d6 roll-off of ``autopower.first_player``."""
    ruleset = find_ruleset("autopower")
    cars = [Car("Alpha", 5, 4, 4, 2), Car("Beta", 5, 6, 4, 2), Car("Gamma", 5, 4, 4, 2)]
    setup = prepare(ruleset, [Entry(str(i), car.name, car.to_json())
                              for i, car in enumerate(cars)])
    firsts = [p.split(": ")[0] for p in setup.clock.phases[::4]]
    assert firsts == ["Beta", "Alpha", "Gamma"]


def test_battlecars_start_in_seats_until_the_roll_and_the_roll_puts_the_highest_first() -> None:
    """BC §2.1 step 7 (BC-D6): "each player rolls 1d8 and re-rolls ties; the highest goes
    first. Play then passes to the left": nothing on the sheets decides it, so a new session
    keeps the seating order, and the roll's order starts with the highest roller."""
    ruleset = find_ruleset("battlecars")
    catalog = ruleset.catalog()
    name = next(iter(catalog))
    setup = prepare(ruleset, [Entry(p, f"Car {p}", {**catalog[name].to_json(),
                                                    "name": f"Car {p}"})
                              for p in ("A", "B", "C")])
    seats = tuple(v.name for v in setup.vehicles)
    assert battlecars_order(setup.clock) == seats
    procedure = find_procedure("battlecars.entry_order")
    resolution = procedure.resolve({"players": ", ".join(seats)}, EnteredDice([3, 7, 5]))
    order = [str(n) for n in resolution.values["order"]]
    assert order == [seats[1], seats[2], seats[0]]  # B rolled 7, then to the left
    assert battlecars_order(ordered(setup.clock, order)) == tuple(order)
