"""Every released schema version has a committed database file that the app must open.

The files live in ``tests/fixtures/databases`` (written once by ``make_fixtures.py``).
Each test works on a copy: the committed files never change.
"""

from __future__ import annotations

import shutil
import sqlite3
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

import pytest

from carwars_desktop.storage import open_database, single_head
from carwars_desktop.storage.migrations import known_revisions

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "databases"
SCHEMA_FILES = sorted(FIXTURES.glob("schema_*.sqlite3"))


def _revision_of(path: Path) -> str:
    uri = path.resolve().as_uri() + "?mode=ro&immutable=1"
    with closing(sqlite3.connect(uri, uri=True)) as connection:
        (revision,) = connection.execute("SELECT version_num FROM alembic_version").fetchone()
    return str(revision)


def _copy(fixture: Path, tmp_path: Path) -> Path:
    copy = tmp_path / fixture.name
    shutil.copyfile(fixture, copy)
    return copy


def test_each_fixture_is_at_the_revision_its_name_says() -> None:
    assert [p.name for p in SCHEMA_FILES][:1] == ["schema_0001.sqlite3"]
    for fixture in SCHEMA_FILES:
        revision = _revision_of(fixture)
        assert fixture.name == f"schema_{revision}.sqlite3"
        assert revision in known_revisions()


@pytest.mark.parametrize("fixture", SCHEMA_FILES, ids=lambda p: p.stem)
def test_every_old_schema_upgrades_to_head_and_keeps_its_rolls(
    fixture: Path, tmp_path: Path
) -> None:
    with closing(
        sqlite3.connect(fixture.resolve().as_uri() + "?mode=ro&immutable=1", uri=True)
    ) as old:
        (rolls_before,) = old.execute("SELECT count(*) FROM dice_rolls").fetchone()
    with open_database(str(_copy(fixture, tmp_path))) as database:
        assert database.schema_revision() == single_head()
        assert database.dice_history.count() == rolls_before > 0


def test_schema_0001_rolls_read_back_exactly(tmp_path: Path) -> None:
    with open_database(str(_copy(FIXTURES / "schema_0001.sqlite3", tmp_path))) as database:
        rolls = database.dice_history.recent()
    assert [(r.id, r.ruleset_id, r.expression) for r in rolls] == [
        (3, "autopower", "2d6+4"),
        (2, "battlecars", "3d6+2"),
        (1, "mini_car_wars", "2d6"),
    ]
    autopower, battlecars, mini = rolls
    assert mini.created_at == datetime(2026, 11, 1, 19, 30, tzinfo=UTC)
    assert (mini.dice_values, mini.sides, mini.natural, mini.total) == ((3, 5), (6, 6), 8, 8)
    assert (mini.target, mini.natural_two_misses, mini.success) == (7, True, True)
    assert (mini.entered, mini.seed) == (True, None)
    assert battlecars.created_at == datetime(2026, 11, 1, 19, 31, 12, 250000, tzinfo=UTC)
    assert (battlecars.dice_values, battlecars.sides) == ((1, 6, 4), (6, 6, 6))
    assert (battlecars.target, battlecars.success) == (None, None)
    assert (battlecars.entered, battlecars.seed) == (False, 123456789)
    assert autopower.created_at == datetime(2026, 11, 1, 19, 32, 45, 1, tzinfo=UTC)
    assert (autopower.natural, autopower.total, autopower.success) == (2, 6, False)


def test_schema_0002_finished_session_upgrades_without_stored_charts(tmp_path: Path) -> None:
    with open_database(str(_copy(FIXTURES / "schema_0002.sqlite3", tmp_path))) as database:
        # Beside the running session the several-writers upgrade keeps (test_backups_and_0004).
        (info,) = [i for i in database.game_sessions.all() if not i.running]
        assert (info.name, info.running) == ("Road Duel", False)
        assert database.game_sessions.charts(info.id) is None  # aggregated when first shown
        database.game_sessions.store_charts(info.id, {"format": 1})
        assert database.game_sessions.charts(info.id) == {"format": 1}


def test_schema_0005_session_settings_read_back(tmp_path: Path) -> None:
    with open_database(str(_copy(FIXTURES / "schema_0005.sqlite3", tmp_path))) as database:
        loaded = database.game_sessions.load(1)
    assert loaded.info.name == "Friday duel"
    assert loaded.settings == {"visibility": {"sheets_open": False, "odds_shown": False,
                                              "hidden_vehicles": ["v2"]}}
