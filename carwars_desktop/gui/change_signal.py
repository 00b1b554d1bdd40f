"""The change bus, heard on the GUI thread: a Qt signal re-emitting every published change."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from carwars_desktop.services import ChangeBus, Changes


class ChangeSignal(QObject):
    """Subscribes to ``bus`` for as long as it lives; :attr:`changed` carries each
    :class:`~carwars_desktop.services.Changes`. Slots of objects living on the GUI
    thread get it there even when it was published from another thread (Qt queues it)."""

    changed = Signal(object)

    def __init__(self, bus: ChangeBus, parent: QObject | None = None) -> None:
        super().__init__(parent)
        unsubscribe = bus.subscribe(self._heard)
        self.destroyed.connect(lambda *_args: unsubscribe())

    def _heard(self, changes: Changes) -> None:
        self.changed.emit(changes)
