"""The first screen read with the standard sqlite3 before SQLAlchemy has loaded
(storage/first_screen.py): the Library's list as the repository lists it, or the running
game as the repository loads it; None whenever the database must be opened first."""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

import pytest

from carwars_desktop.rules.mini_car_wars import MiniDesign, PersonKit
from carwars_desktop.session import Event, EventKind, SheetUpdate, VehicleInPlay
from carwars_desktop.storage import NewDesign, NewVehicle, open_database, resolve_url
from carwars_desktop.storage.database import sqlite_file_path
from carwars_desktop.storage.first_screen import read_first_screen
from carwars_desktop.storage.locations import ENV_VAR, sqlite_path


def _courier(name: str) -> dict[str, object]:
    return MiniDesign.stock_design("courier", "a", name=name).to_json()


def _library(path: Path) -> None:
    """Catalog, tags, a draft, unsaved edits, a deleted design, a finished game."""
    with open_database(str(path)) as database:
        library = database.library
        library.install_catalog()
        tagged = library.add(NewDesign("mini_car_wars", _courier("Tagged"),
                                       tags=("club", "road duel")))
        library.add(NewDesign("mini_car_wars", _courier("Same tags"), tags=("club", "road duel")))
        library.add(NewDesign("mini_car_wars", MiniDesign.stock_design(
            "courier", name="Draft", driver=PersonKit(2, 0, True)).to_json()))
        library.set_working(tagged.id, _courier("Tagged, edited"))
        gone = library.add(NewDesign("mini_car_wars", _courier("Gone")))
        library.delete(gone.id)
        played = database.game_sessions.create(
            "mini_car_wars", "Last week", "",
            [NewVehicle(VehicleInPlay("v1", "Ace", "Ann", {}), {"marks": []})], {"turn": 1})
        database.game_sessions.finish(played)


def test_the_first_screen_lists_what_the_library_lists(tmp_path: Path) -> None:
    path = tmp_path / "carwars.sqlite3"
    _library(path)
    screen = read_first_screen(str(path), {})
    assert screen is not None and screen.game is None
    entries = screen.entries
    with open_database(str(path)) as database:
        assert entries == database.library.entries()
    assert entries is not None and len(entries) > 24  # the catalog, and the GM's own
    names = {entry.name: entry for entry in entries}
    assert "Gone" not in names
    assert names["Tagged"].unsaved and names["Tagged"].tags == ("club", "road duel")
    assert not names["Draft"].legal and names["Draft"].problem_count > 0
    assert names["Tagged"].updated_at.tzinfo is not None


@pytest.mark.parametrize("first", ["entries", "game"])
def test_it_reads_without_sqlalchemy(tmp_path: Path, first: str) -> None:
    path = tmp_path / "carwars.sqlite3"
    _library(path)
    if first == "game":
        _running_game(path)
    script = ("import sys\n"
              "from carwars_desktop.storage.first_screen import read_first_screen\n"
              f"screen = read_first_screen({str(path)!r}, {{}})\n"
              f"assert screen is not None and screen.{first}, screen\n"
              "if screen.game: screen.game.events.page(0, 10)\n"
              "assert 'sqlalchemy' not in sys.modules, 'SQLAlchemy was imported'\n")
    subprocess.run([sys.executable, "-c", script], check=True, timeout=120,
                   env={k: v for k, v in os.environ.items() if k != ENV_VAR})


def _running_game(path: Path, name: str = "Tonight") -> int:
    """A running session with a history: three marks, the last one undone."""
    with open_database(str(path)) as database:
        sessions = database.game_sessions
        session_id = sessions.create(
            "mini_car_wars", name, "Road Duel",
            [NewVehicle(VehicleInPlay("v1", "Ace", "Ann", {"name": "Ace"}), {"marks": []}),
             NewVehicle(VehicleInPlay("v2", "Bo's", "Bo", {}), {"marks": ["x"]})],
            {"turn": 1}, {"house": {"profile": "club"}})
        events = sessions.events(session_id)
        marks: list[str] = []
        for mark in ("A-1", "A-2", "A-3"):
            after = [*marks, mark]
            events.append(Event(EventKind.MARK, f"mark {mark}", updates=(
                SheetUpdate("v1", {"marks": marks}, {"marks": after}),)),
                {"v1": {"marks": after}}, {"turn": 1, "phase": len(after)})
            marks = after
        events.mark_undone(3, {"v1": {"marks": marks[:2]}}, {"turn": 1, "phase": 2})
        return session_id


