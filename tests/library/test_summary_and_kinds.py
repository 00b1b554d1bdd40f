"""Design kinds and summaries: cost, class and legality come from the engines."""

from __future__ import annotations

import pytest

from carwars_desktop.library import (
    VEHICLE,
    DesignDataError,
    UnknownKindError,
    all_kinds,
    catalog_entries,
    design_kind,
    kinds_of,
    load_design,
    summarize,
    summarize_design,
)
from carwars_desktop.library.summary import class_text, cost_text, status_text
from carwars_desktop.rules.autopower import Car, Deck, Icon, IconValue, PowerCard
from carwars_desktop.rules.autopower.kinds import DECK
from carwars_desktop.rules.battlecars import example_card
from carwars_desktop.rules.mini_car_wars import MiniDesign, PersonKit


def test_the_kinds_of_each_ruleset() -> None:
    assert [k.title for k in kinds_of("autopower")] == ["Car", "Deck"]
    assert [k.title for k in kinds_of("mini_car_wars")] == ["Vehicle"]
    assert len(all_kinds()) == 4
    assert design_kind("battlecars").ruleset_title == "Battlecars"
    with pytest.raises(UnknownKindError, match="no design kind"):
        design_kind("mini_car_wars", DECK)


def test_loading_refuses_what_the_engine_refuses() -> None:
    with pytest.raises(DesignDataError, match="not a valid AUTOpower car"):
        load_design("autopower", VEHICLE, {"name": "x"})
    with pytest.raises(DesignDataError, match="Battlecars card"):
        load_design("battlecars", VEHICLE, {"name": 3})


def test_mini_car_wars_summary_cost_size_and_problems() -> None:
    design = MiniDesign.stock_design("rocket_special", "a", name="Laser Special",
                                     driver=PersonKit(1, 0, True))
    summary = summarize_design("mini_car_wars", VEHICLE, design)
    assert (summary.cost, summary.cost_text) == (16_500 + 1_250, "$17,750")
    assert summary.class_text == "Mid-size" and summary.legal
    drafted = design.with_armor(design.armor.with_side(design.armor.items()[0][0], 0))
    summary = summarize("mini_car_wars", VEHICLE, drafted.to_json())
    assert not summary.legal and [p.code for p in summary.problems] == ["armor-total"]
    assert summary.status_text == "⚠ draft · 1 problem"


def test_battlecars_summary_class_is_the_top_speed() -> None:
    summary = summarize("battlecars", VEHICLE, example_card().to_json())
    assert (summary.cost_text, summary.class_text, summary.legal) == ("—", "top speed 9", True)


def test_autopower_car_and_deck_summaries() -> None:
    car = summarize("autopower", VEHICLE, Car("Big", 9, 9, 9, 2).to_json())
    assert (car.cost_text, car.class_text, car.legal) == ("total 29", "no division", False)
    assert summarize("autopower", VEHICLE, Car("Small", 3, 3, 3).to_json()).class_text == \
        "Division 15"
    multi = PowerCard("Ally", (IconValue(Icon.ENERGY, 2), IconValue(Icon.STRENGTH, 2)))
    deck = summarize("autopower", DECK, Deck("Allies", (multi,) * 60).to_json())
    assert deck.legal and [w.code for w in deck.warnings] == ["deck-multi-icon-share"]
    assert (deck.cost_text, deck.class_text) == ("—", "—")


def test_texts() -> None:
    assert cost_text("mini_car_wars", VEHICLE, -950) == "−$950"
    assert class_text("mini_car_wars", VEHICLE, None) == "—"
    assert status_text(True, 0) == "✔ legal"
    assert status_text(False, 3) == "⚠ draft · 3 problems"


def test_every_catalog_design_is_legal() -> None:
    for entry in catalog_entries():
        assert summarize(entry.ruleset_id, entry.kind, entry.data).legal, entry.name
