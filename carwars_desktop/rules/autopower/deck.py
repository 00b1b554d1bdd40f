"""A deck of OverPower power cards (digest §1.3).

:meth:`Deck.problems` lists what breaks the rules (fewer than 60 cards, a card
without a numbered icon); :meth:`Deck.warnings` lists what goes against a
recommendation (multi-icon cards above a third). Both return :class:`Problem`
tuples; warnings are kept apart so they never make a deck illegal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from carwars_desktop.rules.autopower.cards import Icon, PowerCard
from carwars_desktop.rules.autopower.errors import DeckFormatError
from carwars_desktop.rules.autopower.tables import MINIMUM_DECK, MULTI_ICON_SHARE, rule
from carwars_desktop.rules.kernel.json_key import fresh_copies, json_key
from carwars_desktop.rules.kernel.reader import NAMED, Reader
from carwars_desktop.rules.ruleset import Problem


@dataclass(frozen=True)
class Deck:
    """A player's constructed deck, or the One Big Deck everybody shares."""

    name: str
    cards: tuple[PowerCard, ...]

    @property
    def _distinct(self) -> list[tuple[PowerCard, int]]:
        """Each card value once (a read deck shares one value per distinct card) with how
        many times it is in the deck: a 90,000-card deck holds a few dozen. Worked out
        once per deck (the deck never changes; not a field, so not compared)."""
        known: list[tuple[PowerCard, int]] | None = self.__dict__.get("_distinct_cards")
        if known is None:
            counted = Counter(map(id, self.cards))
            by_id = dict(zip(map(id, self.cards), self.cards, strict=True))
            known = [(by_id[key], times) for key, times in counted.items()]
            object.__setattr__(self, "_distinct_cards", known)
        return known

    def distinct_cards(self) -> list[tuple[PowerCard, int]]:
        """Each card value once, in first-seen order, with how many times it is in the
        deck (two equal values of the deck's cards count apart)."""
        return list(self._distinct)

    @property
    def multi_icon_count(self) -> int:
        return sum(times for card, times in self._distinct if card.is_multi_icon)

    def counts(self) -> dict[Icon, dict[int, int]]:
        """How many cards carry each icon at each value (a multi-icon card counts under each)."""
        result: dict[Icon, dict[int, int]] = {icon: {} for icon in Icon}
        for card, times in self._distinct:
            for choice in card.icons:
                by_value = result[choice.icon]
                by_value[choice.value] = by_value.get(choice.value, 0) + times
        return {icon: dict(sorted(by_value.items())) for icon, by_value in result.items()}

    def problems(self) -> tuple[Problem, ...]:
        """Every rule the deck breaks, all at once (never raises). Worked out once per
        deck (the summary, the problems panel and the library all ask)."""
        known: tuple[Problem, ...] | None = self.__dict__.get("_problems")
        if known is None:
            known = self._find_problems()
            object.__setattr__(self, "_problems", known)
        return known

    def _find_problems(self) -> tuple[Problem, ...]:
        found: list[Problem] = []
        section_0, section_1_3 = rule("0"), rule("1.3")  # cited by thousands of cards
        if not self.name.strip():
            found.append(Problem("deck-name", "The deck needs a name.", rule("1.3"), "name"))
        if len(self.cards) < MINIMUM_DECK:
            found.append(Problem(
                "deck-size",
                f"The deck has {len(self.cards)} cards; at least {MINIMUM_DECK} are needed.",
                rule("1.3"), "cards"))
        sound: set[int] = set()  # ids of cards (alive in self.cards) that break no rule
        for index, card in enumerate(self.cards):
            if id(card) in sound:
                continue
            found_before = len(found)
            where = f"cards[{index}]"
            if not card.icons:
                found.append(Problem(
                    "card-no-icon",
                    f"Card {index + 1} ({card.title!r}) has no numbered icon; only cards with "
                    "at least one are used.", section_1_3, where))
            for choice in card.icons:
                if choice.value < 1:
                    found.append(Problem(
                        "card-value",
                        f"Card {index + 1} ({card.title!r}): {choice} is not a card value "
                        "(1 or more).", section_0, where))
            icons = [choice.icon for choice in card.icons]
            if len(set(icons)) != len(icons):
                found.append(Problem(
                    "card-icon-twice",
                    f"Card {index + 1} ({card.title!r}) carries the same icon twice.",
                    section_0, where))
            if len(found) == found_before:
                sound.add(id(card))
        return tuple(found)

    def warnings(self) -> tuple[Problem, ...]:
        """Departures from the recommendations: they never make the deck illegal."""
        found: list[Problem] = []
        multi = self.multi_icon_count
        if self.cards and multi > MULTI_ICON_SHARE * len(self.cards):
            found.append(Problem(
                "deck-multi-icon-share",
                f"{multi} of {len(self.cards)} cards are multi-icon cards; "
                f"up to a third ({int(MULTI_ICON_SHARE * len(self.cards))}) is recommended.",
                rule("1.3"), "cards"))
        return tuple(found)

    def to_json(self) -> dict[str, Any]:
        # Each distinct card value is written once; every card still gets its own dicts
        # (copied in one pass, in C: a 90,000-card deck in milliseconds, not a second).
        index: dict[int, int] = {}
        forms: list[dict[str, Any]] = []
        for card, _times in self._distinct:
            index[id(card)] = len(forms)
            forms.append(card.to_json())
        return {"name": self.name,
                "cards": fresh_copies(forms, map(index.__getitem__, map(id, self.cards)))}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Deck:
        """Load a deck, refusing malformed data with a :class:`DeckFormatError`."""
        deck = Reader(data, "deck", DeckFormatError, NAMED,
                      not_object="a deck must be an object, not {data!r}")
        if set(deck.data) != {"name", "cards"}:
            raise DeckFormatError(f"a deck has exactly the fields name and cards, not "
                                  f"{', '.join(sorted(deck.data))}")
        name, cards = deck.text("name"), deck.items("cards")
        # A deck repeats a few cards many times (90,000 cards, a dozen kinds): each
        # distinct card is read once, and the cards equal to it share the same value.
        # Cards are told apart by their JSON text (msgspec writes a small card in well
        # under a microsecond, a repr of it takes several).
        read: dict[object, PowerCard] = {}
        texts: dict[bytes, object] = {}
        loaded: list[PowerCard] = []
        for card in cards:
            key = json_key(card, texts)
            known = read.get(key)
            if known is None:
                known = read[key] = PowerCard.from_json(card)
            loaded.append(known)
        return Deck(name, tuple(loaded))