def test_a_running_game_is_read_as_the_repository_loads_it(tmp_path: Path) -> None:
    """The last running session (the one start-up resumes), at the version it was read."""
    path = tmp_path / "carwars.sqlite3"
    _library(path)
    _running_game(path, "Last week, never finished")
    session_id = _running_game(path)
    screen = read_first_screen(str(path), {})
    assert screen is not None and screen.entries is None and screen.game is not None
    game = screen.game
    with open_database(str(path)) as database:
        sessions = database.game_sessions
        last = sessions.last_running()
        assert last is not None and last.id == session_id
        assert game.loaded == sessions.load(session_id)
        stored = sessions.events(session_id)
        file = game.events
        assert file.count() == stored.count() == 2
        assert file.count(include_undone=True) == stored.count(include_undone=True) == 3
        assert file.page(0, 10) == stored.page(0, 10) and file.page(1, 1) == stored.page(1, 1)
        assert file.last_active() == stored.last_active() is not None
        assert file.first_undone() == stored.first_undone() is not None
    info = game.loaded.info
    assert (info.version, info.event_count, info.vehicle_count) == (4, 2, 2)
    assert info.title == "Tonight — Road Duel" and info.lease is None
    assert game.loaded.sheets["v1"] == {"marks": ["A-1", "A-2"]}
    assert game.loaded.settings == {"house": {"profile": "club"}}


def test_the_game_shown_from_the_file_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "carwars.sqlite3"
    _library(path)
    _running_game(path)
    screen = read_first_screen(str(path), {})
    assert screen is not None and screen.game is not None
    events = screen.game.events
    with pytest.raises(RuntimeError, match="written only once"):
        events.append(Event(EventKind.MARK, "late"), {}, {"turn": 1})
    with pytest.raises(RuntimeError):
        events.mark_undone(2, {}, {"turn": 1})
    with pytest.raises(RuntimeError):
        events.mark_redone(3, {}, {"turn": 1})
    assert events.count(include_undone=True) == 3
    path.unlink()  # the file gone meanwhile: its history reads as none, nothing raised
    assert events.count() == 0 and events.page(0, 10) == [] and events.last_active() is None


def test_a_game_another_copy_plays_is_opened_first(tmp_path: Path) -> None:
    """The normal opening asks whether to follow it or take it over; a lease that lapsed
    or whose copy is gone does not stop the game being shown (it is resumed)."""
    path = tmp_path / "carwars.sqlite3"
    _library(path)
    session_id = _running_game(path)
    with open_database(str(path)) as database:
        lease = database.game_sessions.acquire(session_id, holder=("gm", "CLUB-PC"))
        assert read_first_screen(str(path), {}) is None  # held by a copy that runs
        database.game_sessions.release(lease)
    screen = read_first_screen(str(path), {})
    assert screen is not None and screen.game is not None
    with closing(sqlite3.connect(path)) as connection, connection:
        connection.execute(  # another installation's lease, last renewed long ago
            "UPDATE game_sessions SET lease_token = 'ffffffffffffffffffffffff.0-1', "
            "lease_holder = 'gm', lease_host = 'CLUB-PC', "
            "lease_since = '2026-01-01 20:00:00.000000', "
            "lease_renewed_at = '2026-01-01 20:00:00.000000' WHERE id = ?", (session_id,))
    screen = read_first_screen(str(path), {})
    assert screen is not None and screen.game is not None and screen.game.loaded.info.lease is None
    with closing(sqlite3.connect(path)) as connection, connection:
        connection.execute("UPDATE game_sessions SET lease_renewed_at = ? WHERE id = ?",
                           (datetime.now(UTC).replace(tzinfo=None).isoformat(" "), session_id))
    assert read_first_screen(str(path), {}) is None  # renewed just now: it plays


def test_a_game_whose_stored_text_cannot_be_read_is_opened_first(tmp_path: Path) -> None:
    path = tmp_path / "carwars.sqlite3"
    _library(path)
    session_id = _running_game(path)
    with closing(sqlite3.connect(path)) as connection, connection:
        connection.execute("UPDATE game_sessions SET clock = 'not JSON' WHERE id = ?",
                           (session_id,))
    assert read_first_screen(str(path), {}) is None


