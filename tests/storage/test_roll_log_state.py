"""One roll, one transaction, its state a column (issue 29 §3), on SQLite and PostgreSQL.

A result shown is one transaction (its pending line and its dice); applying it is one
more (the event, its line settled, a line for each of its parts); the roll log's state is
the ``state`` column that migration 0008 filled from the JSON body of the older rows.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from sqlalchemy import event, text

from carwars_desktop.rules import find_procedure, find_ruleset
from carwars_desktop.services import Services, TableService, typed_dice
from carwars_desktop.services.table import PendingResolution, ResolutionPart, resolve_dice
from carwars_desktop.session.setup import Entry, prepare
from carwars_desktop.storage import Database, open_database
from carwars_desktop.storage.engine import create_engine_for
from carwars_desktop.storage.game_sessions import APP_STOPPED
from carwars_desktop.storage.migrations import alembic_config

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "databases"


@contextmanager
def commits(database: Database) -> Iterator[list[int]]:
    """Counts the transactions committed on ``database`` meanwhile (``[n]``)."""
    count = [0]

    def counted(_connection: Any) -> None:
        count[0] += 1

    event.listen(database.engine, "commit", counted)
    try:
        yield count
    finally:
        event.remove(database.engine, "commit", counted)


def _table(database: Database) -> TableService:
    services = Services()
    services.table.database = database
    ruleset = find_ruleset("mini_car_wars")
    catalog = ruleset.catalog()
    entries = [Entry(f"P{n}", name, catalog[name].to_json())
               for n, name in enumerate(("Courier (b)", "Courier"), start=1)]
    session_id = services.table.start("mini_car_wars", "Night", "", prepare(ruleset, entries))
    services.table.open(session_id)
    return services.table


def _fire(table: TableService, dice: str = "4 4 5 6 6", firer: str = "v1",
          target: str = "v2") -> PendingResolution:
    game = table.running()
    procedure = find_procedure("mini.fire")
    inputs = procedure.bind({"firer": game.sheet(firer), "target": game.sheet(target),
                             "side": "L", "range": "5"})
    return table.resolve(procedure, inputs, typed_dice(dice),
                         bindings={"firer": firer, "target": target})


def test_showing_is_one_transaction_and_applying_one_more(database_url: str) -> None:
    """Before: showing was 2 (the pending line, its dice) and applying 2 (the event, the
    line settled), plus one per part of a fire batch."""
    with open_database(database_url) as database:
        table = _table(database)
        with commits(database) as shown:
            pending = _fire(table)
        with commits(database) as applied:
            pending.apply()
        assert (shown[0], applied[0]) == (1, 1)
        session_id = table.session_id
        [line] = database.game_sessions.roll_log(session_id)
        assert line.state == "applied" and pending.log_id == line.id
        [roll] = database.dice_history.recent()
        assert (roll.resolution_id, roll.resolution_state) == (line.id, "applied")
        events = database.game_sessions.events(session_id)
        last = events.last_active()
        assert last is not None and last.event.procedure_id == "mini.fire"
        # Discarding is one transaction too.
        other = _fire(table, "1 1", firer="v2", target="v1")
        with commits(database) as discarded:
            assert other.discard(reason="input changed")
        assert discarded[0] == 1
        assert [(r.state, r.note) for r in database.game_sessions.roll_log(session_id)] == [
            ("applied", ""), ("discarded", "input changed")]
        assert database.dice_history.recent()[0].resolution_note == "input changed"


def test_a_combined_result_and_its_parts_are_applied_in_one_transaction(
        database_url: str) -> None:
    with open_database(database_url) as database:
        table = _table(database)
        game = table.running()
        procedure = find_procedure("mini.fire")
        inputs = procedure.bind({"firer": game.sheet("v1"), "target": game.sheet("v2"),
                                 "side": "L", "range": "5"})
        first = resolve_dice(procedure, inputs, typed_dice("4 4 5 6 6"))
        second = resolve_dice(procedure, inputs, typed_dice("1 1"))
        bindings = {"firer": "v1", "target": "v2"}
        with commits(database) as shown:
            pending = table.pending(first, bindings, None, parts=[
                ResolutionPart(first, "5/6", bindings), ResolutionPart(second, "5/6", bindings)])
        with commits(database) as applied:
            pending.apply()
        assert (shown[0], applied[0]) == (1, 1)
        log = database.game_sessions.roll_log(table.session_id)
        assert [r.state for r in log] == ["applied"] * 3
        rolls = database.dice_history.recent()
        assert len(rolls) == 2 and {r.resolution_id for r in rolls} == {log[0].id}


def test_a_refused_show_is_written_whole_with_the_event(database_url: str,
                                                        monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    """When the pending line could not be written, Apply writes the line and its dice
    with the event, in its one transaction (before, the dice were never kept)."""
    from carwars_desktop.storage.errors import WriteFailedError

    with open_database(database_url) as database:
        table = _table(database)

        def refused(*_args: Any, **_kwargs: Any) -> int:
            raise WriteFailedError("The roll log was not saved: locked.", "locked")

        with monkeypatch.context() as patch:
            patch.setattr(database.game_sessions, "log_resolution", refused)
            pending = _fire(table)
        assert pending.log_id is None and database.dice_history.count() == 0
        with commits(database) as applied:
            pending.apply()
        assert applied[0] == 1
        [line] = database.game_sessions.roll_log(table.session_id)
        [roll] = database.dice_history.recent()
        assert line.state == "applied" and roll.resolution_id == line.id


def test_a_stale_apply_writes_neither_the_event_nor_the_settled_line(
        database_url: str) -> None:
    from carwars_desktop.session import Event, EventKind, StaleSessionError

    with open_database(database_url) as database:
        table = _table(database)
        pending = _fire(table)
        session_id = table.session_id
        assert session_id is not None
        database.game_sessions.events(session_id).append(
            Event(EventKind.NOTE, "another copy wrote first"), {}, table.running().clock.to_json())
        with pytest.raises(StaleSessionError):
            pending.apply()
        assert pending.pending
        [line] = database.game_sessions.roll_log(session_id)
        assert line.state == "pending"


def _fill_0007_rows(database_url: str) -> None:
    """The rows of tests/fixtures/databases/schema_0007.sqlite3, on any backend."""
    from tests.fixtures.databases.make_fixtures import ROLL_LOG_0007

    engine = create_engine_for(database_url)
    try:
        with engine.begin() as connection:
            command.upgrade(alembic_config(connection), "0007")
            connection.execute(text(
                "INSERT INTO game_sessions (id, ruleset_id, name, scenario, status, clock,"
                " created_at, updated_at, settings) VALUES (1, 'mini_car_wars', 'Duel', '',"
                " 'running', '{}', :now, :now, '{}')"), {"now": "2026-12-02 20:00:00+00:00"})
            for row_id, body, outcome, success, p_success, applied in ROLL_LOG_0007:
                connection.execute(text(
                    "INSERT INTO resolution_log (id, session_id, ruleset_id, procedure_id, body,"
                    " outcome, success, p_success, applied, created_at) VALUES (:id, 1,"
                    " 'mini_car_wars', 'mcw.fire', :body, :outcome, :success, :p_success,"
                    " :applied, :now)"),
                    {"id": row_id, "body": body, "outcome": outcome,
                     "success": None if success is None else bool(success),
                     "p_success": p_success, "applied": bool(applied),
                     "now": "2026-12-02 20:00:00+00:00"})
    finally:
        engine.dispose()


def test_0008_keeps_every_rows_state(database_url: str) -> None:
    from tests.fixtures.databases.make_fixtures import STATES_0007

    _fill_0007_rows(database_url)
    with open_database(database_url) as database:
        log = database.game_sessions.roll_log(1)
        assert {r.id: r.state for r in log} == STATES_0007
        assert {r.id: r.note for r in log}[2] == "input changed"
        # The one left pending is found by its column, and settles as the app stopped.
        assert database.game_sessions.settle_pending(1) == 1
        assert [(r.id, r.note) for r in database.game_sessions.roll_log(1)
                if r.note == APP_STOPPED] == [(3, APP_STOPPED)]
        with database.engine.connect() as connection:
            bodies = [row[0] for row in connection.execute(text(
                "SELECT body FROM resolution_log ORDER BY id"))]
        assert not any('"state"' in body for body in bodies)
    # And back: the downgrade puts each state first in its body again.
    engine = create_engine_for(database_url)
    try:
        with engine.begin() as connection:
            command.downgrade(alembic_config(connection), "0007")
            bodies = [row[0] for row in connection.execute(text(
                "SELECT body FROM resolution_log ORDER BY id"))]
    finally:
        engine.dispose()
    assert bodies[0].startswith('{"state":"applied"')
    assert bodies[2].startswith('{"state":"discarded"')  # settled above


def test_the_0007_fixture_upgrades_with_every_rows_state(tmp_path: Path) -> None:
    from tests.fixtures.databases.make_fixtures import STATES_0007

    copy = tmp_path / "schema_0007.sqlite3"
    shutil.copyfile(FIXTURES / "schema_0007.sqlite3", copy)
    with open_database(str(copy)) as database:
        assert {r.id: r.state for r in database.game_sessions.roll_log(1)} == STATES_0007
        states = sorted((r.resolution_id, r.resolution_state, r.resolution_note)
                        for r in database.dice_history.recent() if r.resolution_id)
        assert states == [(1, "applied", ""), (2, "discarded", "input changed"),
                          (3, "pending", "")]
        assert database.game_sessions.resolutions(1) == [
            ("mcw.fire", True, "5/12", True), ("mcw.fire", False, "5/12", False),
            ("mcw.fire", True, "1/2", True), ("mcw.fire", False, None, False)]
