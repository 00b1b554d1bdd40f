"""Fixtures for the Library and Workshop: the real main window on a fresh database."""

from __future__ import annotations

import pytest

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.workshop import LibraryWorkspace, WorkshopWorkspace


@pytest.fixture
def library(window: MainWindow) -> LibraryWorkspace:
    workspace = next(w for w in window.workspaces if isinstance(w, LibraryWorkspace))
    workspace.warnings = []  # type: ignore[attr-defined]
    workspace.warn = lambda _parent, title, text: workspace.warnings.append(text)  # type: ignore[attr-defined]
    workspace.confirm = lambda *_args: True
    return workspace


@pytest.fixture
def workshop(window: MainWindow) -> WorkshopWorkspace:
    return next(w for w in window.workspaces if isinstance(w, WorkshopWorkspace))
