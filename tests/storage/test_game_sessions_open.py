"""Opening a session reads its vehicles, sheets and clock — never its events."""

from __future__ import annotations

from sqlalchemy import event

from carwars_desktop.session import Event, EventKind, SheetUpdate, VehicleInPlay
from carwars_desktop.storage import NewVehicle, open_database

CLOCK = {"turn": 1, "phase": 0, "phases": ["phase 1"], "word": "turn"}


def test_loading_reads_no_event_and_pages_read_only_their_page(database_url: str) -> None:
    with open_database(database_url) as database:
        sessions = database.game_sessions
        session_id = sessions.create("mini_car_wars", "Long night", "", [
            NewVehicle(VehicleInPlay("v1", "Courier", "Ann", {}), {"hits": 0})], CLOCK)
        events = sessions.events(session_id)
        for n in range(1, 41):
            events.append(Event(EventKind.MARK, f"hit {n}", (),
                                (SheetUpdate("v1", {"hits": n - 1}, {"hits": n}),)),
                          {"v1": {"hits": n}}, CLOCK)
        events.mark_undone(40, {"v1": {"hits": 39}}, CLOCK)
        statements: list[str] = []

        def seen(conn, cursor, statement, parameters, context, executemany):  # type: ignore[no-untyped-def]
            statements.append(statement)

        event.listen(database.engine, "before_cursor_execute", seen)
        try:
            loaded = sessions.load(session_id)
            assert loaded.sheets == {"v1": {"hits": 39}}
            assert not any("session_events.body" in s for s in statements)
            statements.clear()
            page = events.page(30, 5)
            assert [e.seq for e in page] == [31, 32, 33, 34, 35]
            assert any("LIMIT" in s.upper() for s in statements)
        finally:
            event.remove(database.engine, "before_cursor_execute", seen)
        assert events.count() == 39 and events.count(include_undone=True) == 40
        assert [e.undone for e in events.page(38, 10)] == [False, True]
