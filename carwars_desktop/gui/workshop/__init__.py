"""The Workshop and the vehicle library: design editors per ruleset, the library list,
design files, and printed record sheets."""

from carwars_desktop.gui.workshop.library_workspace import LibraryWorkspace
from carwars_desktop.gui.workshop.workshop_workspace import WorkshopWorkspace

__all__ = ["LibraryWorkspace", "WorkshopWorkspace"]
