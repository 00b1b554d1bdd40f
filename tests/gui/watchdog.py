"""A watchdog on the GUI thread: counts the event loop's stalls longer than 100 ms.

A QTimer fires every 10 ms while the loop turns; between two firings the GUI thread
should be idle or nearly so. A stall is a gap in which the GUI thread itself worked
(its own CPU time, ``time.thread_time``) longer than :data:`STALL_MS`: the window froze
because the GUI thread was busy. A gap in which the thread merely waited — for a core
on a busy machine, or for a worker to let go of the interpreter for a moment — is not
the app's freeze and is not counted, so the check holds on a loaded CI machine too.
Stalls are counted, never seconds of work: the scripted case may take as long as the
machine needs, as long as the window keeps answering.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QTimer

STALL_MS = 100.0
TICK_MS = 10


class Watchdog:
    def __init__(self) -> None:
        self.stalls: list[float] = []
        self.longest_gap = 0.0
        """The longest wall-clock gap (ms), busy or not: printed, never asserted."""
        self._last = time.perf_counter()
        self._last_busy = time.thread_time()
        self._timer = QTimer()
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now, busy = time.perf_counter(), time.thread_time()
        self.longest_gap = max(self.longest_gap, (now - self._last) * 1000)
        worked = (busy - self._last_busy) * 1000
        if worked > STALL_MS:
            self.stalls.append(worked)
        self._last, self._last_busy = now, busy

    def start(self) -> None:
        self._last, self._last_busy = time.perf_counter(), time.thread_time()
        self._timer.start()

    def stop(self) -> None:
        self._tick()
        self._timer.stop()


@contextmanager
def watching() -> Iterator[Watchdog]:
    """``with watching() as dog: …`` then ``assert dog.stalls == []``."""
    dog = Watchdog()
    dog.start()
    try:
        yield dog
    finally:
        dog.stop()
