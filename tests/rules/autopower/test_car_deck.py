"""Cars (hero cards), power cards and decks: validation, JSON, multi-icon choices."""

import pytest

from carwars_desktop.rules.autopower import Car, Deck, Icon, IconValue, Options, PowerCard
from carwars_desktop.rules.autopower.cards import cards_text, parse_card_values, without
from carwars_desktop.rules.autopower.errors import (
    CardIconError,
    CardListError,
    CarFormatError,
    DeckFormatError,
    UnknownDivisionError,
)
from carwars_desktop.rules.ruleset import Problem


def codes(problems: tuple[Problem, ...]) -> list[str]:
    return [p.code for p in problems]


def test_class_is_the_total_and_the_smallest_division() -> None:
    car = Car("Bishop", 6, 4, 4, 3)
    assert car.total == 17 and car.car_class == 20
    assert car.problems() == ()
    assert car.problems(division=20) == () and car.problems(division=25) == ()
    over = car.problems(division=15)
    assert codes(over) == ["division-over"]
    assert over[0].field == "total" and "AP-D2" in over[0].rule
    assert "Total 17 is above 15" in over[0].message


def test_ap_d2_switched_off_needs_the_exact_class() -> None:
    car = Car("Bishop", 6, 4, 4, 3)
    assert codes(car.problems(division=25, upper_limit=False)) == ["division-class"]
    assert car.problems(division=20, upper_limit=False) == ()
    assert car.problems_for(Options(division=25)) == ()
    assert codes(car.problems_for(Options(division=25, ap_d2_division_is_upper_limit=False))) \
        == ["division-class"]
    assert codes(car.problems_for(Options(division=15))) == ["division-over"]


def test_every_problem_at_once_and_no_raise() -> None:
    car = Car(" ", -1, 4, -2, 30)
    found = car.problems()
    assert codes(found) == ["name-missing", "stat-negative", "stat-negative", "division-none"]
    assert [p.field for p in found] == ["name", "energy", "strength", "total"]


def test_unknown_division_is_a_bad_argument() -> None:
    with pytest.raises(UnknownDivisionError, match="not 18"):
        Car("X", 1, 1, 1).problems(division=18)


def test_ap_d3_no_intelligence_counts_as_zero() -> None:
    old = Car("Iron Man", 6, 6, 6)
    assert old.intelligence is None and old.iq == 0 and old.total == 18
    assert Car.from_json({"name": "Iron Man", "energy": 6, "fighting": 6, "strength": 6}) == old


def test_car_json_round_trip_and_refusals() -> None:
    car = Car("Booster Gold", 4, 4, 4, 3, "notes")
    assert Car.from_json(car.to_json()) == car
    assert Car.from_json(car.to_json()).to_json() == car.to_json()
    with pytest.raises(CarFormatError, match="missing energy"):
        Car.from_json({"name": "X", "fighting": 1, "strength": 1})
    with pytest.raises(CarFormatError, match="unknown field speed"):
        Car.from_json({**car.to_json(), "speed": 3})
    with pytest.raises(CarFormatError, match="fighting must be a whole number"):
        Car.from_json({**car.to_json(), "fighting": "4"})
    with pytest.raises(CarFormatError, match="energy must be a whole number"):
        Car.from_json({**car.to_json(), "energy": True})
    with pytest.raises(CarFormatError, match="must be an object"):
        Car.from_json([1, 2])  # type: ignore[arg-type]


def test_card_values_are_read_from_text() -> None:
    assert parse_card_values("3, 6") == (3, 6)
    assert parse_card_values(" 3 + 6 ") == (3, 6)
    assert parse_card_values("") == ()
    with pytest.raises(CardListError, match="'x' is not a card value"):
        parse_card_values("3, x")
    with pytest.raises(CardListError, match="1–20, not 0"):
        parse_card_values("0")
    assert cards_text((3, 6)) == "3 + 6" and cards_text(()) == "none"
    assert without((1, 2, 2), (2,)) == (1, 2)
    with pytest.raises(CardListError, match="no card 5"):
        without((1, 2), (5,))


def test_multi_icon_card_is_fixed_when_played() -> None:
    training = PowerCard("Training", (IconValue(Icon.FIGHTING, 4), IconValue(Icon.ENERGY, 3)))
    assert training.is_multi_icon
    played = training.play_as(Icon.ENERGY)
    assert (played.icon, played.value) == (Icon.ENERGY, 3)
    with pytest.raises(CardIconError, match="cannot be played as Strength"):
        training.play_as(Icon.STRENGTH)


def _deck(singles: int, multis: int) -> Deck:
    cards = [PowerCard(f"E{i % 8 + 1}", (IconValue(Icon.ENERGY, i % 8 + 1),))
             for i in range(singles)]
    cards += [PowerCard("Training", (IconValue(Icon.FIGHTING, 5), IconValue(Icon.STRENGTH, 5)))
              for _ in range(multis)]
    return Deck("Test deck", tuple(cards))


def test_deck_size_and_multi_icon_share() -> None:
    legal = _deck(40, 20)
    assert legal.problems() == () and legal.warnings() == ()
    heavy = _deck(39, 21)
    assert heavy.problems() == ()
    assert codes(heavy.warnings()) == ["deck-multi-icon-share"]
    assert "21 of 60 cards are multi-icon" in heavy.warnings()[0].message
    small = _deck(50, 9)
    assert codes(small.problems()) == ["deck-size"]
    assert "59 cards; at least 60" in small.problems()[0].message


def test_deck_problems_all_at_once() -> None:
    cards = (PowerCard("Blank", ()), PowerCard("Odd", (IconValue(Icon.ENERGY, 0),)),
             PowerCard("Twice", (IconValue(Icon.ENERGY, 2), IconValue(Icon.ENERGY, 3))))
    found = Deck("", cards).problems()
    assert codes(found) == ["deck-name", "deck-size", "card-no-icon", "card-value",
                            "card-icon-twice"]
    assert found[2].field == "cards[0]"


def test_deck_counts_per_icon_and_value() -> None:
    counts = _deck(16, 2).counts()
    assert counts[Icon.ENERGY] == {v: 2 for v in range(1, 9)}
    assert counts[Icon.FIGHTING] == {5: 2} and counts[Icon.STRENGTH] == {5: 2}
    assert counts[Icon.INTELLIGENCE] == {}


def test_deck_json_round_trip_and_refusals() -> None:
    deck = _deck(3, 1)
    assert Deck.from_json(deck.to_json()) == deck
    with pytest.raises(DeckFormatError, match="unknown icon 'speed'"):
        Deck.from_json({"name": "D", "cards": [{"title": "X", "icons": [
            {"icon": "speed", "value": 3}]}]})
    with pytest.raises(DeckFormatError, match="icon value must be a whole number"):
        Deck.from_json({"name": "D", "cards": [{"title": "X", "icons": [
            {"icon": "energy", "value": "3"}]}]})
    with pytest.raises(DeckFormatError, match="exactly the fields name and cards"):
        Deck.from_json({"name": "D"})
