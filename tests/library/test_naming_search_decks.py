"""Names, tags, search-as-you-type and deck lists."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from carwars_desktop.library import (
    NAME_MAX,
    InvalidNameError,
    clean_name,
    copy_name,
    parse_tags,
    tags_text,
    unique_name,
)
from carwars_desktop.library.search import fold, haystack, matching_rows
from carwars_desktop.rules.autopower import Icon, IconValue, PowerCard
from carwars_desktop.rules.autopower.deck_lines import (
    DeckLine,
    deck_from_lines,
    expand_lines,
    group_cards,
)


def test_names_are_cleaned_and_refused_with_a_reason() -> None:
    assert clean_name("  Courier  ") == "Courier"
    with pytest.raises(InvalidNameError, match="needs a name"):
        clean_name(" \t ")
    with pytest.raises(InvalidNameError, match="at most 200"):
        clean_name("x" * 201)
    with pytest.raises(InvalidNameError, match="control characters"):
        clean_name("a\nb")


def test_tags() -> None:
    assert parse_tags(" Club, road duel,club ,, ") == ("club", "road duel")
    assert tags_text(("club", "road duel")) == "club, road duel"
    with pytest.raises(InvalidNameError, match="at most 20 tags"):
        parse_tags(",".join(f"t{n}" for n in range(21)))


def test_names_that_do_not_clash() -> None:
    assert unique_name("Courier", {"Kart"}) == "Courier"
    assert unique_name("Courier", {"Courier", "Courier (2)"}) == "Courier (3)"
    assert unique_name("Courier (2)", {"Courier (2)"}) == "Courier (3)"
    assert copy_name("Courier", {"Courier"}) == "Courier (copy)"
    assert copy_name("Courier", {"Courier (copy)"}) == "Courier (2)"
    long = "x" * NAME_MAX
    assert len(unique_name(long, {long})) == NAME_MAX


@given(st.text(max_size=30), st.sets(st.text(max_size=30), max_size=10))
def test_a_unique_name_is_never_taken(name: str, taken: set[str]) -> None:
    assert unique_name(name, taken | {name}) not in taken | {name}


def test_search_matches_every_word_in_name_or_tags() -> None:
    hay = [haystack("Rocket Spécial", ("duel",)), haystack("Courier", ("club", "laser")),
           haystack("Kart", ())]
    assert matching_rows("", hay) == [0, 1, 2]
    assert matching_rows("special", hay) == [0]
    assert matching_rows("COUR las", hay) == [1]
    assert matching_rows("duel rocket", hay) == [0]
    assert matching_rows("kart duel", hay) == []
    assert matching_rows("r", hay, among=[2, 0]) == [2, 0]
    assert fold("Ünïcode") == "unicode"


ENERGY_5 = PowerCard("Energy 5", (IconValue(Icon.ENERGY, 5),))
TRAINING = PowerCard("Training", (IconValue(Icon.ENERGY, 2), IconValue(Icon.FIGHTING, 3)))


def test_identical_cards_make_one_line_in_first_seen_order() -> None:
    cards = (ENERGY_5, TRAINING, ENERGY_5, ENERGY_5)
    lines = group_cards(cards)
    assert lines == (DeckLine(3, ENERGY_5), DeckLine(1, TRAINING))
    assert lines[1].icons_text == "Energy 2, Fighting 3"
    assert expand_lines(lines) == (ENERGY_5, ENERGY_5, ENERGY_5, TRAINING)
    assert deck_from_lines("D", (DeckLine(0, ENERGY_5),)).cards == ()


@given(st.lists(st.sampled_from([ENERGY_5, TRAINING]), max_size=20))
def test_grouping_then_expanding_keeps_the_counts(cards: list[PowerCard]) -> None:
    expanded = expand_lines(group_cards(cards))
    assert sorted(c.title for c in expanded) == sorted(c.title for c in cards)
