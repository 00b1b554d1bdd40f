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


def test_a_read_deck_counts_each_card_it_holds_however_it_shares_values() -> None:
    cards = [PowerCard("E5", (IconValue(Icon.ENERGY, 5),)),
             PowerCard("Both", (IconValue(Icon.ENERGY, 2), IconValue(Icon.FIGHTING, 3))),
             PowerCard("Blank", ())]
    deck = Deck("mixed", tuple(cards[n % 3] for n in range(3_000)))
    loaded = Deck.from_json(deck.to_json())
    fresh = Deck("mixed", tuple(PowerCard.from_json(card.to_json()) for card in deck.cards))
    for one in (deck, loaded, fresh):  # shared values, or one value per card
        assert one.multi_icon_count == 1_000
        assert one.counts()[Icon.ENERGY] == {2: 1_000, 5: 1_000}
        assert one.counts()[Icon.FIGHTING] == {3: 1_000}
    written = loaded.to_json()["cards"]
    assert written == [card.to_json() for card in deck.cards]
    written[0]["icons"][0]["value"] = 9  # every card is written as its own objects
    assert written[3]["icons"][0]["value"] == 5
