"""The Library list: catalog on first start, filter, search as you type, sort, and the
duplicate / rename / tag / delete / restore actions, each committed before it is shown."""

from __future__ import annotations

from PySide6.QtCore import Qt

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.workshop import LibraryWorkspace, WorkshopWorkspace
from carwars_desktop.gui.workshop.library_model import CHANGED, CLASS, COST, NAME, STATUS
from carwars_desktop.library import catalog_entries
from carwars_desktop.rules.mini_car_wars import MiniDesign
from carwars_desktop.storage import NewDesign


def _names(library: LibraryWorkspace) -> list[str]:
    model = library.model
    return [model.entry(row).name for row in range(model.rowCount())]


def _show(library: LibraryWorkspace, ruleset: str | None, source: str = "all") -> None:
    library.ruleset_box.setCurrentIndex(library.ruleset_box.findData(ruleset))
    library.source_box.setCurrentIndex(library.source_box.findData(source))


def _select(library: LibraryWorkspace, name: str) -> int:
    row = _names(library).index(name)
    design_id = library.model.entry(row).id
    library.select_ids([design_id])
    return design_id


def test_the_catalog_is_there_on_first_start(window: MainWindow, library: LibraryWorkspace) -> None:
    assert window.current_workspace() is library
    _show(library, None)
    assert library.model.rowCount() == len(catalog_entries())
    assert library.count_label.text() == f"{len(catalog_entries())} designs"
    _show(library, "autopower")
    assert "Longshot" in _names(library) and len(_names(library)) == 9
    _show(library, "battlecars", "catalog")
    assert _names(library) == ["TEST-1 (example card, not official)"]
    _show(library, "battlecars", "mine")
    assert _names(library) == []


def test_search_as_you_type_over_names_and_tags(library: LibraryWorkspace, qtbot) -> None:  # type: ignore[no-untyped-def]
    _show(library, None)
    _select(library, "Courier (a)")
    assert library.tag_selected("Road Duel, smoke")
    library.search.setFocus()
    qtbot.keyClicks(library.search, "cou")
    assert _names(library) == ["Courier", "Courier (a)", "Courier (b)"]
    assert library.count_label.text() == f"3 of {len(catalog_entries())} designs"
    qtbot.keyClicks(library.search, "rier smo")
    assert _names(library) == ["Courier (a)"]
    library.search.clear()
    qtbot.keyClicks(library.search, "DUEL")
    assert _names(library) == ["Courier (a)"]
    library.search.clear()
    qtbot.keyClicks(library.search, "zzz")
    assert _names(library) == []


def test_sort_by_name_cost_class_and_last_change(library: LibraryWorkspace) -> None:
    _show(library, "mini_car_wars")
    library.view.sortByColumn(COST, Qt.SortOrder.AscendingOrder)
    assert _names(library)[:3] == ["Shogun 100", "Killer Kart", "Shogun 220"]
    library.view.sortByColumn(COST, Qt.SortOrder.DescendingOrder)
    assert _names(library)[0] == "Courier (b)"
    library.view.sortByColumn(CLASS, Qt.SortOrder.AscendingOrder)
    classes = [library.model.data(library.model.index(r, CLASS))
               for r in range(library.model.rowCount())]
    assert classes[0] == "Cycle" and classes[-1] == "Luxury"
    library.view.sortByColumn(NAME, Qt.SortOrder.AscendingOrder)
    assert _names(library) == sorted(_names(library), key=str.casefold)
    _select(library, "Killer Kart")
    library.duplicate_selected()
    library.view.sortByColumn(CHANGED, Qt.SortOrder.DescendingOrder)
    assert (library.model.entry(0).name == "Killer Kart (copy)"
            and not library.model.entry(0).is_catalog)
    assert library.selected_entries()[0].name == "Killer Kart (copy)"  # the selection followed
    library.view.sortByColumn(STATUS, Qt.SortOrder.AscendingOrder)


