"""The design exchange format: round trips, and every kind of refused file."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from carwars_desktop.library import (
    FORMAT,
    VERSION,
    ExchangeError,
    catalog_entries,
    dumps_designs,
    make_exchanged,
    read_designs,
)
from carwars_desktop.library.exchange import MAX_BYTES, MAX_DEPTH
from carwars_desktop.rules.autopower import Deck, Icon, IconValue, PowerCard
from carwars_desktop.rules.mini_car_wars import MiniDesign


def _all_catalog() -> list[Any]:
    return [make_exchanged(e.ruleset_id, e.kind, e.data, ["shipped"]) for e in catalog_entries()]


def _file(*designs: dict[str, Any], **top: Any) -> dict[str, Any]:
    document: dict[str, Any] = {"format": FORMAT, "version": VERSION, "designs": list(designs)}
    document.update(top)
    return document


def _courier_item(**changes: Any) -> dict[str, Any]:
    item: dict[str, Any] = {"ruleset": "mini_car_wars", "kind": "vehicle", "tags": ["club"],
                            "design": MiniDesign.stock_design("courier").to_json()}
    item.update(changes)
    return item


def test_every_catalog_design_round_trips_equal() -> None:
    designs = _all_catalog()
    text = dumps_designs(designs, datetime(2026, 12, 1, 19, 30, tzinfo=UTC), app="test")
    assert read_designs(text) == tuple(designs)
    assert read_designs(text.encode("utf-8")) == tuple(designs)
    document = json.loads(text)
    assert (document["format"], document["version"], document["exported_at"]) == (
        FORMAT, VERSION, "2026-12-01T19:30:00Z")


def test_one_design_and_a_deck_round_trip() -> None:
    deck = Deck("Mixed", (PowerCard("Training", (IconValue(Icon.ENERGY, 3),
                                                 IconValue(Icon.FIGHTING, 4))),))
    designs = [make_exchanged("autopower", "deck", deck.to_json(), ["Decks", "decks"])]
    (back,) = read_designs(dumps_designs(designs))
    assert back.tags == ("decks",) and Deck.from_json(back.data) == deck


def test_a_byte_order_mark_is_accepted() -> None:
    text = json.dumps(_file(_courier_item()))
    assert read_designs(b"\xef\xbb\xbf" + text.encode())[0].name == "Courier"


def test_a_draft_stays_a_draft() -> None:
    armor = dict(MiniDesign.stock_design("courier").to_json())
    armor["armor"] = {"F": 99, "R": 0, "L": 0, "B": 0, "T": 0}
    (design,) = read_designs(json.dumps(_file(_courier_item(design=armor))))
    assert design.data["armor"]["F"] == 99


REFUSED: list[tuple[str, Any, str]] = [
    ("empty", b"", "empty"),
    ("binary", b"\x89PNG\r\n\x1a\n\x00\x00", "not UTF-8"),
    ("not json", "{designs: []}", "not valid JSON"),
    ("a list", "[]", "a JSON object, not a list"),
    ("other format", json.dumps({"format": "x", "version": 1, "designs": []}),
     "not a Carwars Desktop design file"),
    ("newer", json.dumps(_file(_courier_item(), version=VERSION + 1)),
     "newer Carwars Desktop"),
    ("version text", json.dumps(_file(_courier_item(), version="1")), "whole number"),
    ("version 0", json.dumps(_file(_courier_item(), version=0)), "does not exist"),
    ("no designs", json.dumps(_file()), "holds no designs"),
    ("unknown top field", json.dumps(_file(_courier_item(), extra=1)), "unknown field"),
    ("designs not a list", json.dumps({"format": FORMAT, "version": 1, "designs": {}}),
     "must be a list"),
    ("item not an object", json.dumps(_file("Courier")), "design 1 is a text"),  # type: ignore[arg-type]
    ("unknown ruleset", json.dumps(_file(_courier_item(ruleset="chess"))), "no design kind"),
    ("deck of mcw", json.dumps(_file(_courier_item(kind="deck"))), "no design kind"),
    ("engine refuses", json.dumps(_file(_courier_item(design={"name": "x"}))),
     "not a valid Mini Car Wars vehicle"),
    ("unknown stock", json.dumps(_file(_courier_item(design={
        **MiniDesign.stock_design("courier").to_json(), "stock": "tank"}))), "no stock vehicle"),
    ("nameless", json.dumps(_file(_courier_item(design={
        **MiniDesign.stock_design("courier").to_json(), "name": "  "}))), "needs a name"),
    ("tags not texts", json.dumps(_file(_courier_item(tags=[1]))), "list of texts"),
    ("duplicate key", f'{{"format": "{FORMAT}", "format": "{FORMAT}", "version": 1}}',
     "given twice"),
    ("NaN", json.dumps(_file(_courier_item(design={"name": float("nan")}))),
     "not a number in JSON"),
    ("huge number", json.dumps(_file(_courier_item(design={
        **MiniDesign.stock_design("courier").to_json(),
        "armor": {"F": 10**30, "R": 0, "L": 0, "B": 0, "T": 0}}))), "too large"),
    ("thousands of digits", '{"format": 1e5, "n": ' + "9" * 5000 + "}", "cannot give"),
    ("NUL", json.dumps(_file(_courier_item(tags=["a\x00b"]))), "NUL character"),
    ("surrogate", '{"format": "\\ud800", "version": 1, "designs": []}', "surrogate"),
    ("deep", '{"a": ' * (MAX_DEPTH + 5) + "1" + "}" * (MAX_DEPTH + 5), "nests"),
    ("very deep", "[" * 100_000 + "]" * 100_000, "nests"),
    ("too big", b" " * (MAX_BYTES + 1), "at most 32 MiB"),
]


@pytest.mark.parametrize(("content", "reason"), [(c, r) for _, c, r in REFUSED],
                         ids=[name for name, _, _ in REFUSED])
def test_a_bad_file_is_refused_with_its_reason(content: Any, reason: str) -> None:
    with pytest.raises(ExchangeError, match=reason):
        read_designs(content)


def test_the_refusal_names_the_design_at_fault() -> None:
    bad = {**MiniDesign.stock_design("courier", name="Second").to_json(), "option": 3}
    text = json.dumps(_file(_courier_item(), _courier_item(design=bad)))
    with pytest.raises(ExchangeError, match=r"design 2 \('Second'\): .*option"):
        read_designs(text)


def test_nothing_to_export_is_refused() -> None:
    with pytest.raises(ExchangeError, match="at least one"):
        dumps_designs([])


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_random_bytes_are_refused_or_read_never_crash(content: bytes) -> None:
    try:
        read_designs(content)
    except ExchangeError as error:
        assert str(error)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values)
def test_random_json_is_refused_with_a_reason(value: Any) -> None:
    with pytest.raises(ExchangeError):
        read_designs(json.dumps(value))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(design=json_values, ruleset=st.sampled_from(["mini_car_wars", "battlecars", "autopower"]),
       kind=st.sampled_from(["vehicle", "deck"]))
def test_random_designs_in_a_good_envelope_are_refused_or_valid(design: Any, ruleset: str,
                                                                 kind: str) -> None:
    text = json.dumps(_file({"ruleset": ruleset, "kind": kind, "design": design}))
    try:
        (read,) = read_designs(text)
    except ExchangeError as error:
        assert str(error)
    else:  # accepted: then the engine reads it back identically
        assert read_designs(dumps_designs([read])) == (read,)


def _mutations(document: Any) -> st.SearchStrategy[Any]:
    """A good file with one value somewhere replaced by garbage."""
    paths: list[tuple[Any, ...]] = []

    def walk(value: Any, path: tuple[Any, ...]) -> None:
        paths.append(path)
        if isinstance(value, dict):
            for key, item in value.items():
                walk(item, (*path, key))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                walk(item, (*path, index))

    walk(document, ())

    def replace_at(path: tuple[Any, ...], garbage: Any) -> Any:
        copy = json.loads(json.dumps(document))
        if not path:
            return garbage
        target = copy
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = garbage
        return copy

    return st.builds(replace_at, st.sampled_from(paths), json_values)


GOOD = json.loads(dumps_designs(_all_catalog()[:1] + _all_catalog()[-2:]
                                + [_all_catalog()[14]]))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_mutations(GOOD))
def test_a_good_file_with_garbage_inside_is_refused_or_still_valid(document: Any) -> None:
    try:
        designs = read_designs(json.dumps(document))
    except ExchangeError as error:
        assert str(error)
    else:
        assert read_designs(dumps_designs(designs)) == designs


def _deck(cards: int) -> Any:
    card = PowerCard("Training", (IconValue(Icon.ENERGY, 3), IconValue(Icon.FIGHTING, 4)))
    return make_exchanged("autopower", "deck", Deck(f"{cards} cards", (card,) * cards).to_json())


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(decks=st.lists(st.integers(0, 400), min_size=1, max_size=12),
       limit=st.integers(1_000, 200_000), most=st.integers(1, 12))
def test_an_export_is_read_back_or_refused_first(decks: list[int], limit: int,
                                                  most: int) -> None:
    """At any limits (made small here so that each is reached): what Export writes,
    Import reads back; what Import would refuse, Export refuses first, saying how."""
    from unittest import mock

    from carwars_desktop.library import exchange

    designs = [_deck(cards) for cards in decks]
    with mock.patch.object(exchange, "MAX_BYTES", limit), \
            mock.patch.object(exchange, "MAX_DESIGNS", most):
        try:
            text = dumps_designs(designs)
        except ExchangeError as error:
            assert "export fewer designs" in str(error) or "several files" in str(error)
            return
        assert read_designs(text) == tuple(designs)
        assert read_designs(text.encode()) == tuple(designs)


def test_a_90000_card_deck_exports_and_imports_back() -> None:
    """The audit's deck (18.9 MiB written): Export writes it, Import reads it back; one
    over the limit is refused by both with the same words."""
    from unittest import mock

    from carwars_desktop.library import exchange

    deck = _deck(90_000)
    text = dumps_designs([deck])
    assert len(text.encode()) > 16 * 1024 * 1024
    (back,) = read_designs(text)
    assert back == deck
    with mock.patch.object(exchange, "MAX_BYTES", len(text.encode()) - 1):
        with pytest.raises(ExchangeError, match="design files are at most") as written:
            dumps_designs([deck])
        with pytest.raises(ExchangeError, match="design files are at most") as read:
            read_designs(text)
    assert str(written.value).split(";")[1].split(":")[0] == \
        str(read.value).split(";")[1].split(":")[0]
