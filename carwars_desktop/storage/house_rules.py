"""Saved house-rule profiles, per ruleset (revision 0006).

The storage keeps names and JSON values; the services check the values against the
ruleset's decisions before anything is written. "The digest's defaults" is built in
and never stored, so it cannot be changed, renamed or deleted.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from carwars_desktop.storage.models import HouseRuleProfileRow

NAME_MAX = 200


class ProfileError(ValueError):
    """A profile operation refused (a taken or empty name, an unknown profile)."""


@dataclass(frozen=True)
class ProfileRecord:
    id: int
    ruleset_id: str
    name: str
    rules: Mapping[str, Any]
    updated_at: datetime


def _now() -> datetime:
    return datetime.now(UTC)


def _record(row: HouseRuleProfileRow) -> ProfileRecord:
    return ProfileRecord(row.id, row.ruleset_id, row.name, json.loads(row.rules),
                         row.updated_at)


def _clean(name: str, reserved: str) -> str:
    clean = " ".join(name.split())
    if not clean:
        raise ProfileError("give the profile a name")
    if len(clean) > NAME_MAX:
        raise ProfileError(f"a profile name has at most {NAME_MAX} characters")
    if clean.casefold() == reserved.casefold():
        raise ProfileError(f"{reserved!r} is the built-in profile: choose another name")
    return clean


class HouseRuleProfiles:
    """Create, list, change, rename and delete the saved profiles."""

    def __init__(self, sessions: sessionmaker[Session], reserved: str) -> None:
        self._sessions = sessions
        self._reserved = reserved

    def all(self, ruleset_id: str) -> list[ProfileRecord]:
        with self._sessions() as session:
            rows = session.scalars(select(HouseRuleProfileRow)
                                   .where(HouseRuleProfileRow.ruleset_id == ruleset_id)
                                   .order_by(HouseRuleProfileRow.name))
            return [_record(row) for row in rows]

    def find(self, ruleset_id: str, name: str) -> ProfileRecord | None:
        wanted = " ".join(name.split()).casefold()
        return next((p for p in self.all(ruleset_id) if p.name.casefold() == wanted), None)

    def _row(self, session: Session, profile_id: int) -> HouseRuleProfileRow:
        row = session.get(HouseRuleProfileRow, profile_id)
        if row is None:
            raise ProfileError(f"no saved profile {profile_id}")
        return row

    def create(self, ruleset_id: str, name: str, rules: Mapping[str, Any]) -> int:
        clean = _clean(name, self._reserved)
        if self.find(ruleset_id, clean) is not None:
            raise ProfileError(f"a profile named {clean!r} exists already")
        now = _now()
        try:
            with self._sessions.begin() as session:
                row = HouseRuleProfileRow(ruleset_id=ruleset_id, name=clean,
                                          rules=json.dumps(dict(rules), sort_keys=True),
                                          created_at=now, updated_at=now)
                session.add(row)
                session.flush()
                return row.id
        except IntegrityError:
            raise ProfileError(f"a profile named {clean!r} exists already") from None

    def update(self, profile_id: int, rules: Mapping[str, Any]) -> None:
        with self._sessions.begin() as session:
            row = self._row(session, profile_id)
            row.rules = json.dumps(dict(rules), sort_keys=True)
            row.updated_at = _now()

    def rename(self, profile_id: int, name: str) -> None:
        clean = _clean(name, self._reserved)
        with self._sessions.begin() as session:
            row = self._row(session, profile_id)
            ruleset_id = row.ruleset_id
        other = self.find(ruleset_id, clean)
        if other is not None and other.id != profile_id:
            raise ProfileError(f"a profile named {clean!r} exists already")
        with self._sessions.begin() as session:
            row = self._row(session, profile_id)
            row.name, row.updated_at = clean, _now()

    def copy(self, profile_id: int, name: str) -> int:
        with self._sessions() as session:
            record = _record(self._row(session, profile_id))
        return self.create(record.ruleset_id, name, record.rules)

    def delete(self, profile_id: int) -> None:
        with self._sessions.begin() as session:
            session.delete(self._row(session, profile_id))
