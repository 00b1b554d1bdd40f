"""A deck as a deck list: identical power cards grouped into lines with a count.

The engine keeps a deck as its cards one by one (:class:`~carwars_desktop.rules.autopower.Deck`);
players write it as "4 × Energy 5". Grouping keeps the order in which each card first
appears, so expanding the lines gives back an equal deck.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from carwars_desktop.rules.autopower import Deck, PowerCard

MAX_COPIES = 999


@dataclass(frozen=True)
class DeckLine:
    """``count`` copies of one power card."""

    count: int
    card: PowerCard

    @property
    def icons_text(self) -> str:
        return ", ".join(str(icon) for icon in self.card.icons) or "no numbered icon"


def group_cards(cards: Iterable[PowerCard]) -> tuple[DeckLine, ...]:
    """Identical cards (same title and icons) as one line each, in first-seen order."""
    # Counted by identity first, in C (a loaded deck shares one value per distinct card,
    # and hashing a card walks its icons): 90,000 cards hash only their dozen distinct
    # ones. ``kept`` holds every card alive while counting, so no id is reused.
    kept = cards if isinstance(cards, tuple | list) else tuple(cards)
    by_identity = dict(zip(map(id, kept), kept, strict=True))
    return _merged((by_identity[key], count) for key, count in Counter(map(id, kept)).items())


def _merged(counted: Iterable[tuple[PowerCard, int]]) -> tuple[DeckLine, ...]:
    """Equal cards' counts added up, in first-seen order."""
    counts: dict[PowerCard, int] = {}
    for card, count in counted:
        counts[card] = counts.get(card, 0) + count
    return tuple(DeckLine(count, card) for card, count in counts.items())


def deck_lines(deck: Deck) -> tuple[DeckLine, ...]:
    """:func:`group_cards` of a deck's cards, from the deck's own count of them (worked
    out once per deck, on the worker that read a huge one)."""
    return _merged(deck.distinct_cards())


def expand_lines(lines: Sequence[DeckLine]) -> tuple[PowerCard, ...]:
    """The cards of a deck list, line by line (lines with a count below 1 give none)."""
    return tuple(line.card for line in lines for _ in range(max(0, line.count)))


def deck_from_lines(name: str, lines: Sequence[DeckLine]) -> Deck:
    return Deck(name, expand_lines(lines))