def test_copy_rename_tag_delete_and_restore(library: LibraryWorkspace,
                                           workshop: WorkshopWorkspace, qtbot) -> None:  # type: ignore[no-untyped-def]
    _show(library, "mini_car_wars")
    _select(library, "Rocket Special (b)")
    assert library.duplicate_button.text() == "&Copy to my designs"
    assert library.duplicate_selected()
    copy = library.selected_entries()[0]
    assert (copy.name, copy.is_catalog) == ("Rocket Special (b) (copy)", False)
    assert library.rename_selected("Hammer")
    assert library.selected_entries()[0].name == "Hammer"
    assert library.library.get(copy.id).data["name"] == "Hammer"
    assert library.tag_selected("duel, Cheap")
    assert library.selected_entries()[0].tags == ("duel", "cheap")
    assert not library.rename_selected("   ")
    assert "needs a name" in library.message.text()

    library.confirm = lambda *_args: False
    assert not library.delete_selected()
    assert "Hammer" in _names(library)
    library.confirm = lambda *_args: True
    library.view.setFocus()
    qtbot.keyClick(library.view, Qt.Key.Key_Delete)
    assert "Hammer" not in _names(library)
    assert library.banner.isVisible() and "until you close the app" in library.banner_text.text()
    qtbot.keyClick(library.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert "Hammer" in _names(library) and not library.banner.isVisible()

    _select(library, "Hammer")
    assert library.delete_selected()
    _show(library, "mini_car_wars", "deleted")
    assert _names(library) == ["Hammer"]
    assert library.restore_button.isVisible()
    _select(library, "Hammer")
    assert library.restore_selected()
    assert _names(library) == []
    _show(library, "mini_car_wars", "all")
    assert "Hammer" in _names(library)


def test_deleted_designs_are_removed_when_the_app_closes(library: LibraryWorkspace) -> None:
    _show(library, "mini_car_wars")
    _select(library, "Courier")
    library.duplicate_selected()
    assert library.delete_selected()
    assert library.purge_deleted() == 1
    assert library.library.entries(deleted=True) == []
    assert not library.restore_last_deleted()
    assert not library.banner.isVisible()


def test_catalog_designs_are_read_only_in_the_workshop(library: LibraryWorkspace,
                                                       workshop: WorkshopWorkspace,
                                                       window: MainWindow) -> None:
    _show(library, "autopower")
    catalog_id = _select(library, "Darkseid")
    assert not library.delete_button.isEnabled() and not library.rename_button.isEnabled()
    assert library.open_selected()
    assert window.current_workspace() is workshop
    assert workshop.catalog_banner.isVisibleTo(workshop)
    assert workshop.name_edit.isReadOnly()
    assert not workshop.editor.stats["energy"].isEnabled()  # type: ignore[union-attr]
    assert not workshop.save()
    assert workshop.copy_to_mine()
    assert workshop.record is not None and workshop.record.id != catalog_id
    assert not workshop.record.is_catalog and workshop.record.name == "Darkseid (copy)"
    assert workshop.editor.stats["energy"].isEnabled()  # type: ignore[union-attr]
    assert "Darkseid (copy)" in [e.name for e in library.model.entries() if not e.is_catalog]


def test_the_list_follows_workshop_saves(library: LibraryWorkspace,
                                         workshop: WorkshopWorkspace) -> None:
    record = library.library.add(NewDesign("mini_car_wars",
                                           MiniDesign.stock_design("courier").to_json()))
    library.refresh()
    _show(library, "mini_car_wars", "mine")
    assert _names(library) == ["Courier"]
    assert workshop.open_design(record.id)
    workshop.name_edit.setText("Courier Night")
    workshop._name_edited("Courier Night")
    library.refresh()
    assert library.model.data(library.model.index(0, STATUS)) == "✔ legal · ● unsaved"
    assert workshop.save()
    assert _names(library) == ["Courier Night"]
    assert library.model.data(library.model.index(0, STATUS)) == "✔ legal"


def test_new_design_from_the_library(library: LibraryWorkspace,
                                     workshop: WorkshopWorkspace) -> None:
    _show(library, "battlecars")
    assert library.new_design()
    assert workshop.record is not None and workshop.record.ruleset_id == "battlecars"
    assert workshop.state_label.text().startswith("⚠ draft")
    assert workshop.new_design("battlecars")
    assert workshop.record.name == "New card 2"  # type: ignore[union-attr]


def test_a_rename_to_a_taken_name_offers_the_next_free_one(library: LibraryWorkspace) -> None:
    _show(library, "mini_car_wars")
    _select(library, "Killer Kart")
    assert library.duplicate_selected()
    copy = library.selected_entries()[0]
    assert not library.rename_selected("Courier")  # the catalog's name
    assert library.message.text() == ("⚠ Not renamed: another design is already called "
                                      "“Courier”: choose another name, such as “Courier (2)”")
    asked: list[tuple[str, str]] = []

    def ask(_parent: object, _title: str, label: str, text: str) -> str | None:
        asked.append((label, text))
        return "Courier" if len(asked) == 1 else text

    library.ask_text = ask
    assert library.rename_selected()
    assert asked == [("New name for “Killer Kart (copy)”:", "Killer Kart (copy)"),
                     ("Another design is already called “Courier”. New name:", "Courier (2)")]
    assert library.library.get(copy.id).name == "Courier (2)"
