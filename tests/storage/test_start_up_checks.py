"""Issue 15's hostile databases: each is refused untouched, with the real cause named.

Foreign Alembic databases, damaged databases of ours (a table or column dropped, the
schema stamp gone or emptied), read-only files and folders, locked files, impossible
paths; the same extreme values accepted alike on SQLite and PostgreSQL.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.pool import NullPool

from carwars_desktop.library.exchange import dumps_designs, make_exchanged, read_designs
from carwars_desktop.rules.autopower import Car
from carwars_desktop.storage import (
    DatabaseError,
    ImportChoice,
    InvalidDesignError,
    NewDiceRoll,
    NewerSchemaError,
    NotADatabaseError,
    open_database,
    single_head,
)
from carwars_desktop.storage.errors import (
    DamagedDatabaseError,
    LockedDatabaseError,
)

Snapshot = Callable[[Path], dict[str, str]]


@pytest.fixture
def ours(sqlite_path: Path) -> Path:
    """A closed Carwars database at head with a design and a session."""
    with open_database(str(sqlite_path)) as database:
        database.library.install_catalog()
    return sqlite_path


def _refused(path: Path, snapshot: Snapshot, error_type: type[DatabaseError]) -> str:
    before = snapshot(path.parent)
    with pytest.raises(error_type) as caught:
        open_database(str(path))
    assert snapshot(path.parent) == before, "the refused file or its folder changed"
    message = str(caught.value)
    assert str(path) in message
    return message


def _sql(path: Path, *statements: str) -> None:
    with closing(sqlite3.connect(path)) as connection:
        for statement in statements:
            connection.execute(statement)
        connection.commit()


# --- Found 4: another Alembic program's database is never written ----------------------
def test_a_foreign_alembic_database_with_no_revision_is_refused_on_sqlite(
        sqlite_path: Path, snapshot: Snapshot) -> None:
    _sql(sqlite_path, "CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL)",
         "CREATE TABLE invoices (id INTEGER PRIMARY KEY, total NUMERIC)")
    message = _refused(sqlite_path, snapshot, NotADatabaseError)
    assert "not a Carwars Desktop database" in message and "invoices" in message
    assert "was not changed" in message


def test_a_foreign_alembic_database_with_no_revision_is_refused(database_url: str) -> None:
    engine = create_engine(database_url, poolclass=NullPool)
    try:
        with engine.begin() as connection:
            connection.execute(text("CREATE TABLE alembic_version "
                                    "(version_num VARCHAR(32) NOT NULL)"))
            connection.execute(text("CREATE TABLE invoices (id INTEGER PRIMARY KEY)"))
        with pytest.raises(NotADatabaseError, match="another program's.*invoices"):
            open_database(database_url)
        with engine.connect() as connection:
            assert sorted(inspect(connection).get_table_names()) == ["alembic_version",
                                                                      "invoices"]
            assert connection.execute(text("SELECT count(*) FROM alembic_version")).scalar() == 0
    finally:
        engine.dispose()


def test_another_programs_unknown_revision_is_not_called_a_newer_carwars(
        sqlite_path: Path, snapshot: Snapshot) -> None:
    _sql(sqlite_path, "CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL)",
         "INSERT INTO alembic_version VALUES ('ae1027a6acf')",
         "CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    message = _refused(sqlite_path, snapshot, NotADatabaseError)
    assert "newer version" not in message
    assert "ae1027a6acf is not one of Carwars Desktop's" in message


def test_a_newer_carwars_database_is_still_called_newer(ours: Path, snapshot: Snapshot) -> None:
    _sql(ours, "UPDATE alembic_version SET version_num = '9999'")
    message = _refused(ours, snapshot, NewerSchemaError)
    assert "newer version of Carwars Desktop" in message


# --- Found 6 and 8: damaged databases of ours ------------------------------------------
@pytest.mark.parametrize("table", ["designs", "game_sessions", "session_vehicles",
                                   "session_events", "dice_rolls", "design_revisions",
                                   "resolution_log"])
def test_a_dropped_table_is_called_damaged(ours: Path, snapshot: Snapshot, table: str) -> None:
    _sql(ours, f"DROP TABLE {table}")
    message = _refused(ours, snapshot, DamagedDatabaseError)
    assert f"damaged: table {table} is missing" in message
    assert "Restore a backup" in message and "was not changed" in message


@pytest.mark.parametrize(("table", "column"), [("session_events", "summary"),
                                               ("designs", "working_data"),
                                               ("game_sessions", "lease_token")])
def test_a_dropped_column_is_called_damaged(ours: Path, snapshot: Snapshot, table: str,
                                            column: str) -> None:
    _sql(ours, f"ALTER TABLE {table} DROP COLUMN {column}")
    message = _refused(ours, snapshot, DamagedDatabaseError)
    assert f"damaged: column {table}.{column} is missing" in message


def test_a_dropped_table_is_called_damaged_on_a_server(database_url: str) -> None:
    open_database(database_url).close()
    engine = create_engine(database_url, poolclass=NullPool)
    try:
        with engine.begin() as connection:
            connection.execute(text("DROP TABLE resolution_log"))
        with pytest.raises(DamagedDatabaseError, match="table resolution_log is missing"):
            open_database(database_url)
        with engine.connect() as connection:
            assert "resolution_log" not in inspect(connection).get_table_names()
    finally:
        engine.dispose()


def test_our_database_without_its_stamp_is_damaged_not_foreign(
        ours: Path, snapshot: Snapshot) -> None:
    _sql(ours, "DROP TABLE alembic_version")
    message = _refused(ours, snapshot, DamagedDatabaseError)
    assert "another program" not in message
    assert "schema stamp (table alembic_version) is missing" in message


def test_our_database_with_its_stamp_emptied_is_damaged(ours: Path, snapshot: Snapshot) -> None:
    _sql(ours, "DELETE FROM alembic_version")
    message = _refused(ours, snapshot, DamagedDatabaseError)
    assert "already exists" not in message
    assert "schema stamp (table alembic_version) is empty" in message


# --- Found 8: impossible paths leave nothing behind ------------------------------------
def test_a_missing_folder_names_the_folder(tmp_path: Path) -> None:
    with pytest.raises(DatabaseError, match="the folder .*no such folder does not exist"):
        open_database(str(tmp_path / "no such folder" / "carwars.sqlite3"))
    assert list(tmp_path.iterdir()) == []


def test_a_name_too_long_for_the_journal_is_refused_and_leaves_no_empty_file(
        tmp_path: Path) -> None:
    name = "c" * 244 + ".sqlite3"
    assert len(name) == 252
    with pytest.raises(DatabaseError, match="file name is 252 bytes long"):
        open_database(str(tmp_path / name))
    assert list(tmp_path.iterdir()) == []


def _leftover_wal(path: Path, statement: str) -> Path:
    """``statement`` committed to a -wal that is left beside ``path`` (no -shm), as after
    a copy of the app was killed; the -wal's path."""
    wal = path.with_name(path.name + "-wal")
    with closing(sqlite3.connect(path)) as connection:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA wal_autocheckpoint=0")
        connection.execute(statement)
        connection.commit()
        copy_wal = wal.read_bytes()
    wal.write_bytes(copy_wal)
    path.with_name(path.name + "-shm").unlink(missing_ok=True)
    return wal


