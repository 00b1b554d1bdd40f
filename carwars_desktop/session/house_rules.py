"""The house rules a session is played under: a session setting (a copy of a profile).

Kept in :attr:`Game.settings` under ``house_rules`` as the profile's name and a copy of
its values (decision id → JSON value), so a later edit of the saved profile never
changes a session already played. Changed mid-session by a settings event (undo puts
the old ones back); every procedure takes them as context.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from carwars_desktop.rules import AnyRuleset
from carwars_desktop.session.visibility import Visibility

KEY = "house_rules"

DIGEST_DEFAULTS = "The digest's defaults"
"""The built-in profile of every ruleset: each decision as the digest has it."""


@dataclass(frozen=True)
class HouseRules:
    """A profile's name and its values (the decisions it names; defaults for the rest)."""

    profile: str = DIGEST_DEFAULTS
    values: Mapping[str, Any] = field(default_factory=dict)

    @staticmethod
    def of(settings: Mapping[str, Any]) -> HouseRules:
        """The house rules kept in a session's settings (the digest's defaults if none)."""
        data = settings.get(KEY)
        if not isinstance(data, Mapping):
            return HouseRules()
        values = data.get("values", {})
        return HouseRules(str(data.get("profile") or DIGEST_DEFAULTS),
                          dict(values) if isinstance(values, Mapping) else {})

    def to_json(self) -> dict[str, Any]:
        return {"profile": self.profile, "values": dict(self.values)}

    def into(self, settings: Mapping[str, Any]) -> dict[str, Any]:
        """A copy of ``settings`` holding these house rules."""
        return {**settings, KEY: self.to_json()}

    def checked(self, ruleset: AnyRuleset) -> dict[str, Any]:
        """Every decision of ``ruleset`` → its value here (refused: a ``DecisionError``)."""
        if ruleset.decisions is None:
            return {}
        return ruleset.decisions.check(self.values)

    def departures(self, ruleset: AnyRuleset) -> list[str]:
        """The decisions that differ from the digest, in words (``MCW-D13 off``)."""
        if ruleset.decisions is None:
            return []
        return ruleset.decisions.departures(self.values)

    def words(self, ruleset: AnyRuleset) -> str:
        """What a printed sheet's footer says: the profile and what it changes
        (``Friday club (MCW-D13 off)``, ``The digest's defaults``)."""
        changed = self.departures(ruleset)
        if not changed:
            return (self.profile if self.profile == DIGEST_DEFAULTS
                    else f"{self.profile} (the digest's defaults)")
        return f"{self.profile} ({'; '.join(changed)})"


def initial_settings(ruleset: AnyRuleset, rules: HouseRules) -> dict[str, Any]:
    """A new session's settings: its house rules (a copy), and what the players see when
    a pre-game question decides it (Mini Car Wars: whether record sheets are secret)."""

    # The digest's defaults need no record (a session without one is played under them):
    # such a session's settings stay as they were before house rules existed.
    plain = rules.profile == DIGEST_DEFAULTS and not rules.departures(ruleset)
    settings = {} if plain else rules.into({})
    options = ruleset.house_options(rules.values)
    sheets_open = getattr(options, "open_sheets", None)
    if isinstance(sheets_open, bool) and not sheets_open:
        settings = Visibility(sheets_open=False).into(settings)
    return settings


def change_summary(ruleset: AnyRuleset, before: HouseRules, after: HouseRules) -> str:
    """The log line of a mid-session change: ``house rules: MCW-D13 off``."""
    lines = ruleset.decisions.changes(before.values, after.values) if ruleset.decisions else []
    if after.profile != before.profile:
        lines.insert(0, f"profile {after.profile}")
    return "house rules: " + ("; ".join(lines) or "unchanged")
