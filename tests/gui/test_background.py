"""Workers of gui/background.py: Python's cyclic garbage collection never runs on one
(a collection there may free Qt objects off the GUI thread, and Qt aborts)."""

from __future__ import annotations

import gc
import sys
import threading
from typing import Any

import pytest

from carwars_desktop.gui.background import WORKER_SWITCH_INTERVAL, Job, collection_paused, start


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
