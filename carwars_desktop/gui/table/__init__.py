"""The Table workspace: sessions, live record sheets, the clock and the session log."""

from carwars_desktop.gui.table.workspace import TableWorkspace

__all__ = ["TableWorkspace"]
