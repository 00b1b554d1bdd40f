"""What the players at the table may see: a session setting (the players' display reads it).

Kept in :attr:`Game.settings` under ``visibility``, changed by a settings event (undo
puts it back). Mini Car Wars leaves it to the scenario whether record sheets are
secret (MCW §2.15 "scenario decisions", the original's §9(c)): secret, the players know
of another vehicle only what they see happen at the table (its speed, revealed each
turn; a wreck), never what only its sheet says (armor left, or the hits per side from
which a stock design's armor left follows; wounds); each ruleset's ``public`` and
``seen_at_the_table`` say which. The GM may also hide the odds, or a vehicle the players
have not met yet (an ambush).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

KEY = "visibility"


@dataclass(frozen=True)
class Visibility:
    """Defaults: sheets open, odds shown, every vehicle shown."""

    sheets_open: bool = True
    odds_shown: bool = True
    hidden_vehicles: frozenset[str] = field(default_factory=frozenset)
    """Keys of the vehicles in play the players do not see."""

    @staticmethod
    def of(settings: Mapping[str, Any]) -> Visibility:
        """The visibility kept in a session's settings (defaults where unset or unreadable)."""
        data = settings.get(KEY)
        if not isinstance(data, Mapping):
            return Visibility()
        hidden = data.get("hidden_vehicles", ())
        return Visibility(
            sheets_open=data.get("sheets_open", True) is not False,
            odds_shown=data.get("odds_shown", True) is not False,
            hidden_vehicles=frozenset(str(k) for k in hidden)
            if isinstance(hidden, list) else frozenset())

    def to_json(self) -> dict[str, Any]:
        return {"sheets_open": self.sheets_open, "odds_shown": self.odds_shown,
                "hidden_vehicles": sorted(self.hidden_vehicles)}

    def into(self, settings: Mapping[str, Any]) -> dict[str, Any]:
        """A copy of ``settings`` holding this visibility."""
        return {**settings, KEY: self.to_json()}

    def shows(self, key: str) -> bool:
        return key not in self.hidden_vehicles

    def with_hidden(self, key: str, hidden: bool) -> Visibility:
        keys = self.hidden_vehicles | {key} if hidden else self.hidden_vehicles - {key}
        return Visibility(self.sheets_open, self.odds_shown, frozenset(keys))

    def changes_from(self, before: Visibility, names: Mapping[str, str]) -> list[str]:
        """The changes from ``before``, in words (the settings event's summary)."""
        lines: list[str] = []
        if self.sheets_open != before.sheets_open:
            lines.append("players see each other's sheets" if self.sheets_open
                         else "record sheets are secret")
        if self.odds_shown != before.odds_shown:
            lines.append("odds shown to the players" if self.odds_shown
                         else "odds hidden from the players")
        lines += [f"{names.get(k, k)} hidden from the players"
                  for k in sorted(self.hidden_vehicles - before.hidden_vehicles)]
        lines += [f"{names.get(k, k)} shown to the players"
                  for k in sorted(before.hidden_vehicles - self.hidden_vehicles)]
        return lines


def hidden_names(visibility: Visibility, vehicles: Iterable[tuple[str, str]]) -> frozenset[str]:
    """The names of the hidden vehicles among ``(key, name)`` pairs."""
    return frozenset(name for key, name in vehicles if not visibility.shows(key))
