"""The AUTOpower ram, laser and control roll variants at the Table and in the Resolver: off
(the digest's defaults) they are not offered — a key says why, the menus grey them, the quick
line refuses them, the Resolver lists them greyed with the reason — and once the session's
house rules switch them on (an undoable event) they are offered at once and resolve as ever."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.resolver_workspace import ResolverWorkspace
from carwars_desktop.gui.table import TableWorkspace
from carwars_desktop.gui.table.procedure_dialog import ProcedureDialog
from carwars_desktop.rules.autopower.sheet import CarSheet
from carwars_desktop.session.house_rules import DIGEST_DEFAULTS, HouseRules

AP = "autopower"
PLAYERS = [("Bo", "Rhino"), ("Ann", "Longshot")]
RAM_OFF = ("Ramming variant (§2.9) is off in this session's house rules: switch it on with "
           "Change house rules… in the Resolver's House rules panel")
LASER_OFF = ("Lasers variant (§2.10) is off in this session's house rules: switch it on with "
             "Change house rules… in the Resolver's House rules panel")


def _key(qtbot: Any, table: TableWorkspace, key: str) -> None:
    table.play.grid.setFocus()
    qtbot.keyClick(table.play.grid, getattr(Qt.Key, f"Key_{key}"))


def _menu_items(table: TableWorkspace) -> dict[str, Any]:
    menu = table.keys.every_action_menu(table)
    table.keys._fill_actions(menu)
    assert menu.toolTipsVisible()
    return {action.text().split(": ", 1)[-1]: action for action in menu.actions()}


def _by_id(items: dict[str, Any], procedure_id: str) -> Any:
    """The menu item of ``procedure_id``: its id is in its tooltip, not in its text."""
    return next(a for a in items.values()
                if a.toolTip() == procedure_id or a.toolTip().endswith(f" ({procedure_id})"))


def _to_combat(table: TableWorkspace, name: str) -> None:
    """The clock on to ``name``'s Combat phase: a car attacks (or rams) only there (§2.3)."""
    game = table.context.service.game
    assert game is not None
    for _ in range(len(game.clock.phases)):
        if game.clock.phase_name == f"{name}: combat":
            return
        table.play.clock.next_phase()  # type: ignore[attr-defined]
    assert game.clock.phase_name == f"{name}: combat"


def test_off_the_keys_say_why_and_the_menu_greys_them(window: MainWindow, start_session,  # type: ignore[no-untyped-def]
                                                      qtbot) -> None:
    table = start_session(AP, PLAYERS)
    window.activateWindow()
    _key(qtbot, table, "2")
    _key(qtbot, table, "R")
    assert table.hub.runner.dialog is None
    assert table.play.message.text() == f"⚠ Ram (Strength cards, both cars damaged): {RAM_OFF}"
    _key(qtbot, table, "L")
    assert table.hub.runner.dialog is None
    assert table.play.message.text() == \
        f"⚠ Laser attack (Energy cards instead of Fighting): {LASER_OFF}"
    items = _menu_items(table)
    ram = items["Ram (Strength cards, both cars damaged) — off in this session's house rules"]
    assert not ram.isEnabled() and ram.toolTip() == f"{RAM_OFF} (autopower.ram)"
    laser = _by_id(items, "autopower.laser")
    assert not laser.isEnabled() and laser.toolTip() == f"{LASER_OFF} (autopower.laser)"
    attack = _by_id(items, "autopower.attack")
    assert attack.isEnabled() and attack.toolTip() == "autopower.attack"
    assert not any("autopower." in text for text in items)  # ids only in the tooltips
    # The quick line refuses the word, pointing at it; an attack still reads.
    table.quick.open()
    table.quick.read("2 ram 1 5")
    assert table.quick.procedure is None
    assert table.quick.info.text() == f"⚠ 'ram': {RAM_OFF}"
    assert table.quick.pointer.text() == "2 ram 1 5\n  ^^^"
    _to_combat(table, "Longshot")
    table.quick.read("2 at 1 4")
    assert table.quick.procedure is not None
    table.quick.close_line()
    # Every other way in (the runner the clock, the menus and Shift+F use) refuses too.
    table.hub.run("autopower.laser", {"firer": "v2", "target": "v1"})
    assert table.hub.runner.dialog is None and LASER_OFF in table.play.message.text()


