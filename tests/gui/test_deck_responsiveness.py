"""Opening, editing and saving a huge AUTOpower deck in the Workshop never freezes the
window. 30,000 cards: the old opening and each edit (all of it on the GUI thread)
stalled a third of a second and more; the deck is read, checked and written on a
worker now (each test sees which thread decoded, checked and encoded it), what the GUI
thread does with it goes by its few dozen distinct cards (no 30,000-card pass on it:
counted), and the window answers a posted event while each job runs
(tests/gui/offload.py). Nothing here is timed: the 100 ms goal is benchmarks/deck.py's."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.plugins.autopower.deck_editor import DeckEditor
from carwars_desktop.gui.workshop import WorkshopWorkspace
from carwars_desktop.gui.workshop.workshop_workspace import ConflictChoice
from carwars_desktop.rules.autopower import Deck, Icon, IconValue, PowerCard
from carwars_desktop.rules.autopower.kinds import DECK
from carwars_desktop.storage import NewDesign

from .loop import settle
from .offload import Calls, Jobs, watch

pytestmark = pytest.mark.slow  # a 30,000-card deck, read and written five times

CARDS = 30_000


def _huge_deck() -> Deck:
    """40 distinct cards, one to four icons each; card 39 has none (a problem each time)."""
    icons = list(Icon)
    distinct = [PowerCard(f"Card {n:02d}", () if n == 39 else tuple(
        IconValue(icons[(n + k) % len(icons)], (n + k) % 8 + 1) for k in range(1 + n % 3)))
        for n in range(40)]
    return Deck("Huge deck", tuple(distinct[n % 40] for n in range(CARDS)))


def _card_passes(monkeypatch: pytest.MonkeyPatch) -> list[Calls]:
    """The deck's passes over all its cards (decoding, encoding, checking), watched."""
    from carwars_desktop.rules.ruleset import DesignKind

    def cards(data: object) -> int:
        return len(data.get("cards", ())) if isinstance(data, dict) else 0

    return [watch(monkeypatch, DesignKind, "load", lambda _kind, data: cards(data)),
            watch(monkeypatch, Deck, "to_json", lambda deck: len(deck.cards)),
            watch(monkeypatch, Deck, "_find_problems", lambda deck: len(deck.cards))]


def _assert_huge_passes_on_workers(passes: list[Calls]) -> None:
    """No pass over a huge deck on the GUI thread (a club deck's 60 cards may be), and
    the huge deck was decoded, encoded or checked on a worker."""
    assert [p for p in passes if p.on_gui and max(p.on_gui) > 60] == []
    assert max(size for p in passes for size in p.on_workers) > CARDS // 2


def _workshop_with(window: MainWindow, deck: Deck, qtbot) -> tuple[  # type: ignore[no-untyped-def]
        WorkshopWorkspace, int]:
    """The Workshop shown, ``deck`` in the library (its id), the deck editor built."""
    workshop = window.workshop
    record = workshop.services.library.add(
        NewDesign("autopower", deck.to_json(), DECK)).record
    club = workshop.services.library.add(
        NewDesign("autopower", Deck("Club deck", deck.cards[:60]).to_json(), DECK)).record
    window._rail.setCurrentRow(window.workspaces.index(workshop))
    # The first deck ever opened builds the deck editor: a fixed cost whatever the
    # deck's size, paid here on a club deck.
    assert workshop.open_design(club.id)
    workshop.close_design()
    settle()
    return workshop, record.id


def _opened_at_first_line(workshop: WorkshopWorkspace, design_id: int,  # type: ignore[no-untyped-def]
                          qtbot) -> DeckEditor:
    """The deck open in its editor, the keyboard on its first line's count."""
    assert workshop.open_design(design_id)
    editor = workshop.editor
    assert isinstance(editor, DeckEditor)
    settle()
    editor.table.setFocus()
    editor.table.setCurrentIndex(editor.lines_model.index(0, 0))
    return editor


