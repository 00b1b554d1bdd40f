"""Fixes of issue 20: the probability table's alignment, a catalog copy's name, New then
Close, a Battlecars problem listed once, the Mini Car Wars options described in their list."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt

from carwars_desktop.gui.plugins.battlecars.editor import CardEditor
from carwars_desktop.gui.plugins.mini_car_wars.editor import MiniEditor
from carwars_desktop.gui.workshop import LibraryWorkspace, WorkshopWorkspace
from carwars_desktop.gui.workshop.printing.page import column_aligns
from carwars_desktop.rules import find_ruleset
from carwars_desktop.rules.battlecars import example_card
from carwars_desktop.rules.battlecars.card import Loading
from carwars_desktop.rules.battlecars.terms import Kind, Section, Weapon

RIGHT, LEFT = Qt.AlignmentFlag.AlignRight, Qt.AlignmentFlag.AlignLeft


def test_the_probability_table_lines_up_under_its_headers() -> None:
    tables = {t.id: t for t in find_ruleset("battlecars").tables}
    to_hit = tables["battlecars.to_hit"]
    assert "—" in to_hit.rows[-1]  # Flame has no probability past range 3
    assert column_aligns(to_hit) == [LEFT] + [RIGHT] * (len(to_hit.columns) - 1)
    assert column_aligns(tables["battlecars.ram_types"]) == [LEFT] * 4


def _mine(library: LibraryWorkspace) -> list[str]:
    return [e.name for e in library.library.entries() if not e.is_catalog]


def test_a_catalog_copy_is_named_apart_from_it(library: LibraryWorkspace) -> None:
    entries = library.library.entries("mini_car_wars")
    courier = next(e for e in entries if e.name == "Courier")
    library.search.clear()
    library.select_ids([courier.id])
    assert library.duplicate_selected()
    names = [e.name for e in library.library.entries("mini_car_wars")]
    assert "Courier (copy)" in names
    assert len(names) == len(set(names))


def test_new_then_close_leaves_nothing(library: LibraryWorkspace,
                                       workshop: WorkshopWorkspace) -> None:
    before = _mine(library)
    assert workshop.new_design("battlecars")
    assert "New card" in _mine(library)
    workshop.close_design()
    assert _mine(library) == before
    # New, then another design opened: the untouched one goes too.
    assert workshop.new_design("battlecars")
    other = next(e for e in library.library.entries("battlecars") if e.is_catalog)
    assert workshop.open_design(other.id)
    assert _mine(library) == before
    # Named or edited, it stays.
    assert workshop.new_design("mini_car_wars")
    workshop.name_edit.setText("Kept")
    workshop.name_edit.textEdited.emit("Kept")
    workshop.close_design()
    assert workshop.new_design("battlecars")
    editor = workshop.editor
    assert isinstance(editor, CardEditor)
    editor.add_component(Section.FRONT, Kind.POD)
    workshop.close_design()
    mine = _mine(library)
    assert "New card" in mine and len(mine) == len(before) + 2
    renamed = next(e for e in library.library.entries("mini_car_wars") if not e.is_catalog)
    assert library.library.get(renamed.id).current["name"] == "Kept"  # its unsaved name


def test_a_battlecars_problem_is_listed_once(workshop: WorkshopWorkspace) -> None:
    card = example_card()
    two_passives = replace(card, loadout=(Loading("Pod A", (Weapon.OIL, Weapon.SPIKES)),))
    assert [p.code for p in two_passives.problems()] == ["pod-facing-forbidden"]
    twins = replace(card, components=card.components + (card.components[0],))
    messages = [p.message for p in twins.problems()]
    assert len(messages) == len(set(messages))
    assert any("two components are called" in m for m in messages)

    assert workshop.new_design("battlecars")
    editor = workshop.editor
    assert isinstance(editor, CardEditor)
    editor.add_component(Section.FRONT, Kind.POD)
    pod = workshop.design.components[-1]  # type: ignore[union-attr]
    assert editor.load.select(pod.name)
    editor.load.weapon_buttons[Weapon.OIL].click()
    editor.load.weapon_buttons[Weapon.SPIKES].click()
    model = workshop.problems.model
    listed = [(model.problem(r).code, model.problem(r).message) for r in range(model.rowCount())]
    assert len(listed) == len(set(listed))
    assert [code for code, _ in listed].count("pod-facing-forbidden") == 1


def test_the_option_list_describes_each_option(workshop: WorkshopWorkspace) -> None:
    assert workshop.new_design("mini_car_wars")
    editor = workshop.editor
    assert isinstance(editor, MiniEditor)
    box = editor.stock_box
    box.setCurrentIndex(box.findData("courier"))
    box.activated.emit(box.currentIndex())
    options = editor.option_box
    texts = [options.itemText(i) for i in range(options.count())]
    assert texts[0] == "No option"
    assert texts[1] == "(a) −$950 — Replace rear MG with one HR and a smokescreen"
    assert texts[2].startswith("(b) +$10,200 — Remove the RL")  # an extra cost is signed
    assert options.itemData(1, Qt.ItemDataRole.ToolTipRole).startswith("Replace rear MG")
    assert options.view().minimumWidth() > options.fontMetrics().horizontalAdvance(texts[1])