def test_switched_on_mid_session_they_are_offered_at_once_and_undo_takes_it_back(  # type: ignore[no-untyped-def]
        window: MainWindow, start_session, qtbot) -> None:
    table = start_session(AP, PLAYERS)
    window.activateWindow()
    service = window.game_context.service
    _to_combat(table, "Longshot")  # its own Combat phase: it may ram (§2.3 step 4)
    service.change_house_rules(HouseRules(DIGEST_DEFAULTS, {"AP-ramming": True}))
    game = table.context.service.game
    assert game is not None and game.house["AP-ramming"] is True
    last = game.store.last_active()
    assert last is not None and last.event.summary == "house rules: AP-ramming on"
    _key(qtbot, table, "2")
    _key(qtbot, table, "R")
    dialog = table.hub.runner.dialog
    assert isinstance(dialog, ProcedureDialog) and dialog.isVisible()
    assert dialog.procedure.id == "autopower.ram"
    dialog.form.choose("target", "v1")  # the order's first field (#28 §3): the GM's 1
    assert dialog.form.bindings() == {"rammer": "v2", "target": "v1"}
    dialog.form.set_value("cards", "4")
    dialog.refresh()
    assert dialog.odds is not None and dialog.error.text() == ""
    dialog.dice_edit.setText("65")
    dialog.resolve_entered()
    assert dialog.pending is not None and dialog.pending.resolution.refusal is None, \
        dialog.error.text()
    dialog.apply()
    rhino, longshot = game.sheet("v1"), game.sheet("v2")
    assert isinstance(rhino, CarSheet) and isinstance(longshot, CarSheet)
    assert rhino.total_damage == 4 and longshot.total_damage == 4  # both cars take C
    items = _menu_items(table)
    assert _by_id(items, "autopower.ram").isEnabled()
    assert not _by_id(items, "autopower.laser").isEnabled()
    table.quick.open()
    table.quick.read("1 ram 2 4")  # in Longshot's Combat phase the Rhino may not ram
    assert table.quick.procedure is None and "only in its own Combat phase" in \
        table.quick.info.text()
    _to_combat(table, "Rhino")
    table.quick.read("1 ram 2 4")  # (Longshot has made its one attack this turn)
    assert table.quick.procedure is not None, table.quick.info.text()
    table.quick.close_line()
    # Undo the clock's moves and the ram, then the house-rule change: the ram is off again.
    while game.house.get("AP-ramming", False):
        service.undo()
    assert last.seq not in [e.seq for e in game.store.page(0, 100)  # type: ignore[attr-defined]
                            if not e.undone]
    _key(qtbot, table, "R")
    assert table.play.message.text().endswith(RAM_OFF)


def _resolver(window: MainWindow) -> ResolverWorkspace:
    resolver = next(w for w in window.workspaces if isinstance(w, ResolverWorkspace))
    window._rail.setCurrentRow(window.workspaces.index(resolver))
    return resolver


def _row(resolver: ResolverWorkspace, procedure_id: str) -> int:
    model = resolver.procedure_model
    return next(r for r in range(model.rowCount()) if model.procedure(r).id == procedure_id)


