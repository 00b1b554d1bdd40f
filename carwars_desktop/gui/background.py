"""Work off the GUI thread: a slow computation never freezes the window.

* :class:`LatestOnly` — for work that follows what the GM types (exact odds): each
  request supersedes the one before; a superseded result is dropped, and a request
  still waiting for the thread is skipped without running.
* :func:`run_with_progress` — for a long job the GM started (import, export, a big
  session's charts): a progress dialog with Cancel while the job runs on a worker
  thread; the caller gets the result, or :class:`Cancelled`, or the job's exception.

The work functions are Qt-free; they report through a :class:`Job`, whose
:meth:`Job.progress` raises :class:`Cancelled` once Cancel was pressed (so a job
stops at its next report, and a storage transaction rolls back).

Python's cyclic garbage collection never runs on a worker (:class:`_CollectionGuard`):
it is paused from the moment a job is started until the last one has finished, and
across a whole import or export (:func:`collection_paused`), so it resumes on the GUI
thread only, once the large values of the job are gone. Meanwhile the interpreter
hands its lock between threads ten times as often (:data:`WORKER_SWITCH_INTERVAL`),
so the GUI thread, which needs it for every call from Qt into Python, never queues
behind a busy worker for long.
"""

from __future__ import annotations

import contextlib
import gc
import inspect
import sys
import threading
import weakref
from collections.abc import Callable, Iterator
from typing import Any, Generic, TypeVar

import shiboken6
from PySide6.QtCore import (
    QCoreApplication,
    QEventLoop,
    QObject,
    QRunnable,
    Qt,
    QThreadPool,
    QTimer,
    Signal,
)
from PySide6.QtWidgets import QProgressDialog, QWidget

T = TypeVar("T")

WORKER_SWITCH_INTERVAL = 0.0001
"""Seconds, :func:`sys.setswitchinterval` while a job runs (Python's default: 0.005).

Each call from Qt into Python (a model's ``data()``, a paint, a timer) needs the
interpreter lock; while a worker runs Python, every one of them waits until the worker
is told to let go, up to one switch interval. A repaint makes hundreds of such calls, so
with the default the window froze for a second during a 20,000-design import while the
GUI thread itself worked under 100 ms (``benchmarks/exchange.py``: longest freeze
1,049 ms with 5 ms, 222–251 ms with 0.5 ms, 100 ms — the GUI thread's own work — with
0.1 ms, the import as fast)."""

SHOW_PROGRESS_AFTER_MS = 300
"""A job quicker than this never shows its progress dialog (no flicker)."""


class Cancelled(Exception):  # noqa: N818 (it is an event, not a fault)
    """The GM cancelled the job (or a newer request superseded it)."""


class Job:
    """What a work function gets: progress reports and the cancel flag, both thread-safe."""

    def __init__(self) -> None:
        self._cancelled = threading.Event()
        self._lock = threading.Lock()
        self._done = 0
        self._total = 0
        self._text = ""

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    def cancel(self) -> None:
        self._cancelled.set()

    def check(self) -> None:
        """Raise :class:`Cancelled` if the job was cancelled."""
        if self._cancelled.is_set():
            raise Cancelled

    def progress(self, done: int, total: int, text: str = "") -> None:
        """Report ``done`` of ``total`` (and what is being done); raise if cancelled."""
        with self._lock:
            self._done, self._total = done, total
            if text:
                self._text = text
        self.check()

    def state(self) -> tuple[int, int, str]:
        with self._lock:
            return self._done, self._total, self._text


class _Signals(QObject):
    finished = Signal(object)
    failed = Signal(object)


