"""Mini Car Wars at the Table: hand marks through the engine, statuses, the turn's clock."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from carwars_desktop.rules.mini_car_wars import stock_sheet
from carwars_desktop.rules.mini_car_wars.model import Side
from carwars_desktop.rules.mini_car_wars.play import marks as marks
from carwars_desktop.rules.mini_car_wars.play.clock import (
    finish_phase,
    legal_speeds,
    move_order,
    phase_movers,
    start_turn,
)
from carwars_desktop.rules.play import MarkError, TurnError, play_rules

RULES = play_rules("mini_car_wars")


def test_a_side_crossed_to_zero_takes_its_weapons() -> None:
    courier = stock_sheet("Courier")
    mark = marks.set_armor(courier, "R", 0)
    after = mark.sheet
    assert after.armor.right == 0  # type: ignore[attr-defined]
    lost = [w.label for w in after.weapons if w.destroyed]  # type: ignore[attr-defined]
    assert lost == ["MG (R)"]
    assert "right weapons destroyed: MG (R)" in " ".join(mark.steps)
    assert RULES.damage_points(after) == 20


def test_partial_damage_and_corrections() -> None:
    courier = stock_sheet("Courier")
    hit = marks.set_armor(courier, "F", 25).sheet
    assert not any(w.destroyed for w in hit.weapons)  # type: ignore[attr-defined]
    fixed = marks.set_armor(hit, "F", 30)
    assert fixed.summary.startswith("correction: front armor 25 → 30")
    with pytest.raises(MarkError, match="changes nothing"):
        marks.set_armor(courier, "F", 30)
    with pytest.raises(MarkError, match="0–30"):
        marks.set_armor(courier, "F", 31)


def test_crew_statuses_in_words_and_shapes() -> None:
    courier = stock_sheet("Courier")
    wounded = marks.set_crew(courier, "driver", 1)
    assert "now ✚ driver wounded" in wounded.steps
    out = marks.set_crew(wounded.sheet, "driver", 2)
    assert [str(f) for f in RULES.status(out.sheet)] == ["⚠ uncontrolled",
                                                         "☾ driver unconscious"]
    with pytest.raises(MarkError, match="no gunner"):
        marks.set_crew(stock_sheet("Killer Kart"), "gunner", 1)
    wreck = marks.wreck(courier).sheet
    assert [f.word for f in RULES.status(wreck)] == ["wrecked"]
    assert RULES.out_of_play(wreck)


def test_weapon_and_speed_marks() -> None:
    courier = stock_sheet("Courier")
    fired = marks.set_weapon(courier, 1, fired=True)
    assert fired.summary == "MG (R): fired this turn"
    with pytest.raises(MarkError, match="does not count its shots"):
        marks.set_weapon(courier, 1, shots_left=3)
    fast = marks.set_speed(courier, "90")
    assert fast.sheet.speed == 90  # type: ignore[attr-defined]
    assert "the GM's ruling" in fast.steps[0]
    with pytest.raises(MarkError, match="multiples of 10"):
        marks.set_speed(courier, "55")


@given(st.sampled_from([s.value for s in Side if s is not Side.TOP]), st.integers(0, 40))
def test_crossed_boxes_always_match_the_armor_left(side: str, left: int) -> None:
    courier = stock_sheet("Courier")
    start = courier.armor.get(Side(side))
    if left >= start:
        return
    after = marks.set_armor(courier, side, left).sheet
    boxes = RULES.boxes(after)
    crossed = sum(1 for box, state in boxes.items()
                  if box.startswith(f"armor:{side}:") and state == "x")
    assert crossed == start - left == RULES.damage_points(after)


def test_turn_start_speeds_are_checked_by_the_engine() -> None:
    sheets = {"a": stock_sheet("Courier").started_turn(60, False),
              "b": stock_sheet("Killer Kart")}
    names = {"a": "Courier", "b": "Kart"}
    assert legal_speeds(sheets["a"]) == ("40", "50", "60", "70")
    with pytest.raises(TurnError) as refused:
        start_turn(sheets, {"a": "80", "b": "10"}, names)
    assert set(refused.value.reasons) == {"a"}
    assert "legal: 40, 50, 60, 70" in refused.value.reasons["a"]
    started = start_turn(sheets, {"a": "70", "b": "10R"}, names)
    assert started.sheets["a"].speed == 70  # type: ignore[attr-defined]
    assert started.sheets["b"].reverse  # type: ignore[attr-defined]
    assert started.steps == ("Courier: 60 mph → 70 mph", "Kart: 0 mph → 10 mph reverse")


def test_who_moves_in_each_phase_fastest_first() -> None:
    sheets = {"slow": stock_sheet("Courier").started_turn(20, False),
              "fast": stock_sheet("Killer Kart").started_turn(10, False)}
    sheets["fast"] = sheets["fast"].started_turn(20, False).started_turn(30, False)
    assert move_order(sheets) == ("fast", "slow")
    assert phase_movers(sheets, 1) == ("fast", "slow")
    assert phase_movers(sheets, 3) == ("fast",)
    assert phase_movers(sheets, 4) == ()
    step = finish_phase(sheets, 1, {"slow": "Courier", "fast": "Kart"})
    assert set(step.sheets) == {"fast", "slow"}
    assert all(s.phases_used == 1 for s in step.sheets.values())  # type: ignore[attr-defined]


def test_a_shot_defaults_to_who_and_what_can_still_fire() -> None:
    """§1.2/§1.3: the driver, else the gunner; the first weapon not fired, destroyed, spent."""
    from dataclasses import replace as changed

    from carwars_desktop.rules import find_ruleset as ruleset_of
    from carwars_desktop.rules.clock import Clock as TurnClock
    from carwars_desktop.rules.mini_car_wars import MiniSheet
    from carwars_desktop.rules.mini_car_wars.model import Role
    from carwars_desktop.rules.play import play_rules as rules_of

    mini = ruleset_of("mini_car_wars")
    rules = rules_of("mini_car_wars")
    clock = TurnClock.start("mini_car_wars", ["Courier"])
    courier = mini.sheet_for_design(mini.catalog()["Courier"])
    assert isinstance(courier, MiniSheet)

    def defaults(sheet: MiniSheet) -> object:
        return rules.table_defaults("mini.fire", {"firer": ("Courier", sheet)}, clock)

    assert defaults(courier) == {"person": "driver", "weapon": "1"}
    fired = courier.with_weapon(0, changed(courier.weapons[0], fired=True))
    assert defaults(fired) == {"person": "driver", "weapon": "2"}
    driver = fired.person(Role.DRIVER)
    assert driver is not None
    done = fired.with_person(changed(driver, fired=True))
    assert defaults(done) == {"person": "gunner", "weapon": "2"}
    assert rules.table_defaults("mini.damage", {"vehicle": ("Courier", done)}, clock) == {}
