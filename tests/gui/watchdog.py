"""A watchdog on the GUI thread: counts the event loop's stalls longer than 100 ms.

A QTimer fires every 10 ms while the loop turns; a gap between two firings longer
than :data:`STALL_MS` means the GUI thread was blocked that long (the window froze).
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
        self._last = time.perf_counter()
        self._timer = QTimer()
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now = time.perf_counter()
        gap = (now - self._last) * 1000
        if gap > STALL_MS:
            self.stalls.append(gap)
        self._last = now

    def start(self) -> None:
        self._last = time.perf_counter()
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
