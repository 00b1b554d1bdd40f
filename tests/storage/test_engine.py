"""The engine factory's SQLite settings and how the database URL is chosen."""

from __future__ import annotations

from pathlib import Path

import platformdirs
import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from carwars_desktop.storage import create_engine_for, default_url, resolve_url
from carwars_desktop.storage import engine as engine_module
from carwars_desktop.storage.engine import BUSY_TIMEOUT_MS
from carwars_desktop.storage.errors import DatabaseError


def test_sqlite_connections_use_wal_foreign_keys_busy_timeout_and_full_sync(
    sqlite_url: str,
) -> None:
    engine = create_engine_for(sqlite_url)
    try:
        with engine.connect() as connection:
            pragma = {
                name: connection.exec_driver_sql(f"PRAGMA {name}").scalar()
                for name in ("journal_mode", "foreign_keys", "busy_timeout", "synchronous")
            }
    finally:
        engine.dispose()
    assert pragma == {
        "journal_mode": "wal",
        "foreign_keys": 1,
        "busy_timeout": BUSY_TIMEOUT_MS,
        "synchronous": 2,  # FULL
    }


def test_sqlite_ddl_runs_inside_the_transaction(sqlite_url: str) -> None:
    """A failed migration must leave no half-made tables behind."""
    engine = create_engine_for(sqlite_url)
    try:
        with pytest.raises(RuntimeError), engine.begin() as connection:
            connection.exec_driver_sql("CREATE TABLE half_made (x INTEGER)")
            raise RuntimeError("migration failed")
        with engine.connect() as connection:
            tables = connection.exec_driver_sql(
                "SELECT name FROM sqlite_master WHERE name = 'half_made'"
            ).all()
    finally:
        engine.dispose()
    assert tables == []


def test_any_url_works(database_url: str) -> None:
    engine = create_engine_for(database_url)
    try:
        with engine.connect() as connection:
            assert connection.execute(text("SELECT 1")).scalar() == 1
    finally:
        engine.dispose()


def test_default_url_is_a_file_in_the_user_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data" / "carwars-desktop"
    asked: list[tuple[str, str]] = []

    def fake_user_data_dir(app: str, author: str) -> str:
        asked.append((app, author))
        return str(data)

    monkeypatch.setattr(platformdirs, "user_data_dir", fake_user_data_dir)
    url = default_url()
    assert asked == [("carwars-desktop", "carwars")]
    assert data.is_dir()
    assert make_url(url).get_backend_name() == "sqlite"
    assert Path(make_url(url).database or "") == data / "carwars.sqlite3"


def test_resolve_url_prefers_cli_then_env_then_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(engine_module, "default_url", lambda: "sqlite:///default.sqlite3")
    cli = "postgresql+psycopg://gm@localhost/cli"
    env = {"CARWARS_DB": "postgresql+psycopg://gm@localhost/env"}
    assert resolve_url(cli, env) == cli
    assert resolve_url(None, env) == env["CARWARS_DB"]
    assert resolve_url("", env) == env["CARWARS_DB"]
    assert resolve_url(None, {}) == "sqlite:///default.sqlite3"
    assert resolve_url(None, {"CARWARS_DB": "  "}) == "sqlite:///default.sqlite3"


def test_resolve_url_turns_a_bare_path_into_an_sqlite_url(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    weird = tmp_path / "my games" / "night?1#a.sqlite3"
    for given in (str(weird), "night.sqlite3"):
        url = make_url(resolve_url(given, {}))
        assert url.get_backend_name() == "sqlite"
        assert Path(url.database or "") == (tmp_path / given if given == "night.sqlite3" else weird)
    url = make_url(resolve_url(None, {"CARWARS_DB": "env.sqlite3"}))
    assert Path(url.database or "") == tmp_path / "env.sqlite3"


def test_resolve_url_refuses_a_broken_url() -> None:
    with pytest.raises(DatabaseError, match="neither a database URL nor a file path"):
        resolve_url("not a scheme://x", {})