def test_a_refused_file_with_a_leftover_wal_gets_no_shm(ours: Path, snapshot: Snapshot) -> None:
    wal = _leftover_wal(ours, "DROP TABLE designs")
    message = _refused(ours, snapshot, DamagedDatabaseError)
    assert "table designs is missing" in message
    assert sorted(p.name for p in ours.parent.iterdir()) == [ours.name, wal.name]


def test_dice_numbers_of_thousands_of_digits_are_refused_in_our_words() -> None:
    from carwars_desktop.dice.errors import DiceExpressionError
    from carwars_desktop.dice.expression import parse

    with pytest.raises(DiceExpressionError) as caught:
        parse("1d6+" + "9" * 5000)
    assert "set_int_max_str_digits" not in str(caught.value)
    assert "5,000 digits" in str(caught.value)


# --- Found 5: read-only and locked files -----------------------------------------------
@pytest.fixture
def shared_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder whose permissions the test changes (and restores for the clean-up)."""
    folder = tmp_path / "club"
    folder.mkdir()
    try:
        yield folder
    finally:
        folder.chmod(0o755)
        for entry in folder.iterdir():
            entry.chmod(0o644)


_OPEN_AS_USER = textwrap.dedent("""
    import sys
    from carwars_desktop.storage import DatabaseError, open_database
    try:
        open_database(sys.argv[1], read_only=sys.argv[2] == "ro").close()
    except DatabaseError as error:
        print(type(error).__name__ + ": " + str(error))
    else:
        print("opened")
