"""Revision 0004 on a 0002 database: everything kept, a backup made first and named;
a backup on request (File › Back up database…)."""

from __future__ import annotations

import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from carwars_desktop.storage import DatabaseError, open_database, single_head

FIXTURE = Path(__file__).parents[1] / "fixtures" / "databases" / "schema_0002.sqlite3"


def _revision(path: Path) -> str:
    with closing(sqlite3.connect(path.resolve().as_uri() + "?mode=ro&immutable=1",
                                 uri=True)) as connection:
        return str(connection.execute("SELECT version_num FROM alembic_version").fetchone()[0])


def test_a_0002_database_is_backed_up_then_upgraded_keeping_everything(tmp_path: Path) -> None:
    path = tmp_path / "carwars.sqlite3"
    shutil.copyfile(FIXTURE, path)
    original = path.read_bytes()
    with open_database(str(path)) as database:
        assert database.backup == tmp_path / "carwars.sqlite3.bak-0002"
        assert database.schema_revision() == single_head()
        loaded = database.game_sessions.load(1)
        assert loaded.info.running and loaded.info.version == 0 and loaded.info.lease is None
        assert loaded.sheets["v1"] == {"marks": ["A-1"]}
        assert database.game_sessions.events(1).count() == 1
        assert database.library.get(1).revision == 2
        lease = database.game_sessions.acquire(1)  # the new columns work on old rows
        database.game_sessions.release(lease)
    backup = tmp_path / "carwars.sqlite3.bak-0002"
    assert _revision(backup) == "0002"
    with closing(sqlite3.connect(backup)) as connection:
        assert connection.execute("SELECT count(*) FROM session_events").fetchone() == (1,)
    assert path.read_bytes() != original
    with open_database(str(path)) as database:  # at head: no second backup
        assert database.backup is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["carwars.sqlite3",
                                                          "carwars.sqlite3.bak-0002"]


def test_a_backup_on_request_is_a_consistent_copy(sqlite_path: Path, tmp_path: Path) -> None:
    with open_database(str(sqlite_path)) as database:
        database.library.install_catalog()
        count = database.library.count()
        target = tmp_path / "copy.sqlite3"
        assert database.back_up(target) == target
        with pytest.raises(DatabaseError, match="exists already"):
            database.back_up(target)
    with open_database(str(target)) as copy:
        assert copy.library.count() == count


def test_a_server_database_is_not_copied_as_a_file(database_url: str, tmp_path: Path) -> None:
    with open_database(database_url) as database:
        if database.engine.dialect.name == "sqlite":
            assert database.back_up(tmp_path / "copy.sqlite3").exists()
        else:
            with pytest.raises(DatabaseError, match="pg_dump"):
                database.back_up(tmp_path / "copy.sqlite3")
            assert not (tmp_path / "copy.sqlite3").exists()
