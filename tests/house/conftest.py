"""Fixtures for the house-rules tests: a real database, no Qt."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from carwars_desktop.services import Changes, Services
from carwars_desktop.storage import Database, open_database


@pytest.fixture
def database(sqlite_url: str) -> Iterator[Database]:
    database = open_database(sqlite_url)
    yield database
    database.close()


@pytest.fixture
def services(database: Database) -> Services:
    services = Services()
    services.table.database = database
    services.library.attach(database)
    return services


@pytest.fixture
def heard(services: Services) -> list[Changes]:
    """Every change the bus published (after the fixtures set up)."""
    changes: list[Changes] = []
    services.bus.subscribe(changes.append)
    return changes
