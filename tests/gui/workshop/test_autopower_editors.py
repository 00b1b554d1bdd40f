"""The AUTOpower car and deck editors: stats with the division, a deck list with its counts."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from carwars_desktop.gui.plugins.autopower.car_editor import CarEditor
from carwars_desktop.gui.plugins.autopower.deck_editor import DeckEditor
from carwars_desktop.gui.workshop import WorkshopWorkspace
from carwars_desktop.rules.autopower import Car, Deck, Icon


def _codes(workshop: WorkshopWorkspace) -> list[str]:
    model = workshop.problems.model
    return [model.problem(row).code for row in range(model.rowCount())]


def test_car_stats_show_class_and_division(workshop: WorkshopWorkspace, qtbot) -> None:  # type: ignore[no-untyped-def]
    assert workshop.new_design("autopower", "vehicle")
    editor = workshop.editor
    assert isinstance(editor, CarEditor)
    editor.stats["energy"].setValue(6)
    editor.stats["fighting"].setValue(4)
    editor.stats["strength"].setValue(4)
    editor.stats["intelligence"].setValue(3)
    assert editor.total.text() == "Total 17  →  Division 20"
    assert "Division 15: ✘" in editor.divisions.text()
    assert "Division 20: ✔ may enter" in editor.divisions.text()
    assert "Speed 6 (declared)" in editor.start.text()
    assert workshop.state_label.text() == "✔ legal"
    editor.stats["strength"].setValue(14)
    assert _codes(workshop) == ["division-none"]
    assert editor.total.text() == "Total 27  →  no division"
    editor.no_intelligence.setChecked(True)
    car = workshop.design
    assert isinstance(car, Car) and car.intelligence is None and car.total == 24
    assert not editor.stats["intelligence"].isEnabled()
    assert workshop.state_label.text() == "✔ legal"
    workshop.problems.set_problems(car.problems(15), ())
    workshop.problems.view.clicked.emit(workshop.problems.model.index(0, 0))
    assert QApplication.focusWidget() is editor.stats["energy"]


def test_car_save_reopen_undo(workshop: WorkshopWorkspace, qtbot) -> None:  # type: ignore[no-untyped-def]
    assert workshop.new_design("autopower", "vehicle")
    editor = workshop.editor
    assert isinstance(editor, CarEditor)
    record_id = workshop.record.id  # type: ignore[union-attr]
    editor.stats["energy"].setValue(-1)
    assert _codes(workshop) == ["stat-negative"]
    editor.notes.setPlainText("From the 1996 set")
    assert workshop.save()
    workshop.close_design()
    assert workshop.open_design(record_id)
    car = workshop.design
    assert isinstance(car, Car) and (car.energy, car.notes) == (-1, "From the 1996 set")
    assert editor.notes.toPlainText() == "From the 1996 set"
    editor.stats["energy"].setValue(5)
    assert workshop.state_label.text() == "✔ legal"
    workshop.undo()
    assert workshop.design.energy == -1 and editor.stats["energy"].value() == -1  # type: ignore[union-attr]


def _deck_editor(workshop: WorkshopWorkspace) -> DeckEditor:
    assert workshop.new_design("autopower", "deck")
    editor = workshop.editor
    assert isinstance(editor, DeckEditor)
    return editor


def _edit(editor: DeckEditor, row: int, column: int, text: str) -> bool:
    model = editor.lines_model
    return model.setData(model.index(row, column), text, Qt.ItemDataRole.EditRole)


def test_deck_list_counts_and_validation(workshop: WorkshopWorkspace) -> None:
    editor = _deck_editor(workshop)
    assert _codes(workshop) == ["deck-size"]
    editor.add_line()
    assert _edit(editor, 0, 1, "Power Surge")
    assert _edit(editor, 0, 2, "5")
    assert _edit(editor, 0, 0, "40")
    editor.add_line()
    assert _edit(editor, 1, 1, "Training")
    assert _edit(editor, 1, 3, "3")
    assert _edit(editor, 1, 0, "20")
    deck = workshop.design
    assert isinstance(deck, Deck) and len(deck.cards) == 60
    assert deck.counts()[Icon.ENERGY] == {1: 20, 5: 40}
    assert _codes(workshop) == []
    assert workshop.state_label.text() == "✔ legal"
    counts = editor.counts_model
    assert counts.data(counts.index(0, 4)) == "40"  # Energy, value 5
    assert counts.data(counts.index(1, 2)) == "20"  # Fighting, value 3
    assert counts.data(counts.index(0, counts.columnCount() - 1)) == "60"
    assert "<b>60 cards</b>" in editor.totals.text()
    assert "20 multi-icon cards (33%)" in editor.totals.text()
    assert workshop.problems.model.counts() == (0, 0)
    assert _edit(editor, 1, 0, "30")
    assert workshop.problems.model.counts() == (0, 1)  # more than a third multi-icon: a warning
    assert workshop.state_label.text() == "✔ legal"


def test_bad_deck_entries_are_refused_with_a_reason(workshop: WorkshopWorkspace) -> None:
    editor = _deck_editor(workshop)
    editor.add_line()
    before = workshop.design
    assert not _edit(editor, 0, 0, "many")
    assert "A count is a whole number" in editor.error.text()
    assert not _edit(editor, 0, 4, "x")
    assert "is not a number" in editor.error.text()
    assert workshop.design == before
    assert _edit(editor, 0, 2, "")
    assert _codes(workshop) == ["deck-size", "card-no-icon"]
    workshop.focus_field("cards[0]")
    assert editor.table.currentIndex().row() == 0


def test_deck_lines_remove_and_undo(workshop: WorkshopWorkspace, qtbot) -> None:  # type: ignore[no-untyped-def]
    editor = _deck_editor(workshop)
    record_id = workshop.record.id  # type: ignore[union-attr]
    editor.add_line()
    editor.duplicate_line()
    assert editor.lines_model.rowCount() == 2
    editor.table.setFocus()
    editor._select(1, 0)
    qtbot.keyClick(editor.table, Qt.Key.Key_Delete)
    assert editor.lines_model.rowCount() == 1
    assert workshop.save()
    workshop.close_design()
    assert workshop.open_design(record_id)
    assert editor.lines_model.rowCount() == 1
    editor.add_line()
    workshop.undo()
    assert editor.lines_model.rowCount() == 1
    workshop.redo()
    assert editor.lines_model.rowCount() == 2
