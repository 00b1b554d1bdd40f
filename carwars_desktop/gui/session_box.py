"""The list of a database's sessions that the battle report and the replay pick from."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox

from carwars_desktop.storage import Database


def session_box(database: Database, current: int | None = None) -> QComboBox:
    """Every session, newest first, each as "#id title (date, running|finished, N events)"
    with its id as data; ``current`` (the one at the Table) chosen when it is there."""
    box = QComboBox()
    for info in sorted(database.game_sessions.all(), key=lambda i: -i.id):
        state = "running" if info.running else "finished"
        box.addItem(f"#{info.id} {info.title} ({info.created_at:%Y-%m-%d}, {state}, "
                    f"{info.event_count} events)", info.id)
    if current is not None and (found := box.findData(current)) >= 0:
        box.setCurrentIndex(found)
    return box