def _older_schema(path: Path) -> None:
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '0005'")


def _foreign(path: Path) -> None:
    with sqlite3.connect(path) as connection:
        connection.execute("DELETE FROM alembic_version")


def _no_sessions_table(path: Path) -> None:
    with sqlite3.connect(path) as connection:
        connection.execute("DROP TABLE game_sessions")


@pytest.mark.parametrize("spoil", [_older_schema, _foreign, _no_sessions_table],
                         ids=["a migration is due", "no schema stamp", "a table is missing"])
def test_otherwise_the_database_is_opened_first(tmp_path: Path, spoil: object) -> None:
    path = tmp_path / "carwars.sqlite3"
    _library(path)
    spoil(path)  # type: ignore[operator]
    assert read_first_screen(str(path), {}) is None


def test_nor_for_a_new_file_a_server_or_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    assert read_first_screen(str(tmp_path / "new.sqlite3"), {}) is None
    assert not (tmp_path / "new.sqlite3").exists()  # nothing is created
    assert read_first_screen("postgresql+psycopg://gm@club.example/cars", {}) is None
    text = tmp_path / "notes.sqlite3"
    text.write_text("not a database")
    assert read_first_screen(str(text), {}) is None
    assert text.read_text() == "not a database"


def test_a_file_held_by_another_writer_is_opened_first(tmp_path: Path) -> None:
    path = tmp_path / "carwars.sqlite3"
    _library(path)
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("PRAGMA journal_mode=DELETE")
        holder.execute("BEGIN EXCLUSIVE")
        assert read_first_screen(str(path), {}) is None
    finally:
        holder.close()


@pytest.mark.parametrize("setting", ["carwars.sqlite3", "~/games/carwars.sqlite3",
                                     "sqlite:///carwars.sqlite3", "ENV", None])
def test_it_reads_the_file_the_database_setting_names(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, setting: str | None) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    env = {ENV_VAR: str(tmp_path / "from-env.sqlite3")} if setting == "ENV" else {}
    hint = None if setting in ("ENV", None) else setting
    light = sqlite_path(hint, env)
    assert light is not None
    assert light.absolute() == sqlite_file_path(resolve_url(hint, env)).absolute()  # type: ignore[union-attr]
    absolute = f"sqlite:///{tmp_path / 'abs.sqlite3'}"
    assert sqlite_path(absolute, {}) == sqlite_file_path(resolve_url(absolute, {}))
    for other in ("postgresql+psycopg://gm@host/db", "sqlite:///x.sqlite3?mode=ro",
                  "sqlite:///:memory:"):
        assert sqlite_path(other, {}) is None


def test_every_name_storage_offers_is_there() -> None:
    import carwars_desktop.storage as storage

    for name in storage.__all__:
        assert getattr(storage, name) is not None, name
    with pytest.raises(AttributeError):
        storage.NoSuchThing  # type: ignore[attr-defined]  # noqa: B018


