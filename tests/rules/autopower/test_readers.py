"""AUTOpower's Car, deck, card and options readers: the shared strict reader, today's words."""

from __future__ import annotations

from typing import Any

import pytest

from carwars_desktop.rules.autopower.car import Car
from carwars_desktop.rules.autopower.deck import Deck
from carwars_desktop.rules.autopower.errors import (
    CarFormatError,
    DeckFormatError,
    OptionsFormatError,
)
from carwars_desktop.rules.autopower.options import Options

CAR = {"name": "Zip", "energy": 5, "fighting": 4, "strength": 3, "intelligence": None}
CARD = {"title": "Zap", "icons": [{"icon": "energy", "value": 3}]}


def _refused(read: Any, data: Any, error: type[Exception]) -> str:
    with pytest.raises(error) as caught:
        read(data)
    return str(caught.value)


@pytest.mark.parametrize(("data", "message"), [
    ([1], "a car must be an object, not [1]"),
    ({"name": "Zip"}, "car: missing energy, fighting, strength"),
    ({**CAR, "speed": 1, "colour": 2}, "car: unknown field colour, speed"),
    ({**CAR, "name": 5}, "car name must be text, not 5"),
    ({**CAR, "notes": None}, "car notes must be text, not None"),
    ({**CAR, "energy": True}, "car 'Zip': energy must be a whole number, not True"),
    ({**CAR, "fighting": "4"}, "car 'Zip': fighting must be a whole number, not '4'"),
    ({**CAR, "intelligence": 2.5}, "car 'Zip': intelligence must be a whole number, not 2.5"),
])
def test_car_refusals_word_for_word(data: Any, message: str) -> None:
    assert _refused(Car.from_json, data, CarFormatError) == message


def test_a_car_reads_back() -> None:
    car = Car.from_json({**CAR, "intelligence": 2, "notes": "n"})
    assert Car.from_json(car.to_json()) == car and car.intelligence == 2
    assert Car.from_json(CAR).intelligence is None


@pytest.mark.parametrize(("data", "message"), [
    ("deck", "a deck must be an object, not 'deck'"),
    ({"name": "D"}, "a deck has exactly the fields name and cards, not name"),
    ({"name": 1, "cards": []}, "deck name must be text, not 1"),
    ({"name": "D", "cards": {}}, "deck cards must be a list, not {}"),
    ({"name": "D", "cards": [3]}, "a card must be an object, not 3"),
    ({"name": "D", "cards": [{"title": "Zap"}]}, "card: missing icons"),
    ({"name": "D", "cards": [{**CARD, "x": 1}]}, "card: unknown field x"),
    ({"name": "D", "cards": [{**CARD, "title": 7}]}, "card title must be text, not 7"),
    ({"name": "D", "cards": [{**CARD, "icons": "e"}]},
     "card 'Zap': icons must be a list, not 'e'"),
    ({"name": "D", "cards": [{**CARD, "icons": [5]}]},
     "card 'Zap': an icon must be an object, not 5"),
    ({"name": "D", "cards": [{**CARD, "icons": [{"icon": "energy"}]}]},
     "card 'Zap' icon: missing value"),
    ({"name": "D", "cards": [{**CARD, "icons": [{"icon": "speed", "value": 1}]}]},
     "card 'Zap': unknown icon 'speed' (known: energy, fighting, strength, intelligence)"),
    ({"name": "D", "cards": [{**CARD, "icons": [{"icon": "energy", "value": "3"}]}]},
     "card 'Zap': icon value must be a whole number, not '3'"),
])
def test_deck_and_card_refusals_word_for_word(data: Any, message: str) -> None:
    assert _refused(Deck.from_json, data, DeckFormatError) == message


@pytest.mark.parametrize(("data", "message"), [
    (3, "options must be an object, not 3"),
    ({"lasers_on": True}, "unknown option lasers_on"),
    ({"division": "20"}, "division must be a whole number, not '20'"),
    ({"division": 18}, "division must be one of 15, 20, 25, not 18"),
    ({"ramming": 1}, "ramming must be true or false, not 1"),
])
def test_options_refusals_word_for_word(data: Any, message: str) -> None:
    assert _refused(Options.from_json, data, OptionsFormatError) == message


def test_options_read_back() -> None:
    options = Options.from_json({"division": None, "ramming": False})
    assert Options.from_json(options.to_json()) == options
