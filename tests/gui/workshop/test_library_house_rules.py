"""The Library's Status column follows the house rules the GM picked for it (issue 34 §2):
the digest's defaults until then (its header says so), then the profile's verdict, the one
``design check --rules`` gives."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt

from carwars_desktop.app import main
from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.workshop import LibraryWorkspace
from carwars_desktop.gui.workshop.library_model import DIGEST_STATUS, STATUS
from carwars_desktop.rules import find_ruleset
from carwars_desktop.rules.mini_car_wars import MiniDesign, PersonKit
from carwars_desktop.services.house_rules import HouseRulesService
from carwars_desktop.storage import NewDesign

AP = "autopower"
MCW = "mini_car_wars"


def _status(library: LibraryWorkspace, name: str) -> str:
    model = library.model
    row = next(r for r in range(model.rowCount()) if model.entry(r).name == name)
    return str(model.data(model.index(row, STATUS)))


def _header(library: LibraryWorkspace) -> str:
    return str(library.model.headerData(STATUS, Qt.Orientation.Horizontal))


def _checked(capsys: pytest.CaptureFixture[str], url: str, name: str, ruleset: str,
             *rules: str) -> tuple[bool, int]:
    status = main(["design", "--db", url, "check", name, "--ruleset", ruleset, *rules,
                   "--json"])
    out = capsys.readouterr().out
    (design,) = json.loads(out)["designs"]
    assert status == (0 if design["legal"] else 3)  # 3: a design with problems
    return design["legal"], len(design["problems"])


def test_the_status_column_follows_the_profile_picked(
        window: MainWindow, library: LibraryWorkspace, sqlite_url: str, settings: QSettings,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert window.database is not None
    darkseid = {**find_ruleset(AP).catalog()["Darkseid"].to_json(), "name": "Darkseid Mk II"}
    window.services.library.add(NewDesign(AP, darkseid))
    HouseRulesService(window.database).create(AP, "Division 15", {"AP-division": 15})
    library.set_ruleset(AP)
    library.refresh()
    assert _header(library) == DIGEST_STATUS == "Status (digest's defaults)"
    assert _status(library, "Darkseid Mk II") == "✔ legal"
    assert _checked(capsys, sqlite_url, "Darkseid Mk II", AP) == (True, 0)
    names = [library.rules_box.itemText(i) for i in range(library.rules_box.count())]
    assert names == ["House rules: The digest's defaults", "House rules: Division 15"]

    library.rules_box.setCurrentIndex(1)
    library.rules_box.activated.emit(1)  # as the GM's pick does
    library.wait_for_rows()
    assert _header(library) == "Status (Division 15)"
    legal, problems = _checked(capsys, sqlite_url, "Darkseid Mk II", AP, "--rules",
                               "Division 15")
    assert (legal, problems) == (False, 1)
    assert _status(library, "Darkseid Mk II") == "⚠ draft · 1 problem"
    assert settings.value("library/house_rules/autopower") == "Division 15"
    # An edit of one design is checked under the profile too (no worker for a few rows).
    (record,) = [r for r in window.database.library.all(AP) if r.name == "Darkseid Mk II"]
    window.services.library.rename(record.id, "Darkseid Mk III")
    assert _status(library, "Darkseid Mk III") == "⚠ draft · 1 problem"

    library.pick_house_rules(AP, None)
    library.wait_for_rows()
    assert _header(library) == DIGEST_STATUS
    assert _status(library, "Darkseid Mk III") == "✔ legal"
    assert settings.value("library/house_rules/autopower") == ""


def test_a_design_illegal_by_default_is_legal_under_mcw_d22_off(
        window: MainWindow, library: LibraryWorkspace, sqlite_url: str, settings: QSettings,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert window.database is not None
    stacked = MiniDesign.stock_design("killer_kart", name="Two computers",
                                      driver=PersonKit(1, 1, False))
    window.services.library.add(NewDesign(MCW, stacked.to_json()))
    HouseRulesService(window.database).create(MCW, "Stacking", {"MCW-D22": False})
    library.set_ruleset(MCW)
    library.refresh()
    assert _status(library, "Two computers") == "⚠ draft · 1 problem"
    library.pick_house_rules(MCW, "Stacking")
    library.wait_for_rows()
    assert _header(library) == "Status (Stacking)"
    assert _status(library, "Two computers") == "✔ legal"
    assert _checked(capsys, sqlite_url, "Two computers", MCW, "--rules", "Stacking") == \
        (True, 0)
    # Every ruleset shown: each follows its own pick, and the header says so.
    library.ruleset_box.setCurrentIndex(library.ruleset_box.findData(None))
    assert not library.rules_box.isEnabled()
    assert _header(library) == "Status (house rules per ruleset)"
    assert _status(library, "Two computers") == "✔ legal"


def test_the_pick_is_remembered(window: MainWindow, library: LibraryWorkspace,
                                settings: QSettings) -> None:
    assert window.database is not None
    HouseRulesService(window.database).create(AP, "Division 15", {"AP-division": 15})
    library.pick_house_rules(AP, "Division 15")
    library.wait_for_rows()
    assert window.database is not None
    library.attach_database(window.database)  # as the next start reads the settings
    library.wait_for_rows()
    assert library.house_profile(AP) is not None
    assert library.house_profile(AP).name == "Division 15"  # type: ignore[union-attr]
    library.set_ruleset(AP)
    assert _header(library) == "Status (Division 15)"
    assert _status(library, "Darkseid") == "⚠ draft · 1 problem"


def test_the_verdicts_are_computed_on_a_worker_and_follow_an_edited_profile(
        window: MainWindow, library: LibraryWorkspace,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from carwars_desktop.gui.workshop import library_workspace

    assert window.database is not None
    threads: list[threading.Thread] = []
    real = library_workspace.verdicts_under

    def spying(records: Any, options: Any) -> Any:
        threads.append(threading.current_thread())
        return real(records, options)

    monkeypatch.setattr(library_workspace, "verdicts_under", spying)
    service = HouseRulesService(window.database)
    profile = service.create(AP, "Division 15", {"AP-division": 15})
    library.set_ruleset(AP)
    library.pick_house_rules(AP, "Division 15")
    assert _status(library, "Darkseid") == "✔ legal"  # not yet: the worker computes it
    library.wait_for_rows()
    assert _status(library, "Darkseid") == "⚠ draft · 1 problem"
    assert threads and threading.main_thread() not in threads
    # The profile edited (division 20): the next list follows what it says now.
    service.save(profile, {"AP-division": 20})
    library.refresh_later()
    library.wait_for_rows()
    assert _status(library, "Darkseid") == "✔ legal"
    assert _header(library) == "Status (Division 15)"


@pytest.mark.parametrize("width", [1366, 1920])
def test_the_library_with_a_profile_picked_reads_whole(window: MainWindow,
                                                      library: LibraryWorkspace, qtbot: Any,
                                                      width: int) -> None:
    """The House rules box and the Status header naming the profile fit a 1366×768 screen
    (less a 48-px panel): no text cut, no literal "&", nothing scrolled sideways."""
    from ..readable import unreadable

    assert window.database is not None
    HouseRulesService(window.database).create(AP, "Division 15 with IQ cards off",
                                              {"AP-division": 15, "AP-iq-cards": False})
    window.show()
    qtbot.waitExposed(window)
    window.resize(width, 768 - 48)
    qtbot.waitUntil(lambda: window.width() == width)
    library.set_ruleset(AP)
    library.pick_house_rules(AP, "Division 15 with IQ cards off")
    library.wait_for_rows()
    qtbot.wait(1)
    assert _header(library) == "Status (Division 15 with IQ cards off)"
    assert window.width() == width and window.minimumSizeHint().width() <= width
    assert unreadable(window) == []