def test_a_damaged_installation_opens_the_database_first(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its migrations with two heads: the first screen is not read, and opening the
    database says why (as at any start)."""
    from carwars_desktop.storage import MigrationHeadsError, first_screen

    path = tmp_path / "carwars.sqlite3"
    _library(path)

    def two_heads() -> object:
        raise MigrationHeadsError("two heads")

    monkeypatch.setattr(first_screen, "shipped_revisions", two_heads)
    assert read_first_screen(str(path), {}) is None


def _small_game(folder: Path) -> tuple[Path, bytes]:
    """A small database (no catalog) with a running game the first screen would show,
    and its bytes."""
    path = folder / "carwars.sqlite3"
    _running_game(path)
    assert read_first_screen(str(path), {}) is not None
    assert sorted(p.name for p in folder.iterdir()) == [path.name]
    return path, path.read_bytes()


def _refused_as_found(path: Path, damaged: bytes) -> None:
    """The first screen is not read from ``damaged``: nothing raised, nothing shown,
    nothing created beside it, the file as it was."""
    path.write_bytes(damaged)
    assert read_first_screen(str(path), {}) is None
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]
    assert path.read_bytes() == damaged


def test_a_file_truncated_by_any_length_is_refused_as_found(tmp_path: Path) -> None:
    """Every length from 1 to 4,096 bytes short (a whole page short included)."""
    path, whole = _small_game(tmp_path)
    assert len(whole) > 4096 * 4
    for short in range(1, 4097):
        _refused_as_found(path, whole[:-short])


def test_a_file_with_any_page_damaged_is_refused_as_found(tmp_path: Path) -> None:
    """Each page in turn overwritten with noise: SQLite's check finds it before any of
    the file is shown."""
    import random

    path, whole = _small_game(tmp_path)
    page = int.from_bytes(whole[16:18], "big")
    noise = random.Random(32)
    for number in range(len(whole) // page):
        start = number * page
        garbage = bytes(noise.randrange(256) for _ in range(page))
        if number == 0:
            garbage = whole[:100] + garbage[100:]  # the header kept: SQLite must see it
        _refused_as_found(path, whole[:start] + garbage + whole[start + page:])


def test_a_wal_database_with_half_its_files_is_not_read(tmp_path: Path) -> None:
    """A -wal without its -shm, or the other way round: reading it would create the
    missing one, so the database is opened first (its checks read a copy)."""
    path, whole = _small_game(tmp_path)
    for sidecar in ("-wal", "-shm"):
        beside = path.with_name(path.name + sidecar)
        beside.write_bytes(b"")
        assert read_first_screen(str(path), {}) is None
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted([path.name, beside.name])
        beside.unlink()


def test_smoke_on_a_truncated_file_exits_with_the_reason(tmp_path: Path) -> None:
    path, whole = _small_game(tmp_path)
    path.write_bytes(whole[:-1])
    env = {k: v for k, v in os.environ.items() if k != ENV_VAR}
    env["QT_QPA_PLATFORM"] = "offscreen"
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    smoke = subprocess.run([sys.executable, "-m", "carwars_desktop", "--smoke", "--db",
                            str(path)], cwd=tmp_path, env=env, capture_output=True,
                           text=True, timeout=120)
    assert smoke.returncode > 0  # refused, not killed by a signal
    assert "is damaged: it is" in smoke.stderr and "Traceback" not in smoke.stderr
    assert path.read_bytes() == whole[:-1]
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(path.name)] == [path.name]


def test_the_first_screen_and_the_repositories_run_the_same_reads(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Which session is the last running one, its vehicles' order and which designs are
    # listed are written once (storage/shared_queries.py): both ways of reading run them.
    from sqlalchemy import event

    from carwars_desktop.storage import first_screen, shared_queries

    path = tmp_path / "carwars.sqlite3"
    _library(path)
    session_id = _running_game(path)
    read_by_sqlite3: list[str] = []
    connect = first_screen._connect

    def traced(file: Path) -> sqlite3.Connection:
        connection = connect(file)
        connection.set_trace_callback(read_by_sqlite3.append)
        return connection

    monkeypatch.setattr(first_screen, "_connect", traced)
    assert read_first_screen(str(path), {}) is not None
    read_by_sqlalchemy: list[str] = []
    with open_database(str(path)) as database:
        event.listen(database.engine, "before_cursor_execute",
                     lambda _c, _k, statement, *_a: read_by_sqlalchemy.append(statement))
        running = database.game_sessions.last_running()
        assert running is not None and running.id == session_id
        database.game_sessions.load(session_id)
        database.library.entries()
    for statement in (shared_queries.LAST_RUNNING_ID, shared_queries.SESSION_VEHICLES):
        # sqlite3 traces the values bound, SQLAlchemy sends "?"
        as_sent = re.compile(re.sub(r":\w+", lambda _: r"(?:\?|'?\w+'?)", re.escape(statement)))
        assert any(as_sent.fullmatch(sent) for sent in read_by_sqlite3), statement
        assert any(as_sent.fullmatch(sent.strip()) for sent in read_by_sqlalchemy), statement
    assert shared_queries.LISTED_ENTRIES not in " ".join(read_by_sqlite3)  # a game was shown
    listed = [sent for sent in read_by_sqlalchemy if "FROM designs" in sent]
    assert any(f"WHERE {shared_queries.LISTED_DESIGNS}" in sent
               and sent.rstrip().endswith(f"ORDER BY {shared_queries.DESIGNS_ORDER}")
               for sent in listed), listed
