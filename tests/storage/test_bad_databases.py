"""Refused databases raise a clear error and stay byte-for-byte as they were."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.pool import NullPool

from carwars_desktop.storage import (
    CorruptDatabaseError,
    DatabaseError,
    NewDiceRoll,
    NewerSchemaError,
    NotADatabaseError,
    open_database,
    single_head,
)

Snapshot = Callable[[Path], dict[str, str]]


@pytest.fixture
def real_database(sqlite_path: Path, make_roll: Callable[..., NewDiceRoll]) -> Path:
    """A closed Carwars database with enough rolls to span several pages."""
    with open_database(str(sqlite_path)) as database:
        for index in range(200):
            database.dice_history.add(make_roll(expression=f"2d6+{index}", total=8 + index))
    assert [p.name for p in sqlite_path.parent.iterdir()] == [sqlite_path.name]
    return sqlite_path


def _refused(path: Path, snapshot: Snapshot, error_type: type[DatabaseError]) -> DatabaseError:
    before = snapshot(path.parent)
    with pytest.raises(error_type) as caught:
        open_database(str(path))
    assert snapshot(path.parent) == before, "the refused file or its folder changed"
    message = str(caught.value)
    assert str(path) in message
    assert "was not changed" in message
    return caught.value


def test_a_text_file_is_not_a_database(sqlite_path: Path, snapshot: Snapshot) -> None:
    sqlite_path.write_text("Turn 3: Ace rams the pickup.\n", encoding="utf-8")
    error = _refused(sqlite_path, snapshot, NotADatabaseError)
    assert "not an SQLite file" in str(error)


def test_a_tiny_non_sqlite_file_is_not_a_database(sqlite_path: Path, snapshot: Snapshot) -> None:
    sqlite_path.write_bytes(b"SQL")
    _refused(sqlite_path, snapshot, NotADatabaseError)


def test_another_programs_sqlite_database_is_refused(sqlite_path: Path, snapshot: Snapshot) -> None:
    with closing(sqlite3.connect(sqlite_path)) as connection:
        connection.execute("CREATE TABLE recipes (name TEXT)")
        connection.commit()
    error = _refused(sqlite_path, snapshot, NotADatabaseError)
    assert "recipes" in str(error)


def test_a_folder_is_not_a_database(tmp_path: Path, snapshot: Snapshot) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    (tmp_path / "keep.txt").write_text("x", encoding="utf-8")
    _refused(folder, snapshot, NotADatabaseError)


def test_a_database_cut_in_half_is_corrupt(real_database: Path, snapshot: Snapshot) -> None:
    data = real_database.read_bytes()
    real_database.write_bytes(data[: len(data) // 2])
    error = _refused(real_database, snapshot, CorruptDatabaseError)
    assert "damaged" in str(error)
    assert "backup" in str(error)


def test_a_database_missing_its_last_pages_is_corrupt(
    real_database: Path, snapshot: Snapshot
) -> None:
    data = real_database.read_bytes()
    real_database.write_bytes(data[: len(data) - 2 * 4096])
    error = _refused(real_database, snapshot, CorruptDatabaseError)
    assert "pages" in str(error)


def test_a_database_with_a_scrambled_page_is_corrupt(
    real_database: Path, snapshot: Snapshot
) -> None:
    data = bytearray(real_database.read_bytes())
    assert len(data) >= 4 * 4096
    data[2 * 4096 : 3 * 4096] = bytes(range(256)) * 16  # page 3: garbage of the right size
    real_database.write_bytes(bytes(data))
    error = _refused(real_database, snapshot, CorruptDatabaseError)
    assert "SQLite" in str(error)


def test_a_damaged_header_is_corrupt(sqlite_path: Path, snapshot: Snapshot) -> None:
    sqlite_path.write_bytes(b"SQLite format 3\x00" + b"\x00\x03" + b"\xff" * 200)
    _refused(sqlite_path, snapshot, CorruptDatabaseError)


def test_a_newer_schema_is_refused(real_database: Path, snapshot: Snapshot) -> None:
    with closing(sqlite3.connect(real_database)) as connection:
        connection.execute("UPDATE alembic_version SET version_num = 'zzzz_future'")
        connection.commit()
    error = _refused(real_database, snapshot, NewerSchemaError)
    assert isinstance(error, NewerSchemaError)
    assert str(error) == (
        f"{real_database} was written by a newer version of Carwars Desktop "
        f"(schema zzzz_future); this version knows up to {single_head()}. "
        "The file was not changed. Update Carwars Desktop to open it."
    )
    assert (error.found, error.known_head) == ("zzzz_future", single_head())


def test_a_newer_schema_on_a_server_is_refused(database_url: str) -> None:
    engine = create_engine(database_url, poolclass=NullPool)
    try:
        with engine.begin() as connection:
            connection.execute(text("CREATE TABLE alembic_version (version_num VARCHAR(32))"))
            connection.execute(text("INSERT INTO alembic_version VALUES ('zzzz_future')"))
        with pytest.raises(NewerSchemaError, match=r"\(schema zzzz_future\).*was not changed"):
            open_database(database_url)
        with engine.connect() as connection:
            assert inspect(connection).get_table_names() == ["alembic_version"]
            versions = connection.execute(text("SELECT version_num FROM alembic_version")).all()
            assert versions == [("zzzz_future",)]
    finally:
        engine.dispose()


def test_a_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(DatabaseError, match="Cannot open the database"):
        open_database(str(tmp_path / "no such folder" / "carwars.sqlite3"))
    assert list(tmp_path.iterdir()) == []


def test_a_database_left_with_its_wal_after_a_crash_opens_with_every_roll(
    real_database: Path, tmp_path: Path, make_roll: Callable[..., NewDiceRoll]
) -> None:
    """A kill leaves committed rolls in the ``-wal`` file beside the database: they are kept."""
    crashed = tmp_path / "crashed"
    crashed.mkdir()
    with open_database(str(real_database)) as database:
        database.dice_history.add(make_roll(expression="after the crash"))
        wal = real_database.with_name(real_database.name + "-wal")
        assert wal.stat().st_size > 0
        # What the disk holds at the moment of a kill: the file and its WAL.
        shutil.copy2(real_database, crashed / real_database.name)
        shutil.copy2(wal, crashed / wal.name)
    with open_database(str(crashed / real_database.name)) as database:
        assert database.dice_history.recent(limit=1)[0].expression == "after the crash"
        assert database.dice_history.count() == 201


def test_a_mode_ro_url_opens_the_file_read_only(real_database: Path, snapshot: Snapshot) -> None:
    """``sqlite:///…?mode=ro`` is honoured: browsed, nothing written nor created beside it."""
    before = snapshot(real_database.parent)
    with open_database(f"sqlite:///{real_database}?mode=ro") as database:
        assert database.read_only
        assert database.url == f"sqlite:///{real_database}"
        assert len(database.dice_history.recent(500)) == 200
        with pytest.raises(DatabaseError):
            database.library.install_catalog()
    assert snapshot(real_database.parent) == before


@pytest.mark.parametrize("options", ["mode=rw", "mode=ro&cache=shared", "timeout=5"])
def test_other_sqlite_url_options_are_refused(real_database: Path, snapshot: Snapshot,
                                              options: str) -> None:
    before = snapshot(real_database.parent)
    with pytest.raises(DatabaseError, match="SQLite options .* does not apply") as caught:
        open_database(f"sqlite:///{real_database}?{options}")
    assert "?mode=ro" in str(caught.value)
    assert snapshot(real_database.parent) == before
