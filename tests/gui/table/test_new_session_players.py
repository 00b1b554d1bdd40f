"""New Session picks the club's players (issue 36 §3): the player cell edits in a box
listing the players of earlier sessions; a name typed otherwise (`` ann ``) is the same
player; a new name becomes a new player when the session starts."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QStyleOptionViewItem, QWidget

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.table.new_session import NewSessionDialog, PlayerDelegate


def test_ledger_new_session_offers_the_clubs_players(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    assert window.database is not None
    window.database.players.named("Ann")
    window.database.players.named("Bob")
    dialog = NewSessionDialog(window.database, "mini_car_wars")
    qtbot.addWidget(dialog)
    delegate = dialog.players.itemDelegateForColumn(0)
    assert isinstance(delegate, PlayerDelegate)
    index = dialog.players.model().index(0, 0)
    parent = QWidget()
    qtbot.addWidget(parent)
    editor = delegate.createEditor(parent, QStyleOptionViewItem(), index)
    assert isinstance(editor, QComboBox) and editor.isEditable()
    assert [editor.itemText(i) for i in range(editor.count())] == ["Ann", "Bob"]
    editor.setEditText("  ANN ")
    delegate.setModelData(editor, dialog.players.model(), index)
    assert dialog.players.item(0, 0).text() == "Ann"
    dialog.set_player(1, " bob", "Courier")
    dialog.add_player("Zed  Smith")
    assert [e.player for e in dialog.entries()] == ["Ann", "Bob", "Zed Smith"]
    setup = dialog.setup()
    window.services.table.start("mini_car_wars", "Club night", "", setup)
    assert [p.name for p in window.database.players.all()] == ["Ann", "Bob", "Zed Smith"]
