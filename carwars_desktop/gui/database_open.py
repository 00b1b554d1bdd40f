"""Open the database at start-up; a bad file is explained and never overwritten.

A file that is not SQLite, is truncated, or was written by a newer version is
refused by the storage layer with the reason. Here the GM is told why (a dialog
and stderr) and chooses: open another file, start a new one, or quit; a file that
cannot be written may also be browsed read-only. Under ``--smoke`` nobody can
answer, so the reason goes to stderr and start-up fails.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from enum import Enum
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from carwars_desktop.gui.small_widgets import message_box
from carwars_desktop.storage.errors import ReadOnlyDatabaseError

if TYPE_CHECKING:
    from carwars_desktop.storage import Database, DatabaseError


class Choice(Enum):
    OPEN_OTHER = "open another file"
    START_NEW = "start a new database"
    BROWSE_READ_ONLY = "browse it read-only"
    QUIT = "quit"


def ask_with_dialog(parent: QWidget | None, error: DatabaseError) -> tuple[Choice, str | None]:
    """Show why the database cannot be used and ask what to do next."""
    box = message_box(parent, QMessageBox.Icon.Warning, "Cannot use this database", str(error),
                      "The file was left exactly as it is. What would you like to do?")

    browse = None
    if isinstance(error, ReadOnlyDatabaseError) and "browse" in str(error):
        browse = box.addButton("&Browse read-only", QMessageBox.ButtonRole.YesRole)
    open_other = box.addButton("Open another file…", QMessageBox.ButtonRole.AcceptRole)
    start_new = box.addButton("Start a new database…", QMessageBox.ButtonRole.ActionRole)
    box.addButton("Quit", QMessageBox.ButtonRole.RejectRole)
    box.exec()
    clicked = box.clickedButton()
    if browse is not None and clicked is browse:
        return Choice.BROWSE_READ_ONLY, ""
    if clicked is open_other:
        path, _ = QFileDialog.getOpenFileName(parent, "Open a Carwars database", "",
                                              "Carwars databases (*.sqlite3 *.db);;All files (*)")
        return (Choice.OPEN_OTHER, path) if path else (Choice.QUIT, None)
    if clicked is start_new:
        path, _ = QFileDialog.getSaveFileName(parent, "New Carwars database", "carwars.sqlite3",
                                              "Carwars databases (*.sqlite3)")
        return (Choice.START_NEW, path) if path else (Choice.QUIT, None)
    return Choice.QUIT, None


Asker = Callable[["DatabaseError"], tuple[Choice, str | None]]


def open_with_recovery(url: str | None, ask: Asker | None,
                       first_refusal: DatabaseError | None = None) -> Database | None:
    """Open ``url`` (None: the default database); on a bad one tell stderr and ``ask``.

    With no ``ask`` (``--smoke``) the first refusal gives up. ``first_refusal``: ``url``
    was refused already (opened on a worker after the first screen): ask at once.
    """

    from carwars_desktop.storage import DatabaseError, open_database, resolve_url

    read_only = False
    refused = first_refusal
    while True:
        resolved = url if read_only and url is not None else resolve_url(url, os.environ)
        try:
            if refused is not None:
                raise refused
            return open_database(resolved, read_only=read_only)
        except DatabaseError as error:
            if error is not first_refusal:
                print(f"carwars-desktop: {error}", file=sys.stderr, flush=True)
            refused = None
            if ask is None:
                return None
            choice, path = ask(error)
            read_only = choice is Choice.BROWSE_READ_ONLY
            if read_only:
                url = resolved  # the same file, browsed: every write shows why it failed
                continue
            if choice is Choice.QUIT or path is None:
                return None
            # A chosen file that already has content is opened as it is (and refused
            # again if it is bad): nothing here ever truncates or replaces a file.
            url = path
