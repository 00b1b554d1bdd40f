"""Test set-up shared by every test: offscreen Qt, isolated settings and data folders."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

os.environ["QT_QPA_PLATFORM"] = "offscreen"
# Settings (QSettings) and the default database (platformdirs) must never touch
# the real user's folders: point XDG at a throwaway folder for the whole run.
_HOME = tempfile.mkdtemp(prefix="carwars-tests-")
os.environ["XDG_CONFIG_HOME"] = str(Path(_HOME) / "config")
os.environ["XDG_DATA_HOME"] = str(Path(_HOME) / "data")
os.environ.pop("CARWARS_DB", None)

# Property tests have no deadline: a slow or busy machine (a CI runner, two cores shared
# by several jobs) must not fail an example for the time it took. A test's own
# @settings(max_examples=…) keeps this profile's deadline.
settings.register_profile("carwars", deadline=None)
settings.load_profile("carwars")


@pytest.fixture
def sqlite_url(tmp_path: Path) -> Iterator[str]:
    """A fresh SQLite database file URL in the test's own folder."""
    yield f"sqlite:///{tmp_path / 'carwars.sqlite3'}"


# --- the application layer on a real database, no Qt (tests/services, tests/house) ----------
@pytest.fixture
def database(sqlite_url: str) -> Iterator[Any]:
    """A real database (SQLite in the test's folder), closed after the test."""
    from carwars_desktop.storage import open_database

    database = open_database(sqlite_url)
    yield database
    database.close()


@pytest.fixture
def services(database: Any) -> Any:
    """The Qt-free application layer on :func:`database`."""
    from carwars_desktop.services import Services

    services = Services()
    services.table.database = database
    services.library.attach(database)
    return services


@pytest.fixture
def heard(services: Any) -> list[Any]:
    """Every change the bus published (after the fixtures set up)."""
    changes: list[Any] = []
    services.bus.subscribe(changes.append)
    return changes
