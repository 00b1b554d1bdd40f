"""The charts kept with each event as it is appended (issue 35 §3, revision 0011): folded,
they equal the charts replayed from scratch, across applies, hand marks, clock moves, fire
batches, undos and redos, on SQLite and PostgreSQL; revision 0011 computes them once for
the sessions already kept."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from alembic import command
from sqlalchemy import text

from carwars_desktop.rules import find_procedure, find_ruleset
from carwars_desktop.services import Services
from carwars_desktop.services.fire_batch import BatchRules, FireBatch
from carwars_desktop.services.report import replayed_luck
from carwars_desktop.services.table import (
    OpenedSession,
    ResolveError,
    TableService,
    all_events,
    typed_dice,
)
from carwars_desktop.session import Event
from carwars_desktop.session.history import (
    Luck,
    SessionHistory,
    charts_from_json,
    charts_to_json,
    replay_history,
)
from carwars_desktop.session.setup import Entry, prepare
from carwars_desktop.storage import Database, open_database
from carwars_desktop.storage.engine import create_engine_for
from carwars_desktop.storage.migrations import alembic_config

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "databases"
RULESET = find_ruleset("mini_car_wars")


def _services(database: Database) -> Services:
    services = Services()
    services.table.database = database
    services.library.attach(database)
    return services


def _start(table: TableService) -> int:
    catalog = RULESET.catalog()
    entries = [Entry("Ann", "Rocket Special", catalog["Rocket Special"].to_json()),
               Entry("Bob", "Courier", catalog["Courier"].to_json()),
               Entry("Cy", "Courier (b)", catalog["Courier (b)"].to_json())]
    session_id = table.start("mini_car_wars", "Charts night", "", prepare(RULESET, entries))
    table.open(session_id)
    return session_id


def _fire(table: TableService, firer: str, target: str, dice: str) -> None:
    fire = find_procedure("mini.fire")
    game = table.running()
    values = fire.bind({"firer": game.sheet(firer), "target": game.sheet(target),
                        "side": "F", "range": "5"}, table.house_for("mini_car_wars"))
    for extra in range(6):  # as many more dice as the hit needs (a sixth each)
        try:
            pending = table.resolve(fire, values, typed_dice(dice + " 6" * extra),
                                    bindings={"firer": firer, "target": target})
        except ResolveError as error:
            if "needs another" not in str(error):
                raise
            continue
        pending.apply()
        return
    raise AssertionError("the shot never resolved")


def _batch(table: TableService) -> None:
    batch = FireBatch(BatchRules("mini.fire", hold_input="hold_damage", damage="mini.damage",
                                 damage_vehicle="vehicle", damage_side="side",
                                 damage_amount="damage", side_input="side"))
    shot = {"weapon": "1", "side": "F", "range": "5"}
    batch.declare(shot, {"firer": "v1", "target": "v2"}, "6 6 6 6")
    batch.declare(shot, {"firer": "v3", "target": "v1"}, "6 6 6 6 6")
    batch.resolve(table).apply()


def _mark(table: TableService, key: str) -> None:
    from carwars_desktop.rules.mini_car_wars.play.marks import set_armor

    table.mark(key, set_armor(table.running().sheet(key), "L", 3).sheet, f"armor of {key}")


def _next_turn(table: TableService) -> None:
    game = table.running()
    clock = game.clock
    while clock.turn == game.clock.turn:
        clock = clock.advanced()
    table.set_clock(clock, f"Turn {clock.turn} begins at 0 mph",
                    {key: game.sheet(key).started_turn(0, False)  # type: ignore[attr-defined]
                     for key in ("v1", "v2", "v3")})


def _both(database: Database, opened: OpenedSession) -> tuple[SessionHistory | None,
                                                                SessionHistory]:
    rules = RULESET.play()
    kept = database.game_sessions.kept_history(opened.session_id, RULESET, rules,
                                               opened.loaded.vehicles,
                                               opened.loaded.initial_sheets)
    scratch = replay_history(RULESET, rules, opened.loaded.vehicles,
                             opened.loaded.initial_sheets, all_events(opened.events))
    return kept, scratch


def _steps(table: TableService) -> Iterator[str]:
    _fire(table, "v1", "v2", "6 6 6 6")
    yield "one shot"
    _fire(table, "v2", "v1", "5 5 6 6")
    _mark(table, "v3")
    yield "a shot, a hand mark"
    _next_turn(table)
    _batch(table)
    yield "a clock move, a fire batch"
    _fire(table, "v2", "v3", "6 6 6 6")
    table.undo()
    yield "a shot undone"
    table.undo()
    yield "the batch undone"
    table.redo()
    yield "the batch redone"
    _fire(table, "v2", "v1", "6 6 6 6")  # the undone shot abandoned
    yield "a shot after an undo"
    table.undo()
    table.undo()
    table.undo()
    yield "three undone, the clock move among them"
    _next_turn(table)
    _batch(table)
    _next_turn(table)
    _next_turn(table)
    _fire(table, "v2", "v3", "6 6 6 6")
    yield "two turns, a batch, two turns, a shot"


def test_kept_charts_equal_the_charts_replayed_at_every_step(database_url: str) -> None:
    with open_database(database_url) as database:
        services = _services(database)
        table = services.table
        session_id = _start(table)
        for step in _steps(table):
            opened = table.open(session_id)
            kept, scratch = _both(database, opened)
            assert kept is not None, step
            assert kept == scratch, step
        assert scratch.events > 5 and scratch.last_turn >= 3
        assert any(v.taken for v in scratch.vehicles.values())
        assert any(v.dealt for v in scratch.vehicles.values())
        # Finished: the charts are folded from the kept parts, never replayed.
        table.finish()
        opened = table.open(session_id)
        assert table.charts_kept(opened)
        history, _luck = table.history(opened)
        assert history == scratch


def test_a_session_whose_events_lack_parts_is_replayed(database_url: str) -> None:
    with open_database(database_url) as database:
        table = _services(database).table
        session_id = _start(table)
        _fire(table, "v1", "v2", "6 6 6 6")
        with database.engine.begin() as connection:
            for table_name in ("session_chart_parts", "session_chart_cells",
                               "session_chart_sums"):  # as if the engine could not read it
                connection.execute(text(f"DELETE FROM {table_name}"))
        _fire(table, "v2", "v1", "6 6 6 6")
        opened = table.open(session_id)
        assert not table.charts_kept(opened)
        kept, scratch = _both(database, opened)
        assert kept is None
        table.finish()
        history, _luck = table.history(table.open(session_id))
        assert history == scratch and history.events == 2


def test_revision_0011_computes_the_parts_of_the_sessions_kept_before(
        database_url: str) -> None:
    """A session played at revision 0008 (its events, no parts), then upgraded."""
    with open_database(database_url) as database:
        table = _services(database).table
        session_id = _start(table)
        for _ in _steps(table):
            pass
        opened = table.open(session_id)
        _kept, scratch = _both(database, opened)
    engine = create_engine_for(database_url)
    try:
        with engine.begin() as connection:
            command.downgrade(alembic_config(connection), "0008")
            tables = connection.execute(text(
                "SELECT count(*) FROM session_events")).scalar()
        assert tables
    finally:
        engine.dispose()
    with open_database(database_url) as database:  # upgraded to the head again
        opened = _services(database).table.open(session_id)
        kept, _scratch = _both(database, opened)
        assert kept == scratch


def test_the_0007_fixture_upgrades_with_its_sessions_parts(tmp_path: Path) -> None:
    copy = tmp_path / "schema_0007.sqlite3"
    shutil.copyfile(FIXTURES / "schema_0007.sqlite3", copy)
    with open_database(str(copy)) as database:
        for info in database.game_sessions.all():
            loaded = database.game_sessions.load(info.id)
            events = database.game_sessions.events(info.id)
            rules = RULESET.play()
            kept = database.game_sessions.kept_history(info.id, RULESET, rules,
                                                       loaded.vehicles, loaded.initial_sheets)
            assert kept is not None
            assert kept == replay_history(RULESET, rules, loaded.vehicles,
                                          loaded.initial_sheets, all_events(events))


def _luck_both(database: Database, opened: OpenedSession) -> tuple[Luck | None, Luck]:
    """The luck kept with the active events' parts, and the one counted from the events."""
    sessions = database.game_sessions
    return (sessions.kept_luck(opened.session_id),
            replayed_luck(all_events(opened.events), sessions.applied_rolls(opened.session_id)))


