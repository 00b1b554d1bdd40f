"""Buttons and menus read in the game's words: a procedure's id ("mini.fire") is in the
tooltip only, never in the text the GM reads."""

from __future__ import annotations

import re

import pytest
from PySide6.QtWidgets import QAbstractButton, QMenu

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.table import TableWorkspace
from carwars_desktop.rules import find_ruleset

ID = re.compile(r"\b(mini|battlecars|autopower|dice)\.[a-z_]+\b")


def _texts(table: TableWorkspace) -> list[str]:
    texts = [b.text() for b in table.findChildren(QAbstractButton)]
    for menu in table.findChildren(QMenu):
        menu.aboutToShow.emit()  # some menus are filled as they open
        texts += [a.text() for a in menu.actions()]
    keys_menu = table.keys.every_action_menu(table)
    table.keys._fill_actions(keys_menu)  # the Actions menu (the A key)
    texts += [a.text() for a in keys_menu.actions()]
    return texts


@pytest.mark.parametrize("ruleset_id", ["mini_car_wars", "battlecars", "autopower"])
def test_no_procedure_id_in_a_button_or_menu_item(window: MainWindow, start_session,  # type: ignore[no-untyped-def]
                                                  ruleset_id: str) -> None:
    names = list(find_ruleset(ruleset_id).catalog())[:2]
    table = start_session(ruleset_id, [(f"P{i}", name) for i, name in enumerate(names)])
    table.keys.select(1)
    texts = _texts(table)
    assert any(text.endswith("Fire…") or text.endswith("Attack…") for text in texts)
    assert [text for text in texts if ID.search(text)] == []
