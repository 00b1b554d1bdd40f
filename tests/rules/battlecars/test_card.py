"""Battlecar cards: the example card, loading rules, validation, JSON (digest §1.2–§1.4)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from carwars_desktop.rules.battlecars import Card, CardError, Loading, example_card
from carwars_desktop.rules.battlecars.card import Armour, Component, HitLocation
from carwars_desktop.rules.battlecars.catalog import EXAMPLE_CARD_NAME, card_catalog
from carwars_desktop.rules.battlecars.options import CounterSizes
from carwars_desktop.rules.battlecars.terms import Block, Facing, Kind, Section, Weapon


def codes(card: Card) -> list[str]:
    return [p.code for p in card.problems()]


def test_example_card_matches_appendix_a() -> None:
    card = example_card()
    assert card.problems() == ()
    assert card.speed_track_max == 9
    assert card.armour_boxes(Block.FRONT) == 6 and card.armour_boxes(Block.REAR) == 6
    assert all(card.armour_boxes(b) == 4 for b in Block if b not in (Block.FRONT, Block.REAR))
    front = {c.name: c.boxes for c in card.components_in(Section.FRONT)}
    assert front == {"Tyre FL": 2, "Tyre FR": 2, "Pod A": 8, "Power Brakes": 2, "Auto-Steer": 2}
    centre = {c.name: c.boxes for c in card.components_in(Section.CENTRE)}
    assert centre == {"Driver": 3, "Turret": 4, "Gunnery Computer": 2, "Fire Extinguisher": 2,
                      "Pod B": 8, "Pod C": 8}
    rear = {c.name: c.boxes for c in card.components_in(Section.REAR)}
    assert rear == {"Engine": 4, "Fuel Tank": 3, "Super-Charger": 2, "Tyre RL": 2,
                    "Tyre RR": 2, "Pod D": 8}
    assert card.hit_location(Section.FRONT).faces_of("Pod A") == (3, 4, 5, 8)
    assert card.hit_location(Section.CENTRE).faces_of("Driver") == (1, 2)
    assert card.hit_location(Section.CENTRE).faces_of("Turret") == (3, 8)
    assert card.hit_location(Section.REAR).faces_of("Engine") == (3, 4)
    assert card.hit_location(Section.REAR).component_for(5) == "Fuel Tank"


def test_example_card_is_labelled_as_invented() -> None:
    card = example_card()
    assert "not official" in card.name and "INVENTED" in card.note
    assert list(card_catalog()) == [EXAMPLE_CARD_NAME]


def test_bc_e1_pod_capacity() -> None:
    """BC-E1: an 8-box pod holds 2 Rockets or 4 Shells, not more."""
    card = example_card()
    rockets = replace(card, loadout=(Loading("Pod A", (Weapon.ROCKET,) * 2),))
    shells = replace(card, loadout=(Loading("Pod A", (Weapon.SHELL,) * 4),))
    assert rockets.problems() == () and shells.problems() == ()
    assert codes(replace(card, loadout=(Loading("Pod A", (Weapon.ROCKET,) * 3),))) == [
        "loading-overfull"]
    assert codes(replace(card, loadout=(Loading("Pod A", (Weapon.SHELL,) * 5),))) == [
        "loading-overfull"]


def test_loading_rules_each_with_its_rule() -> None:
    card = example_card()
    bad = replace(card, loadout=(
        Loading("Pod B", (Weapon.ROCKET,)),                # rule 6: left-firing pod
        Loading("Pod A", (Weapon.OIL,)),                   # rule 8: front-firing pod
        Loading("Turret", (Weapon.FLAME,)),                # rule 5: MG only
        Loading("Pod D", (Weapon.SHELL, Weapon.MG)),       # rule 4: two missile types
        Loading("Pod C", (Weapon.MG, Weapon.SMOKE)),       # rule 4: missile and passive
        Loading("Engine", (Weapon.MG,)),                   # rule 1
        Loading("Pod Z", (Weapon.MG,)),                    # unknown mount
    ))
    problems = bad.problems()
    assert [p.code for p in problems] == [
        "pod-facing-forbidden", "pod-facing-forbidden", "turret-mg-only", "pod-mixed",
        "pod-mixed", "loading-not-mount", "loading-unknown-mount"]
    assert all(p.rule == "Battlecars §1.4" for p in problems)
    assert "loading rule 6" in problems[0].message and problems[0].field == "loadout.Pod B"
    assert "loading rule 8" in problems[1].message


def test_mixed_passives_and_any_pod_for_mg_and_flame() -> None:
    card = example_card()
    fine = replace(card, loadout=(
        Loading("Pod C", (Weapon.SMOKE, Weapon.OIL, Weapon.MINES, Weapon.SPIKES)),
        Loading("Pod A", (Weapon.MG,) * 8), Loading("Pod B", (Weapon.FLAME,) * 4),
        Loading("Pod D", (Weapon.OIL,) * 4), Loading("Turret", (Weapon.MG,) * 4)))
    assert fine.problems() == ()


def test_counter_sizes_follow_bc_d37() -> None:
    card = replace(example_card(), loadout=(Loading("Turret", (Weapon.MG,) * 4),))
    assert card.problems() == ()
    bigger = replace(card, counter_sizes=CounterSizes(mg=2))
    assert codes(bigger) == ["loading-overfull"]
    assert codes(replace(card, counter_sizes=CounterSizes(oil=0))) == ["counter-size"]


def test_every_structural_problem_is_listed_at_once() -> None:
    card = example_card()
    broken = replace(
        card, name=" ", speed_track_max=0,
        armour=card.armour[:-1] + (Armour(Block.FRONT, 0),),
        components=card.components + (
            Component("Tyre FL", Kind.TYRE, Section.FRONT, 0),
            Component("Pod E", Kind.POD, Section.REAR, 8),
            Component("Engine 2", Kind.ENGINE, Section.REAR, 1, Facing.LEFT)),
        hit_locations=(HitLocation(Section.FRONT, ("Tyre FL", "Engine", "Nope")),
                       card.hit_locations[1], card.hit_locations[1]),
    )
    found = codes(broken)
    for code in ("name-missing", "speed-track", "armour-block-missing", "armour-block-duplicate",
                 "armour-boxes", "component-name-duplicate", "component-boxes",
                 "pod-facing-missing", "facing-not-pod", "engine-count", "hit-location-missing",
                 "hit-location-duplicate", "hit-location-faces", "hit-location-unknown",
                 "hit-location-wrong-section", "hit-location-unreachable"):
        assert code in found, code
    assert all(p.message and p.rule.startswith("Battlecars §") for p in broken.problems())


def test_driver_rules() -> None:
    card = example_card()
    no_driver = replace(card, components=tuple(c for c in card.components
                                               if c.kind is not Kind.DRIVER))
    assert "driver-missing" in codes(no_driver)
    four = replace(card, components=tuple(replace(c, boxes=4) if c.kind is Kind.DRIVER else c
                                          for c in card.components))
    assert codes(four) == ["driver-boxes"]


def test_empty_section_is_a_problem() -> None:
    card = example_card()
    no_front = replace(card, components=tuple(c for c in card.components
                                              if c.section is not Section.FRONT),
                       loadout=tuple(lo for lo in card.loadout if lo.mount != "Pod A"))
    assert "section-empty" in codes(no_front)


def test_json_round_trip() -> None:
    card = example_card()
    data = json.loads(json.dumps(card.to_json()))
    assert Card.from_json(data) == card
    assert Card.from_json(data).to_json() == data


@pytest.mark.parametrize(("change", "message"), [
    ({"speed_track_max": "9"}, "speed_track_max must be a whole number"),
    ({"armour": {"top": 3}}, "'top' is not one of"),
    ({"components": [{"name": "X", "kind": "laser", "section": "front", "boxes": 1}]},
     "'laser' is not one of"),
    ({"components": "none"}, "components must be a list"),
    ({"hit_locations": {"front": [1, 2]}}, "expected a list of component names"),
    ({"loadout": {"Pod A": ["nuke"]}}, "'nuke' is not one of"),
    ({"colour": "red"}, "unknown field colour"),
    ({"kind": "mini.design"}, "kind must be 'battlecars.card'"),
    ({"counter_sizes": {"mg": True}}, "mg must be a whole number"),
])
def test_from_json_refuses_malformed_data(change: dict[str, Any], message: str) -> None:
    data = example_card().to_json() | change
    with pytest.raises(CardError, match=message):
        Card.from_json(data)


def test_bc_d9_speed_track_defaults_to_9() -> None:
    data = example_card().to_json() | {"speed_track_max": 7}
    assert Card.from_json(data).speed_track_max == 7
    del data["speed_track_max"]
    assert Card.from_json(data).speed_track_max == 9


def test_from_json_needs_the_required_fields() -> None:
    data = example_card().to_json()
    del data["armour"]
    with pytest.raises(CardError, match="missing armour"):
        Card.from_json(data)
    with pytest.raises(CardError, match="expected a JSON object"):
        Card.from_json([])  # type: ignore[arg-type]


def test_draft_with_problems_still_loads() -> None:
    data = example_card().to_json() | {"speed_track_max": 0}
    draft = Card.from_json(data)
    assert codes(draft) == ["speed-track"]
