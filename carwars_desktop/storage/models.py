"""The ORM tables. These classes never leave the storage layer.

Migrations under ``database/versions`` create these tables; the metadata here
is Alembic's ``target_metadata`` so ``alembic revision --autogenerate`` sees
any drift between the two.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import BigInteger, Boolean, DateTime, Integer, MetaData, String, Text
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

# Named constraints let batch migrations on SQLite find and alter them.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class UTCDateTime(TypeDecorator[datetime]):
    """An aware UTC datetime, stored as a naive UTC timestamp where the database has no zone.

    SQLite keeps no time zone, PostgreSQL's ``timestamptz`` does; both read back
    as aware UTC datetimes.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"refusing a naive datetime {value!r}: give it a time zone")
        utc = value.astimezone(UTC)
        return utc.replace(tzinfo=None) if dialect.name == "sqlite" else utc

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


class IntTupleJSON(TypeDecorator[tuple[int, ...]]):
    """A tuple of ints stored as JSON text, e.g. ``[3, 5]``."""

    impl = Text
    cache_ok = True

    def process_bind_param(self, value: tuple[int, ...] | None, dialect: Dialect) -> str | None:
        if value is None:
            return None
        return json.dumps([int(v) for v in value])

    def process_result_value(self, value: Any, dialect: Dialect) -> tuple[int, ...] | None:
        if value is None:
            return None
        return tuple(int(v) for v in json.loads(value))


class DiceRollRow(Base):
    """One dice roll in the history (revision 0001)."""

    __tablename__ = "dice_rolls"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    ruleset_id: Mapped[str] = mapped_column(String(64))
    expression: Mapped[str] = mapped_column(Text)
    target: Mapped[int | None] = mapped_column(Integer)
    natural_two_misses: Mapped[bool] = mapped_column(Boolean)
    dice_values: Mapped[tuple[int, ...]] = mapped_column(IntTupleJSON)
    sides: Mapped[tuple[int, ...]] = mapped_column(IntTupleJSON)
    natural: Mapped[int] = mapped_column(Integer)
    total: Mapped[int] = mapped_column(Integer)
    success: Mapped[bool | None] = mapped_column(Boolean)
    seed: Mapped[int | None] = mapped_column(BigInteger)
    entered: Mapped[bool] = mapped_column(Boolean)
