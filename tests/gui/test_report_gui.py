"""File › Battle report…: the dialog saves the players' copy or the GM's as HTML and as a
PDF printed on the app's page, whose text holds the narrative (issue 36 §2)."""

from __future__ import annotations

import importlib.util
import subprocess
from pathlib import Path
from types import ModuleType

import pytest

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.report_dialog import ReportDialog
from carwars_desktop.services import Services

SERVICES_TESTS = Path(__file__).resolve().parents[1] / "services"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("report_script",
                                                  SERVICES_TESTS / "report_script.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _played(window: MainWindow) -> int:
    services = Services()
    services.table.database = window.database
    assert window.database is not None
    services.library.attach(window.database)
    session_id: int = _script().play_scripted_session(services)
    return session_id


def _pdf_text(path: Path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True,
                          capture_output=True, text=True).stdout


@pytest.mark.pdftotext
def test_report_menu_item_saves_html_and_pdf(window: MainWindow, tmp_path: Path) -> None:
    session_id = _played(window)
    action = next(a for a in window.menuBar().actions() if a.text() == "&File").menu()
    titles = [a.text() for a in action.actions()]  # type: ignore[union-attr]
    assert "Battle &report…" in titles
    dialog = window.battle_report()
    assert isinstance(dialog, ReportDialog) and dialog.isVisible()
    assert dialog.sessions.currentData() == session_id
    html = tmp_path / "players.html"
    assert dialog.save("html", str(html))
    stored = SERVICES_TESTS / "data" / "scripted-session.report.html"
    assert html.read_bytes() == stored.read_bytes()
    dialog.gm_copy.setChecked(True)
    gm = tmp_path / "gm.html"
    assert dialog.save("html", str(gm)) and "GM&#x27;s copy" in gm.read_text(encoding="utf-8")
    pdf = tmp_path / "report.pdf"
    assert dialog.save("pdf", str(pdf))
    assert pdf.read_bytes().startswith(b"%PDF")
    assert dialog.message.text() == f"Saved {pdf}"
    text = " ".join(_pdf_text(pdf).split())
    assert "Battle report: Friday duel — Road Duel" in text
    assert "Ann's Rocket Special" in text and "its RL (F) at Bob's Courier" in text
    assert "Rocket Special wins (the survivor)" in text
    assert "Ann 4 4 5/3 ≈ 1.67" in text and "Bob 1 0 5/12 ≈ 0.42" in text
    dialog.close()


def test_report_dialog_says_why_a_report_was_not_saved(window: MainWindow,
                                                       tmp_path: Path) -> None:
    _played(window)
    dialog = window.battle_report()
    assert isinstance(dialog, ReportDialog)
    target = tmp_path / "missing" / "r.html"
    assert not dialog.save("html", str(target))
    assert dialog.message.text().startswith("⚠ Not saved:") and not target.exists()
    dialog.close()
