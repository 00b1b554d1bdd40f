"""Reading and writing a design that repeats a few values many times: a key that tells
read values apart exactly as their JSON does, and copies that share no object."""

from __future__ import annotations

import math

import pytest

from carwars_desktop.rules.autopower import Deck, Icon, IconValue, PowerCard
from carwars_desktop.rules.autopower.errors import DeckFormatError
from carwars_desktop.rules.kernel.json_key import fresh_copies, json_key


def test_plain_json_values_are_keyed_by_their_text() -> None:
    card = {"title": "E5", "icons": [{"icon": "energy", "value": 5}]}
    assert json_key(card) == json_key({"title": "E5", "icons": [{"icon": "energy", "value": 5}]})
    assert json_key(card) == b'{"title":"E5","icons":[{"icon":"energy","value":5}]}'
    texts: dict[bytes, object] = {}
    assert json_key(card, texts) == json_key(card) and len(texts) == 1
    assert len({json_key(v) for v in (1, 1.0, True, "1", [1], None)}) == 6


def test_values_their_text_would_confuse_get_their_repr() -> None:
    texts: dict[bytes, object] = {}
    assert json_key([1, 2], texts) == b"[1,2]"
    for value in ((1, 2), {1: 2}, {"a": b"x"}, math.nan, {"a": "\ud800"}):
        key = json_key(value, texts)
        assert key == repr(value) and isinstance(key, str)
    assert json_key({"a": [1, 2]}, texts) != json_key({"a": (1, 2)}, texts)


def test_a_deck_with_a_tuple_where_a_list_belongs_is_refused_even_after_a_good_card() -> None:
    good = {"title": "E5", "icons": [{"icon": "energy", "value": 5}]}
    bad = {"title": "E5", "icons": ({"icon": "energy", "value": 5},)}
    assert len(Deck.from_json({"name": "ok", "cards": [good, good]}).cards) == 2
    with pytest.raises(DeckFormatError):
        Deck.from_json({"name": "bad", "cards": [good, bad]})


def test_fresh_copies_share_no_object_and_fall_back_for_what_json_cannot_carry() -> None:
    forms: list[object] = [{"a": [1, {"b": 2}]}, {"c": "d"}]
    copies = fresh_copies(forms, [0, 1, 0])
    assert copies == [forms[0], forms[1], forms[0]]
    copies[0]["a"][1]["b"] = 9
    assert copies[2]["a"][1]["b"] == 2 and forms[0] == {"a": [1, {"b": 2}]}
    odd = fresh_copies([{"a": (1,)}, {"n": math.inf}], [0, 1, 1])
    assert odd == [{"a": (1,)}, {"n": math.inf}, {"n": math.inf}]
    assert odd[1] is not odd[2]


def test_a_deck_writes_every_card_as_its_own_objects() -> None:
    card = PowerCard("Both", (IconValue(Icon.ENERGY, 2), IconValue(Icon.FIGHTING, 3)))
    written = Deck("d", (card,) * 3).to_json()
    assert written == {"name": "d", "cards": [card.to_json()] * 3}
    assert len({id(c) for c in written["cards"]}) == 3
    assert len({id(c["icons"][0]) for c in written["cards"]}) == 3
