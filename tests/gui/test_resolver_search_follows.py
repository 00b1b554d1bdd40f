"""The Resolver's search: Ctrl+K and a few letters, the form is the highlighted
procedure's (not the one before, looking current); a roll not applied is not lost to
the typing, and the note says which procedure the form still is; the form's column shows
a twelve-vehicle evening's names whole at 1366×768."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.resolver_workspace import ResolverWorkspace
from carwars_desktop.rules import find_ruleset
from carwars_desktop.rules.builtin import MINI_CAR_WARS
from carwars_desktop.services.changes import RollState
from carwars_desktop.session.setup import Entry, prepare

from .loop import settle
from .test_resolver_polish import _fire, _resolver, _start_game


def _search(qtbot: Any, resolver: ResolverWorkspace, text: str) -> None:
    """Ctrl+K, then ``text`` typed, as the GM does."""
    resolver.window().activateWindow()
    resolver.dice_edit.setFocus()
    qtbot.keyClick(resolver.dice_edit, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    assert QApplication.focusWidget() is resolver.search
    qtbot.keyClicks(resolver.search, text)


def _highlighted(resolver: ResolverWorkspace) -> str:
    index = resolver.filter_model.mapToSource(resolver.procedure_list.currentIndex())
    return resolver.procedure_model.procedure(index.row()).id


def test_the_form_follows_the_procedure_highlighted_as_the_gm_types(
        window: MainWindow, qtbot: Any) -> None:
    _start_game(window, MINI_CAR_WARS.id, ["Courier", "Killer Kart"])
    resolver = _resolver(window)
    qtbot.waitUntil(lambda: resolver.procedure_model.rowCount() > 0)
    resolver.select_procedure("mini.road_duel_setup")
    service = window.game_context.service
    _search(qtbot, resolver, "fire")
    assert _highlighted(resolver) == "mini.fire"
    qtbot.waitUntil(lambda: resolver.procedure is not None
                    and resolver.procedure.id == "mini.fire")
    assert resolver.form.procedure is resolver.procedure
    assert resolver.procedure_title.text().startswith("Fire")
    assert "firer" in resolver.form.editors and resolver.need_label.text()  # its odds
    assert not resolver.highlight_note.isVisibleTo(resolver)
    assert QApplication.focusWidget() is resolver.search  # the GM types on
    # The players are told of it once the GM chooses it (Enter), not while searching.
    assert service.roll is None or service.roll.state is not RollState.PREPARING
    qtbot.keyClick(resolver.search, Qt.Key.Key_Return)
    assert resolver.procedure.id == "mini.fire"
    qtbot.waitUntil(lambda: QApplication.focusWidget() is resolver.form.editors["firer"])
    assert service.roll is not None and service.roll.state is RollState.PREPARING
    assert service.roll.prepared is not None
    assert service.roll.prepared.procedure_id == "mini.fire"


def test_a_roll_not_applied_keeps_its_form_and_the_note_says_so(
        window: MainWindow, qtbot: Any) -> None:
    _start_game(window, MINI_CAR_WARS.id, ["Courier", "Killer Kart"])
    resolver = _resolver(window)
    qtbot.waitUntil(lambda: resolver.procedure_model.rowCount() > 0)
    _fire(resolver)
    pending = resolver.pending
    assert pending is not None
    _search(qtbot, resolver, "collision")
    assert _highlighted(resolver) == "mini.collision"
    qtbot.waitUntil(lambda: resolver.highlight_note.isVisibleTo(resolver))
    note = resolver.highlight_note.text()
    assert "Enter opens Collision" in note and "still Fire" in note, note
    assert resolver.procedure is not None and resolver.procedure.id == "mini.fire"
    assert resolver.pending is pending  # the roll is still there to apply
    qtbot.keyClick(resolver.search, Qt.Key.Key_Return)  # the GM chooses: it goes
    assert resolver.procedure.id == "mini.collision" and resolver.pending is None
    assert not resolver.highlight_note.isVisibleTo(resolver)


def test_nothing_found_says_which_form_is_shown(window: MainWindow, qtbot: Any) -> None:
    _start_game(window, MINI_CAR_WARS.id, ["Courier", "Killer Kart"])
    resolver = _resolver(window)
    qtbot.waitUntil(lambda: resolver.procedure_model.rowCount() > 0)
    resolver.select_procedure("mini.damage")
    _search(qtbot, resolver, "zzzq")
    qtbot.waitUntil(lambda: resolver.highlight_note.isVisibleTo(resolver))
    assert "No procedure matches “zzzq”" in resolver.highlight_note.text()
    assert f"still {resolver.procedure.title}" in resolver.highlight_note.text()
    resolver.search.clear()  # everything listed again: the highlight is the form's
    qtbot.waitUntil(lambda: not resolver.highlight_note.isVisibleTo(resolver))


def test_twelve_names_show_whole_in_the_form_at_1366(window: MainWindow, qtbot: Any) -> None:
    names = ["Killer Kart", "Mini Sherman", "Rocket Special", "Courier", "Shogun 100",
             "Shogun 220", "Firelight Deluxe", "Courier (a)", "Rocket Special (a)",
             "Mini Sherman (a)", "Killer Kart", "Courier (b)"]
    ruleset = find_ruleset(MINI_CAR_WARS.id)
    catalog = ruleset.catalog()
    entries = [Entry(f"P{n}", f"{name} {n}", catalog[name].to_json())
               for n, name in enumerate(names, 1)]  # named as at the Table: "… (a) 9"
    window.table.start_session(MINI_CAR_WARS.id, "Big night", "road_duel",
                               prepare(ruleset, entries, "road_duel"))
    window.show()
    qtbot.waitExposed(window)
    window.resize(1366, 768 - 48)
    qtbot.waitUntil(lambda: window.width() == 1366)
    resolver = _resolver(window)
    qtbot.waitUntil(lambda: resolver.procedure_model.rowCount() > 0)
    resolver.select_procedure("mini.fire")
    settle()  # laid out at the window's width
    combo = resolver.form.editors["firer"]
    assert combo.count() == 12
    elided = []
    for index in range(combo.count()):
        combo.setCurrentIndex(index)
        if combo.is_elided():
            elided.append(combo.currentText())
    assert elided == []
