"""Sessions in the database: events committed with the state they leave, undo/redo, resume."""

from __future__ import annotations

import pytest

from carwars_desktop.session import Event, EventKind, SheetUpdate, VehicleInPlay
from carwars_desktop.storage import NewVehicle, SessionDataError, open_database


def _event(n: int, vehicle: str = "v1") -> Event:
    return Event(EventKind.MARK, f"hit {n}", ("step",),
                 (SheetUpdate(vehicle, {"hits": n - 1}, {"hits": n}),))


def _create(database_url: str) -> int:
    with open_database(database_url) as database:
        return database.game_sessions.create(
            "mini_car_wars", "Road Duel night", "Road Duel",
            [NewVehicle(VehicleInPlay("v1", "Courier", "Ann", {"stock": "Courier"}), {"hits": 0}),
             NewVehicle(VehicleInPlay("v2", "Kart", "Bo", {}), {"hits": 0})],
            {"turn": 1, "phase": 0, "phases": ["phase 1"], "word": "turn"})


def test_create_list_and_load(database_url: str) -> None:
    session_id = _create(database_url)
    with open_database(database_url) as database:
        sessions = database.game_sessions.all()
        assert [(s.name, s.vehicle_count, s.event_count, s.running) for s in sessions] == [
            ("Road Duel night", 2, 0, True)]
        loaded = database.game_sessions.load(session_id)
        assert [v.name for v in loaded.vehicles] == ["Courier", "Kart"]
        assert loaded.vehicles[0].design == {"stock": "Courier"}
        assert loaded.sheets == {"v1": {"hits": 0}, "v2": {"hits": 0}}
        assert database.game_sessions.last_running() is not None


def test_events_commit_state_and_undo_redo(database_url: str) -> None:
    session_id = _create(database_url)
    clock = {"turn": 1, "phase": 0, "phases": ["phase 1"], "word": "turn"}
    with open_database(database_url) as database:
        events = database.game_sessions.events(session_id)
        for n in (1, 2, 3):
            stored = events.append(_event(n), {"v1": {"hits": n}}, clock)
            assert stored.seq == n
        events.mark_undone(3, {"v1": {"hits": 2}}, clock)
        last = events.last_active()
        first_undone = events.first_undone()
        assert last is not None and last.seq == 2
        assert first_undone is not None and first_undone.seq == 3
    with open_database(database_url) as database:  # a restart: state without replay
        loaded = database.game_sessions.load(session_id)
        assert loaded.sheets["v1"] == {"hits": 2}
        assert loaded.info.event_count == 2
        events = database.game_sessions.events(session_id)
        assert [(e.seq, e.undone) for e in events.page(0, 10)] == [(1, False), (2, False),
                                                                  (3, True)]
        # A new event after an undo: the undone one stays in the history (#28 §1), marked
        # undone and no longer redoable; the new one is numbered after it.
        stored = events.append(_event(9), {"v1": {"hits": 9}}, clock)
        assert stored.seq == 4
        assert [(e.seq, e.event.summary, e.undone, e.abandoned) for e in events.page(0, 10)] == [
            (1, "hit 1", False, False), (2, "hit 2", False, False), (3, "hit 3", True, True),
            (4, "hit 9", False, False)]
        assert events.first_undone() is None
        assert events.count() == 3 and events.count(include_undone=True) == 4
        # Undoing the new event goes back to #2, past the branch left behind.
        events.mark_undone(4, {"v1": {"hits": 2}}, clock)
        last, first_undone = events.last_active(), events.first_undone()
        assert last is not None and last.seq == 2
        assert first_undone is not None and first_undone.seq == 4
    with open_database(database_url) as database:  # and so after a restart
        events = database.game_sessions.events(session_id)
        assert [(e.seq, e.undone, e.abandoned) for e in events.page(0, 10)] == [
            (1, False, False), (2, False, False), (3, True, True), (4, True, False)]


def test_finish_and_resolution_log(database_url: str) -> None:
    session_id = _create(database_url)
    with open_database(database_url) as database:
        sessions = database.game_sessions
        sessions.log_resolution(session_id, "mini_car_wars", "mini.fire", {"x": 1}, "hit",
                                True, "5/18", applied=True)
        sessions.log_resolution(session_id, "mini_car_wars", "mini.fire", {"x": 2}, "miss",
                                False, "5/18", applied=False)
        assert sessions.resolutions(session_id) == [("mini.fire", True, "5/18", True),
                                                    ("mini.fire", False, "5/18", False)]
        with pytest.raises(SessionDataError, match="still running"):
            sessions.store_charts(session_id, {"format": 1})
        sessions.finish(session_id)
        assert sessions.last_running() is None
        assert sessions.all()[0].status == "finished"
        assert sessions.charts(session_id) is None
        sessions.store_charts(session_id, {"format": 1, "events": 2})
        sessions.store_charts(session_id, {"format": 1, "events": 3})
        assert sessions.charts(session_id) == {"format": 1, "events": 3}
        sessions.delete(session_id)
        assert sessions.charts(session_id) is None


def test_long_values_refused_alike_on_every_database(database_url: str) -> None:
    from carwars_desktop.storage import SessionDataError

    with open_database(database_url) as database:
        sessions = database.game_sessions
        clock = {"turn": 1, "phase": 0, "phases": ["phase 1"], "word": "turn"}
        with pytest.raises(SessionDataError, match="session name has 250 characters"):
            sessions.create("mini_car_wars", "x" * 250, "", [], clock)
        with pytest.raises(SessionDataError, match="player name"):
            sessions.create("mini_car_wars", "ok", "", [
                NewVehicle(VehicleInPlay("v1", "Kart", "p" * 201, {}), {})], clock)
        assert sessions.all() == []
        # Exact odds of big rolls are long fractions: they are kept whole.
        long_fraction = "1" * 90 + "/" + "3" * 95
        sessions.log_resolution(None, "generic", "dice.roll", {}, "x", True, long_fraction,
                                applied=False)
        assert sessions.resolutions(0) == []
