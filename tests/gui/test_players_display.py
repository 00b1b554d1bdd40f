"""The players' display: per ruleset it shows what the visibility allows and nothing
more (hidden values absent from every label); it follows an applied event, an undo and
a redo, redrawing only the vehicles that changed; it never takes the focus, holds no
control that changes the game, and reopens on the screen it was on."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QAbstractButton, QApplication, QLineEdit, QSpinBox

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.players_display import SCREEN_KEY, PlayerDisplay
from carwars_desktop.rules import (
    RulesetEntry,
    find_procedure,
    find_ruleset,
    register_ruleset,
    unregister_ruleset,
)
from carwars_desktop.services import Services, typed_dice
from carwars_desktop.session.setup import Entry, prepare
from carwars_desktop.session.visibility import Visibility
from carwars_desktop.storage import Database

PLUGIN = Path(__file__).resolve().parents[1] / "plugin"
NAMES = ["Red Baron", "Blue Thunder", "Ambusher"]


@pytest.fixture
def services(database: Database) -> Services:
    services = Services()
    services.table.database = database
    return services


@pytest.fixture
def tiny(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.syspath_prepend(str(PLUGIN))
    register_ruleset(RulesetEntry("tiny_dice", "Tiny Dice Derby", "tiny_dice", "tiny"))
    yield "tiny_dice"
    unregister_ruleset("tiny_dice")
    sys.modules.pop("tiny_dice", None)


def _start(services: Services, ruleset_id: str) -> None:
    ruleset = find_ruleset(ruleset_id)
    catalog = ruleset.catalog()
    first = next(iter(catalog))
    designs = ["Courier (b)", "Courier", "Killer Kart"] if "Courier" in catalog else [first] * 3
    entries = [Entry(f"Player {n}", name, catalog[design].to_json())
               for n, (design, name) in enumerate(zip(designs, NAMES, strict=True), start=1)]
    session_id = services.table.start(ruleset_id, "Test night", "", prepare(ruleset, entries))
    services.table.open(session_id)


def _display(qtbot, services: Services, settings: QSettings) -> PlayerDisplay:  # type: ignore[no-untyped-def]
    display = PlayerDisplay(services, settings)
    qtbot.addWidget(display)
    display.resize(1920, 1080)
    display.show()
    return display


def _text(display: PlayerDisplay) -> str:
    return "\n".join(display.texts())


# Each ruleset's values that secret sheets keep from the players (label words).
SHEET_ONLY = {
    "mini_car_wars": ["front armor", "left armor", "power plant", "MG", "Laser", "driver"],
    "battlecars": ["left-front", "right-rear", "centre"],
    "autopower": ["armor"],
    "tiny_dice": ["armor left"],
}


@pytest.mark.parametrize("ruleset_id", ["mini_car_wars", "battlecars", "autopower",
                                        "tiny_dice"])
def test_the_display_shows_what_the_visibility_allows_and_nothing_more(
        qtbot, services: Services, settings: QSettings, ruleset_id: str,  # type: ignore[no-untyped-def]
        request: pytest.FixtureRequest) -> None:
    if ruleset_id == "tiny_dice":
        request.getfixturevalue("tiny")
    _start(services, ruleset_id)
    display = _display(qtbot, services, settings)
    shown = _text(display)
    assert all(name in shown for name in NAMES)
    assert ("speed" in shown) is (ruleset_id != "tiny_dice")  # Tiny Dice has no speed
    assert any(word in shown for word in SHEET_ONLY[ruleset_id])
    services.table.set_visibility(Visibility(sheets_open=False,
                                             hidden_vehicles=frozenset({"v3"})))
    texts = display.texts()
    assert NAMES[0] in "\n".join(texts) and NAMES[1] in "\n".join(texts)
    for text in texts:
        assert "Ambusher" not in text
        for word in SHEET_ONLY[ruleset_id]:
            assert word not in text, (word, text)
    assert "record sheets secret" in "\n".join(texts)
    services.table.undo()
    assert any(word in _text(display) for word in SHEET_ONLY[ruleset_id])
    assert "Ambusher" in _text(display)


def test_hidden_odds_are_absent_from_every_label(qtbot, services: Services,  # type: ignore[no-untyped-def]
                                                 settings: QSettings) -> None:
    _start(services, "mini_car_wars")
    services.table.set_visibility(Visibility(odds_shown=False))
    display = _display(qtbot, services, settings)
    table = services.table
    game = table.running()
    procedure = find_procedure("mini.fire")
    values = procedure.bind({"firer": game.sheet("v1"), "target": game.sheet("v2"),
                             "side": "L", "range": "5"})
    table.resolve(procedure, values, typed_dice("4 4 5 6 6"),
                  bindings={"firer": "v1", "target": "v2"})
    texts = display.texts()
    assert display.roll.title.text().startswith("Fire")
    assert not any("5/6" in t or "83.3" in t or "need 5+" in t for t in texts)
    table.set_visibility(Visibility())
    assert display.roll.need.text() == "need 5+" and display.roll.odds.text() == "5/6 · 83.3%"


def test_the_display_follows_apply_undo_and_redo_redrawing_only_what_changed(
        qtbot, services: Services, settings: QSettings) -> None:  # type: ignore[no-untyped-def]
    _start(services, "mini_car_wars")
    display = _display(qtbot, services, settings)
    table = services.table
    game = table.running()
    procedure = find_procedure("mini.fire")
    values = procedure.bind({"firer": game.sheet("v1"), "target": game.sheet("v2"),
                             "side": "L", "range": "5"})
    pending = table.resolve(procedure, values, typed_dice("4 4 5 6 6"),
                            bindings={"firer": "v1", "target": "v2"})
    card = display.cards["v2"]
    untouched = display.cards["v3"].redraws

    def left_armor() -> str:
        assert card.view is not None
        return next(f.value for f in card.view.facts if f.label == "left armor")

    assert left_armor() == "20" and "20" in [t for t in display.texts()]
    with qtbot.waitSignal(display.redrawn) as redrawn:
        pending.apply()
    assert "v2" in redrawn.args[0] and "v3" not in redrawn.args[0]
    assert left_armor() == "3" and "3" in display.texts()
    assert display.roll.dice.text() == "dice 4 4 5 6 6"
    assert "17 damage" in display.roll.outcome.text()
    assert any("17 damage to Blue Thunder" in t for t in display.texts())
    table.undo()
    assert left_armor() == "20" and not any("17 damage to Blue" in t
                                           for t in display.log.text().splitlines())
    table.redo()
    assert left_armor() == "3"
    assert display.cards["v3"].redraws == untouched


def test_a_weapon_that_fired_is_marked_spent_not_ready(
        qtbot, services: Services, settings: QSettings) -> None:  # type: ignore[no-untyped-def]
    """#28 §4: "✔" says ready. A weapon fired this turn (or with no shots left) has the
    full sheet's "●" on the players' display (the compact sheets:
    tests/gui/table/test_spent_weapon_everywhere.py)."""
    _start(services, "mini_car_wars")
    display = _display(qtbot, services, settings)
    table = services.table
    game = table.running()
    procedure = find_procedure("mini.fire")
    values = procedure.bind({"firer": game.sheet("v1"), "target": game.sheet("v2"),
                             "weapon": "1", "side": "L", "range": "5"})
    weapon = game.sheet("v1").weapons[0].label  # type: ignore[attr-defined]
    words = display.cards["v1"].words
    assert words is not None and f"✔ {weapon} ready" in words.text()
    with qtbot.waitSignal(display.redrawn):
        table.resolve(procedure, values, typed_dice("1 1"),
                      bindings={"firer": "v1", "target": "v2"}).apply()  # a miss: fired
    words = display.cards["v1"].words
    assert words is not None
    assert words.text().startswith(f"● {weapon} fired   ✔ {weapon} ready"), words.text()
    assert f"✔ {weapon} fired" not in words.text()
    assert "✔" in words.text()  # (the crew, well: still ready)


def test_no_focus_no_game_controls_closing_changes_nothing_same_screen(
        qtbot, window: MainWindow, settings: QSettings) -> None:  # type: ignore[no-untyped-def]
    table = window.services.table
    _start(window.services, "mini_car_wars")
    events = table.running().last_active_seq()
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    display = window.open_player_display()
    qtbot.waitExposed(display)
    assert QApplication.activeWindow() is window  # the GM keeps the keyboard
    assert display.testAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating)
    assert display.windowFlags() & Qt.WindowType.WindowDoesNotAcceptFocus
    assert not display.testAttribute(Qt.WidgetAttribute.WA_QuitOnClose)
    # Only the menu bar's own overflow button: no button of the display's.
    assert [b.objectName() for b in display.findChildren(QAbstractButton)] in (
        [], ["qt_menubar_ext_button"])
    assert [a.text() for a in display.menu_bar.actions()] == ["&Screen"]
    assert display.findChildren(QLineEdit) == [] and display.findChildren(QSpinBox) == []
    screen_name = display.screen().name()
    display.close()
    qtbot.waitUntil(lambda: window.player_display is None)
    assert table.running().last_active_seq() == events
    assert settings.value(SCREEN_KEY) == screen_name
    # What the players see, from the GM's View menu: one undoable event of the session.
    window._fill_players_menu()
    sheets = next(a for a in window._players_menu.actions()
                  if a.text() == "Players see each other's record sheets")
    assert sheets.isChecked()
    sheets.trigger()
    assert not Visibility.of(table.running().settings).sheets_open
    assert table.running().last_active_seq() == events + 1
    again = window.open_player_display()
    assert "record sheets secret" in _text(again)
    saved = again.saved_screen()
    assert saved is not None and saved.name() == screen_name
    assert again.screen().name() == screen_name
    again.close()


def test_light_and_dark_themes_follow_the_system_palette(
        qtbot, services: Services, settings: QSettings) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QColor, QGuiApplication, QPalette

    _start(services, "autopower")
    display = _display(qtbot, services, settings)
    original = QGuiApplication.palette()
    dark = QPalette(original)
    dark.setColor(QPalette.ColorRole.Window, QColor("#202020"))
    dark.setColor(QPalette.ColorRole.WindowText, QColor("#f0f0f0"))
    light = QPalette(original)
    light.setColor(QPalette.ColorRole.Window, QColor("#f4f4f4"))
    light.setColor(QPalette.ColorRole.WindowText, QColor("#101010"))
    try:
        QGuiApplication.setPalette(light)
        qtbot.waitUntil(lambda: not display.theme.dark)
        assert "background: #ffffff; color: #000000" in display.styleSheet()
        QGuiApplication.setPalette(dark)
        qtbot.waitUntil(lambda: display.theme.dark)
        assert "background: #000000; color: #ffffff" in display.styleSheet()
        card = display.cards["v1"]
        assert card.view is not None and card.status.text().startswith("●")
        assert display.theme.levels["info"] in card.status.styleSheet()
    finally:
        QGuiApplication.setPalette(original)


def test_the_window_title_names_the_app_once(qtbot, services: Services,  # type: ignore[no-untyped-def]
                                             settings: QSettings) -> None:
    """Qt adds the application's display name to each window's title: the display's own
    title naming it too read "Carwars Desktop — players' display — Carwars Desktop"."""
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    name = app.applicationDisplayName()
    app.setApplicationDisplayName("Carwars Desktop")  # as the program sets it
    try:
        display = _display(qtbot, services, settings)
        assert display.windowTitle() == "Players' display"
        assert "Carwars Desktop" not in display.windowTitle()
    finally:
        app.setApplicationDisplayName(name)
