"""Nothing shown is lost (issue #13): a result is in the roll log from the moment it is
shown, as pending; killed before Apply, it reads as discarded at the next start; its dice
are in the dice history, marked with their procedure."""

from __future__ import annotations

from carwars_desktop.rules import find_procedure, find_ruleset
from carwars_desktop.services import Services, TableService, typed_dice
from carwars_desktop.session.setup import Entry, prepare
from carwars_desktop.storage import Database, open_database


def _start(table: TableService) -> int:
    ruleset = find_ruleset("mini_car_wars")
    catalog = ruleset.catalog()
    entries = [Entry(f"P{n}", name, catalog[name].to_json())
               for n, name in enumerate(("Courier (b)", "Courier"), start=1)]
    session_id = table.start("mini_car_wars", "Night", "", prepare(ruleset, entries))
    table.open(session_id)
    return session_id


def _fire(table: TableService, dice: str = "4 4 5 6 6",  # type: ignore[no-untyped-def]
          roll: bool = False):
    game = table.running()
    inputs = find_procedure("mini.fire").bind(
        {"firer": game.sheet("v1"), "target": game.sheet("v2"), "side": "L", "range": "5"})
    return table.resolve(find_procedure("mini.fire"), inputs, typed_dice(dice, roll),
                         bindings={"firer": "v1", "target": "v2"})


def test_a_shown_result_is_logged_pending_then_settled(services: Services,
                                                       database: Database) -> None:
    session_id = _start(services.table)
    pending = _fire(services.table)
    [row] = database.game_sessions.roll_log(session_id)
    assert (row.procedure_id, row.state) == ("mini.fire", "pending")
    assert database.game_sessions.resolutions(session_id) == []  # neither applied nor not
    pending.discard()
    [row] = database.game_sessions.roll_log(session_id)
    assert row.state == "discarded"
    _fire(services.table).apply()
    assert [r.state for r in database.game_sessions.roll_log(session_id)] == [
        "discarded", "applied"]
    assert database.game_sessions.resolutions(session_id) == [
        ("mini.fire", True, "5/6", False), ("mini.fire", True, "5/6", True)]


def test_killed_before_apply_it_is_discarded_at_the_next_start(sqlite_url: str) -> None:
    first = open_database(sqlite_url)
    services = Services()
    services.table.database = first
    session_id = _start(services.table)
    _fire(services.table)  # shown... and the app is killed: nobody applies or discards it
    del services
    first.close()

    again = open_database(sqlite_url)
    try:
        reopened = Services()
        reopened.table.database = again
        reopened.table.open(session_id)
        [row] = again.game_sessions.roll_log(session_id)
        assert row.state == "discarded" and "app stopped" in row.note
        assert again.game_sessions.resolutions(session_id) == [
            ("mini.fire", True, "5/6", False)]
        # Its dice were kept in the dice history, marked with the procedure.
        [roll] = again.dice_history.recent()
        assert roll.expression == "5d6 · mini.fire"
        assert roll.dice_values == (4, 4, 5, 6, 6) and roll.entered and roll.seed is None
    finally:
        again.close()


def test_rolled_dice_keep_their_seed_in_the_history(services: Services,
                                                    database: Database) -> None:
    _start(services.table)
    pending = _fire(services.table, "", roll=True)  # every die rolled in the app
    [roll] = database.dice_history.recent()
    assert not roll.entered and roll.seed == pending.seed is not None
    assert roll.expression.endswith("· mini.fire")
    assert roll.success is pending.resolution.success


def test_a_failing_view_never_makes_an_applied_roll_pending_again(
        services: Services, database: Database) -> None:
    """Publish after the commit (#29 §2): a subscriber that raises while the applied shot
    is announced neither flips the roll back to pending nor lets a second Apply append
    the event again."""
    import pytest

    from carwars_desktop.services import PendingState
    from carwars_desktop.session import GameError

    ruleset = find_ruleset("mini_car_wars")
    catalog = ruleset.catalog()
    entries = [Entry(f"P{n}", name, catalog[name].to_json())
               for n, name in enumerate(("Courier (b)", "Courier"), start=1)]
    session_id = services.table.start("mini_car_wars", "Night", "", prepare(ruleset, entries))
    opened = services.table.open(session_id)
    pending = _fire(services.table)
    seen: list[PendingState] = []
    reported: list[BaseException] = []

    def broken_view(_changes: object) -> None:
        seen.append(pending.state)
        raise RuntimeError("a view fell over")

    services.bus.on_error = reported.append
    services.bus.subscribe(broken_view)
    before = services.table.running().sheet("v2")
    pending.apply()
    assert pending.state is PendingState.APPLIED and pending.logged
    assert set(seen) == {PendingState.APPLIED}  # told only once it was applied and logged
    assert reported and all(str(error) == "a view fell over" for error in reported)
    with pytest.raises(GameError, match="applied already"):
        pending.apply()
    assert len(opened.events.page(0, 10)) == 1  # one event, not two
    assert services.table.running().sheet("v2") != before
    assert [r.state for r in database.game_sessions.roll_log(session_id)] == ["applied"]