class _CollectionGuard(QObject):
    """No cyclic garbage collection while a worker runs, and a short switch interval
    (:data:`WORKER_SWITCH_INTERVAL`).

    A collection starts on whichever thread happens to allocate; on a worker it may free
    Qt objects (a closed window's widgets, left in a reference cycle) off the GUI thread,
    and Qt aborts. A collection on a worker also holds the interpreter lock for as long
    as it scans, the window frozen meanwhile. So automatic collection is off from the
    moment a job is started (on the GUI thread) until the last one has finished; it
    resumes on the GUI thread, on a later turn of its event loop (queued), when what the
    job handed over has been dealt with: the first collection then scans only what is
    still alive. Everything alive when the first job starts (the modules, the windows
    built at start-up) is moved out of later collections (``gc.freeze``), so that a full
    collection scans the objects made since, not the whole app. Meanwhile the youngest
    generation is collected on the GUI thread, by a timer, at Python's own threshold
    (each such collection scans only what was made since the last one, a few
    milliseconds); the older ones wait until automatic collection resumes (the middle
    one holds what a busy worker's data survived: scanning it took 15–40 ms a turn).

    A job whose result is kept (a huge design read for editing: hundreds of thousands
    of objects, alive as long as it is open) is ``kept``: while one runs nothing is
    collected (any collection would scan what the job made so far, on the GUI thread:
    a JSON decoder makes a hundred thousand objects between two turns of the timer),
    and when it has finished everything alive is frozen out of later collections, its
    result included (freed all the same, by reference counting, once nothing refers to
    it).
    """

    released = Signal()
    INTERVAL_MS = 25

    def __init__(self) -> None:
        super().__init__(QCoreApplication.instance())
        self.held = 0
        self.keeping = 0
        self._enable_after = gc.isenabled()
        self._switch_interval = sys.getswitchinterval()
        gc.freeze()
        self.released.connect(self._release, Qt.ConnectionType.QueuedConnection)
        self._timer = QTimer(self)
        self._timer.setInterval(self.INTERVAL_MS)
        self._timer.timeout.connect(self._collect_young)

    def hold(self, kept: bool = False) -> None:
        """Called on the GUI thread; :attr:`released` (from any thread) undoes it, and
        :meth:`kept_done` (on the GUI thread) the ``kept``."""
        self.keeping += kept
        if self.held == 0:
            self._enable_after = gc.isenabled()
            gc.disable()
            if self._enable_after:
                self._timer.start()
            self._switch_interval = sys.getswitchinterval()
            sys.setswitchinterval(min(self._switch_interval, WORKER_SWITCH_INTERVAL))
        self.held += 1

    def _release(self) -> None:
        self.held -= 1
        if self.held == 0:
            self._timer.stop()
            sys.setswitchinterval(self._switch_interval)
            if self._enable_after:
                gc.enable()

    def kept_done(self) -> None:
        """A kept job has finished (on the GUI thread, before its result is handed on)."""
        self.keeping -= 1
        gc.freeze()

    BURST = 100_000
    """More young objects than this, made within one interval, are a burst: a worker
    parsed a file (the C parser makes a whole document's lists and objects while it
    holds the interpreter). Scanning them would take the GUI thread a tenth of a second;
    they are data, freed by reference counting, so they are moved out of later
    collections (``gc.freeze``, which scans nothing) instead."""

    def _collect_young(self) -> None:
        youngest = gc.get_count()[0]
        if youngest > self.BURST:
            gc.freeze()
            return
        if youngest > gc.get_threshold()[0] and not self.keeping:
            gc.collect(0)


_guard: _CollectionGuard | None = None


def _collection_guard() -> _CollectionGuard:
    global _guard  # noqa: PLW0603 (one per application, made when first needed)
    if _guard is None:
        _guard = _CollectionGuard()
    return _guard


@contextlib.contextmanager
def collection_paused() -> Iterator[None]:
    """No cyclic garbage collection inside (on the GUI thread), nor until the event loop
    has turned once after: around an import or export, whose jobs hand large values to
    the GUI thread (see :class:`_CollectionGuard`)."""
    guard = _collection_guard()
    guard.hold()
    try:
        yield
    finally:
        guard.released.emit()  # queued: after the caller's values are gone


class _Task(QRunnable, Generic[T]):
    def __init__(self, work: Callable[[Job], T], job: Job, signals: _Signals,
                 guard: _CollectionGuard) -> None:
        super().__init__()
        self.setAutoDelete(True)
        self._work = work
        self._job = job
        self._signals = signals
        self._guard = guard

    def run(self) -> None:
        try:
            self._job.check()
            result = self._work(self._job)
        except BaseException as error:  # noqa: BLE001 (handed to the GUI thread)
            self._emit(self._signals.failed, error)
        else:
            self._emit(self._signals.finished, result)
        finally:
            self._guard.released.emit()  # queued: collection resumes on the GUI thread

    @staticmethod
    def _emit(signal: Any, value: object) -> None:
        with contextlib.suppress(RuntimeError):  # the receiver's parent is gone: nobody waits
            signal.emit(value)


def _pool() -> QThreadPool:
    pool = QThreadPool.globalInstance()
    if pool.maxThreadCount() < 2:
        pool.setMaxThreadCount(2)
    return pool


def start(work: Callable[[Job], T], on_done: Callable[[T], None],
          on_error: Callable[[BaseException], None], job: Job | None = None,
          parent: QObject | None = None, kept: bool = False) -> Job:
    """Run ``work`` on a worker thread; ``on_done``/``on_error`` run on the GUI thread.
    ``kept``: its result is large and kept long (see :class:`_CollectionGuard`)."""
    job = job or Job()
    signals = _Signals(parent)
    guard = _collection_guard()

    def finished(result: Any) -> None:
        signals.deleteLater()
        if kept:
            guard.kept_done()
        on_done(result)

    def failed(error: Any) -> None:
        signals.deleteLater()
        if kept:
            guard.kept_done()
        on_error(error)

    signals.finished.connect(finished, Qt.ConnectionType.QueuedConnection)
    signals.failed.connect(failed, Qt.ConnectionType.QueuedConnection)
    guard.hold(kept)
    _pool().start(_Task(work, job, signals, guard))
    return job