def test_the_resolver_lists_them_greyed_with_the_reason_until_switched_on(  # type: ignore[no-untyped-def]
        window: MainWindow, start_session, qtbot, qtmodeltester) -> None:
    window.set_ruleset(AP)
    resolver = _resolver(window)
    model = resolver.procedure_model
    ram = model.index(_row(resolver, "autopower.ram"), 0)
    # No session: the Resolver's own house rules (the digest's defaults at first).
    assert ram.data() == ("Ram (Strength cards, both cars damaged) — Ramming variant (§2.9) "
                          "is off in these house rules")
    assert not ram.flags() & Qt.ItemFlag.ItemIsEnabled
    assert resolver.procedure is not None and resolver.procedure.id != "autopower.ram"
    start_session(AP, PLAYERS)
    resolver = _resolver(window)
    ram = model.index(_row(resolver, "autopower.ram"), 0)
    laser = model.index(_row(resolver, "autopower.laser"), 0)
    assert ram.data() == ("Ram (Strength cards, both cars damaged) — Ramming variant (§2.9) "
                          "is off in this session's house rules")
    assert not ram.flags() & Qt.ItemFlag.ItemIsEnabled
    assert not laser.flags() & Qt.ItemFlag.ItemIsEnabled
    qtmodeltester.check(model)
    assert str(ram.data(Qt.ItemDataRole.ToolTipRole)).startswith(
        "Not offered: Ramming variant (§2.9) is off in this session's house rules. Change "
        "house rules… (below the form) switches it on.")
    attack = model.index(_row(resolver, "autopower.attack"), 0)
    assert attack.flags() & Qt.ItemFlag.ItemIsEnabled and attack.data() == \
        "Attack with Fighting cards (to hit, damage, kill)"
    # Chosen anyway (a click, Enter on the search): it says why and opens nothing.
    before = resolver.procedure
    resolver._choose(resolver.filter_model.mapFromSource(ram).row())
    assert resolver.procedure is before
    assert resolver.form_error.text() == (
        "⚠ Ram (Strength cards, both cars damaged) is not offered: Ramming variant (§2.9) is "
        "off in this session's house rules. Change house rules… switches it on.")
    # The panel's change (the undoable event): offered at once.
    resolver.set_house_rules(HouseRules("Rams", {"AP-ramming": True}))
    assert resolver.house_panel.text.text() == "Rams: AP-ramming on"
    ram = model.index(_row(resolver, "autopower.ram"), 0)
    assert ram.flags() & Qt.ItemFlag.ItemIsEnabled
    assert ram.data() == "Ram (Strength cards, both cars damaged)"
    assert not model.index(_row(resolver, "autopower.laser"), 0).flags() & \
        Qt.ItemFlag.ItemIsEnabled
    resolver._choose(resolver.filter_model.mapFromSource(ram).row())
    assert resolver.procedure is not None and resolver.procedure.id == "autopower.ram"
    resolver.form.set_value("rammer", "v2")
    resolver.form.set_value("target", "v1")
    resolver.form.set_value("cards", "4")
    assert resolver.form_error.text() == ""
    assert resolver.odds is not None and resolver.need_label.text() == resolver.odds.summary
    # Undone elsewhere (the bus): greyed again, and the form on screen says why.
    window.game_context.service.undo()
    assert not model.index(_row(resolver, "autopower.ram"), 0).flags() & \
        Qt.ItemFlag.ItemIsEnabled
    assert resolver.form_error.text().startswith(
        "⚠ Ram (Strength cards, both cars damaged) is not offered: Ramming variant (§2.9)")
    assert resolver.odds is None


CONTROL_OFF = ("Control roll variant (§2.8) is off in this session's house rules: switch it "
               "on with Change house rules… in the Resolver's House rules panel")


def test_the_control_roll_is_gated_behind_its_variant_like_the_ram(  # type: ignore[no-untyped-def]
        window: MainWindow, start_session, qtbot) -> None:
    """AUTOpower §2.8 is a variant (§2.1 step 4): off, C says why, the menu greys it, the
    Resolver lists it greyed; switched on, C opens the control roll."""
    table = start_session(AP, PLAYERS)
    window.activateWindow()
    _key(qtbot, table, "2")
    _key(qtbot, table, "C")
    assert table.hub.runner.dialog is None
    assert table.play.message.text().endswith(CONTROL_OFF)
    control = _by_id(_menu_items(table), "autopower.control")
    assert not control.isEnabled() and control.toolTip() == f"{CONTROL_OFF} (autopower.control)"
    marks = table.play.sheets["v2"].marks_menu
    marks.aboutToShow.emit()  # as the Mark button's menu opening does
    on_sheet = _by_id({a.text(): a for a in marks.actions()}, "autopower.control")
    assert on_sheet.text() == "Control roll…" and not on_sheet.isEnabled()
    assert on_sheet.toolTip() == f"{CONTROL_OFF} (autopower.control)"
    resolver = _resolver(window)
    row = resolver.procedure_model.index(_row(resolver, "autopower.control"), 0)
    assert not row.flags() & Qt.ItemFlag.ItemIsEnabled
    assert str(row.data()).endswith("Control roll variant (§2.8) is off in this session's "
                                    "house rules")
    window.game_context.service.change_house_rules(
        HouseRules(DIGEST_DEFAULTS, {"AP-control-rolls": True}))
    assert resolver.procedure_model.index(_row(resolver, "autopower.control"), 0).flags() & \
        Qt.ItemFlag.ItemIsEnabled
    window._rail.setCurrentRow(window.workspaces.index(table))
    assert _by_id(_menu_items(table), "autopower.control").isEnabled()
    marks.aboutToShow.emit()
    assert on_sheet.isEnabled() and on_sheet.toolTip() == "autopower.control"
    _key(qtbot, table, "2")
    _key(qtbot, table, "C")
    dialog = table.hub.runner.dialog
    assert isinstance(dialog, ProcedureDialog) and dialog.procedure.id == "autopower.control"
    dialog.reject()
