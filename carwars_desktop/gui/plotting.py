"""pyqtgraph (and numpy under it) imported on a worker thread, ahead of the first chart.

Importing them takes longer than a turn of the event loop may (about 0.4 s: pyqtgraph
loads Qt's SVG, OpenGL and test modules and copies every Qt class it uses); on the GUI
thread it froze the first chart's turn. So a screen that will draw charts asks for them
early with :func:`prepare` (the Dice and the Resolver when they load, the Table when
a finished session opens), and a chart draws through :func:`when_ready`, which calls
back on the GUI thread at once when the import is done, else once the worker is done
(the chart meanwhile says it is being drawn). The GUI thread never imports pyqtgraph
itself while the worker does (it would wait on the import's lock for the rest of it).

Only the import runs on the worker: pyqtgraph's import makes no Qt object (its widgets
are made on the GUI thread, by the charts). It does read every class of the Qt modules it
uses (it copies them into its own), and PySide6 makes a module's classes lazily, on their
first use: made on the worker while the GUI thread used Qt, that crashed the process now
and then (SIGSEGV, seen in ``benchmarks/exchange.py``). So the GUI thread first makes
those classes itself, :data:`CHUNK` names a turn, and the worker then finds them made.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import shiboken6
from PySide6 import QtCore, QtGui, QtWidgets
from PySide6.QtCore import QObject, QTimer

from carwars_desktop.gui import background

_Waiting = tuple[QObject, Callable[[], None]]


class _Import:
    """The one import of pyqtgraph in this process (see the module docstring)."""

    def __init__(self) -> None:
        self.started = False
        self.done = False
        self.waiting: list[_Waiting] = []

    def finished(self, _result: object = None) -> None:
        self.done = True
        waiting, self.waiting = self.waiting, []
        for receiver, callback in waiting:
            if shiboken6.isValid(receiver):  # (a chart closed meanwhile waits no more)
                callback()


_import = _Import()


def import_pyqtgraph(_job: background.Job) -> None:
    """The worker's part: numpy, then pyqtgraph (which imports numpy first anyway)."""
    import numpy  # noqa: F401

    pyqtgraph()


def pyqtgraph() -> Any:  # (pyqtgraph has no type hints)
    """pyqtgraph, for drawing: what :func:`import_pyqtgraph` imported on a worker ahead of
    need, or imported here and now when it has not yet (the one place it is imported)."""
    import pyqtgraph

    return pyqtgraph


def imported_already() -> bool:
    return "pyqtgraph" in sys.modules


def ready() -> bool:
    """pyqtgraph is imported: a chart can be drawn in this turn."""
    if not _import.done and not _import.started and imported_already():
        _import.done = True  # imported some other way already (a test, a benchmark)
    return _import.done


CHUNK = 60
"""Qt names whose classes the GUI thread makes in one turn (QtWidgets' 200-odd take
about 50 ms in all on a quiet laptop; on a busy machine a chunk of 150 was a fifth of
the 100 ms a turn may take, on top of the turn that asked for the charts)."""


def qt_modules() -> list[ModuleType]:
    """The PySide6 modules pyqtgraph's import reads whole (``pyqtgraph/Qt/__init__.py``);
    those it can do without when absent (its ``FailedImport``) only when present."""

    found: list[ModuleType] = [QtCore, QtGui, QtWidgets]
    with contextlib.suppress(ImportError):
        from PySide6 import QtSvg
        found.append(QtSvg)
    with contextlib.suppress(ImportError):
        from PySide6 import QtOpenGLWidgets
        found.append(QtOpenGLWidgets)
    with contextlib.suppress(ImportError):
        from PySide6 import QtTest
        found.append(QtTest)
    return found


def qt_classes() -> Iterator[int]:
    """Make the classes of :func:`qt_modules` on the calling (GUI) thread, a chunk of
    :data:`CHUNK` names per step; yields the count made in each step."""
    for module in qt_modules():
        names = dir(module)
        for start in range(0, len(names), CHUNK):
            chunk = names[start:start + CHUNK]
            for attribute in chunk:
                getattr(module, attribute)
            yield len(chunk)


def prepare() -> None:
    """Start importing pyqtgraph, unless it is imported or being imported: the Qt classes
    it reads are made on the GUI thread, a chunk a turn from the next turn on (not in
    the one that asked: a session opening, a workspace shown), then the import runs on
    a worker (see the module docstring)."""
    if ready() or _import.started:
        return
    _import.started = True
    steps = qt_classes()

    def step() -> None:
        if next(steps, None) is not None:
            QTimer.singleShot(0, step)
            return
        # A failed import is done too: the chart's own ``import pyqtgraph`` then raises
        # the real error on the GUI thread, as it always did.
        background.start(import_pyqtgraph, _import.finished, _import.finished)

    QTimer.singleShot(0, step)


def when_ready(receiver: QObject, callback: Callable[[], None]) -> bool:
    """Call ``callback`` on the GUI thread once pyqtgraph is imported: now (True) when it
    is, else from a later turn of the event loop (False), unless ``receiver`` is gone."""
    if ready():
        callback()
        return True
    _import.waiting.append((receiver, callback))
    prepare()
    return False