""")


def _open_without_write_permission(path: Path, read_only: bool = False) -> str:
    """Open ``path`` in a process that cannot write it: as root, one without the
    capabilities that let root write any file (util-linux's ``setpriv``)."""
    command = [sys.executable, "-c", _OPEN_AS_USER, str(path), "ro" if read_only else "rw"]
    if os.geteuid() == 0:
        command = ["setpriv", "--inh-caps=-all",
                   "--bounding-set=-dac_override,-dac_read_search,-fowner", *command]
    result = subprocess.run(command, capture_output=True, text=True, check=True,
                            cwd=path.parent, timeout=60)
    return result.stdout.strip()


def test_a_read_only_file_is_refused_and_can_be_browsed(
        shared_folder: Path, snapshot: Snapshot) -> None:
    path = shared_folder / "carwars.sqlite3"
    with open_database(str(path)) as database:
        database.library.install_catalog()
    path.chmod(0o444)
    before = snapshot(shared_folder)
    refused = _open_without_write_permission(path)
    assert refused.startswith("ReadOnlyDatabaseError: ")
    assert "opened read-only: changes cannot be saved" in refused
    assert snapshot(shared_folder) == before
    assert _open_without_write_permission(path, read_only=True) == "opened"
    assert snapshot(shared_folder) == before


def test_a_file_in_a_read_only_folder_is_refused(shared_folder: Path, snapshot: Snapshot) -> None:
    path = shared_folder / "carwars.sqlite3"
    open_database(str(path)).close()
    shared_folder.chmod(0o555)
    before = snapshot(shared_folder)
    refused = _open_without_write_permission(path)
    assert refused.startswith("ReadOnlyDatabaseError: ")
    assert "its folder" in refused and "cannot be written" in refused
    assert snapshot(shared_folder) == before


_HOLD_LOCK = textwrap.dedent("""
    import sqlite3, sys
    connection = sqlite3.connect(sys.argv[1], isolation_level=None)
    connection.execute("BEGIN EXCLUSIVE")
    print("locked", flush=True)
    sys.stdin.readline()
    connection.execute("ROLLBACK")
""")


@pytest.mark.parametrize("wal", [True, False], ids=["wal", "rollback-journal"])
def test_a_database_locked_by_another_program_is_refused(ours: Path, wal: bool) -> None:
    if not wal:
        _sql(ours, "PRAGMA journal_mode=DELETE")
    with subprocess.Popen([sys.executable, "-c", _HOLD_LOCK, str(ours)], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, text=True) as holder:
        assert holder.stdin is not None and holder.stdout is not None
        try:
            assert holder.stdout.readline().strip() == "locked"
            before = ours.read_bytes()
            names = sorted(p.name for p in ours.parent.iterdir())
            with pytest.raises(LockedDatabaseError, match="is locked by another program"):
                open_database(str(ours))
            assert ours.read_bytes() == before
            assert sorted(p.name for p in ours.parent.iterdir()) == names
        finally:
            holder.stdin.write("\n")
            holder.stdin.close()
            holder.wait(timeout=30)
    open_database(str(ours)).close()


def test_a_read_only_file_cannot_be_browsed_before_its_upgrade(
        shared_folder: Path) -> None:
    path = shared_folder / "old.sqlite3"
    fixture = Path(__file__).parents[1] / "fixtures" / "databases" / "schema_0001.sqlite3"
    path.write_bytes(fixture.read_bytes())
    path.chmod(0o444)
    refused = _open_without_write_permission(path, read_only=True)
    assert refused.startswith("ReadOnlyDatabaseError: ") and "upgrade" in refused
    assert single_head() != "0001"


# --- Found 7: one behaviour on both backends -------------------------------------------
def test_extreme_designs_are_kept_alike_on_sqlite_and_postgresql(database_url: str) -> None:
    huge = Car("Juggernaut", 10**9, 10**9, 10**9, 10**9)
    beyond = Car("Beyond", 10**19, 10**19, 10**19, 10**19)
    content = dumps_designs([make_exchanged("autopower", "vehicle", huge.to_json())])
    with open_database(database_url) as database:
        [record] = database.library.import_designs(
            [ImportChoice(design) for design in read_designs(content)])
        assert record.cost == database.library.get(record.id).cost
        assert record.cost is not None and record.cost >= 4 * 10**9
        with pytest.raises(InvalidDesignError, match="at most 19"):
            database.library.import_designs([ImportChoice(make_exchanged(
                "autopower", "vehicle", beyond.to_json()))])
        assert [r.name for r in database.library.all("autopower")].count("Beyond") == 0


# --- Found 3: a write on a locked database fails fast, in words ------------------------
_HOLD_WRITE_LOCK = textwrap.dedent("""
    import sqlite3, sys
    connection = sqlite3.connect(sys.argv[1], isolation_level=None)
    connection.execute("BEGIN IMMEDIATE")
    print("locked", flush=True)
    sys.stdin.readline()
    connection.execute("ROLLBACK")
""")


def test_writes_on_a_database_locked_mid_evening_are_refused_in_words(
        sqlite_path: Path, make_roll: Callable[..., NewDiceRoll]) -> None:
    from carwars_desktop.storage.errors import WriteFailedError

    with open_database(str(sqlite_path)) as database:
        with database.engine.connect() as connection:  # what SQLite waits for a lock
            waits = connection.exec_driver_sql("PRAGMA busy_timeout").scalar()
        assert waits is not None and 0 < waits < 200  # in ms: a click never waits long
        session_id = database.game_sessions.create("autopower", "Tonight", "", [], {})
        finished_id = database.game_sessions.create("autopower", "Last week", "", [], {})
        database.game_sessions.finish(finished_id)
        with subprocess.Popen([sys.executable, "-c", _HOLD_WRITE_LOCK, str(sqlite_path)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True) as holder:
            assert holder.stdin is not None and holder.stdout is not None
            try:
                assert holder.stdout.readline().strip() == "locked"
                writes = [
                    lambda: database.dice_history.add(make_roll()),
                    lambda: database.game_sessions.create("autopower", "Other", "", [], {}),
                    lambda: database.game_sessions.finish(session_id),
                    lambda: database.library.install_catalog(),
                    # The charts kept with a finished session (the Table's worker wrote
                    # them raw: a lock raised out of the charts' callback).
                    lambda: database.game_sessions.store_charts(finished_id, {"format": 1}),
                ]
                for write in writes:
                    with pytest.raises(WriteFailedError) as caught:
                        write()
                    assert caught.value.reason == "the database is locked by another program"
            finally:
                holder.stdin.write("\n")
                holder.stdin.close()
                holder.wait(timeout=30)
        assert database.dice_history.count() == 0
        database.dice_history.add(make_roll())  # free again: the retry goes through
        assert database.dice_history.count() == 1


def test_a_wal_that_goes_away_during_the_check_is_looked_at_again(
        ours: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Two copies of the app start on one file: the other one closes it (its WAL goes into
    # the file and is deleted) while this one copies the WAL to check it.
    wal = _leftover_wal(ours, "CREATE TABLE scratch (x)")
    import carwars_desktop.storage.preflight as preflight

    real_copy = preflight.shutil.copyfile
    copied: list[str] = []

    def copy_while_the_other_closes(source: Path, target: Path) -> object:
        copied.append(Path(source).name)
        if Path(source) == wal:
            wal.unlink()  # the other copy has just closed the file
        return real_copy(source, target)

    monkeypatch.setattr(preflight.shutil, "copyfile", copy_while_the_other_closes)
    with open_database(str(ours)) as database:  # opened, not refused nor a traceback
        assert database.library.count() >= 0
    assert copied == [ours.name, wal.name]
