"""House rules on screen (issue 14): chosen at New Session with the pre-game questions,
shown read-only in the Resolver, applied by the Table's dialogs, changed mid-session."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtWidgets import QCheckBox, QComboBox

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.resolver_workspace import ResolverWorkspace
from carwars_desktop.gui.table.new_session import NewSessionDialog
from carwars_desktop.gui.table.procedure_dialog import ProcedureDialog
from carwars_desktop.gui.table.workspace import TableWorkspace
from carwars_desktop.rules import find_procedure
from carwars_desktop.services.house_rules import HouseRulesService
from carwars_desktop.session.house_rules import DIGEST_DEFAULTS, HouseRules
from carwars_desktop.session.visibility import Visibility

MCW = "mini_car_wars"
AT_THE_CYCLE = {"side": "F", "range": "3"}


def _start(window: MainWindow, qtbot, profile: str | None) -> None:  # type: ignore[no-untyped-def]
    assert window.database is not None
    dialog = NewSessionDialog(window.database, MCW)
    qtbot.addWidget(dialog)
    if profile is not None:
        dialog.choose_profile(profile)
    dialog.set_player(0, "Ann", "Courier")
    dialog.set_player(1, "Bob", "Shogun 100")
    dialog.accept()
    assert dialog.result_setup is not None and dialog.result_rules is not None
    table = next(w for w in window.workspaces if isinstance(w, TableWorkspace))
    table.start_session(MCW, "Club night", "", dialog.result_setup, dialog.result_rules)


def _resolver_need(window: MainWindow) -> str:
    resolver = next(w for w in window.workspaces if isinstance(w, ResolverWorkspace))
    window._rail.setCurrentRow(window.workspaces.index(resolver))
    resolver.select_procedure("mini.fire")
    resolver.form.set_value("firer", "v1")
    resolver.form.set_value("target", "v2")
    for name, value in AT_THE_CYCLE.items():
        resolver.form.set_value(name, value)
    return resolver.need_label.text()


def _table_need(window: MainWindow, qtbot) -> int | None:  # type: ignore[no-untyped-def]
    game = window.game_context.service.game
    assert game is not None
    dialog = ProcedureDialog(find_procedure("mini.fire"), game,
                             {"firer": "v1", "target": "v2", **AT_THE_CYCLE},
                             table=window.game_context.service)
    qtbot.addWidget(dialog)
    dialog.refresh()
    assert dialog.odds is not None
    return dialog.odds.need


def test_a_session_under_a_profile_at_the_table_and_in_the_resolver(
        window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    assert window.database is not None
    _start(window, qtbot, None)
    default_resolver, default_table = _resolver_need(window), _table_need(window, qtbot)
    HouseRulesService(window.database).create(MCW, "No cycle front", {"MCW-D13": False})
    _start(window, qtbot, "No cycle front")
    house_resolver, house_table = _resolver_need(window), _table_need(window, qtbot)
    assert default_resolver.startswith("need 9+") and house_resolver.startswith("need 8+")
    assert (default_table, house_table) == (9, 8)
    resolver = next(w for w in window.workspaces if isinstance(w, ResolverWorkspace))
    assert resolver.house_panel.title() == "House rules (this session)"
    assert resolver.house_panel.text.text() == "No cycle front: MCW-D13 off"
    # The form asks no decision: it is the session's.
    assert "mcw_d13_cycle_front_rear" not in resolver.form.editors
    # Changed mid-session (the panel's button opens the same dialog): one undoable event.
    resolver.set_house_rules(HouseRules("No cycle front", {"MCW-D13": True}))
    assert _resolver_need(window).startswith("need 9+") and _table_need(window, qtbot) == 9
    game = window.game_context.service.game
    assert game is not None and game.store.last_active() is not None
    assert game.store.last_active().event.summary == "house rules: MCW-D13 on"  # type: ignore[union-attr]
    window.game_context.service.undo()
    assert _resolver_need(window).startswith("need 8+")
    window.game_context.service.redo()
    assert _resolver_need(window).startswith("need 9+")


def test_new_session_asks_the_pre_game_questions(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    assert window.database is not None
    dialog = NewSessionDialog(window.database, "autopower")
    qtbot.addWidget(dialog)
    assert dialog.pregame is not None
    asked = set(dialog.pregame.editors)
    assert {"AP-division", "AP-iq-cards", "AP-one-big-deck", "AP-control-rolls", "AP-ramming",
            "AP-lasers", "AP-drawing-on-skills"} == asked
    control = dialog.pregame.editors["AP-control-rolls"]
    assert isinstance(control, QCheckBox) and not control.isChecked()
    control.setChecked(True)
    division = dialog.pregame.editors["AP-division"]
    assert isinstance(division, QComboBox)
    division.setCurrentIndex(division.findData(20))
    rules = dialog.house_rules()
    assert rules.profile == DIGEST_DEFAULTS
    assert rules.values["AP-control-rolls"] is True and rules.values["AP-division"] == 20
    dialog.ruleset_box.setCurrentIndex(dialog.ruleset_box.findData(MCW))
    assert dialog.pregame is not None
    assert set(dialog.pregame.editors) == {"MCW-budget", "MCW-open-sheets", "MCW-debris",
                                           "MCW-off-road"}


def test_secret_sheets_asked_before_play_set_the_players_display(
        window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    assert window.database is not None
    HouseRulesService(window.database).create(MCW, "Secret", {"MCW-open-sheets": False})
    _start(window, qtbot, "Secret")
    game = window.game_context.service.game
    assert game is not None and Visibility.of(game.settings).sheets_open is False


def test_a_profile_file_of_another_ruleset_is_refused(window: MainWindow, qtbot,
                                                      tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "arena.house-rules.json"
    path.write_text(json.dumps({"format": "carwars-desktop/house-rules", "version": 1,
                                "profiles": [{"ruleset": "battlecars", "name": "Arena",
                                              "rules": {"BC-D16": False}}]}))
    dialog = NewSessionDialog(window.database, MCW)
    qtbot.addWidget(dialog)
    assert not dialog.use_profile_file(path)
    assert "is a Battlecars profile, not Mini Car Wars's" in dialog.error.text()
    assert dialog.profile().name == DIGEST_DEFAULTS
    good = tmp_path / "club.house-rules.json"
    good.write_text(json.dumps({"format": "carwars-desktop/house-rules", "version": 1,
                                "profiles": [{"ruleset": MCW, "name": "Club",
                                              "rules": {"MCW-D13": False}}]}))
    assert dialog.use_profile_file(good)
    assert dialog.house_rules().values["MCW-D13"] is False


def test_printed_sheets_name_the_profile_in_their_footer(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    from carwars_desktop.gui.table.print_session import PrintChoice, session_job

    assert window.database is not None
    _start(window, qtbot, None)
    game = window.game_context.service.game
    assert game is not None
    assert session_job(game, "Club night", PrintChoice()).footer.endswith(
        "house rules: The digest's defaults")
    HouseRulesService(window.database).create(MCW, "Friday club", {"MCW-D13": False,
                                                                   "MCW-D6a": "up"})
    _start(window, qtbot, "Friday club")
    game = window.game_context.service.game
    assert game is not None
    assert session_job(game, "Club night", PrintChoice()).footer.endswith(
        "house rules: Friday club (MCW-D6a up; MCW-D13 off)")


def test_the_workshop_validates_under_the_running_session_house_rules(
        window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    from carwars_desktop.gui.workshop.problems_model import PROBLEM, SEVERITY_ROLE
    from carwars_desktop.rules.mini_car_wars import MiniDesign, PersonKit
    from carwars_desktop.storage import NewDesign

    assert window.database is not None
    stacked = MiniDesign.stock_design("killer_kart", name="Two computers",
                                      driver=PersonKit(1, 1, False))
    design_id = window.services.library.add(NewDesign(MCW, stacked.to_json())).record.id
    _start(window, qtbot, None)
    window.workshop.open_design(design_id)
    assert window.workshop.house_options(MCW) is None  # the digest's defaults: its own check
    model = window.workshop.problems.model
    assert [model.problem(row).code for row in range(model.rowCount())
            if model.data(model.index(row, 0), SEVERITY_ROLE) == PROBLEM] == ["computers"]
    HouseRulesService(window.database).create(MCW, "Stacking", {"MCW-D22": False})
    _start(window, qtbot, "Stacking")
    window.workshop.refresh_problems()
    assert window.workshop.verdict().problems == ()
    assert model.counts()[0] == 0


def test_the_profiles_dialog_manages_and_exchanges_profiles(
        window: MainWindow, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert window.database is not None
    dialog = NewSessionDialog(window.database, MCW)
    qtbot.addWidget(dialog)
    profiles = dialog.manage_profiles()
    assert profiles is not None
    assert profiles.current().built_in and not profiles.buttons["delete"].isEnabled()
    assert not profiles.editor.isEnabled()  # the digest's defaults cannot be changed
    box = profiles.editor.editors["MCW-D13"]
    assert isinstance(box, QCheckBox)
    assert profiles.new("Friday club")
    box = profiles.editor.editors["MCW-D13"]
    assert isinstance(box, QCheckBox)
    box.setChecked(False)
    assert profiles.save()
    assert profiles.copy("Saturday club") and profiles.rename("Sunday club")
    assert not profiles.rename("Friday club")
    assert "exists already" in profiles.message.text()
    path = tmp_path / "club.house-rules.json"
    profiles.list.setCurrentRow([p.name for p in profiles.profiles].index("Friday club"))
    assert profiles.export_to(path)
    assert profiles.delete(confirmed=True)
    assert [p.name for p in profiles.profiles] == [DIGEST_DEFAULTS, "Sunday club"]
    assert profiles.import_from(path)
    assert profiles.current().name == "Friday club"
    assert profiles.current().rules == {**find_ruleset_decisions_defaults(), "MCW-D13": False}
    bad = tmp_path / "bad.house-rules.json"
    bad.write_text(path.read_text().replace('"MCW-D13"', '"MCW-D99"'))
    assert not profiles.import_from(bad)
    assert "unknown decision 'MCW-D99'" in profiles.message.text()
    assert [p.name for p in profiles.profiles] == [DIGEST_DEFAULTS, "Friday club",
                                                   "Sunday club"]
    profiles.accept()
    assert [dialog.profile_box.itemText(i) for i in range(dialog.profile_box.count())] == [
        DIGEST_DEFAULTS, "Friday club", "Sunday club"]


def find_ruleset_decisions_defaults() -> dict[str, object]:
    from carwars_desktop.rules import find_ruleset

    decisions = find_ruleset(MCW).decisions
    assert decisions is not None
    return decisions.defaults()


def test_the_change_dialog_starts_from_the_rules_in_force(qtbot) -> None:  # type: ignore[no-untyped-def]
    from carwars_desktop.gui.house_rules import HouseRulesDialog
    from carwars_desktop.rules import find_ruleset

    ruleset = find_ruleset(MCW)
    current = HouseRules("Friday club", {"MCW-D13": False})
    dialog = HouseRulesDialog(ruleset, current, [("Friday club", {"MCW-D13": False})])
    qtbot.addWidget(dialog)
    assert dialog.profile_box.currentText() == "Friday club"
    assert dialog.rules().profile == "Friday club"
    box = dialog.editor.editors["MCW-D6b"]
    assert isinstance(box, QCheckBox)
    box.setChecked(False)
    changed = dialog.rules()
    assert changed.profile == "Friday club (changed)"
    assert ruleset.decisions is not None
    assert ruleset.decisions.departures(changed.values) == ["MCW-D6b off", "MCW-D13 off"]
    dialog.profile_box.setCurrentText(DIGEST_DEFAULTS)
    assert dialog.rules() == HouseRules(DIGEST_DEFAULTS, ruleset.decisions.defaults())
    again = HouseRulesDialog(ruleset, changed, [("Friday club", {"MCW-D13": False})])
    qtbot.addWidget(again)
    assert again.profile_box.currentText() == "Friday club (changed)"
    assert again.rules().profile == "Friday club (changed)"


def test_the_fire_batch_follows_the_session_house_rules(
        window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    assert window.database is not None
    HouseRulesService(window.database).create(MCW, "No cycle front", {"MCW-D13": False})
    needs = {}
    for profile in (None, "No cycle front"):
        _start(window, qtbot, profile)
        game = window.game_context.service.game
        assert game is not None
        table = next(w for w in window.workspaces if isinstance(w, TableWorkspace))
        batch = table.keys.batch
        assert batch is not None
        batch.clear()
        dialog = ProcedureDialog(find_procedure("mini.fire"), game,
                                 {"firer": "v1", "target": "v2", **AT_THE_CYCLE},
                                 table=window.game_context.service)
        qtbot.addWidget(dialog)
        # A roll of 8: a miss under the digest (9+), a hit then its damage dice under the
        # profile (8+).
        dice = "5 3" if profile is None else "5 3 4 2"
        shot = batch.declare(dialog.form.values(), dialog.form.bindings(), dice,
                             "Courier at the cycle")
        odds = batch.odds(shot, game)
        needs[profile] = odds.need
        pending = batch.resolve(window.game_context.service)
        hit = "hit" in pending.resolution.outcome and "miss" not in pending.resolution.outcome
        assert hit == (profile is not None), pending.resolution.outcome
        pending.discard()
    assert needs == {None: 9, "No cycle front": 8}  # as a single shot (test above)


def _answer(profiles, button) -> None:  # type: ignore[no-untyped-def]
    """Answer the confirmation box once it is up."""
    from PySide6.QtCore import QTimer

    def click() -> None:
        box = profiles.confirm_box
        assert box is not None and box.isVisible()
        assert "Delete the house-rule profile 'Friday club'" in box.text()
        box.button(button).click()
    QTimer.singleShot(0, click)


def test_profile_delete_asks_first_and_can_be_undone(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QMessageBox

    assert window.database is not None
    HouseRulesService(window.database).create(MCW, "Friday club", {"MCW-D13": False})
    dialog = NewSessionDialog(window.database, MCW)
    qtbot.addWidget(dialog)
    profiles = dialog.manage_profiles()
    assert profiles is not None
    profiles.list.setCurrentRow([p.name for p in profiles.profiles].index("Friday club"))
    assert not profiles.buttons["undo"].isEnabled()
    rules = profiles.current().rules
    _answer(profiles, QMessageBox.StandardButton.No)
    assert not profiles.delete()
    assert "Friday club" in [p.name for p in profiles.profiles]
    _answer(profiles, QMessageBox.StandardButton.Yes)
    profiles.buttons["delete"].click()
    assert [p.name for p in profiles.profiles] == [DIGEST_DEFAULTS]
    assert "Undo delete" in profiles.message.text()
    assert profiles.buttons["undo"].isEnabled()
    profiles.buttons["undo"].click()
    assert [p.name for p in profiles.profiles] == [DIGEST_DEFAULTS, "Friday club"]
    assert profiles.current().name == "Friday club" and profiles.current().rules == rules
    assert not profiles.buttons["undo"].isEnabled()
    profiles.accept()


def test_importing_another_rulesets_profile_says_where_it_went(
        window: MainWindow, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from carwars_desktop.gui.house_rules import ProfilesDialog
    from carwars_desktop.rules import find_ruleset

    assert window.database is not None
    service = HouseRulesService(window.database)
    service.create("battlecars", "Arena", {})
    path = tmp_path / "arena.house-rules.json"
    path.write_text(service.export([service.find("battlecars", "Arena")]), encoding="utf-8")
    service.delete(service.find("battlecars", "Arena"))
    profiles = ProfilesDialog(window.database, find_ruleset(MCW))
    qtbot.addWidget(profiles)
    assert profiles.import_from(path)
    assert profiles.message.text() == (
        "Imported 1 Battlecars profile: switch the ruleset to see it.")
    assert "Arena" in [p.name for p in service.profiles("battlecars")]
