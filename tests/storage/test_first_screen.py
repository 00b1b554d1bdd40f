"""The Library's list read with the standard sqlite3 before SQLAlchemy has loaded
(storage/first_screen.py): the same entries as the repository, or None whenever the
database must be opened first."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from carwars_desktop.rules.mini_car_wars import MiniDesign, PersonKit
from carwars_desktop.session import VehicleInPlay
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
    entries = read_first_screen(str(path), {})
    with open_database(str(path)) as database:
        assert entries == database.library.entries()
    assert entries is not None and len(entries) > 24  # the catalog, and the GM's own
    names = {entry.name: entry for entry in entries}
    assert "Gone" not in names
    assert names["Tagged"].unsaved and names["Tagged"].tags == ("club", "road duel")
    assert not names["Draft"].legal and names["Draft"].problem_count > 0
    assert names["Tagged"].updated_at.tzinfo is not None


def test_it_reads_without_sqlalchemy(tmp_path: Path) -> None:
    path = tmp_path / "carwars.sqlite3"
    _library(path)
    script = ("import sys\n"
              "from carwars_desktop.storage.first_screen import read_first_screen\n"
              f"entries = read_first_screen({str(path)!r}, {{}})\n"
              "assert entries, entries\n"
              "assert 'sqlalchemy' not in sys.modules, 'SQLAlchemy was imported'\n")
    subprocess.run([sys.executable, "-c", script], check=True, timeout=120,
                   env={k: v for k, v in os.environ.items() if k != ENV_VAR})


def _running_game(path: Path) -> None:
    with open_database(str(path)) as database:
        database.game_sessions.create(
            "mini_car_wars", "Tonight", "",
            [NewVehicle(VehicleInPlay("v1", "Ace", "Ann", {}), {"marks": []})], {"turn": 1})


def _older_schema(path: Path) -> None:
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '0005'")


def _foreign(path: Path) -> None:
    with sqlite3.connect(path) as connection:
        connection.execute("DELETE FROM alembic_version")


def _no_sessions_table(path: Path) -> None:
    with sqlite3.connect(path) as connection:
        connection.execute("DROP TABLE game_sessions")


@pytest.mark.parametrize("spoil", [_running_game, _older_schema, _foreign, _no_sessions_table],
                         ids=["a game is running", "a migration is due", "no schema stamp",
                              "a table is missing"])
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