def test_kept_luck_equals_the_luck_replayed_at_every_step(database_url: str) -> None:
    with open_database(database_url) as database:
        table = _services(database).table
        session_id = _start(table)
        for step in _steps(table):
            kept, scratch = _luck_both(database, table.open(session_id))
            assert kept is not None, step
            assert kept == scratch, step
        assert scratch.rolls >= 4


def test_an_undone_shot_leaves_the_luck_and_a_redone_one_counts_again(
        database_url: str) -> None:
    """Two hits and a miss applied, the last hit undone: 1 success in 2 rolls, not 2 in 3
    (the roll log still has the undone hit applied: the charts count the events')."""
    with open_database(database_url) as database:
        table = _services(database).table
        session_id = _start(table)
        _fire(table, "v1", "v2", "6 6 6 6")  # a hit, 5/12
        _fire(table, "v3", "v1", "1 1")  # a miss, 13/18
        _fire(table, "v2", "v1", "6 6 6 6")  # a hit, 5/12
        all_three = Luck((1, 1, 2), (Fraction(5, 12), Fraction(41, 36), Fraction(14, 9)))
        assert _luck_both(database, table.open(session_id)) == (all_three, all_three)
        assert all_three.summary() == ("2 successes in 3 rolls, 1.6 expected: luckier than "
                                       "the odds")
        table.undo()
        two = Luck((1, 1), (Fraction(5, 12), Fraction(41, 36)))
        opened = table.open(session_id)
        assert _luck_both(database, opened) == (two, two)
        kept, scratch = _both(database, opened)
        assert kept == scratch and scratch is not None
        assert scratch.vehicles["v1"].taken == 0 and scratch.vehicles["v2"].dealt == 0
        table.redo()
        assert _luck_both(database, table.open(session_id)) == (all_three, all_three)
        table.undo()
        logged = database.game_sessions.resolutions(session_id)
        assert [applied for *_rest, applied in logged] == [True, True, True]
        table.finish()
        opened = table.open(session_id)
        history, luck = table.history(opened)
        assert luck == two
        assert luck.summary() == "1 success in 2 rolls, 1.1 expected: unluckier than the odds"
        assert history.vehicles["v2"].taken == 12 and history.vehicles["v1"].dealt == 12
        assert history.vehicles["v1"].taken == 0 and history.events == 2
        # The events replayed (no part kept): the same luck and damage.
        with database.engine.begin() as connection:
            for table_name in ("session_chart_parts", "session_chart_cells",
                               "session_chart_sums", "session_charts"):
                connection.execute(text(f"DELETE FROM {table_name}"))
        assert charts_from_json(table.aggregate_charts(opened)) == (history, two)
        # Charts kept by the version that counted the undone shot: made again.
        database.game_sessions.store_charts(session_id, {
            **charts_to_json(history, all_three), "format": 1})
        assert table.history(opened) == (history, two)


