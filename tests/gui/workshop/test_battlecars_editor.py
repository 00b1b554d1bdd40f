"""The Battlecars card editor: armour blocks, components, hit locations, loading pods."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from carwars_desktop.gui.plugins.battlecars.editor import CardEditor
from carwars_desktop.gui.plugins.battlecars.models import BOXES, FACING, KIND, NAME
from carwars_desktop.gui.workshop import WorkshopWorkspace
from carwars_desktop.rules.battlecars import Card
from carwars_desktop.rules.battlecars.terms import Block, Facing, Kind, Section, Weapon


def _codes(workshop: WorkshopWorkspace) -> list[str]:
    model = workshop.problems.model
    return [model.problem(row).code for row in range(model.rowCount())]


def _card(workshop: WorkshopWorkspace) -> Card:
    card = workshop.design
    assert isinstance(card, Card)
    return card


def _new_card(workshop: WorkshopWorkspace) -> CardEditor:
    assert workshop.new_design("battlecars")
    editor = workshop.editor
    assert isinstance(editor, CardEditor)
    return editor


def _set(editor: CardEditor, section: Section, row: int, column: int, value: object) -> bool:
    model = editor.models[section]
    return model.setData(model.index(row, column), value, Qt.ItemDataRole.EditRole)


def test_building_a_card_from_nothing(workshop: WorkshopWorkspace) -> None:
    editor = _new_card(workshop)
    assert _codes(workshop) == ["section-empty", "section-empty"]
    editor.speed.setValue(7)
    editor.blocks[Block.FRONT].spin.setValue(6)
    assert editor.blocks[Block.FRONT].strip.count == 6
    assert _card(workshop).armour_boxes(Block.FRONT) == 6
    editor.add_component(Section.FRONT)
    assert _codes(workshop) == ["section-empty", "hit-location-missing"]
    assert _set(editor, Section.FRONT, 0, NAME, "Tyre F")
    face = editor.sections[Section.FRONT].faces[0]
    face.setCurrentIndex(face.findData("Tyre F"))
    face.activated.emit(face.currentIndex())
    assert _card(workshop).hit_location(Section.FRONT).entries == ("Tyre F",) * 8
    editor.add_component(Section.REAR, Kind.POD)
    assert _set(editor, Section.REAR, 0, NAME, "Rear Pod")
    assert _set(editor, Section.REAR, 0, FACING, "rear")
    assert _set(editor, Section.REAR, 0, BOXES, 8)
    face = editor.sections[Section.REAR].faces[3]
    face.setCurrentIndex(face.findData("Rear Pod"))
    face.activated.emit(face.currentIndex())
    assert _codes(workshop) == []
    assert workshop.state_label.text() == "✔ legal"
    assert editor.models[Section.FRONT].data(editor.models[Section.FRONT].index(0, 4)) == \
        "1, 2, 3, 4, 5, 6, 7, 8"


def test_loading_pods_fills_their_boxes(workshop: WorkshopWorkspace) -> None:
    editor = _new_card(workshop)
    editor.add_component(Section.FRONT, Kind.POD)
    pod = _card(workshop).components[-1]
    assert (pod.kind, pod.facing) == (Kind.POD, Facing.FRONT)
    assert editor.load.select(pod.name)
    editor.load.weapon_buttons[Weapon.ROCKET].click()
    row = editor.load._rows[pod.name]
    assert row.strip.count == 2 and [c.size for c in row.strip.counters] == [4]
    assert "4/2 boxes, ⚠ over by 2" in row.load.text()
    assert "loading-overfull" in _codes(workshop)
    assert _set(editor, Section.FRONT, 0, BOXES, 8)
    editor.load.weapon_buttons[Weapon.ROCKET].click()
    assert "2 Rocket — 8/8 boxes, full" in editor.load._rows[pod.name].load.text()
    assert "loading-overfull" not in _codes(workshop)
    editor.load.weapon_buttons[Weapon.OIL].click()
    assert {"loading-overfull", "pod-facing-forbidden", "pod-mixed"} <= set(_codes(workshop))
    editor.load.unload_button.click()
    assert _card(workshop).load_of(pod.name) == (Weapon.ROCKET, Weapon.ROCKET)
    editor.load.empty_button.click()
    assert _card(workshop).load_of(pod.name) == ()


def test_renaming_a_component_keeps_its_faces_and_load(workshop: WorkshopWorkspace) -> None:
    editor = _new_card(workshop)
    editor.add_component(Section.CENTRE, Kind.TURRET)
    turret = _card(workshop).components[-1].name
    editor.load.select(turret)
    editor.load.weapon_buttons[Weapon.MG].click()
    row = editor.models[Section.CENTRE].row_of(len(_card(workshop).components) - 1)
    assert row is not None
    assert _set(editor, Section.CENTRE, row, NAME, "Top Gun")
    card = _card(workshop)
    assert card.load_of("Top Gun") == (Weapon.MG,)
    assert _set(editor, Section.CENTRE, row, KIND, "tyre")
    assert _card(workshop).load_of("Top Gun") == ()
    assert not _set(editor, Section.CENTRE, row, BOXES, "lots")


def test_problems_lead_to_their_fields(workshop: WorkshopWorkspace) -> None:
    editor = _new_card(workshop)
    editor.blocks[Block.LEFT_REAR].spin.setValue(0)
    assert "armour-boxes" in _codes(workshop)
    workshop.focus_field("armour.left-rear")
    assert QApplication.focusWidget() is editor.blocks[Block.LEFT_REAR].spin
    workshop.focus_field("hit_locations.centre[5]")
    assert QApplication.focusWidget() is editor.sections[Section.CENTRE].faces[4]
    workshop.focus_field("components[0].boxes")
    assert QApplication.focusWidget() is editor.sections[Section.CENTRE].table
    assert editor.sections[Section.CENTRE].table.currentIndex().column() == BOXES
    workshop.focus_field("speed_track_max")
    assert QApplication.focusWidget() is editor.speed


def test_save_reopen_undo_and_the_example_card(workshop: WorkshopWorkspace) -> None:
    editor = _new_card(workshop)
    record_id = workshop.record.id  # type: ignore[union-attr]
    editor.blocks[Block.REAR].spin.setValue(5)
    editor.add_component(Section.FRONT)
    assert workshop.save()
    workshop.close_design()
    assert workshop.open_design(record_id)
    assert _card(workshop).armour_boxes(Block.REAR) == 5
    assert editor.models[Section.FRONT].rowCount() == 1
    editor.sections[Section.FRONT].table.setCurrentIndex(editor.models[Section.FRONT].index(0, 0))
    editor.remove_component(Section.FRONT)
    assert editor.models[Section.FRONT].rowCount() == 0
    workshop.undo()
    assert editor.models[Section.FRONT].rowCount() == 1
    workshop.undo()
    workshop.undo()
    assert _card(workshop).armour_boxes(Block.REAR) == 5  # the reopened state is the floor
    library = workshop.library
    example = next(e for e in library.entries("battlecars") if e.is_catalog)
    assert workshop.open_design(example.id)
    assert editor.load._rows["Pod A"].strip.count == 8
    assert workshop.state_label.text() == "✔ legal"
