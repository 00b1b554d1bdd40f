"""The About box names every component with its version and license, and the LGPL source."""

from __future__ import annotations

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import qVersion

from carwars_desktop import __version__
from carwars_desktop.gui.main_window import MainWindow


def test_about_names_components_licenses_and_where_the_lgpl_source_is() -> None:
    html = MainWindow.about_html()
    assert f"Carwars Desktop {__version__}" in html
    assert qVersion() in html and pyside_version in html
    assert html.count("GNU LGPL v3") == 2
    for name in ("SQLAlchemy", "Alembic", "Mako", "pyqtgraph", "NumPy", "platformdirs", "Python"):
        assert f"<td>{name}</td>" in html
    assert "https://download.qt.io/official_releases/" in html
    assert "THIRD-PARTY-NOTICES.txt" in html