def test_older_events_without_their_rolls_count_the_logged_odds_of_those_in_force(
        database_url: str) -> None:
    """Events kept before they kept their rolls (nor their parts theirs): the roll log's
    odds, matched to the events in order, the undone one's left out."""
    with open_database(database_url) as database:
        table = _services(database).table
        session_id = _start(table)
        _fire(table, "v1", "v2", "6 6 6 6")
        _fire(table, "v3", "v1", "1 1")
        _fire(table, "v2", "v1", "6 6 6 6")
        table.undo()
        with database.engine.begin() as connection:
            for seq, body in connection.execute(text(
                    "SELECT seq, body FROM session_events")).all():
                older = {k: v for k, v in json.loads(body).items() if k != "rolls"}
                connection.execute(text("UPDATE session_events SET body = :body "
                                        "WHERE seq = :seq"),
                                   {"body": json.dumps(older), "seq": seq})
            connection.execute(text("UPDATE session_chart_parts SET gauges = '[]' "
                                    "WHERE vehicle = ''"))
        opened = table.open(session_id)
        kept, scratch = _luck_both(database, opened)
        assert kept is None
        assert scratch == Luck((1, 1), (Fraction(5, 12), Fraction(41, 36)))
        table.finish()
        assert table.history(table.open(session_id))[1] == scratch


def _three_shot_batch(table: TableService) -> None:
    """Ann and Cy hit Bob; Bob misses Ann (Mini Car Wars: the damage held to the end)."""
    batch = FireBatch(BatchRules("mini.fire", hold_input="hold_damage", damage="mini.damage",
                                 damage_vehicle="vehicle", damage_side="side",
                                 damage_amount="damage", side_input="side"))
    shot = {"weapon": "1", "side": "F", "range": "5"}
    batch.declare(shot, {"firer": "v1", "target": "v2"}, "6 6 6 6")
    batch.declare(shot, {"firer": "v3", "target": "v2"}, "6 6 6 6 6")
    batch.declare(shot, {"firer": "v2", "target": "v1"}, "1 1")
    batch.resolve(table).apply()


def test_a_fire_batch_credits_the_firers_of_the_shots_that_hit(database_url: str) -> None:
    with open_database(database_url) as database:
        table = _services(database).table
        session_id = _start(table)
        _three_shot_batch(table)
        opened = table.open(session_id)
        (stored,) = all_events(opened.events)
        assert stored.event.dealers == {"v2": ("v1", "v3")}  # the miss credits no one
        kept, scratch = _both(database, opened)
        assert kept == scratch
        ann, bob, cy = (scratch.vehicles[key] for key in ("v1", "v2", "v3"))
        assert (bob.taken, ann.dealt, cy.dealt) == (30, 15, 15)
        assert (ann.taken, bob.dealt, cy.taken, scratch.unattributed) == (0, 0, 0, 0)
        assert _luck_both(database, opened)[0] == Luck(
            (1, 2, 2), (Fraction(5, 12), Fraction(41, 36), Fraction(14, 9)))
        table.undo()
        kept, scratch = _both(database, table.open(session_id))
        assert kept == scratch
        assert scratch.vehicles["v1"].dealt == 0 and scratch.vehicles["v2"].taken == 0
        table.redo()
        kept, scratch = _both(database, table.open(session_id))
        assert kept == scratch and scratch.vehicles["v3"].dealt == 15
        # A batch kept before its event named its dealers charts as it did: no dealer.
        older = [replace(s, event=Event.from_json({k: v for k, v in s.event.to_json().items()
                                                   if k != "dealers"}))
                 for s in all_events(opened.events)]
        assert older[0].event.dealers == {}
        history = replay_history(RULESET, RULESET.play(), opened.loaded.vehicles,
                                 opened.loaded.initial_sheets, older)
        assert history.unattributed == 30 and history.vehicles["v1"].dealt == 0
