"""Revisions (look at one, go back to it), the start page, and moving between problems."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from carwars_desktop.gui.plugins.autopower.car_editor import CarEditor
from carwars_desktop.gui.workshop import WorkshopWorkspace
from carwars_desktop.gui.workshop.revisions_dialog import RevisionsDialog
from carwars_desktop.rules.autopower import Car


def _car_with_three_revisions(workshop: WorkshopWorkspace) -> CarEditor:
    assert workshop.new_design("autopower", "vehicle")
    editor = workshop.editor
    assert isinstance(editor, CarEditor)
    editor.stats["energy"].setValue(5)
    assert workshop.save()
    editor.stats["energy"].setValue(30)
    assert workshop.save()
    return editor


def test_look_at_a_revision_and_go_back(workshop: WorkshopWorkspace, qtbot) -> None:  # type: ignore[no-untyped-def]
    editor = _car_with_three_revisions(workshop)
    workshop.show_revisions()
    dialog = workshop.revisions_dialog
    assert isinstance(dialog, RevisionsDialog)
    qtbot.addWidget(dialog)
    assert dialog.list.count() == 3
    assert "Revision 3" in dialog.list.item(0).text()
    assert not dialog.back_button.isEnabled()  # the newest is the design itself
    assert "⚠ draft" in dialog.detail.text()
    dialog.list.setCurrentRow(1)
    assert dialog.preview.pages == 1
    assert "✔ legal" in dialog.detail.text()
    dialog.back_button.click()
    car = workshop.design
    assert isinstance(car, Car) and car.energy == 5
    assert workshop.record is not None and workshop.record.revision == 4
    assert workshop.record.legal
    assert "Went back to revision 2; saved as revision 4" in workshop.message.text()
    assert editor.stats["energy"].value() == 5
    workshop.undo()  # going back is an edit like any other
    assert workshop.design.energy == 30  # type: ignore[union-attr]
    assert workshop.state_label.text().startswith("⚠ draft")


def test_the_start_page_offers_new_designs_and_recent_ones(workshop: WorkshopWorkspace,
                                                           qtbot: Any) -> None:
    workshop.set_ruleset("autopower")
    buttons = [workshop.start_page.buttons.itemAt(i).widget()
               for i in range(workshop.start_page.buttons.count() - 1)]
    assert [b.text() for b in buttons] == ["New AUTOpower car (Ctrl+N)",
                                           "New AUTOpower deck"]
    buttons[1].click()
    assert workshop.record is not None and workshop.record.kind == "deck"
    record_id = workshop.record.id
    # Issue 20: a new design closed untouched is removed, so touch it (rename) first.
    workshop.name_edit.setText("New deck for Friday")
    workshop.name_edit.textEdited.emit("New deck for Friday")
    workshop.close_design()
    assert workshop.editor_stack.currentWidget() is workshop.start_page
    recent = workshop.start_page.recent
    qtbot.waitUntil(lambda: recent.count() == 1)  # read on a worker
    assert recent.item(0).text().startswith("New deck")
    recent.itemActivated.emit(recent.item(0))
    assert workshop.record is not None and workshop.record.id == record_id


def test_f8_goes_from_problem_to_problem(workshop: WorkshopWorkspace, qtbot) -> None:  # type: ignore[no-untyped-def]
    assert workshop.new_design("autopower", "vehicle")
    editor = workshop.editor
    assert isinstance(editor, CarEditor)
    editor.stats["fighting"].setValue(-2)
    editor.stats["strength"].setValue(-1)
    workshop.name_edit.setFocus()
    qtbot.keyClick(workshop.name_edit, Qt.Key.Key_F8)
    assert QApplication.focusWidget() is editor.stats["fighting"]
    qtbot.keyClick(editor.stats["fighting"], Qt.Key.Key_F8)
    assert QApplication.focusWidget() is editor.stats["strength"]
