"""House-rule profiles: the built-in digest's defaults and the ones a GM saves.

Every write is checked against the ruleset's decisions first (an unknown decision id or
a value outside its choices is refused with the reason, and nothing is written);
"The digest's defaults" cannot be changed, renamed or deleted. Export and import use
the versioned house-rules file (:mod:`carwars_desktop.library.profiles`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from carwars_desktop.library.profiles import (
    ExchangedProfile,
    ProfileFileError,
    checked_profile,
    dumps_profiles,
    read_profiles,
)
from carwars_desktop.procedures import Procedure
from carwars_desktop.rules import AnyRuleset, find_ruleset
from carwars_desktop.session.house_rules import DIGEST_DEFAULTS, HouseRules

if TYPE_CHECKING:
    from carwars_desktop.storage import Database


SWITCH_ON_HINT = "switch it on with Change house rules… in the Resolver's House rules panel"
"""Where a GM switches a variant on mid-session (an undoable event)."""


def not_offered_in_session(procedure: Procedure, house: Mapping[str, Any] | None) -> str:
    """Why ``procedure`` is not offered in the session under ``house``, and how to switch
    it on (``Ramming variant (§2.9) is off in this session's house rules: switch it on
    with …``); empty when it is offered."""
    reason = procedure.not_offered(house, "this session's house rules")
    return f"{reason}: {SWITCH_ON_HINT}" if reason else ""


class ProfileRefused(ValueError):  # noqa: N818 (a refusal, shown as it is)
    """A profile operation refused; the message says why (nothing was written)."""


@dataclass(frozen=True)
class Profile:
    """A profile as the GM sees it: built in (``id`` None) or saved."""

    ruleset_id: str
    name: str
    rules: Mapping[str, Any]
    id: int | None = None

    @property
    def built_in(self) -> bool:
        return self.id is None

    def house_rules(self) -> HouseRules:
        """A copy for a session: later edits of the saved profile never change it."""
        return HouseRules(self.name, dict(self.rules))


def built_in(ruleset_id: str) -> Profile:
    return Profile(ruleset_id, DIGEST_DEFAULTS, {})


def check_rules(ruleset: AnyRuleset, rules: Mapping[str, Any], name: str = "") -> dict[str, Any]:
    """The decisions ``rules`` names, checked (ProfileRefused with the reason)."""
    try:
        return dict(checked_profile(ruleset.id, name or "profile", rules).rules)
    except ProfileFileError as error:
        raise ProfileRefused(str(error)) from error


def profile_for_session(ruleset: AnyRuleset, profile: Profile) -> HouseRules:
    """The house rules a new session of ``ruleset`` starts under; a profile of another
    ruleset is refused."""
    if profile.ruleset_id != ruleset.id:
        other = find_ruleset(profile.ruleset_id).title
        raise ProfileRefused(f"profile {profile.name!r} is a {other} profile, not "
                             f"{ruleset.title}'s: choose one of this ruleset")
    if ruleset.decisions is None:
        return HouseRules()
    return HouseRules(profile.name, check_rules(ruleset, profile.rules, profile.name))


def load_profile_file(path: Path, ruleset: AnyRuleset) -> Profile:
    """The one profile of ``ruleset`` in a house-rules file (``--rules @file.json``)."""
    try:
        profiles = read_profiles(path.read_bytes())
    except OSError as error:
        raise ProfileRefused(f"{path}: {error.strerror or error}") from error
    except ProfileFileError as error:
        raise ProfileRefused(f"{path}: {error}") from error
    own = [p for p in profiles if p.ruleset_id == ruleset.id]
    if not own:
        raise ProfileRefused(f"{path}: no {ruleset.title} profile in it")
    if len(own) > 1:
        raise ProfileRefused(f"{path}: {len(own)} {ruleset.title} profiles; keep one")
    return Profile(ruleset.id, own[0].name, dict(own[0].rules))


class HouseRulesService:
    """The saved profiles of the database, plus the built-in one."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def _store(self) -> Any:
        return self.database.house_rules

    def profiles(self, ruleset_id: str) -> list[Profile]:
        """The built-in profile first, then the saved ones by name."""
        saved = [Profile(r.ruleset_id, r.name, dict(r.rules), r.id)
                 for r in self._store().all(ruleset_id)]
        return [built_in(ruleset_id), *saved]

    def find(self, ruleset_id: str, name: str) -> Profile:
        wanted = " ".join(name.split()).casefold()
        for profile in self.profiles(ruleset_id):
            if profile.name.casefold() == wanted:
                return profile
        known = ", ".join(p.name for p in self.profiles(ruleset_id))
        raise ProfileRefused(f"no {find_ruleset(ruleset_id).title} profile named {name!r} "
                             f"(known: {known})")

    def _saved(self, profile: Profile, doing: str) -> int:
        if profile.id is None:
            raise ProfileRefused(f"{DIGEST_DEFAULTS!r} is built in: it cannot be {doing} "
                                 "(copy it to make your own)")
        return profile.id

    def _write(self, action: Any, *args: Any) -> Any:
        from carwars_desktop.storage.house_rules import ProfileError

        try:
            return action(*args)
        except ProfileError as error:
            raise ProfileRefused(str(error)) from error

    def create(self, ruleset_id: str, name: str, rules: Mapping[str, Any]) -> Profile:
        checked = check_rules(find_ruleset(ruleset_id), rules, name)
        self._write(self._store().create, ruleset_id, name, checked)
        return self.find(ruleset_id, name)

    def save(self, profile: Profile, rules: Mapping[str, Any]) -> Profile:
        profile_id = self._saved(profile, "changed")
        checked = check_rules(find_ruleset(profile.ruleset_id), rules, profile.name)
        self._write(self._store().update, profile_id, checked)
        return self.find(profile.ruleset_id, profile.name)

    def copy(self, profile: Profile, name: str) -> Profile:
        return self.create(profile.ruleset_id, name, profile.rules)

    def rename(self, profile: Profile, name: str) -> Profile:
        self._write(self._store().rename, self._saved(profile, "renamed"), name)
        return self.find(profile.ruleset_id, name)

    def delete(self, profile: Profile) -> None:
        self._write(self._store().delete, self._saved(profile, "deleted"))

    def export(self, profiles: Sequence[Profile]) -> str:
        return dumps_profiles([ExchangedProfile(p.ruleset_id, p.name, dict(p.rules))
                               for p in profiles])

    def import_text(self, text: str | bytes) -> list[Profile]:
        """Add every profile of a file (all or nothing; a taken name gets `` (2)``…)."""
        try:
            read = read_profiles(text)
        except ProfileFileError as error:
            raise ProfileRefused(str(error)) from error
        added: list[Profile] = []
        for item in read:
            taken = {p.name.casefold() for p in self.profiles(item.ruleset_id)}
            name, number = item.name, 2
            while name.casefold() in taken:
                name, number = f"{item.name} ({number})", number + 1
            added.append(self.create(item.ruleset_id, name, item.rules))
        return added
