"""Hover explanations, the finished session's chart data, and setting a session up."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from carwars_desktop.rules import find_ruleset
from carwars_desktop.rules.mini_car_wars.model import Side
from carwars_desktop.rules.mini_car_wars.play import marks as marks
from carwars_desktop.rules.play import play_rules
from carwars_desktop.session import Game, MemoryEventStore
from carwars_desktop.session.history import (
    charts_from_json,
    charts_to_json,
    luck,
    replay_history,
)
from carwars_desktop.session.provenance import Provenance
from carwars_desktop.session.setup import Entry, SetupError, prepare, unique_names

RULESET = find_ruleset("mini_car_wars")
RULES = play_rules("mini_car_wars")


def _game() -> tuple[Game, MemoryEventStore]:
    catalog = RULESET.catalog()
    setup = prepare(RULESET, [Entry("Ann", "Courier", catalog["Courier"].to_json()),
                              Entry("Bo", "Courier", catalog["Courier"].to_json())])
    store = MemoryEventStore()
    return Game(RULESET, setup.vehicles, setup.sheets, setup.clock, store), store


def _mark(game: Game, key: str, side: str, left: int) -> None:
    mark = marks.set_armor(game.sheet(key), side, left)
    game.mark(key, mark.sheet, mark.summary, mark.steps)


def test_setup_copies_and_names() -> None:
    game, _ = _game()
    assert [v.name for v in game.vehicles] == ["Courier", "Courier #2"]
    assert game.sheet("v2").name == "Courier #2"
    assert unique_names(["A", "B", "A", "A"]) == ["A", "B", "A #2", "A #3"]
    with pytest.raises(SetupError, match="at least one vehicle"):
        prepare(RULESET, [])
    with pytest.raises(SetupError, match="no scenario"):
        prepare(RULESET, [Entry("Ann", "X", {})], "nowhere")
    with pytest.raises(SetupError, match="Broken"):
        prepare(RULESET, [Entry("Ann", "Broken", {"name": "Broken"})])


def test_provenance_names_the_event_and_keeps_up() -> None:
    game, store = _game()
    provenance = Provenance(RULESET, RULES, store)
    _mark(game, "v1", "F", 25)
    _mark(game, "v2", "B", 20)
    _mark(game, "v1", "F", 20)
    cause = provenance.explain("v1", "armor:F:3")
    assert cause is not None and cause.seq == 1 and str(cause).startswith("event #1")
    assert provenance.explain("v1", "armor:F:7").seq == 3  # type: ignore[union-attr]
    assert provenance.explain("v1", "armor:F:20") is None
    provenance.note(game.undo())
    assert provenance.explain("v1", "armor:F:7") is None
    mark = marks.set_armor(game.sheet("v1"), "F", 10)
    changes = game.mark("v1", mark.sheet, mark.summary)
    provenance.note(changes)
    # The new event is #4: the undone #3 stays in the history (#28 §1).
    assert provenance.explain("v1", "armor:F:15").seq == 4  # type: ignore[union-attr]


def test_history_gauges_damage_and_luck() -> None:
    game, store = _game()
    _mark(game, "v1", "F", 25)
    game.set_clock(game.clock.advanced(), "phase 2")
    _mark(game, "v2", Side.LEFT.value, 10)
    mark = marks.set_armor(game.sheet("v1"), "B", 0)
    game.record(game_kind_resolution(), "a hit", {"v1": mark.sheet},
                bindings={"firer": "v2", "target": "v1"})
    history = replay_history(RULESET, RULES, game.vehicles,
                             {v.key: s.to_json() for v, s in zip(
                                 game.vehicles, (RULESET.sheet_for_design(
                                     RULESET.design_from_json(v.design))
                                     for v in game.vehicles), strict=True)},
                             store.events)
    courier, other = history.vehicles["v1"], history.vehicles["v2"]
    assert history.gauge_labels == ("armor", "DP")
    assert courier.series("armor", history.last_turn) == [(0, 95), (1, 65)]
    assert courier.taken == 5 + 25 and other.taken == 10
    assert other.dealt == 25 and history.unattributed == 15
    chance = luck([("mini.fire", True, "5/6", True), ("mini.fire", False, "1/2", True),
                   ("mini.fire", True, "1/2", False), ("mini.control", None, None, True)])
    assert chance.thrown == (1, 1)
    assert chance.expected == (Fraction(5, 6), Fraction(4, 3))
    assert "1 success in 2 rolls, 1.3 expected: unluckier" in chance.summary()
    kept = json.loads(json.dumps(charts_to_json(history, chance)))
    assert charts_from_json(kept) == (history, chance)  # stored with the finished session
    with pytest.raises(ValueError, match="format 99"):
        charts_from_json({**kept, "format": 99})


def game_kind_resolution():  # type: ignore[no-untyped-def]
    from carwars_desktop.session import EventKind

    return EventKind.RESOLUTION


def test_hover_explanations_are_worked_out_once_per_event() -> None:
    """#32 §3: the history is read once for every vehicle, each event's changed boxes once
    per vehicle; hovering again, another vehicle or after an undo reads and builds nothing
    again (it used to read and parse the last 3,000 events for each vehicle, and again
    after every undo)."""
    game, store = _game()
    for left in range(29, 9, -1):
        _mark(game, "v1", "F", left)
        _mark(game, "v2", "B", left - 5)
    reads: list[int] = []
    real_page = store.page
    store.page = lambda offset, limit: reads.append(offset) or real_page(offset, limit)  # type: ignore[method-assign]
    provenance = Provenance(RULESET, RULES, store)
    for _ in range(3):
        for box in range(1, 31):
            provenance.explain("v1", f"armor:F:{box}")
            provenance.explain("v2", f"armor:B:{box}")
    assert len(reads) == 1 and provenance.builds == 40  # 20 events per vehicle
    by_last = [box for box in range(1, 31)
               if getattr(provenance.explain("v2", f"armor:B:{box}"), "seq", 0) == 40]
    assert by_last
    provenance.note(game.undo())
    for box in by_last:  # the undone #40 no longer counts
        assert getattr(provenance.explain("v2", f"armor:B:{box}"), "seq", 0) != 40
    assert {getattr(provenance.explain("v1", f"armor:F:{box}"), "seq", 0)
            for box in range(1, 31)} >= {39}
    assert len(reads) == 1 and provenance.builds == 40


def test_setup_refuses_an_autopower_car_above_the_division() -> None:
    """AUTOpower §2.2 step 1 / AP-D2: a car enters Division N only if its total ≤ N; a
    duel of Division 15 refuses Darkseid (total 18) as Battlecars refuses a bad card."""
    autopower = find_ruleset("autopower")
    darkseid = autopower.catalog()["Darkseid"]
    assert darkseid.total == 18  # type: ignore[attr-defined]
    entries = [Entry("Ann", "Darkseid", darkseid.to_json())]
    with pytest.raises(SetupError, match=r"Darkseid cannot enter play: Total 18 is above 15"):
        prepare(autopower, entries, options=autopower.house_options({"AP-division": 15}))
    # Division 20 takes it; a duel of no fixed division takes any car (by agreement).
    assert prepare(autopower, entries, options=autopower.house_options({"AP-division": 20}))
    assert prepare(autopower, entries)
    big = {**darkseid.to_json(), "name": "Big", "energy": 20}
    assert prepare(autopower, [Entry("Bo", "Big", big)])
    # AP-D2 off: the class must equal the division, so Division 25 refuses a total of 18.
    with pytest.raises(SetupError, match="not Division 25"):
        prepare(autopower, entries, options=autopower.house_options(
            {"AP-division": 25, "AP-D2": False}))
