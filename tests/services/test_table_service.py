"""The Table service: sessions, resolve → pending → apply or discard, each logged with its
exact P(success), undo of an applied event, every change published with its initiator."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from carwars_desktop.procedures import Resolution
from carwars_desktop.rules import find_procedure, find_ruleset
from carwars_desktop.services import (
    Changes,
    PendingState,
    ResolveError,
    Services,
    SessionOpenError,
    TableService,
    typed_dice,
)
from carwars_desktop.session import GameError
from carwars_desktop.session.setup import Entry, prepare
from carwars_desktop.storage import Database
from carwars_desktop.storage.errors import WriteFailedError

ME = "the test"


def _start(services: Services, names: tuple[str, ...] = ("Courier (b)", "Courier")) -> int:
    ruleset = find_ruleset("mini_car_wars")
    catalog = ruleset.catalog()
    entries = [Entry(f"Player {n}", name, catalog[name].to_json())
               for n, name in enumerate(names, start=1)]
    session_id = services.table.start("mini_car_wars", "Test night", "",
                                      prepare(ruleset, entries), initiator=ME)
    services.table.open(session_id, initiator=ME)
    return session_id


def _fire_inputs(table: TableService) -> dict[str, Any]:
    game = table.running()
    return find_procedure("mini.fire").bind(
        {"firer": game.sheet("v1"), "target": game.sheet("v2"), "side": "L", "range": "5"})


def _pending_fire(table: TableService, dice: str = "4 4 5 6 6") -> Any:
    return table.resolve(find_procedure("mini.fire"), _fire_inputs(table), typed_dice(dice),
                         bindings={"firer": "v1", "target": "v2"}, initiator=ME)


def test_start_and_open_publish_with_the_initiator(services: Services,
                                                   heard: list[Changes]) -> None:
    session_id = _start(services)
    assert [(c.sessions, c.session, c.session_id, c.initiator) for c in heard] == [
        (True, False, session_id, ME), (False, True, session_id, ME)]
    assert services.table.playing("mini_car_wars") is services.table.game
    assert services.table.playing("battlecars") is None


def test_resolve_pending_apply_is_one_event_logged_with_p_success(
        services: Services, database: Database, heard: list[Changes]) -> None:
    session_id = _start(services)
    table = services.table
    game = table.running()
    before = game.sheet("v2")
    pending = _pending_fire(table)
    assert pending.state is PendingState.PENDING and pending.can_apply()
    assert "17" in pending.resolution.outcome and pending.p_success() == "5/6"
    assert game.sheet("v2") == before  # nothing changes before Apply
    heard.clear()
    changes = pending.apply()
    assert changes is not None and changes.vehicles == {"v1", "v2"}  # the gun fired, too
    assert game.sheet("v2") == next(e.sheet for e in pending.resolution.effects
                                    if e.input_name == "target")
    assert [c.vehicles for c in heard if c.game is not None] == [frozenset({"v1", "v2"})]
    assert all(c.initiator == ME for c in heard)
    assert any(c.resolution_logged for c in heard)
    assert database.game_sessions.resolutions(session_id) == [("mini.fire", True, "5/6", True)]
    assert pending.state is PendingState.APPLIED and not pending.discard()
    with pytest.raises(GameError, match="applied already"):
        pending.apply()
    # Undo pops the applied event: the sheet is back as it was.
    undone = table.undo(initiator=ME)
    assert undone.undone and undone.vehicles == {"v1", "v2"}
    assert game.sheet("v2") == before
    table.redo()
    assert game.sheet("v2") != before


def test_discard_keeps_only_the_roll_in_the_log(services: Services,
                                                database: Database) -> None:
    session_id = _start(services)
    game = services.table.running()
    before = game.sheet("v2")
    pending = _pending_fire(services.table)
    assert pending.discard()
    assert not pending.discard()  # once
    assert pending.state is PendingState.DISCARDED and not pending.can_apply()
    assert game.sheet("v2") == before and not game.can_undo()
    assert database.game_sessions.resolutions(session_id) == [("mini.fire", True, "5/6", False)]


def test_a_refused_apply_stays_pending(services: Services, database: Database) -> None:
    session_id = _start(services)
    table = services.table
    pending = table.resolve(find_procedure("mini.fire"), _fire_inputs(table),
                            typed_dice("4 4 5 6 6"), bindings={"firer": "v1"})
    assert not pending.can_apply()  # the target is no vehicle in play
    with pytest.raises(GameError, match="not a vehicle in play"):
        pending.apply()
    assert pending.pending
    assert database.game_sessions.resolutions(session_id) == []


def test_a_handler_applies_the_result_its_own_way(services: Services,
                                                  database: Database) -> None:
    session_id = _start(services)
    table = services.table
    seen: list[tuple[Resolution, Mapping[str, str]]] = []

    def handler(resolution: Resolution, bindings: Mapping[str, str]) -> None:
        seen.append((resolution, bindings))
        table.note(f"handled: {resolution.outcome}")

    pending = _pending_fire(table)
    assert pending.apply(handler) is None
    assert seen and seen[0][1] == {"firer": "v1", "target": "v2"}
    assert table.running().can_undo()
    assert database.game_sessions.resolutions(session_id)[-1][3] is True


def test_dice_that_do_not_fit_resolve_nothing(services: Services) -> None:
    _start(services)
    with pytest.raises(ResolveError, match="not needed: 1 1"):
        _pending_fire(services.table, "4 4 5 6 6 1 1")
    with pytest.raises(ResolveError, match="cannot show 9"):
        _pending_fire(services.table, "9")


def test_rolled_dice_keep_their_seed(services: Services) -> None:
    _start(services)
    pending = _pending_fire(services.table)
    assert pending.seed is None
    rolled = services.table.resolve(find_procedure("mini.fire"), _fire_inputs(services.table),
                                    typed_dice("4 4", roll=True))
    assert rolled.seed is not None
    assert [d.entered for d in rolled.resolution.dice][:2] == [True, True]


def test_without_a_session_a_result_is_logged_but_cannot_be_applied(
        services: Services, heard: list[Changes]) -> None:
    ruleset = find_ruleset("mini_car_wars")
    catalog = ruleset.catalog()
    sheets = [ruleset.sheet_for_design(catalog[name]) for name in ("Courier (b)", "Courier")]
    procedure = find_procedure("mini.fire")
    values = procedure.bind({"firer": sheets[0], "target": sheets[1], "side": "L",
                             "range": "5"})
    pending = services.table.resolve(procedure, values, typed_dice("4 4 5 6 6"),
                                     bindings={"firer": "v1", "target": "v2"})
    assert pending.ruleset_id == "mini_car_wars" and pending.p_success() == "5/6"
    assert not pending.can_apply()
    with pytest.raises(GameError, match="no running session"):
        pending.apply()
    assert pending.discard()
    assert heard[-1].resolution_logged and heard[-1].session_id is None


def test_finish_reopens_read_only(services: Services, heard: list[Changes]) -> None:
    session_id = _start(services)
    table = services.table
    heard.clear()
    assert table.finish(initiator=ME) == session_id
    assert heard[-1].sessions and heard[-1].session_id == session_id
    opened = table.open(session_id)
    assert opened.read_only and table.read_only
    assert table.playing("mini_car_wars") is None
    with pytest.raises(GameError, match="no running session"):
        table.mark("v1", opened.game.sheet("v1"), "a mark")
    assert table.finish() is None  # finished already
    history, luck = table.history(opened)
    assert history is not None and luck is not None
    table.close(initiator=ME)
    assert table.game is None and heard[-1].session


def test_a_session_the_rules_cannot_read_is_refused(services: Services,
                                                    database: Database) -> None:
    with pytest.raises(SessionOpenError):
        services.table.open(12345)
    assert services.table.game is None


@pytest.mark.parametrize("column", ["clock", "settings"])
def test_a_session_whose_stored_state_cannot_be_read_opens_read_only_with_the_reason(
        services: Services, database: Database, column: str) -> None:
    """Its list entry still reads (start-up finds it), and it opens read-only saying which
    part cannot be read, its events listed, the clock the last one the log shows; opening
    it writes nothing (no lease, no version moved)."""
    from sqlalchemy import text

    session_id = _start(services)
    game = services.table.running()
    moved = game.clock.advanced()
    game.set_clock(moved, "Next phase")
    game.mark("v1", game.sheet("v1"), "A mark")  # (after the clock's move)
    services.table.close()
    with database.engine.begin() as connection:
        connection.execute(text(f"UPDATE game_sessions SET {column} = 'not JSON' "
                                "WHERE id = :id"), {"id": session_id})
    before = services.table.session_info(session_id)
    assert before.id == session_id
    assert f"stored {column} cannot be read" in services.table.unreadable(session_id)

    opened = services.table.open(session_id, initiator=ME)

    assert opened.read_only and services.table.read_only
    assert f"stored {column} cannot be read" in opened.loaded.unreadable
    assert "opens read-only" in opened.loaded.unreadable
    assert [stored.event.summary for stored in opened.store.page(0, 10)] == [
        "Next phase", "A mark"]
    assert opened.game.clock == moved
    if column == "clock":
        assert "the clock shown is the one after event 1" in opened.loaded.unreadable
    after = services.table.session_info(session_id)
    assert (after.version, after.lease, after.updated_at) == (
        before.version, before.lease, before.updated_at)
    with pytest.raises(WriteFailedError, match="stored state cannot be read"):
        opened.game.mark("v1", opened.game.sheet("v1"), "Not written")
    with database.engine.begin() as connection:
        assert connection.execute(text(f"SELECT {column} FROM game_sessions WHERE id = :id"),
                                  {"id": session_id}).scalar() == "not JSON"


def test_a_sheet_bound_by_an_input_s_old_name_is_applied(services: Services) -> None:
    """``attacker`` is the old name of ``autopower.attack``'s ``firer``: bound by it, the
    result went nowhere ("the result changes 'firer', which is not a vehicle in play")."""
    ruleset = find_ruleset("autopower")
    catalog = ruleset.catalog()
    entries = [Entry(f"Player {n}", name, catalog[name].to_json())
               for n, name in enumerate(("Longshot", "Bishop"), start=1)]
    session_id = services.table.start("autopower", "Test night", "",
                                      prepare(ruleset, entries), initiator=ME)
    services.table.open(session_id, initiator=ME)
    table = services.table
    game = table.running()
    attack = find_procedure("autopower.attack")
    values = attack.bind({"attacker": game.sheet("v1"), "target": game.sheet("v2"),
                          "cards": "4"})
    pending = table.resolve(attack, values, typed_dice("6 5"),
                            bindings={"attacker": "v1", "target": "v2"}, initiator=ME)
    assert pending.bindings == {"firer": "v1", "target": "v2"}
    changes = pending.apply()
    assert changes is not None and changes.vehicles == {"v1", "v2"}
    assert game.sheet("v2") == next(e.sheet for e in pending.resolution.effects
                                    if e.input_name == "target")


def test_the_charts_are_drawn_when_they_cannot_be_kept(services: Services, database: Database,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The aggregates kept with a finished session spare the next replay: a database that
    refuses the write a moment (locked by the GUI thread's write) still gives the charts
    (the worker's error was raised out of the charts' callback)."""
    session_id = _start(services)
    table = services.table
    _pending_fire(table).apply()
    assert table.finish(initiator=ME) == session_id
    opened = table.open(session_id)

    def locked(_session_id: int, _charts: Mapping[str, Any]) -> None:
        raise WriteFailedError("The session's charts was not saved: the database is locked "
                               "by another program.", "the database is locked by another "
                               "program")

    monkeypatch.setattr(database.game_sessions, "store_charts", locked)
    history, luck = table.history(opened)
    assert history is not None and luck is not None
    assert table.stored_charts(opened) is None  # made again next time