def test_opening_a_huge_deck_never_freezes_the_window(
        window: MainWindow, qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    deck = _huge_deck()
    workshop, design_id = _workshop_with(window, deck, qtbot)
    record = workshop.services.library.get(design_id)
    jobs = Jobs(monkeypatch)
    decoded, encoded, checked = passes = _card_passes(monkeypatch)
    assert workshop.open_design(design_id)
    _assert_huge_passes_on_workers(passes)
    assert decoded.on_workers == [CARDS] and checked.on_workers == [CARDS]
    jobs.assert_answered()
    editor = workshop.editor
    assert isinstance(editor, DeckEditor)
    assert editor.deck() == deck
    assert [(line.count, line.card) for line in editor.lines_model.lines] == [
        (CARDS // 40, card) for card in deck.cards[:40]]
    assert editor.totals.text().startswith(f"<b>{CARDS} cards</b> in 40 lines")
    problems = [p for p in deck.problems() if p.code == "card-no-icon"]
    assert len(problems) == CARDS // 40
    assert workshop.problems.model.rowCount() == len(deck.problems()) + len(deck.warnings())
    assert workshop.problems.model.problem(0).field == "cards[39]"
    assert workshop.unsaved_label.text() == f"revision {record.revision}"


def test_editing_and_saving_a_huge_deck_never_freezes_the_window(
        window: MainWindow, qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    deck = _huge_deck()
    workshop, design_id = _workshop_with(window, deck, qtbot)
    editor = _opened_at_first_line(workshop, design_id, qtbot)
    jobs = Jobs(monkeypatch)
    passes = _card_passes(monkeypatch)
    qtbot.keyClicks(editor.table, "5")  # the count, 750 → 5, typed into its cell
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: editor.lines_model.lines[0].count == 5, timeout=60_000)
    settle()
    edited = workshop.design
    assert workshop.unsaved_label.text().startswith("● unsaved changes")
    # Asked while the undo is written (inside it): refused, the undo comes first.
    asked: list[tuple[bool, bool]] = []
    QTimer.singleShot(0, lambda: asked.append((workshop.save(),
                                               workshop.open_design(design_id))))
    workshop.undo()
    assert asked == [(False, False)]
    settle()
    assert workshop.design == deck
    assert workshop.unsaved_label.text() == "revision 1"
    workshop.redo()
    settle()
    assert workshop.save()
    settle()
    shown = (editor.lines_model.lines[0].count, editor.totals.text(),
             workshop.unsaved_label.text())
    # The name typed while an edit is written (the undo of the count): kept after it.
    QTimer.singleShot(0, lambda: qtbot.keyClicks(workshop.name_edit, "!"))
    workshop.undo()
    qtbot.waitUntil(lambda: workshop.design.name == "Huge deck!", timeout=60_000)
    assert workshop.name_edit.text() == "Huge deck!"
    # Closed while a write runs (the design deleted in the Library meanwhile…): it
    # closes once the write is done, never half-way.
    QTimer.singleShot(0, workshop.close_design)
    workshop.undo()  # the name as it was: the deck as it was, unsaved again
    qtbot.waitUntil(lambda: workshop.record is None, timeout=60_000)
    _assert_huge_passes_on_workers(passes)
    # The edit, its undo and redo, the save, the undo of the save and of the name: each
    # written on a worker while the window answered.
    assert len(jobs.runs) >= 6
    jobs.assert_answered()
    assert isinstance(edited, Deck) and len(edited.cards) == CARDS - 745
    assert shown[0] == 5
    assert shown[1].startswith(f"<b>{CARDS - 745} cards</b> in 40 lines")
    assert shown[2] == "revision 2"
    assert workshop.design is None and workshop.editing.design is None
    saved = workshop.services.library.get(design_id)
    assert saved.revision == 2 and saved.problem_count == len(edited.problems())
    assert Deck.from_json(saved.data) == edited
    assert saved.working is not None and Deck.from_json(saved.working) == deck


@pytest.mark.parametrize("choice", [ConflictChoice.KEEP_MINE, ConflictChoice.TAKE_THEIRS,
                                    ConflictChoice.SAVE_COPY])
def test_a_conflict_on_a_huge_deck_never_freezes_the_window(
        window: MainWindow, qtbot, monkeypatch,  # type: ignore[no-untyped-def]
        choice: ConflictChoice) -> None:
    """Saved elsewhere meanwhile: whichever the GM chooses, the deck is written (and
    reopened) on a worker."""
    deck = _huge_deck()
    workshop, design_id = _workshop_with(window, deck, qtbot)
    editor = _opened_at_first_line(workshop, design_id, qtbot)
    qtbot.keyClicks(editor.table, "5")
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: editor.lines_model.lines[0].count == 5, timeout=60_000)
    settle()
    mine = workshop.design
    theirs = Deck("Huge deck", deck.cards[:-40])  # another copy saved it meanwhile
    store = workshop.services.library.store
    store.save(design_id, theirs.to_json(), expected_revision=1)
    workshop.ask_conflict = lambda _theirs: choice  # type: ignore[method-assign]
    jobs = Jobs(monkeypatch)
    passes = _card_passes(monkeypatch)
    saved = workshop.save()
    _assert_huge_passes_on_workers(passes)
    jobs.assert_answered()
    assert saved == (choice is ConflictChoice.KEEP_MINE)
    record = workshop.record
    assert record is not None and workshop.design is not None
    if choice is ConflictChoice.KEEP_MINE:
        assert record.id == design_id and record.revision == 3
        assert Deck.from_json(store.get(design_id).data) == mine
    elif choice is ConflictChoice.TAKE_THEIRS:
        assert record.id == design_id and workshop.design == theirs
    else:
        assert record.id != design_id and workshop.design.cards == mine.cards  # type: ignore[union-attr]
        assert Deck.from_json(store.get(design_id).data) == theirs
