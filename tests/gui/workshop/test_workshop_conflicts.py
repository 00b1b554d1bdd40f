"""Two copies of the app edit one design: a conflicting edit or save always asks (keep
mine as the newest revision / take theirs / save mine as a copy), never overwrites."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QSettings

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.workshop import WorkshopWorkspace
from carwars_desktop.gui.workshop.workshop_workspace import ConflictChoice
from carwars_desktop.rules.autopower import Car


@pytest.fixture
def other(qtbot, settings: QSettings, sqlite_url: str,  # type: ignore[no-untyped-def]
          window: MainWindow) -> Iterator[WorkshopWorkspace]:
    """The Workshop of a second copy of the app on the same database."""
    second = MainWindow(db_url_hint=sqlite_url, interactive=False, settings=settings)
    qtbot.addWidget(second)
    second.show()
    assert second.finish_startup()
    yield second.workshop
    second.shutdown()


def _both_open(workshop: WorkshopWorkspace, other: WorkshopWorkspace) -> int:
    assert workshop.new_design("autopower", "vehicle")
    assert workshop.record is not None
    assert workshop.save()
    design_id = workshop.record.id
    assert other.open_design(design_id)
    return design_id


def _edit(workshop: WorkshopWorkspace, energy: int, notes: str) -> Car:
    design = workshop.design
    assert isinstance(design, Car)
    edited = Car(design.name, energy, design.fighting, design.strength, design.intelligence,
                 notes)
    workshop._edited(edited, "Energy", "energy")
    return edited


@pytest.mark.parametrize("choice", list(ConflictChoice))
def test_a_save_made_elsewhere_is_never_overwritten_silently(
        workshop: WorkshopWorkspace, other: WorkshopWorkspace, choice: ConflictChoice) -> None:
    design_id = _both_open(workshop, other)
    theirs = _edit(workshop, 7, "front armor")
    assert workshop.save()
    asked: list[int] = []

    def ask(record: object) -> ConflictChoice:
        asked.append(getattr(record, "revision", 0))
        return choice

    other.ask_conflict = ask
    mine = _edit(other, 9, "back armor")
    assert asked == [3]  # told at once, with their revision
    library = other.library
    saved = library.get(design_id)
    if choice is ConflictChoice.KEEP_MINE:
        assert saved.revision == 4 and saved.data == mine.to_json()
        assert library.revision(design_id, 3).data == theirs.to_json()  # theirs is kept
        assert other.design == mine
    elif choice is ConflictChoice.TAKE_THEIRS:
        assert saved.revision == 3 and saved.data == theirs.to_json()
        assert other.design == theirs
    elif choice is ConflictChoice.SAVE_COPY:
        assert saved.data == theirs.to_json()
        assert other.record is not None and other.record.id != design_id
        copy = library.get(other.record.id)
        assert copy.data["energy"] == 9 and copy.data["notes"] == "back armor"
        assert copy.name != saved.name
    else:
        assert saved.data == theirs.to_json() and saved.working is None
        assert "Not" in other.message.text()
    # The first copy's saved work is never replaced without a word.
    assert library.revision(design_id, 3).data == theirs.to_json()


def test_a_save_from_a_stale_revision_asks(workshop: WorkshopWorkspace,
                                          other: WorkshopWorkspace) -> None:
    """B edited first; A saves in between; B's save asks before anything is written."""
    design_id = _both_open(workshop, other)
    mine = _edit(other, 9, "back armor")
    theirs = _edit(workshop, 7, "front armor")
    assert workshop.save()
    asked: list[int] = []
    other.ask_conflict = lambda record: asked.append(record.revision) or ConflictChoice.KEEP_MINE
    assert other.save()
    assert asked == [3]
    record = other.library.get(design_id)
    assert record.data == mine.to_json() and record.revision == 4
    assert other.library.revision(design_id, 3).data == theirs.to_json()
