"""The club's players named once and the ledger's kept summaries (revision 0009), on
SQLite and (with ``CARWARS_TEST_POSTGRES_URL``) PostgreSQL: the upgrade of a 0008 database
makes one player of each name (trimmed, case-folded); the ledger of sessions played on
each backend matches the table's totals; the cache is derived (dropping it changes
nothing)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from alembic import command
from sqlalchemy import inspect, text

from carwars_desktop.services import Services
from carwars_desktop.services.ledger import LedgerService
from carwars_desktop.storage import open_database
from carwars_desktop.storage.engine import create_engine_for
from carwars_desktop.storage.migrations import alembic_config
from tests.fixtures.databases.make_fixtures import LINKS_0008, PLAYERS_0008
from tests.services.club_history import COUNTED, Totals, play_session

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "databases"


def _links(url: str) -> dict[tuple[int, str], str | None]:
    engine = create_engine_for(url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(text(
                "SELECT v.session_id, v.key, p.name FROM session_vehicles v"
                " LEFT JOIN players p ON p.id = v.player_id")).all()
    finally:
        engine.dispose()
    return {(int(r[0]), str(r[1])): r[2] for r in rows}


def test_ledger_players_from_the_0008_fixture(tmp_path: Path) -> None:
    copy = tmp_path / "schema_0008.sqlite3"
    shutil.copyfile(FIXTURES / "schema_0008.sqlite3", copy)
    with open_database(str(copy)) as database:
        assert [p.name for p in database.players.all()] == ["Ann", "Bob", "Cleo Park"]
        url = database.url
    assert _links(url) == LINKS_0008


def _fill_0008_rows(url: str) -> None:
    engine = create_engine_for(url)
    try:
        with engine.begin() as connection:
            command.upgrade(alembic_config(connection), "0008")
            for session_id in (1, 2, 3):
                connection.execute(text(
                    "INSERT INTO game_sessions (id, ruleset_id, name, scenario, status, clock,"
                    " created_at, updated_at, version, settings) VALUES (:id, 'mini_car_wars',"
                    " 'Night', '', 'finished', '{}', :now, :now, 3, '{}')"),
                    {"id": session_id, "now": "2026-12-03 19:00:00+00:00"})
            for position, (session_id, key, player) in enumerate(PLAYERS_0008):
                connection.execute(text(
                    "INSERT INTO session_vehicles (session_id, key, position, player, name,"
                    " design, initial_sheet, current_sheet) VALUES (:session, :key,"
                    " :position, :player, 'Courier', '{}', '{}', '{}')"),
                    {"session": session_id, "key": key, "position": position,
                     "player": player})
    finally:
        engine.dispose()


def test_ledger_migration_0009_links_players_and_goes_back(database_url: str) -> None:
    _fill_0008_rows(database_url)
    with open_database(database_url) as database:
        assert [p.name for p in database.players.all()] == ["Ann", "Bob", "Cleo Park"]
        assert database.players.named("  BOB ").name == "Bob"  # the same player
    assert _links(database_url) == LINKS_0008
    engine = create_engine_for(database_url)
    try:
        with engine.begin() as connection:
            command.downgrade(alembic_config(connection), "0008")
            columns = {c["name"] for c in inspect(connection).get_columns("session_vehicles")}
            tables = set(inspect(connection).get_table_names())
            players = [r[0] for r in connection.execute(text(
                "SELECT player FROM session_vehicles ORDER BY id"))]
    finally:
        engine.dispose()
    assert "player_id" not in columns and not {"players", "session_ledger"} & tables
    assert players == [p for _s, _k, p in PLAYERS_0008]  # the names as they were typed


def test_ledger_on_each_backend_matches_the_table(database_url: str) -> None:
    with open_database(database_url) as database:
        services = Services()
        services.table.database = database
        totals = Totals()
        rng = random.Random(7)
        for number in range(6):  # two sessions of each ruleset
            play_session(services, number, rng, totals)
        ledger = LedgerService(database).ledger()
        rows = {r.name: {**{c: r.value(c) for c in COUNTED}, "luck": r.luck}
                for r in ledger.players}
        assert rows == {p: dict(c) for p, c in totals.players.items()}
        assert ledger.sessions == 6
        # the summaries are kept: another copy reads them, computing nothing
        again = LedgerService(database)
        assert again.ledger() == ledger and again.computed == 0
        # a cache, derived: dropped, the same ledger is computed again from the events
        with database.engine.begin() as connection:
            connection.execute(text("DELETE FROM session_ledger"))
        third = LedgerService(database)
        assert third.ledger() == ledger and third.computed == 6
