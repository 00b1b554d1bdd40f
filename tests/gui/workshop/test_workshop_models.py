"""Every item model of the Library and the Workshop passes Qt's model tester."""

from __future__ import annotations

from dataclasses import replace

from carwars_desktop.gui.plugins.autopower.deck_models import DeckCountsModel, DeckLinesModel
from carwars_desktop.gui.plugins.battlecars.models import ComponentsModel
from carwars_desktop.gui.workshop import LibraryWorkspace
from carwars_desktop.gui.workshop.library_model import COST, LibraryModel
from carwars_desktop.gui.workshop.problems_model import ProblemListModel
from carwars_desktop.rules.autopower import Deck, Icon, IconValue, PowerCard
from carwars_desktop.rules.autopower.deck_lines import group_cards
from carwars_desktop.rules.battlecars import example_card
from carwars_desktop.rules.battlecars.terms import Section
from carwars_desktop.rules.mini_car_wars import MiniDesign


def test_library_model(qtmodeltester, library: LibraryWorkspace) -> None:  # type: ignore[no-untyped-def]
    model = LibraryModel()
    qtmodeltester.check(model)
    model.set_entries(library.library.entries())
    qtmodeltester.check(model)
    model.set_scope("mini_car_wars", "catalog")
    model.set_query("cour")
    model.sort(COST)
    qtmodeltester.check(model)
    assert model.rowCount() == 3


def test_problem_model(qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    model = ProblemListModel()
    qtmodeltester.check(model)
    design = replace(MiniDesign.stock_design("courier"), name="")
    model.set_problems(design.problems(budget=1_000), design.problems())
    qtmodeltester.check(model)
    assert model.counts() == (2, 1)


DECK = Deck("Test", (PowerCard("A", (IconValue(Icon.ENERGY, 3),)),
                     PowerCard("B", (IconValue(Icon.FIGHTING, 2), IconValue(Icon.STRENGTH, 5))),
                     PowerCard("A", (IconValue(Icon.ENERGY, 3),))))


def test_deck_models(qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    lines = DeckLinesModel(lambda _row, _column, _text: None)
    qtmodeltester.check(lines)
    lines.set_lines(group_cards(DECK.cards))
    qtmodeltester.check(lines)
    counts = DeckCountsModel(range(1, 21))
    counts.set_deck(DECK)
    qtmodeltester.check(counts)
    assert counts.data(counts.index(0, 2)) == "2"


def test_components_model(qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    model = ComponentsModel(Section.CENTRE, lambda _i, _c, _v: None)
    qtmodeltester.check(model)
    model.set_card(example_card())
    qtmodeltester.check(model)
    assert model.rowCount() == 6
