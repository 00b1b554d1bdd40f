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


_BACK_UP = """
import sys
from pathlib import Path
from carwars_desktop.storage.backups import backup_sqlite_file
print("copying", flush=True)
backup_sqlite_file(Path(sys.argv[1]), Path(sys.argv[2]))
"""


def _sound(path: Path) -> bool:
    with closing(sqlite3.connect(path.resolve().as_uri() + "?mode=ro&immutable=1",
                                 uri=True)) as connection:
        return [row for (row,) in connection.execute("PRAGMA integrity_check")] == ["ok"]


def _size(path: Path) -> int:
    """The file's size; 0 when it is not there (the copy may be renamed between looks)."""
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


@pytest.mark.posix_signals
def test_a_kill_during_a_backup_leaves_nothing_under_a_backup_name(tmp_path: Path) -> None:
    """A child killed while it copies (as the pre-migration backup does): no partial
    file under the name a GM would restore; the next backup takes that name, sound."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from carwars_desktop.storage.backups import backup_sqlite_file, partial_path_for

    source = tmp_path / "carwars.sqlite3"
    with closing(sqlite3.connect(source)) as connection, connection:
        connection.execute("CREATE TABLE filler (body BLOB)")
        connection.executemany("INSERT INTO filler VALUES (randomblob(4000))",
                               [()] * 20_000)  # about 80 MB: a copy takes a while
    target = tmp_path / "carwars.sqlite3.bak-0005"
    partial = partial_path_for(target)
    killed_mid_copy = 0
    for _trial in range(3):
        with subprocess.Popen([sys.executable, "-c", _BACK_UP, str(source), str(target)],
                              stdout=subprocess.PIPE, text=True) as child:
            assert child.stdout is not None and child.stdout.readline() == "copying\n"
            deadline = time.monotonic() + 60
            while not _size(partial) and child.poll() is None:
                assert time.monotonic() < deadline
                time.sleep(0.001)
            if child.poll() is None:
                os.kill(child.pid, signal.SIGKILL)
            child.wait(timeout=60)
        if child.returncode == -signal.SIGKILL and not target.exists():
            killed_mid_copy += 1
        assert not target.exists() or _sound(target)
        target.unlink(missing_ok=True)
    assert killed_mid_copy  # the kill came during the copy at least once
    # What a kill left (if the last one came mid-copy) lies under a name no GM restores.
    assert backup_sqlite_file(source, target) == target and _sound(target)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([source.name, target.name])


def test_a_backup_whose_copy_is_not_sound_is_not_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from carwars_desktop.storage import backups

    source = tmp_path / "carwars.sqlite3"
    with closing(sqlite3.connect(source)) as connection, connection:
        connection.execute("CREATE TABLE t (x)")
    real_connect = sqlite3.connect

    class Unsound:
        """The copy's connection, whose check finds a damaged page."""

        def __init__(self, connection: sqlite3.Connection) -> None:
            self.connection = connection

        def execute(self, sql: str) -> object:
            if sql.startswith("PRAGMA integrity_check"):
                return [("*** in database main ***\nPage 2: btreeInitPage() returns error",)]
            return self.connection.execute(sql)

        def close(self) -> None:
            self.connection.close()

    class Reader(Unsound):
        def backup(self, target: Unsound) -> None:
            self.connection.backup(target.connection)

    def connect(database: object, *args: object, **kwargs: object) -> object:
        connection = real_connect(database, *args, **kwargs)  # type: ignore[arg-type]
        return Reader(connection) if kwargs.get("uri") else Unsound(connection)

    monkeypatch.setattr(backups.sqlite3, "connect", connect)
    target = tmp_path / "carwars.sqlite3.bak-0005"
    with pytest.raises(DatabaseError, match="not sound"):
        backups.backup_sqlite_file(source, target)
    assert sorted(p.name for p in tmp_path.iterdir()) == [source.name]
