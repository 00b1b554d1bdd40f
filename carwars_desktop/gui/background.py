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
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from PySide6.QtCore import QEventLoop, QObject, QRunnable, Qt, QThreadPool, QTimer, Signal
from PySide6.QtWidgets import QProgressDialog, QWidget

T = TypeVar("T")

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


class _Task(QRunnable, Generic[T]):
    def __init__(self, work: Callable[[Job], T], job: Job, signals: _Signals) -> None:
        super().__init__()
        self.setAutoDelete(True)
        self._work = work
        self._job = job
        self._signals = signals

    def run(self) -> None:
        try:
            self._job.check()
            result = self._work(self._job)
        except BaseException as error:  # noqa: BLE001 (handed to the GUI thread)
            self._emit(self._signals.failed, error)
        else:
            self._emit(self._signals.finished, result)

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
          parent: QObject | None = None) -> Job:
    """Run ``work`` on a worker thread; ``on_done``/``on_error`` run on the GUI thread."""
    job = job or Job()
    signals = _Signals(parent)

    def finished(result: Any) -> None:
        signals.deleteLater()
        on_done(result)

    def failed(error: Any) -> None:
        signals.deleteLater()
        on_error(error)

    signals.finished.connect(finished, Qt.ConnectionType.QueuedConnection)
    signals.failed.connect(failed, Qt.ConnectionType.QueuedConnection)
    _pool().start(_Task(work, job, signals))
    return job


def wait_for_workers() -> None:
    """Block until every started job has finished (at shutdown, before the database
    closes and the interpreter exits)."""
    QThreadPool.globalInstance().waitForDone()


class LatestOnly(QObject, Generic[T]):
    """Requests of which only the newest counts (see the module docstring)."""

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

        def done(result: T) -> None:
            if generation == self._generation:
                self.busy = False
                on_done(result)

        def error(failure: BaseException) -> None:
            if generation == self._generation and not isinstance(failure, Cancelled):
                self.busy = False
                on_error(failure)

        self._job = start(work, done, error, parent=self)

    def supersede(self) -> None:
        """Forget the pending request (its result, if any, is dropped)."""
        self._generation += 1
        self.busy = False
        if self._job is not None:
            self._job.cancel()
            self._job = None


def run_with_progress(parent: QWidget | None, title: str, work: Callable[[Job], T],
                      label: str = "") -> T:
    """Run ``work`` on a worker thread behind a modal progress dialog with Cancel.

    The GUI thread keeps turning its event loop meanwhile (the window repaints, the
    watchdog in the tests sees no stall). Returns the result; raises :class:`Cancelled`
    when the GM cancelled, or the exception the work raised.
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
    dialog.canceled.connect(job.cancel)
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
    start(work, done, failed, job, parent=dialog)
    loop.exec()
    timer.stop()
    dialog.close()
    dialog.deleteLater()
    if "error" in outcome:
        raise outcome["error"]
    result: T = outcome["result"]  # finished before Cancel was seen: it counts
    return result
