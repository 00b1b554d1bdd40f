"""Design edits without Qt: each committed, merged per field, undone and redone."""

from __future__ import annotations

import pytest

from carwars_desktop.library.templates import new_design, renamed
from carwars_desktop.rules import Design
from carwars_desktop.services import (
    Changes,
    DesignChanges,
    DesignEdit,
    DesignEditing,
    EditHistory,
    Services,
)
from carwars_desktop.storage import CatalogDesignError

BASE = new_design("mini_car_wars")


def _named(name: str) -> Design:
    return renamed(BASE, name)


def test_history_merges_edits_of_one_field() -> None:
    history = EditHistory()
    history.push(DesignEdit(_named("a"), _named("ab"), "Name", "name"))
    history.push(DesignEdit(_named("ab"), _named("abc"), "Name", "name"))
    assert history.count() == 1 and history.undo_text() == "Name"
    history.push(DesignEdit(_named("abc"), _named("abc!"), "Front armor", "armor.front"))
    history.push(DesignEdit(_named("abc!"), _named("x"), "Go back to revision 1", ""))
    history.push(DesignEdit(_named("x"), _named("y"), "Go back to revision 2", ""))
    assert history.count() == 4  # no key: never merged
    edit = history.undo()
    assert edit is not None and edit.before == _named("x")
    assert history.redo_text() == "Go back to revision 2" and history.can_redo()
    history.push(DesignEdit(_named("x"), _named("z"), "Name", "name"))
    assert history.count() == 4 and not history.can_redo()  # the undone one is forgotten


def test_an_edit_merged_back_to_its_start_disappears() -> None:
    history = EditHistory()
    history.push(DesignEdit(_named("a"), _named("b"), "Other", "other"))
    history.push(DesignEdit(_named("b"), _named("bc"), "Name", "name"))
    history.push(DesignEdit(_named("bc"), _named("b"), "Name", "name"))
    assert history.count() == 1 and history.index == 1 and history.undo_text() == "Other"
    assert history.undo() is not None and history.undo() is None
    assert not history.can_undo() and history.redo() is not None
    history.clear()
    assert history.count() == 0 and not history.can_redo()


@pytest.fixture
def editing(services: Services) -> DesignEditing:
    record = services.library.new_design("mini_car_wars", "vehicle").record
    editing = DesignEditing(services.library)
    editing.open(record.id)
    return editing


def test_each_edit_is_committed_and_undone_through_the_library(
        editing: DesignEditing, services: Services, heard: list[Changes]) -> None:
    record = editing.record
    assert record is not None and editing.design is not None
    first = editing.design
    editing.edit(renamed(first, "Rust"), "Name", "name", initiator="workshop")
    editing.edit(renamed(first, "Rust Bucket"), "Name", "name", initiator="workshop")
    assert editing.history.count() == 1 and editing.unsaved()
    assert services.library.get(record.id).working["name"] == "Rust Bucket"  # type: ignore[index]
    assert [c.designs for c in heard] == [DesignChanges.of(changed=[record.id])] * 2
    assert heard[0].initiator == "workshop"
    edit = editing.undo()
    assert edit is not None and edit.label == "Name"
    assert editing.design == first
    assert services.library.get(record.id).working is None  # back to the saved state
    assert editing.undo() is None
    assert editing.redo() is not None and editing.design.name == "Rust Bucket"
    saved = editing.save()
    assert saved.record.revision == 2 and editing.record is saved.record
    assert not editing.unsaved()
    editing.close()
    assert editing.design is None and editing.history.count() == 0


def test_a_refused_edit_changes_nothing(services: Services, heard: list[Changes]) -> None:
    catalog = next(e for e in services.library.entries("mini_car_wars") if e.is_catalog)
    editing = DesignEditing(services.library)
    _record, before = editing.open(catalog.id)
    with pytest.raises(CatalogDesignError, match="copy it into your designs"):
        editing.edit(renamed(before, "Mine now"), "Name", "name")
    assert editing.design is before and editing.history.count() == 0
    assert heard == []
