"""The Library list updates the rows a change names — inserted, changed, removed by id —
and never resets for it; Qt's model tester watches every signal."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import Qt
from PySide6.QtTest import QAbstractItemModelTester

from carwars_desktop.gui.workshop import LibraryWorkspace, WorkshopWorkspace
from carwars_desktop.gui.workshop.library_model import CHANGED, COST, NAME, LibraryModel
from carwars_desktop.storage import DesignEntry

WHEN = datetime(2026, 1, 1, tzinfo=UTC)


def _entry(design_id: int, name: str, cost: int = 10, tags: tuple[str, ...] = (),
           ruleset: str = "mini_car_wars") -> DesignEntry:
    return DesignEntry(design_id, ruleset, "vehicle", name, tags, True, 0, cost, 1, None,
                       WHEN.replace(minute=design_id % 60), None, False)


class Signals:
    """What a model emitted."""

    def __init__(self, model: LibraryModel) -> None:
        self.log: list[tuple[str, int, int]] = []
        model.rowsInserted.connect(lambda _p, a, b: self.log.append(("insert", a, b)))
        model.rowsRemoved.connect(lambda _p, a, b: self.log.append(("remove", a, b)))
        model.dataChanged.connect(lambda a, b, _r: self.log.append(("data", a.row(), b.row())))
        model.modelReset.connect(lambda: self.log.append(("reset", 0, 0)))


def _ids(model: LibraryModel) -> list[int]:
    return [model.entry(row).id for row in range(model.rowCount())]


def _fresh(entries: list[DesignEntry], scope: tuple[str | None, str],
           query: str, column: int, order: Qt.SortOrder) -> list[int]:
    model = LibraryModel()
    model.set_entries(entries)
    model.set_scope(*scope)
    model.set_query(query)
    model.sort(column, order)
    return _ids(model)


def test_rows_by_id_without_a_reset(qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    model = LibraryModel()
    entries = [_entry(1, "Alpha"), _entry(2, "Bravo"), _entry(3, "Charlie"), _entry(4, "Delta")]
    model.set_entries(entries)
    qtmodeltester.check(model)
    signals = Signals(model)
    model.update_entries([_entry(5, "Bishop")], [])
    assert _ids(model) == [1, 5, 2, 3, 4] and signals.log == [("insert", 1, 1)]
    signals.log.clear()
    model.update_entries([_entry(2, "Bravo", tags=("duel",))], [])  # stays where it is
    assert _ids(model) == [1, 5, 2, 3, 4] and signals.log == [("data", 2, 2)]
    signals.log.clear()
    model.update_entries([_entry(1, "Echo")], [3])  # renamed: it moves; 3 goes
    assert _ids(model) == [5, 2, 4, 1]
    assert signals.log == [("remove", 3, 3), ("remove", 0, 0), ("insert", 3, 3)]
    signals.log.clear()
    model.update_entries([_entry(2, "Bravo", tags=("duel",))], [99])  # nothing new
    assert signals.log == []
    model.update_entries([], [5, 2, 4, 1])
    assert model.rowCount() == 0 and signals.log == [("remove", 0, 3)]


def test_filters_and_sort_decide_where_a_row_goes(qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    model = LibraryModel()
    model.set_entries([_entry(1, "Courier", 30), _entry(2, "Kart", 10),
                       _entry(3, "Car", 20, ruleset="battlecars")])
    model.set_scope("mini_car_wars", "all")
    model.set_query("c")
    model.sort(COST, Qt.SortOrder.DescendingOrder)
    qtmodeltester.check(model)
    assert _ids(model) == [1]
    model.update_entries([_entry(2, "Cart", 10), _entry(4, "Cab", 40)], [])
    assert _ids(model) == [4, 1, 2]
    model.update_entries([_entry(4, "Bus", 40)], [])  # no longer matches "c"
    assert _ids(model) == [1, 2]
    assert model.total() == 3  # in scope, whatever the search


entry_ids = st.integers(1, 12)
names = st.sampled_from(["Alpha", "alpha", "Bravo", "Charlie", "Courier", "Kart"])
changes = st.lists(st.tuples(entry_ids, names, st.integers(0, 3), st.booleans()),
                   max_size=6)


@settings(max_examples=80, deadline=None)
@given(start=changes, steps=st.lists(st.tuples(changes, st.lists(entry_ids, max_size=3)),
                                     max_size=4),
       column=st.sampled_from([NAME, COST, CHANGED]),
       descending=st.booleans(), query=st.sampled_from(["", "a", "ch"]))
def test_updates_end_where_a_fresh_list_would(qapp, start, steps, column, descending,  # type: ignore[no-untyped-def]
                                              query) -> None:
    order = Qt.SortOrder.DescendingOrder if descending else Qt.SortOrder.AscendingOrder

    def entry(item: tuple[int, str, int, bool]) -> DesignEntry:
        design_id, name, cost, battlecars = item
        return _entry(design_id, name, cost, ruleset="battlecars" if battlecars
                      else "mini_car_wars")

    current = {e.id: e for e in map(entry, start)}
    model = LibraryModel()
    model.set_entries(list(current.values()))
    scope = ("mini_car_wars", "all")
    model.set_scope(*scope)
    model.set_query(query)
    model.sort(column, order)
    resets: list[int] = []
    model.modelReset.connect(lambda: resets.append(1))
    # Qt's own model tester checks every signal (a failure is a Qt warning: the test fails).
    tester = QAbstractItemModelTester(model,
                                      QAbstractItemModelTester.FailureReportingMode.Warning)
    for upserts, removed in steps:
        new = [entry(item) for item in upserts]
        new_by_id = {e.id: e for e in new}
        gone = [i for i in removed if i not in new_by_id]
        model.update_entries(list(new_by_id.values()), gone)
        current.update(new_by_id)
        for design_id in gone:
            current.pop(design_id, None)
        assert sorted(e.id for e in model.entries()) == sorted(current)
        # The sort is a total order (column, then id): exactly the rows of a fresh list.
        assert _ids(model) == _fresh(list(current.values()), scope, query, column, order)
    assert resets == [] and tester.model() is model


def test_the_library_follows_the_workshop_row_by_row(library: LibraryWorkspace,
                                                    workshop: WorkshopWorkspace,
                                                    qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    library.ruleset_box.setCurrentIndex(library.ruleset_box.findData("mini_car_wars"))
    qtmodeltester.check(library.model)
    signals = Signals(library.model)
    shown = library.model.rowCount()
    assert workshop.new_design("mini_car_wars")
    design_id = workshop.record.id  # type: ignore[union-attr]
    assert library.model.rowCount() == shown + 1
    assert [kind for kind, *_ in signals.log] == ["insert"]
    assert library.count_label.text() == f"{shown + 1} designs"
    row = library.model.row_of(design_id)
    assert row is not None
    signals.log.clear()
    workshop.name_edit.setText("Zed")
    workshop._name_edited("Zed")  # as typing does
    assert "unsaved" in library.model.data(library.model.index(
        library.model.row_of(design_id) or 0, 5))
    assert "reset" not in [kind for kind, *_ in signals.log]
    library.select_ids([design_id])
    assert workshop.save()
    assert library.selected_ids() == [design_id]  # the row moved, the selection followed
    entry = library.model.entry(library.model.row_of(design_id) or 0)
    assert (entry.name, entry.unsaved) == ("Zed", False)
    signals.log.clear()
    assert library.delete_selected(confirmed=True)
    assert library.model.row_of(design_id) is None
    assert [kind for kind, *_ in signals.log] == ["remove"]
    assert library.restore_last_deleted()
    assert library.model.row_of(design_id) is not None
    assert "reset" not in [kind for kind, *_ in signals.log]


def test_the_count_follows_a_delete_and_a_restore(library: LibraryWorkspace,
                                                 qtbot) -> None:  # type: ignore[no-untyped-def]
    """A delete left "2 designs" over the one row still there (the count was read while
    the rows were being removed, before the new total), a restore "1 deleted design" over
    none."""
    catalog = [e for e in library.library.entries() if e.name in ("Courier", "Killer Kart")]
    first, _second = (library.library.duplicate(entry.id) for entry in catalog)
    library.refresh()
    library.source_box.setCurrentIndex(library.source_box.findText("My designs"))
    qtbot.waitUntil(lambda: library.model.rowCount() == 2)
    assert library.count_label.text() == "2 designs"
    library.select_ids([first.id])
    assert library.delete_selected(confirmed=True)
    assert library.model.rowCount() == 1 and library.count_label.text() == "1 design"
    library.source_box.setCurrentIndex(library.source_box.findText("Deleted"))
    qtbot.waitUntil(lambda: library.model.rowCount() == 1)
    assert library.count_label.text() == "1 deleted design"
    library.select_ids([first.id])
    assert library.restore_selected()
    assert library.model.rowCount() == 0 and library.count_label.text() == "0 deleted designs"
