"""Screenshots of the real app for the user guide and for review.

Run under a virtual screen: ``xvfb-run -s "-screen 0 1400x900x24" .venv/bin/python
docs/make_screenshots.py [OUT_DIR]``. Each workspace is shown with sample data
in a throwaway database and grabbed from the screen as a PNG.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from carwars_desktop.gui.application import create_application
from carwars_desktop.gui.dice_workspace import DiceWorkspace
from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.resolver_workspace import ResolverWorkspace


def settle(app: QApplication) -> None:
    for _ in range(20):
        app.processEvents()


def grab(app: QApplication, window: MainWindow, path: Path) -> None:
    settle(app)
    screen = window.screen()
    pixmap = screen.grabWindow(0, window.x(), window.y(),
                               window.frameGeometry().width(), window.frameGeometry().height())
    pixmap.save(str(path))
    print(path)


def main() -> int:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images")
    out.mkdir(parents=True, exist_ok=True)
    app = create_application()
    folder = Path(tempfile.mkdtemp(prefix="carwars-shots-"))
    settings = QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(db_url_hint=str(folder / "shots.sqlite3"), interactive=False,
                        settings=settings)
    window.resize(1280, 800)
    window.move(0, 0)
    window.show()
    settle(app)
    if not window.finish_startup():
        return 1
    dice = next(w for w in window.workspaces if isinstance(w, DiceWorkspace))
    dice.expression_edit.setText("2d6")
    dice.target_spin.setValue(8)
    dice.natural_two.setChecked(True)
    for typed in ("5 4", "1 1", "6 3"):
        dice.dice_edit.setText(typed)
        dice.record_entered()
    dice.expression_edit.setText("2d6+1")
    dice.seed_edit.setText("1987")
    dice.roll()
    dice.expression_edit.setText("2d6")
    dice.dice_edit.setText("6 2")
    dice.record_entered()
    window._rail.setCurrentRow(window.workspaces.index(dice))
    grab(app, window, out / "dice.png")
    resolver_screen(app, window, out)
    window.shutdown()
    return 0


def resolver_screen(app: QApplication, window: MainWindow, out: Path) -> None:
    resolver = next(w for w in window.workspaces if isinstance(w, ResolverWorkspace))
    window._rail.setCurrentRow(window.workspaces.index(resolver))
    window.set_ruleset("mini_car_wars")
    resolver.select_procedure("mini.fire")
    resolver.form.set_value("firer", "Courier (b)")
    resolver.form.set_value("target", "Courier")
    resolver.form.set_value("side", "L")
    resolver.form.set_value("range", "5")
    settle(app)
    resolver.dice_edit.setText("4 4 5 6 6")
    resolver.resolve_entered()
    grab(app, window, out / "resolver.png")
    resolver.side_tabs.setCurrentIndex(1)
    grab(app, window, out / "resolver-reference.png")
    resolver.side_tabs.setCurrentIndex(0)


if __name__ == "__main__":
    sys.exit(main())
