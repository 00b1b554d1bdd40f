"""The house-rules exchange file: profiles as versioned JSON (``docs/design-format.md``).

Reading is all-or-nothing: :func:`read_profiles` returns every profile of a file or
raises :class:`ProfileFileError` with the reason (an unknown decision id, a value
outside its choices, a newer format version, another file), so nothing is written
for a bad file.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from carwars_desktop.rules import find_ruleset
from carwars_desktop.rules.kernel.decisions import DecisionError

FORMAT = "carwars-desktop/house-rules"
"""The value of the file's ``format`` field."""
VERSION = 1
"""The format version this app writes and the newest it reads."""
MAX_BYTES = 1024 * 1024
MAX_PROFILES = 1000
SUFFIX = ".house-rules.json"


class ProfileFileError(ValueError):
    """A house-rules file that is refused; the message is the reason, ready to show."""


@dataclass(frozen=True)
class ExchangedProfile:
    """One profile: its ruleset, name and values (decision id → JSON value, checked)."""

    ruleset_id: str
    name: str
    rules: Mapping[str, Any]


def checked_profile(ruleset_id: str, name: str, rules: Any) -> ExchangedProfile:
    """A profile checked against its ruleset's decisions (refused: ProfileFileError)."""
    try:
        ruleset = find_ruleset(ruleset_id)
    except LookupError as error:
        raise ProfileFileError(f"unknown ruleset {ruleset_id!r}") from error
    if ruleset.decisions is None:
        raise ProfileFileError(f"{ruleset.title} has no house rules")
    if not isinstance(name, str) or not name.strip():
        raise ProfileFileError("a profile needs a name")
    if not isinstance(rules, Mapping):
        raise ProfileFileError(f"profile {name!r}: rules must be an object")
    try:
        checked = ruleset.decisions.check(rules)
    except DecisionError as error:
        raise ProfileFileError(f"profile {name!r}: {error}") from error
    named = {ruleset.decisions.get(str(key)).id for key in rules}
    return ExchangedProfile(ruleset.id, " ".join(name.split()),
                            {key: checked[key] for key in sorted(named)})


def dumps_profiles(profiles: Sequence[ExchangedProfile],
                   exported_at: datetime | None = None) -> str:
    """The text of a house-rules file holding ``profiles`` (at least one)."""
    if not profiles:
        raise ProfileFileError("nothing to export: choose at least one profile")
    when = (exported_at or datetime.now(UTC)).astimezone(UTC).replace(microsecond=0)
    document = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": when.isoformat().replace("+00:00", "Z"),
        "profiles": [{"ruleset": p.ruleset_id, "name": p.name, "rules": dict(p.rules)}
                     for p in profiles],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def read_profiles(text: str | bytes) -> list[ExchangedProfile]:
    """Every profile of a house-rules file, or :class:`ProfileFileError` saying why not."""
    if len(text) > MAX_BYTES:
        raise ProfileFileError(f"the file is larger than {MAX_BYTES // 1024} KiB")
    try:
        document = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise ProfileFileError(f"not a house-rules file: {error}") from None
    if not isinstance(document, dict):
        raise ProfileFileError("not a house-rules file: the top level is not an object")
    if document.get("format") != FORMAT:
        raise ProfileFileError(f"not a house-rules file (format {document.get('format')!r}, "
                               f"expected {FORMAT!r})")
    version = document.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise ProfileFileError(f"version must be a positive whole number, not {version!r}")
    if version > VERSION:
        raise ProfileFileError(f"written by a newer Carwars Desktop (format version "
                               f"{version}); this version reads up to version {VERSION}: "
                               "update the app to import it")
    unknown = set(document) - {"format", "version", "exported_at", "app", "profiles"}
    if unknown:
        raise ProfileFileError(f"unknown field {', '.join(sorted(unknown))}")
    items = document.get("profiles")
    if not isinstance(items, list) or not items:
        raise ProfileFileError("profiles must be a non-empty list")
    if len(items) > MAX_PROFILES:
        raise ProfileFileError(f"more than {MAX_PROFILES} profiles")
    profiles: list[ExchangedProfile] = []
    for number, item in enumerate(items, 1):
        if not isinstance(item, dict) or set(item) - {"ruleset", "name", "rules"}:
            raise ProfileFileError(f"profile {number}: expected ruleset, name and rules")
        profiles.append(checked_profile(str(item.get("ruleset")), item.get("name", ""),
                                        item.get("rules", {})))
    return profiles
