"""Start the GUI: QApplication, main window, then the deferred start-up work.

Start-up order (start-up time is a feature): the window is shown and painted
first; the workspaces the first screen needs (Library, Workshop, Table) and the
database (SQLAlchemy; Alembic only when a migration is due) load on the first turn
of the event loop after that. When the database is a local file with nothing to
migrate, the first screen is read from it before SQLAlchemy has loaded — the running
game the app resumes (its Table alone built), or the Library's list — and the database
opens on a worker meanwhile (``storage/first_screen.py``; the GM's first key or click
waits for it). Then the app is fully loaded; the Resolver and the Dice are built, and
the hidden workspaces' heavy parts (charts: pyqtgraph, numpy) load, on later turns.
"""

from __future__ import annotations

import os
import sys
import time
import traceback
from types import TracebackType

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.resources import resources_dir

APP_NAME = "carwars-desktop"
ORGANIZATION = "carwars"


def create_application(argv: list[str] | None = None) -> QApplication:
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        return existing
    QCoreApplication.setOrganizationName(ORGANIZATION)
    QCoreApplication.setApplicationName(APP_NAME)
    app = QApplication(argv if argv is not None else [sys.argv[0]])
    app.setApplicationDisplayName("Carwars Desktop")
    app.setDesktopFileName(APP_NAME)
    app.setWindowIcon(QIcon(str(resources_dir() / "icons" / "carwars.svg")))
    return app


def _trace(event: str) -> None:
    """With CARWARS_TRACE_STARTUP set, print when start-up milestones happen (benchmarks)."""
    if os.environ.get("CARWARS_TRACE_STARTUP"):
        print(f"carwars-startup {event} {time.time():.6f}", file=sys.stderr, flush=True)


def _install_excepthook(app: QApplication, smoke: bool) -> None:
    """An exception in a slot is printed; under ``--smoke`` it also fails the run."""

    def hook(kind: type[BaseException], error: BaseException, trace: TracebackType | None) -> None:
        traceback.print_exception(kind, error, trace)
        if smoke:
            app.exit(1)

    sys.excepthook = hook


def smoke_phones_page() -> str:
    """Under ``--smoke``: the phones page's server starts on loopback and serves its page
    and script (aiohttp and ``resources/phones`` are found, in a bundle too); the
    problem in words, or empty."""
    import urllib.request

    from carwars_desktop.resources import resources_dir
    from carwars_desktop.services.phone_server import PhoneServer

    server = PhoneServer(resources_dir() / "phones", "127.0.0.1", 0)
    try:
        server.start()
        for name in ("/", "/app.js", "/style.css"):
            with urllib.request.urlopen(server.url + name, timeout=10) as response:
                if response.status != 200 or not response.read():
                    return f"the phones page did not serve {name}"
    except Exception as error:  # reported by the smoke run
        return f"the phones page failed: {error}"
    finally:
        server.stop()
    return ""


def run_gui(db: str | None, smoke: bool) -> int:
    app = create_application()
    _install_excepthook(app, smoke)
    window = MainWindow(db_url_hint=db, interactive=not smoke)
    window.show()

    def loaded() -> None:
        _trace("loaded")
        if window.opening:  # the first screen is shown, the database opens on a worker
            window.database_ready.connect(ready)
        else:
            ready(window.database is not None)

    def ready(opened: bool) -> None:
        _trace("ready")
        if not opened:  # the GM gave up on the database (or --smoke met a bad one)
            app.exit(2 if smoke else 0)
            return
        QTimer.singleShot(0, set_version)
        if smoke:
            QTimer.singleShot(0, smoke_checks)

    def smoke_checks() -> None:
        # The smoke run also checks the workspaces the first screen did not need
        # (every module imports, in a bundle too) before it exits.
        window.build_workspaces()
        problem = smoke_phones_page()
        if problem:
            print(problem, file=sys.stderr)
        app.exit(4 if problem else 0)

    def set_version() -> None:
        # Reading the package metadata (importlib.metadata) waits until the app is loaded.
        from carwars_desktop import __version__

        QCoreApplication.setApplicationVersion(__version__)

    def first_idle() -> None:
        _trace("window-idle")
        if not window.finish_startup(defer_hidden=True):
            app.exit(2 if smoke else 0)
            return
        QTimer.singleShot(0, loaded)

    QTimer.singleShot(0, first_idle)
    result = app.exec()
    window.shutdown()
    return result
