"""Start the GUI: QApplication, main window, then the deferred start-up work.

Start-up order (start-up time is a feature): the window is shown and painted first
(milestone "first paint"); the workspaces the first screen needs and the database
(SQLAlchemy; Alembic only when a migration is due) load on the first turn of the event
loop after that ("first screen"). When the database is a local file with nothing to
migrate, the first screen is read from it before SQLAlchemy has loaded — the running game
the app resumes (its Table alone built), or the Library's list — and the database opens
on a worker meanwhile (``storage/first_screen.py``; a key or click before it is open waits
for it). Once it is open the first screen's workspaces have it and the GM's first key is
answered at once ("ready", the headline of ``benchmarks/startup.py``); the other
workspaces are built and load on later turns, one per turn (``gui/startup.py``), until
"everything built", where ``--smoke`` exits (and ``--self-check`` serves the phones page
once first).
"""

from __future__ import annotations

import os
import sys
import time
import traceback
from types import TracebackType

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.resources import resources_dir

APP_NAME = "carwars-desktop"
ORGANIZATION = "carwars"


def create_application(argv: list[str] | None = None, measured: bool = False) -> QApplication:
    """The one QApplication (``measured``: a :class:`MeasuredApplication`)."""
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        return existing
    QCoreApplication.setOrganizationName(ORGANIZATION)
    QCoreApplication.setApplicationName(APP_NAME)
    kind = MeasuredApplication if measured else QApplication
    app = kind(argv if argv is not None else [sys.argv[0]])
    app.setApplicationDisplayName("Carwars Desktop")
    app.setDesktopFileName(APP_NAME)
    app.setWindowIcon(QIcon(str(resources_dir() / "icons" / "carwars.svg")))
    return app


def _tracing() -> bool:
    return bool(os.environ.get("CARWARS_TRACE_STARTUP"))


def _trace(event: str, *figures: float) -> None:
    """With CARWARS_TRACE_STARTUP set, print when start-up milestones happen (benchmarks):
    ``carwars-startup EVENT UNIX-TIME [FIGURES…]``."""
    if _tracing():
        extra = "".join(f" {figure:.6f}" for figure in figures)
        print(f"carwars-startup {event} {time.time():.6f}{extra}", file=sys.stderr, flush=True)

class MeasuredApplication(QApplication):
    """The application with the longest turn of its event loop measured (benchmarks,
    CARWARS_TRACE_STARTUP): the longest delivery of one event from the loop (a timer, a
    queued call, an input event, with everything it sent on), in wall time and in the GUI
    thread's CPU time, while :attr:`measuring`."""

    measuring = False
    longest_wall = 0.0
    longest_cpu = 0.0
    _depth = 0

    def notify(self, receiver: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if not self.measuring or self._depth:
            return super().notify(receiver, event)
        self._depth += 1
        wall, cpu = time.perf_counter(), time.thread_time()
        try:
            return super().notify(receiver, event)
        finally:
            self._depth -= 1
            self.longest_wall = max(self.longest_wall, time.perf_counter() - wall)
            self.longest_cpu = max(self.longest_cpu, time.thread_time() - cpu)


def _install_excepthook(app: QApplication, smoke: bool) -> None:
    """An exception in a slot is printed; under ``--smoke`` (and ``--self-check``) it also
    fails the run."""

    def hook(kind: type[BaseException], error: BaseException, trace: TracebackType | None) -> None:
        traceback.print_exception(kind, error, trace)
        if smoke:
            app.exit(1)

    sys.excepthook = hook


def check_phones_page() -> str:
    """Under ``--self-check``: the phones page's server starts on loopback and serves its page
    and script (aiohttp and ``resources/phones`` are found, in a bundle too); the
    problem in words, or empty."""
    import urllib.request

    from carwars_desktop.services.phone_server import PhoneServer

    server = PhoneServer(resources_dir() / "phones", "127.0.0.1", 0)
    try:
        server.start()
        for name in ("/", "/app.js", "/style.css"):
            with urllib.request.urlopen(server.url + name, timeout=10) as response:
                if response.status != 200 or not response.read():
                    return f"the phones page did not serve {name}"
    except Exception as error:  # reported by the self-check
        return f"the phones page failed: {error}"
    finally:
        server.stop()
    return ""


def run_gui(db: str | None, smoke: bool, self_check: bool = False) -> int:
    """The app. ``smoke``: start, open the database, build every workspace, exit (what CI
    and a user's script time); ``self_check``: the same, then the phones page is served
    from loopback once (aiohttp and the page's files are found, in a bundle too). Both
    exit non-zero with the reason on stderr when something failed."""
    unattended = smoke or self_check
    app = create_application(measured=_tracing())
    _install_excepthook(app, unattended)
    turns = app if isinstance(app, MeasuredApplication) else None
    window = MainWindow(db_url_hint=db, interactive=not unattended)
    window.show()

    def first_screen() -> None:
        _trace("first-screen")
        if turns is not None:  # from the next turn on (this one is the first screen's)
            turns.measuring = True
        if window.opening:  # the first screen is shown, the database opens on a worker
            window.database_ready.connect(ready)
        else:
            ready(window.database is not None)

    def ready(opened: bool) -> None:
        _trace("ready")
        if not opened:  # the GM gave up on the database (or --smoke met a bad one)
            app.exit(2 if unattended else 0)
            return
        QTimer.singleShot(0, set_version)
        if window.everything_built():
            built()
        else:
            window.all_built.connect(built)

    def built() -> None:
        _trace("built")
        if turns is not None:
            turns.measuring = False
            _trace("longest-turn", turns.longest_wall, turns.longest_cpu)
        if not unattended:
            return
        problem = check_phones_page() if self_check else ""
        if problem:
            print(problem, file=sys.stderr)
        app.exit(4 if problem else 0)

    def set_version() -> None:
        # Reading the package metadata (importlib.metadata) waits until the app is loaded.
        from carwars_desktop import __version__

        QCoreApplication.setApplicationVersion(__version__)

    def first_idle() -> None:
        _trace("window-idle")  # the first paint
        if not window.finish_startup(defer_hidden=True):
            app.exit(2 if unattended else 0)
            return
        QTimer.singleShot(0, first_screen)

    QTimer.singleShot(0, first_idle)
    result = app.exec()
    window.shutdown()
    return result
