"""A deck of tens of thousands of cards: each distinct card read and checked once,
every card's problems still reported at its own place, the deck list grouped alike."""

from __future__ import annotations

from carwars_desktop.rules.autopower import Deck, Icon, IconValue, PowerCard
from carwars_desktop.rules.autopower.deck_lines import group_cards


def test_a_big_deck_reads_shares_and_checks_every_card() -> None:
    good = PowerCard("E5", (IconValue(Icon.ENERGY, 5),))
    bad = PowerCard("Blank", ())
    deck = Deck("big", tuple(bad if n % 1000 == 999 else good for n in range(30_000)))
    loaded = Deck.from_json(deck.to_json())
    assert loaded == deck
    assert len({id(card) for card in loaded.cards}) == 2  # one value per distinct card
    problems = [p for p in loaded.problems() if p.code == "card-no-icon"]
    assert [p.field for p in problems] == [f"cards[{n}]" for n in range(999, 30_000, 1000)]
    lines = group_cards(loaded.cards)
    assert [(line.count, line.card) for line in lines] == [(29_970, good), (30, bad)]
    equal_but_distinct = [PowerCard("E5", (IconValue(Icon.ENERGY, 5),)) for _ in range(3)]
    assert [(line.count, line.card) for line in group_cards([bad, *equal_but_distinct])] == [
        (1, bad), (3, good)]
