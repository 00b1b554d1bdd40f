"""The event loop's pending work done, no time waited (instead of ``qtbot.wait(ms)``)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent

ROUNDS = 5
"""Each round delivers what the one before posted (a layout request posts a resize, a
resize a repaint…); a few rounds settle any widget tree."""


def settle() -> None:
    """Deliver every posted event (layout requests, queued signals, zero-time timers,
    deferred deletes) and what those post in turn."""
    for _ in range(ROUNDS):
        QCoreApplication.sendPostedEvents()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        QCoreApplication.processEvents()
