"""Storage fixtures: a fresh database URL per test, on SQLite and (when configured) PostgreSQL.

Set ``CARWARS_TEST_POSTGRES_URL`` (``tests/postgres_server.sh start`` prints one) to run
every ``database_url`` test against PostgreSQL too; each test gets its own database.
"""

from __future__ import annotations

import hashlib
import os
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from carwars_desktop.storage import NewDiceRoll
from carwars_desktop.storage.engine import sqlite_url_for_path

POSTGRES_ENV = "CARWARS_TEST_POSTGRES_URL"

_BACKENDS = [pytest.param("sqlite", id="sqlite")]
if os.environ.get(POSTGRES_ENV):
    _BACKENDS.append(pytest.param("postgres", id="postgres", marks=pytest.mark.postgres))


@pytest.fixture
def sqlite_path(tmp_path: Path) -> Path:
    return tmp_path / "carwars.sqlite3"


@pytest.fixture
def sqlite_url(sqlite_path: Path) -> str:
    return sqlite_url_for_path(sqlite_path)


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A new, empty PostgreSQL database for one test, dropped afterwards."""
    admin_url = os.environ.get(POSTGRES_ENV)
    if not admin_url:  # only parametrized in when set; see _BACKENDS
        raise RuntimeError(f"{POSTGRES_ENV} is not set")
    name = f"carwars_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT", poolclass=NullPool)
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
        yield make_url(admin_url).set(database=name).render_as_string(hide_password=False)
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()


@pytest.fixture(params=_BACKENDS)
def database_url(request: pytest.FixtureRequest) -> str:
    """A URL to a database that does not exist yet (SQLite) or is empty (PostgreSQL)."""
    fixture = "sqlite_url" if request.param == "sqlite" else "postgres_url"
    url: str = request.getfixturevalue(fixture)
    return url


def folder_snapshot(folder: Path) -> dict[str, str]:
    """Every file in ``folder`` with the SHA-256 of its bytes."""
    return {
        entry.name: hashlib.sha256(entry.read_bytes()).hexdigest()
        for entry in sorted(folder.iterdir())
        if entry.is_file()
    }


@pytest.fixture
def snapshot() -> Callable[[Path], dict[str, str]]:
    return folder_snapshot


@pytest.fixture
def make_roll() -> Callable[..., NewDiceRoll]:
    def make(**changes: object) -> NewDiceRoll:
        values: dict[str, object] = {
            "ruleset_id": "mini_car_wars",
            "expression": "2d6",
            "dice_values": (3, 5),
            "sides": (6, 6),
            "natural": 8,
            "total": 8,
            "entered": True,
            "target": 7,
            "natural_two_misses": True,
            "success": True,
            "seed": None,
            "created_at": datetime(2026, 11, 1, 19, 30, tzinfo=UTC),
        }
        values.update(changes)
        return NewDiceRoll(**values)  # type: ignore[arg-type]

    return make