def wait_for_workers() -> None:
    """Block until every started job has finished (at shutdown, before the database
    closes and the interpreter exits)."""
    QThreadPool.globalInstance().waitForDone()


def _held_weakly(callback: Callable[[Any], None]) -> Callable[[Any], None]:
    """``callback``, holding its object weakly if it is a bound method (a call once the
    object is gone does nothing)."""
    if not inspect.ismethod(callback):
        return callback
    method = weakref.WeakMethod(callback)

    def call(value: Any) -> None:
        if (bound := method()) is not None:
            bound(value)

    return call


class LatestOnly(QObject, Generic[T]):
    """Requests of which only the newest counts (see the module docstring).

    Safe with an owner that has no parent (a dialog only Python holds): the callbacks
    given as bound methods are held weakly, so a pending job never keeps its owner
    alive, and nothing is delivered once this object is gone (deleted with its owner).
    A job's signals object is the application's child, not this one's: a callback that
    does hold its owner (a closure) can be the owner's last reference without the owner
    then being deleted from inside the destruction of its own child (which crashed)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._generation = 0
        self._job: Job | None = None
        self.busy = False

    def submit(self, work: Callable[[Job], T], on_done: Callable[[T], None],
               on_error: Callable[[BaseException], None]) -> None:
        self.supersede()
        generation = self._generation
        self.busy = True
        me = weakref.ref(self)
        delivered = _held_weakly(on_done)
        failed = _held_weakly(on_error)

        def current() -> LatestOnly[T] | None:
            latest = me()
            if latest is None or not shiboken6.isValid(latest) \
                    or generation != latest._generation:
                return None
            return latest

        def done(result: T) -> None:
            if (latest := current()) is not None:
                latest.busy = False
                delivered(result)

        def error(failure: BaseException) -> None:
            if not isinstance(failure, Cancelled) and (latest := current()) is not None:
                latest.busy = False
                failed(failure)

        # The job's signals are the application's children (deleted on the GUI thread
        # once delivered), not this object's: see the class docstring.
        self._job = start(work, done, error, parent=QCoreApplication.instance())

    def supersede(self) -> None:
        """Forget the pending request (its result, if any, is dropped)."""
        self._generation += 1
        self.busy = False
        if self._job is not None:
            self._job.cancel()
            self._job = None


def run_with_progress(parent: QWidget | None, title: str, work: Callable[[Job], T],
                      label: str = "", kept: bool = False, cancellable: bool = True) -> T:
    """Run ``work`` on a worker thread behind a modal progress dialog with Cancel.

    The GUI thread keeps turning its event loop meanwhile (the window repaints and
    answers: tests/gui/offload.py checks it, benchmarks/gui_watchdog.py measures it).
    Returns the result; raises :class:`Cancelled` when the GM cancelled, or the
    exception the work raised. Not ``cancellable``: the
    dialog has no Cancel (a write the GM made that must finish: it is never
    :class:`Cancelled`).
    """
    job = Job()
    outcome: dict[str, Any] = {}
    loop = QEventLoop()

    def done(result: T) -> None:
        outcome["result"] = result
        loop.quit()

    def failed(error: BaseException) -> None:
        outcome["error"] = error
        loop.quit()

    dialog = QProgressDialog(label or title, "Cancel", 0, 0, parent)
    dialog.setWindowTitle(title)
    dialog.setWindowModality(Qt.WindowModality.WindowModal)
    dialog.setMinimumDuration(SHOW_PROGRESS_AFTER_MS)
    dialog.setAutoReset(False)
    dialog.setAutoClose(False)
    if cancellable:
        dialog.canceled.connect(job.cancel)
    else:
        dialog.setCancelButton(None)
    timer = QTimer(dialog)
    timer.setInterval(50)

    def update() -> None:
        done_count, total, text = job.state()
        if total:
            dialog.setMaximum(total)
            dialog.setValue(min(done_count, total))
        if text:
            dialog.setLabelText(text)

    timer.timeout.connect(update)
    timer.start()
    start(work, done, failed, job, parent=dialog, kept=kept)
    loop.exec()
    timer.stop()
    dialog.close()
    dialog.deleteLater()
    if "error" in outcome:
        raise outcome["error"]
    result: T = outcome["result"]  # finished before Cancel was seen: it counts
    return result
