"""OverPower power cards: numbered icons, multi-icon cards, and typed lists of values.

Digest §0 and §1.3: only cards with at least one numbered icon are used; a
multi-icon card counts as the one icon and value announced when it is played,
and that choice is fixed once the card is in play.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from carwars_desktop.rules.autopower.errors import CardIconError, CardListError, DeckFormatError
from carwars_desktop.rules.autopower.tables import MAX_CARD_VALUE
from carwars_desktop.rules.kernel.reader import NAMED, Reader, Wording


class Icon(Enum):
    """The four numbered icons of OverPower power cards."""

    ENERGY = "energy"
    FIGHTING = "fighting"
    STRENGTH = "strength"
    INTELLIGENCE = "intelligence"

    @property
    def label(self) -> str:
        return "IQ" if self is Icon.INTELLIGENCE else self.value.capitalize()


@dataclass(frozen=True)
class IconValue:
    """One numbered icon of a card: ``Energy 5``."""

    icon: Icon
    value: int

    def __str__(self) -> str:
        return f"{self.icon.label} {self.value}"


@dataclass(frozen=True)
class PlayedCard:
    """A card in play: the icon and value announced for it, fixed from now on (§0)."""

    title: str
    icon: Icon
    value: int


@dataclass(frozen=True)
class PowerCard:
    """A power card of the deck: its title and its numbered icons (Training and Allies
    cards carry several)."""

    title: str
    icons: tuple[IconValue, ...]

    @property
    def is_multi_icon(self) -> bool:
        return len(self.icons) > 1

    def play_as(self, icon: Icon) -> PlayedCard:
        """Announce which icon the card counts as; the choice cannot change in play (§0)."""
        for choice in self.icons:
            if choice.icon is icon:
                return PlayedCard(self.title, icon, choice.value)
        carried = ", ".join(str(c) for c in self.icons) or "no numbered icon"
        raise CardIconError(f"{self.title!r} cannot be played as {icon.label}: it carries "
                            f"{carried}")

    def to_json(self) -> dict[str, Any]:
        return {"title": self.title,
                "icons": [{"icon": c.icon.value, "value": c.value} for c in self.icons]}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> PowerCard:
        card = Reader(data, "card", DeckFormatError, NAMED,
                      not_object="a card must be an object, not {data!r}")
        card.keys({"title", "icons"})
        title = card.text("title")
        raw_icons = Reader(data, f"card {title!r}", DeckFormatError).items("icons")
        icons: list[IconValue] = []
        for raw in raw_icons:
            Reader(raw, f"card {title!r} icon", DeckFormatError,
                   not_object=f"card {title!r}: an icon must be an object, not {{data!r}}"
                   ).keys({"icon", "value"})
            icon = Reader(raw, f"card {title!r}", DeckFormatError, ICON)
            icons.append(IconValue(icon.enum("icon", Icon), icon.integer("value")))
        return PowerCard(title, tuple(icons))


ICON = Wording(
    wrong="{where}: icon {key} must be {what}, not {value!r}",
    below="{where}: icon {key} must be at least {minimum}, not {value}",
    above="{where}: icon {key} must be at most {maximum}, not {value}",
    choice="{where}: unknown {key} {value!r} (known: {allowed})",
)
"""How a card's icon is refused: ``card 'Zap': icon value must be a whole number, not 'x'``."""


_SEPARATORS = re.compile(r"[\s,;+]+")


def parse_card_values(text: str) -> tuple[int, ...]:
    """Read the values of the cards played: ``"3, 6"``, ``"3 + 6"``, ``"3 6"``; ``""`` is none.

    Raises:
        CardListError: a value that is not a whole number 1–20.
    """
    values: list[int] = []
    for part in _SEPARATORS.split(text.strip()):
        if not part:
            continue
        if not part.isdigit():
            raise CardListError(f"{part!r} is not a card value: list whole numbers like 3, 6")
        value = int(part)
        if not 1 <= value <= MAX_CARD_VALUE:
            raise CardListError(f"a card value is 1–{MAX_CARD_VALUE}, not {value}")
        values.append(value)
    return tuple(values)


def cards_text(values: tuple[int, ...]) -> str:
    """``(3, 6)`` → ``'3 + 6'``; ``()`` → ``'none'``."""
    return " + ".join(str(v) for v in values) if values else "none"


def without(cards: tuple[int, ...], removed: tuple[int, ...]) -> tuple[int, ...]:
    """The cards left after removing ``removed`` (each value once per card).

    Raises:
        CardListError: a removed value that is not among ``cards``.
    """
    left = list(cards)
    for value in removed:
        if value not in left:
            raise CardListError(f"no card {value} among {cards_text(cards)}")
        left.remove(value)
    return tuple(left)
