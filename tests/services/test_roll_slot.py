"""The roll on screen is one slot of the Table service (issue 29 §1): a new result
discards the one shown, an input change or a closed window discards its own; each is
logged once (the roll log's row ``discarded`` with why) and published once."""

from __future__ import annotations

from typing import Any

import pytest

from carwars_desktop.rules import find_procedure, find_ruleset
from carwars_desktop.services import (
    Changes,
    Discarded,
    PendingState,
    RollState,
    Services,
    TableService,
    typed_dice,
)
from carwars_desktop.session.setup import Entry, prepare
from carwars_desktop.storage import Database
from carwars_desktop.storage.errors import WriteFailedError

DIALOG = object()
RESOLVER = object()


def _start(services: Services) -> int:
    ruleset = find_ruleset("mini_car_wars")
    catalog = ruleset.catalog()
    entries = [Entry(f"Player {n}", name, catalog[name].to_json())
               for n, name in enumerate(("Courier (b)", "Courier"), start=1)]
    session_id = services.table.start("mini_car_wars", "Slot night", "",
                                      prepare(ruleset, entries))
    services.table.open(session_id)
    return session_id


def _fire(table: TableService, owner: object, dice: str = "4 4 5 6 6") -> Any:
    game = table.running()
    inputs = find_procedure("mini.fire").bind(
        {"firer": game.sheet("v1"), "target": game.sheet("v2"), "side": "L", "range": "5"})
    return table.resolve(find_procedure("mini.fire"), inputs, typed_dice(dice),
                         bindings={"firer": "v1", "target": "v2"}, initiator=owner)


def _log(database: Database, session_id: int) -> list[tuple[str, str]]:
    return [(row.state, row.note) for row in database.game_sessions.roll_log(session_id)]


def _rolls(heard: list[Changes]) -> list[RollState]:
    return [c.roll.state for c in heard if c.roll is not None]


def test_a_result_shown_fills_the_slot_of_its_window(services: Services) -> None:
    _start(services)
    table = services.table
    pending = _fire(table, DIALOG)
    assert table.shown is pending
    assert table.shown_by(DIALOG) is pending and table.shown_by(RESOLVER) is None


def test_a_new_result_discards_the_one_shown_once(services: Services, database: Database,
                                                  heard: list[Changes]) -> None:
    session_id = _start(services)
    table = services.table
    heard.clear()
    first = _fire(table, DIALOG)
    second = _fire(table, RESOLVER, "6 6 6 6 6")
    assert first.state is PendingState.DISCARDED and second.pending
    assert table.shown is second and table.shown_by(DIALOG) is None
    assert _log(database, session_id) == [("discarded", Discarded.NEW_ROLL), ("pending", "")]
    # Shown, discarded (published once), shown: in that order.
    assert _rolls(heard) == [RollState.SHOWN, RollState.DISCARDED, RollState.SHOWN]
    assert heard[-1].roll is not None and heard[-1].roll.pending is second


def test_an_input_change_discards_only_its_own_window_s_result(
        services: Services, database: Database, heard: list[Changes]) -> None:
    session_id = _start(services)
    table = services.table
    pending = _fire(table, DIALOG)
    heard.clear()
    assert not table.discard_shown(Discarded.INPUT_CHANGED, owner=RESOLVER)
    assert pending.pending and heard == []
    assert table.discard_shown(Discarded.INPUT_CHANGED, owner=DIALOG)
    assert not table.discard_shown(Discarded.INPUT_CHANGED, owner=DIALOG)  # once
    assert pending.state is PendingState.DISCARDED and table.shown is None
    assert _log(database, session_id) == [("discarded", Discarded.INPUT_CHANGED)]
    assert _rolls(heard) == [RollState.DISCARDED]
    assert table.roll is not None and table.roll.state is RollState.DISCARDED


def test_closing_the_window_discards_its_result_and_its_prepared_roll(
        services: Services, database: Database, heard: list[Changes]) -> None:
    session_id = _start(services)
    table = services.table
    pending = _fire(table, DIALOG)
    heard.clear()
    assert table.closed(DIALOG)
    assert pending.state is PendingState.DISCARDED and table.shown is None
    assert _log(database, session_id) == [("discarded", Discarded.WINDOW_CLOSED)]
    assert _rolls(heard) == [RollState.DISCARDED]
    # A form announced and closed without a roll: no longer in progress either.
    table.preparing("mini.fire", {"firer": "v1"}, None, initiator=DIALOG)
    heard.clear()
    assert not table.closed(DIALOG)
    assert _rolls(heard) == [RollState.DISCARDED] and table.roll is not None
    assert table.roll.state is RollState.DISCARDED


def test_applying_empties_the_slot(services: Services, database: Database) -> None:
    session_id = _start(services)
    table = services.table
    pending = _fire(table, DIALOG)
    pending.apply()
    assert table.shown is None and table.shown_by(DIALOG) is None
    assert not table.discard_shown(Discarded.INPUT_CHANGED)
    assert _log(database, session_id) == [("applied", "")]


def test_a_refused_discard_keeps_the_result_on_screen(
        services: Services, database: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    session_id = _start(services)
    table = services.table
    first = _fire(table, DIALOG)

    def refused(*_args: Any, **_kwargs: Any) -> int:
        raise WriteFailedError("The roll was not saved: the database is locked", "locked")

    monkeypatch.setattr(database.game_sessions, "settle_roll", refused)
    with pytest.raises(WriteFailedError):
        _fire(table, DIALOG, "6 6 6 6 6")  # it would replace the first: nothing new shown
    assert first.pending and table.shown is first
    monkeypatch.undo()
    second = _fire(table, DIALOG, "6 6 6 6 6")
    assert first.state is PendingState.DISCARDED and table.shown is second
    assert _log(database, session_id) == [("discarded", Discarded.NEW_ROLL), ("pending", "")]


def test_a_session_opened_or_closed_empties_the_slot(services: Services) -> None:
    _start(services)
    table = services.table
    _fire(table, DIALOG)
    table.close()
    assert table.shown is None
