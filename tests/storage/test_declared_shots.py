"""The fire batch's declared shots in the database (#28 §1): committed when declared, read
back after a restart, forgotten by the event that applies the batch in its own
transaction, or when the batch is emptied."""

from __future__ import annotations

import pytest

from carwars_desktop.session import Event, EventKind, SheetUpdate, VehicleInPlay
from carwars_desktop.storage import NewVehicle, SessionDataError, open_database

CLOCK = {"turn": 2, "phase": 3, "phases": ["phase 1", "phase 2", "phase 3"], "word": "turn"}


def _create(database_url: str) -> int:
    with open_database(database_url) as database:
        return database.game_sessions.create(
            "mini_car_wars", "Batch night", "",
            [NewVehicle(VehicleInPlay("v1", "Courier", "Ann", {}), {"hits": 0}),
             NewVehicle(VehicleInPlay("v2", "Kart", "Bo", {}), {"hits": 0})], CLOCK)


def test_declared_shots_survive_a_restart_and_go_with_the_batch_event(
        database_url: str) -> None:
    session_id = _create(database_url)
    with open_database(database_url) as database:
        events = database.game_sessions.events(session_id)
        first = events.declare_shot("mini.fire", {"weapon": "1", "range": 4},
                                    {"firer": "v1", "target": "v2"}, "", "Courier → Kart (MG)",
                                    2, "phase 3")
        events.declare_shot("mini.fire", {"weapon": "2", "range": 6},
                            {"firer": "v2", "target": "v1"}, "61", "Kart → Courier (RL)",
                            2, "phase 3")
        events.set_shot_dice(first, "543")
    with open_database(database_url) as database:  # a restart
        events = database.game_sessions.events(session_id)
        shots = events.declared_shots()
        assert [(s.label, s.dice, dict(s.inputs), dict(s.bindings), s.turn, s.phase)
                for s in shots] == [
            ("Courier → Kart (MG)", "543", {"weapon": "1", "range": 4},
             {"firer": "v1", "target": "v2"}, 2, "phase 3"),
            ("Kart → Courier (RL)", "61", {"weapon": "2", "range": 6},
             {"firer": "v2", "target": "v1"}, 2, "phase 3")]
        # Another event (a mark) leaves the batch alone; the batch's own event takes it.
        events.append(Event(EventKind.MARK, "a mark", updates=(
            SheetUpdate("v1", {"hits": 0}, {"hits": 1}),)), {"v1": {"hits": 1}}, CLOCK)
        assert len(events.declared_shots()) == 2
        events.append(Event(EventKind.RESOLUTION, "fire batch of 2", ends_batch=True,
                            updates=(SheetUpdate("v2", {"hits": 0}, {"hits": 3}),)),
                      {"v2": {"hits": 3}}, CLOCK)
        assert events.declared_shots() == []
        stored = events.last_active()
        assert stored is not None and stored.event.ends_batch
    with open_database(database_url) as database:
        assert database.game_sessions.events(session_id).declared_shots() == []


def test_a_refused_batch_event_keeps_the_declaration(database_url: str) -> None:
    """The event and the forgetting are one transaction: a stale write keeps both as
    they were."""
    from carwars_desktop.session import StaleSessionError

    session_id = _create(database_url)
    with open_database(database_url) as database:
        events = database.game_sessions.events(session_id)
        events.declare_shot("mini.fire", {}, {"firer": "v1"}, "", "shot", 1, "phase 1")
        other = database.game_sessions.events(session_id)
        other.append(Event(EventKind.NOTE, "the other copy wrote first"), {}, CLOCK)
        with pytest.raises(StaleSessionError):
            events.append(Event(EventKind.RESOLUTION, "the batch", ends_batch=True), {},
                          CLOCK)
        assert [s.label for s in events.declared_shots()] == ["shot"]


def test_emptying_the_batch_and_bad_declarations(database_url: str) -> None:
    session_id = _create(database_url)
    with open_database(database_url) as database:
        events = database.game_sessions.events(session_id)
        events.declare_shot("mini.fire", {}, {"firer": "v1"}, "", "one", 1, "phase 1")
        with pytest.raises(SessionDataError, match="inputs cannot be kept"):
            events.declare_shot("mini.fire", {"bad": object()}, {}, "", "two", 1, "phase 1")
        with pytest.raises(SessionDataError, match="dice"):
            events.declare_shot("mini.fire", {}, {}, "6" * 500, "three", 1, "phase 1")
        assert [s.label for s in events.declared_shots()] == ["one"]
        events.forget_declared()
        assert events.declared_shots() == []
        # Positions go on after an emptied batch; a deleted session takes its shots along.
        events.declare_shot("mini.fire", {}, {}, "", "again", 1, "phase 1")
        database.game_sessions.delete(session_id)
        assert database.game_sessions.events(session_id, version=0).declared_shots() == []


def test_a_followed_session_refuses_declarations(database_url: str) -> None:
    from carwars_desktop.storage.errors import WriteFailedError

    session_id = _create(database_url)
    with open_database(database_url) as database:
        events = database.game_sessions.events(session_id, read_only="it is followed")
        with pytest.raises(WriteFailedError):
            events.declare_shot("mini.fire", {}, {}, "", "x", 1, "phase 1")
