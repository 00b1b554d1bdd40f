"""The Table's Qt models, checked by qtmodeltester, and the log's lazy paging."""

from __future__ import annotations

from PySide6.QtCore import Qt

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


def test_the_log_keeps_an_undone_event_a_new_one_followed() -> None:
    """#28 §1: undo #9, apply a new event: #9 stays listed, undone and not redoable (the
    log says so), and the new event is #10 — as the store keeps them."""
    from carwars_desktop.session import Changes

    store = _store(9)
    model = EventLogModel(store)
    model.event_at(8)  # the page is read (cached), as when the log is on screen
    store.mark_undone(9, {}, {})
    undone = store.events[8]
    model.note(Changes(event=undone, undone=True))
    assert model.data(model.index(8, 2)) == "↶ undone: hit 8"
    new = store.append(Event(EventKind.MARK, "hit again", ()), {}, {})
    model.note(Changes(event=new))
    assert model.rowCount() == 10 and new.seq == 10
    assert model.data(model.index(8, 2)) == (
        "↶ undone, not redoable (a new event followed): hit 8")
    assert model.data(model.index(9, 2)) == "hit again"
    fresh = EventLogModel(store)  # read back from the store: the same lines
    assert [fresh.data(fresh.index(row, 2)) for row in (8, 9)] == [
        model.data(model.index(row, 2)) for row in (8, 9)]
    assert "not redoable" in str(model.data(model.index(8, 2),
                                            Qt.ItemDataRole.ToolTipRole))


def test_hovering_a_long_log_builds_each_explanation_once(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """#32 §3: a row's hover explanation is built the first time it is hovered and kept;
    hovering it again (or scrolling away and back) builds nothing. An undo changes what the
    row says: that event's explanation is built once more, in its new words."""
    from carwars_desktop.gui.table import event_log

    built: list[int] = []
    real = event_log.tooltip_text
    monkeypatch.setattr(event_log, "tooltip_text",
                        lambda stored: built.append(stored.seq) or real(stored))
    store = _store(10_000)
    model = EventLogModel(store)
    hovered = [0, 1, 99, 5_000, 9_998, 9_999]
    tip = Qt.ItemDataRole.ToolTipRole
    first = [model.data(model.index(row, column), tip) for row in hovered for column in (0, 2)]
    for _ in range(5):
        for row in hovered:
            for column in range(3):
                assert model.data(model.index(row, column), tip) in first
    for row in range(0, 10_000, PAGE):  # scrolled through: the kept pages are dropped
        model.event_at(row)
    assert [model.data(model.index(row, 2), tip) for row in hovered] == first[1::2]
    assert sorted(built) == [row + 1 for row in hovered]
    assert model.tooltip_builds == len(hovered)
    assert first[-1] == "turn 1000, phase 1: mark\nhit 9999\na step"

    from carwars_desktop.session import Changes

    store.mark_undone(10_000, {}, {})
    model.note(Changes(event=store.events[-1], undone=True))
    assert model.data(model.index(9_999, 2), tip).startswith("turn 1000, phase 1: mark (undone)")
    assert model.data(model.index(9_999, 1), tip).startswith("turn 1000, phase 1: mark (undone)")
    assert model.tooltip_builds == len(hovered) + 1 and built[-1] == 10_000
