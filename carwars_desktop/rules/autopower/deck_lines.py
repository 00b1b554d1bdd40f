"""A deck as a deck list: identical power cards grouped into lines with a count.

The engine keeps a deck as its cards one by one (:class:`~carwars_desktop.rules.autopower.Deck`);
players write it as "4 × Energy 5". Grouping keeps the order in which each card first
appears, so expanding the lines gives back an equal deck.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

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
    # Counted by identity first (a loaded deck shares one value per distinct card, and
    # hashing a card walks its icons): 90,000 cards hash only their dozen distinct ones.
    # Each entry keeps its card alive, so no id is reused while counting.
    by_identity: dict[int, list[Any]] = {}
    for card in cards:
        entry = by_identity.get(id(card))
        if entry is None:
            by_identity[id(card)] = [card, 1]
        else:
            entry[1] += 1
    counts: dict[PowerCard, int] = {}
    for card, count in by_identity.values():
        counts[card] = counts.get(card, 0) + count
    return tuple(DeckLine(count, card) for card, count in counts.items())


def expand_lines(lines: Sequence[DeckLine]) -> tuple[PowerCard, ...]:
    """The cards of a deck list, line by line (lines with a count below 1 give none)."""
    return tuple(line.card for line in lines for _ in range(max(0, line.count)))


def deck_from_lines(name: str, lines: Sequence[DeckLine]) -> Deck:
    return Deck(name, expand_lines(lines))
