"""What the library keeps: each ruleset's kinds of design and how to read them.

Every ruleset has vehicles (its ``Ruleset.design_from_json``); AUTOpower players
also build decks of power cards. A kind is named by ``(ruleset id, kind)``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from carwars_desktop.rules import RULESET_IDS, Design, find_ruleset, ruleset_title

VEHICLE = "vehicle"
DECK = "deck"


class DesignDataError(ValueError):
    """Design JSON that the ruleset's engine refuses (the message says why)."""


@dataclass(frozen=True)
class DesignKind:
    """One kind of design of one ruleset.

    Attributes:
        ruleset_id: the ruleset (``autopower``).
        kind: ``vehicle`` or ``deck``.
        title: what the players call it (``Car``, ``Card``, ``Deck``).
    """

    ruleset_id: str
    kind: str
    title: str

    @property
    def ruleset_title(self) -> str:
        return ruleset_title(self.ruleset_id)

    def load(self, data: Mapping[str, Any]) -> Design:
        """The design the engine reads from ``data``; refused with :class:`DesignDataError`."""
        reader = _readers()[(self.ruleset_id, self.kind)]
        try:
            return reader(data)
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as error:
            raise DesignDataError(f"not a valid {self.ruleset_title} {self.title.lower()}: "
                                  f"{error}") from error


_TITLES: Mapping[tuple[str, str], str] = {
    ("mini_car_wars", VEHICLE): "Vehicle",
    ("battlecars", VEHICLE): "Card",
    ("autopower", VEHICLE): "Car",
    ("autopower", DECK): "Deck",
}


def _read_deck(data: Mapping[str, Any]) -> Design:
    from carwars_desktop.rules.autopower import Deck

    return Deck.from_json(data)


def _readers() -> dict[tuple[str, str], Callable[[Mapping[str, Any]], Design]]:
    readers: dict[tuple[str, str], Callable[[Mapping[str, Any]], Design]] = {
        (ruleset_id, VEHICLE): find_ruleset(ruleset_id).design_from_json
        for ruleset_id in RULESET_IDS
    }
    readers[("autopower", DECK)] = _read_deck
    return readers


class UnknownKindError(LookupError):
    """No ruleset keeps designs of that kind."""


def design_kind(ruleset_id: str, kind: str = VEHICLE) -> DesignKind:
    """The kind ``kind`` of ruleset ``ruleset_id``, refused when there is none."""
    title = _TITLES.get((ruleset_id, kind))
    if title is None:
        known = ", ".join(f"{r}/{k}" for r, k in _TITLES)
        raise UnknownKindError(f"no design kind {ruleset_id!r}/{kind!r} (known: {known})")
    return DesignKind(ruleset_id, kind, title)


def kinds_of(ruleset_id: str) -> tuple[DesignKind, ...]:
    """Every kind of design a ruleset keeps, vehicles first."""
    return tuple(DesignKind(r, k, t) for (r, k), t in _TITLES.items() if r == ruleset_id)


def all_kinds() -> tuple[DesignKind, ...]:
    return tuple(DesignKind(r, k, t) for (r, k), t in _TITLES.items())


def load_design(ruleset_id: str, kind: str, data: Mapping[str, Any]) -> Design:
    """Read a design of any kind; :class:`DesignDataError` (or :class:`UnknownKindError`)."""
    return design_kind(ruleset_id, kind).load(data)
