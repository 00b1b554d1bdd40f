"""The Table's Qt models, checked by qtmodeltester, and the log's lazy paging."""

from __future__ import annotations

from carwars_desktop.gui.table.event_log import PAGE, EventLogModel
from carwars_desktop.gui.table.session_list import SessionListModel
from carwars_desktop.session import Event, EventKind, MemoryEventStore, SheetUpdate, VehicleInPlay
from carwars_desktop.storage import Database, NewVehicle


def _store(events: int) -> MemoryEventStore:
    store = MemoryEventStore()
    for n in range(events):
        store.append(Event(EventKind.MARK, f"hit {n}", ("a step",),
                           (SheetUpdate("v1", {"hits": n}, {"hits": n + 1}),), turn=1 + n // 10,
                           phase="phase 1"), {"v1": {"hits": n + 1}}, {})
    return store


def test_event_log_model(qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    store = _store(250)
    store.mark_undone(250, {}, {})
    model = EventLogModel(store)
    qtmodeltester.check(model)
    assert model.rowCount() == 250
    assert model.data(model.index(0, 2)) == "hit 0"
    assert model.data(model.index(249, 2)) == "↶ undone: hit 249"
    assert model.data(model.index(249, 0)) == "250"
    assert model.data(model.index(20, 1)) == "3"


def test_event_log_reads_only_the_pages_shown() -> None:
    model = EventLogModel(_store(5000))
    assert model.rowCount() == 5000 and model.reads == 0
    assert model.event_at(4999) is not None
    assert model.event_at(4998) is not None
    assert model.reads == 1
    model.event_at(0)
    assert model.reads == 2
    assert model.event_at(PAGE) is not None and model.reads == 3


def test_session_list_model(qtmodeltester, database: Database) -> None:  # type: ignore[no-untyped-def]
    sessions = database.game_sessions
    for name in ("Road Duel night", "Pack Attack"):
        sessions.create("mini_car_wars", name, "", [NewVehicle(
            VehicleInPlay("v1", "Courier", "Ann", {}), {"hits": 0})],
            {"turn": 1, "phase": 0, "phases": ["phase 1"], "word": "turn"})
    sessions.finish(1)
    model = SessionListModel(sessions.all())
    qtmodeltester.check(model)
    assert model.rowCount() == 2
    states = {model.data(model.index(row, 0)): model.data(model.index(row, 3))
              for row in range(2)}
    assert states == {"Road Duel night": "■ finished", "Pack Attack": "▶ running"}
