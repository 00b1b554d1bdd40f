"""Workers of gui/background.py: Python's cyclic garbage collection never runs on one
(a collection there may free Qt objects off the GUI thread, and Qt aborts)."""

from __future__ import annotations

import gc
import sys
import threading
import weakref
from typing import Any

import pytest
import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, QObject
from PySide6.QtWidgets import QDialog

from carwars_desktop.gui.background import (
    WORKER_SWITCH_INTERVAL,
    Job,
    LatestOnly,
    collection_paused,
    start,
)


def _cycles(count: int) -> None:
    for _ in range(count):
        item: list[Any] = []
        item.append(item)


def test_garbage_is_collected_on_the_gui_thread_only(qtbot) -> None:  # type: ignore[no-untyped-def]
    threads: list[str] = []

    def seen(phase: str, _info: dict[str, int]) -> None:
        if phase == "start":
            threads.append(threading.current_thread().name)

    def work(_job: Job) -> int:
        _cycles(300_000)  # enough garbage for many collections, were they allowed here
        return 1

    done: list[int] = []
    failed: list[BaseException] = []
    gc.callbacks.append(seen)
    try:
        start(work, done.append, failed.append)
        qtbot.waitUntil(lambda: bool(done or failed), timeout=120_000)
        with collection_paused():
            _cycles(50_000)
        qtbot.waitUntil(gc.isenabled)  # the collection resumes on a later turn of the loop
        _cycles(50_000)
    finally:
        gc.callbacks.remove(seen)
    assert failed == [] and done == [1]
    assert threads, "the GUI thread collected once the worker had finished"
    assert set(threads) == {threading.main_thread().name}


def test_while_a_job_runs_the_interpreter_changes_threads_often(qtbot) -> None:  # type: ignore[no-untyped-def]
    """Each call from Qt into Python (a repaint makes hundreds) waits until a busy
    worker lets go of the interpreter: at most a short switch interval while a job
    runs, Python's own once none does."""
    before = sys.getswitchinterval()
    seen: list[float] = []
    release = threading.Event()

    def work(_job: Job) -> float:
        release.wait(30)
        return sys.getswitchinterval()

    done: list[float] = []
    start(work, done.append, seen.append)
    seen.append(sys.getswitchinterval())
    release.set()
    qtbot.waitUntil(lambda: bool(done), timeout=30_000)
    qtbot.waitUntil(lambda: sys.getswitchinterval() == before, timeout=5_000)
    assert seen[0] == done[0] == pytest.approx(WORKER_SWITCH_INTERVAL, abs=1e-6)
    assert before > WORKER_SWITCH_INTERVAL


class _Owner(QObject):
    """A parentless owner of a :class:`LatestOnly` (a dialog only Python holds)."""

    def __init__(self, seen: list[object]) -> None:
        super().__init__()
        self.seen = seen
        self.latest: LatestOnly[int] = LatestOnly(self)

    def got(self, result: int) -> None:
        self.seen.append(result)

    def failed(self, error: BaseException) -> None:
        self.seen.append(error)


def _blocked(release: threading.Event, ran: threading.Event) -> Any:
    def work(_job: Job) -> int:
        release.wait(30)
        ran.set()
        return 7
    return work


def _all_jobs_done(qtbot: Any) -> None:
    from carwars_desktop.gui import background

    qtbot.waitUntil(lambda: background._guard is None or background._guard.held == 0,
                    timeout=30_000)
    for _ in range(20):  # what was queued behind the job's end, processed
        QCoreApplication.processEvents()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)


def test_latest_only_never_keeps_a_parentless_owner_alive(qtbot) -> None:  # type: ignore[no-untyped-def]
    """The owner's bound methods are held weakly: the owner dropped while its job runs
    is gone at once, and nothing is delivered when the job ends."""
    seen: list[object] = []
    release, ran = threading.Event(), threading.Event()
    owner = _Owner(seen)
    owner.latest.submit(_blocked(release, ran), owner.got, owner.failed)
    gone = weakref.ref(owner)
    del owner
    gc.collect()
    try:
        assert gone() is None, "a pending job kept its parentless owner alive"
    finally:
        release.set()
    qtbot.waitUntil(ran.is_set, timeout=30_000)
    _all_jobs_done(qtbot)
    assert seen == []


def _holding(owner: QObject, seen: list[object]) -> tuple[Any, Any]:
    """Callbacks holding ``owner`` strongly (closures, not bound methods), and nothing
    else holding it: they are its last reference."""
    return (lambda result: seen.append((owner is not None, result)),
            lambda error: seen.append((owner is not None, error)))


def test_latest_only_with_a_closure_owning_its_owner_does_not_crash(qtbot) -> None:  # type: ignore[no-untyped-def]
    """A callback that holds the owner (a closure) may be its last reference: the
    owner is delivered to, then freed after the job, never from inside its own child
    (which crashed the app: the paste dialog)."""
    seen: list[object] = []
    release, ran = threading.Event(), threading.Event()
    owner = QDialog()
    latest: LatestOnly[int] = LatestOnly(owner)
    latest.submit(_blocked(release, ran), *_holding(owner, seen))
    gone = weakref.ref(owner)
    del owner, latest
    gc.collect()
    release.set()
    qtbot.waitUntil(ran.is_set, timeout=30_000)
    qtbot.waitUntil(lambda: bool(seen), timeout=30_000)
    assert seen == [(True, 7)]
    _all_jobs_done(qtbot)  # the job's signals deleted: the owner's last reference gone
    gc.collect()
    assert gone() is None


def test_latest_only_delivers_nothing_once_its_owner_is_deleted(qtbot) -> None:  # type: ignore[no-untyped-def]
    """An owner deleted by Qt (its window closed, deleteLater) while the job runs gets
    nothing, though Python still holds it."""
    seen: list[object] = []
    release, ran = threading.Event(), threading.Event()
    owner = _Owner(seen)
    owner.latest.submit(_blocked(release, ran), owner.got, owner.failed)
    latest = owner.latest
    shiboken6.delete(latest)
    release.set()
    qtbot.waitUntil(ran.is_set, timeout=30_000)
    _all_jobs_done(qtbot)
    assert seen == []
