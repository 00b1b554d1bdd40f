"""The benchmarks' meter of the GUI thread: how long the window was frozen while a job ran.

A QTimer fires every 10 ms while the event loop turns. Between two firings it records
the wall-clock gap (the longest the window did not answer: it includes the waits for a
core on a busy machine and for the interpreter lock) and the GUI thread's own CPU time
(``time.thread_time``: the work the GUI thread itself did, which is what the goal is
about: :data:`GOAL_MS`). The tests never time anything: they assert where the work runs
and how much of it the GUI thread does (tests/gui/offload.py); the figures and the goal
are here, printed with a pass or fail, never asserted.

    with watching() as dog:
        ...
    print(f"… {dog.verdict()}")
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QTimer

GOAL_MS = 100.0
"""The longest the GUI thread may itself work in one turn of its event loop."""
TICK_MS = 10


class Watchdog:
    def __init__(self) -> None:
        self.longest_gap = 0.0
        """The longest wall-clock gap between two turns (ms)."""
        self.busiest = 0.0
        """The most the GUI thread itself worked between two turns (ms of its CPU time)."""
        self.cpu = 0.0
        """The process's CPU time, every thread, inside the ``with`` (ms)."""
        self._cpu = time.process_time()
        self._last = time.perf_counter()
        self._last_busy = time.thread_time()
        self._timer = QTimer()
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now, busy = time.perf_counter(), time.thread_time()
        self.longest_gap = max(self.longest_gap, (now - self._last) * 1000)
        self.busiest = max(self.busiest, (busy - self._last_busy) * 1000)
        self._last, self._last_busy = now, busy

    def start(self) -> None:
        self._cpu = time.process_time()
        self._last, self._last_busy = time.perf_counter(), time.thread_time()
        self._timer.start()

    def stop(self) -> None:
        self._tick()
        self._timer.stop()
        self.cpu = (time.process_time() - self._cpu) * 1000

    @property
    def passed(self) -> bool:
        return self.busiest < GOAL_MS

    def verdict(self) -> str:
        """The GUI thread's longest turn against the goal, and the longest freeze."""
        return (f"GUI thread busy at most {self.busiest:6.0f} ms in one turn "
                f"(goal < {GOAL_MS:.0f} ms: {'pass' if self.passed else 'FAIL'}), "
                f"longest freeze {self.longest_gap:6.0f} ms")


@contextmanager
def watching() -> Iterator[Watchdog]:
    dog = Watchdog()
    dog.start()
    try:
        yield dog
    finally:
        dog.stop()
