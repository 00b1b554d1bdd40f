"""File › Connect to a club database…: the dialog, the recent connections, the password.

The settings file (QSettings) keeps the recent connections (host, port, database, user, TLS,
how the server is verified and signed in to) and whether the laptop was last on a club
database or on its own file; never a password. Passwords go to the system keyring
(:class:`~carwars_desktop.storage.credentials.PasswordStore`) when the GM ticks "Remember",
and only after a connection succeeded; with no keyring on this computer the dialog says that
the password is asked every time, and a keyring that refuses is said at once.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QGuiApplication, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.gui.background import Cancelled, run_with_progress
from carwars_desktop.gui.small_widgets import message_box
from carwars_desktop.storage.club import (
    DEFAULT_PORT,
    ClubConnection,
    ClubConnectionError,
    ClubUnreachableError,
    is_server_url,
    open_club_database,
)
from carwars_desktop.storage.credentials import PasswordNotKeptError, PasswordStore

if TYPE_CHECKING:
    from carwars_desktop.gui.background import Job
    from carwars_desktop.storage import Database
    from carwars_desktop.storage.club import ClubConnectionError
    from carwars_desktop.storage.credentials import PasswordStore

RECENT_KEY = "club/recent"
LAST_KIND_KEY = "database/last-kind"
LAST_CLUB_KEY = "club/last"
LAST_LOCAL_KEY = "database/last-local"
RECENT_MAX = 8
T = TypeVar("T")
CLUB, LOCAL = "club", "local"


class ClubSettings:
    """Recent connections and the last database, in the app's QSettings (no password)."""

    def __init__(self, settings: QSettings) -> None:
        self._settings = settings

    def recent(self) -> list[ClubConnection]:
        raw = self._settings.value(RECENT_KEY, "[]")
        try:
            values = json.loads(str(raw))
            return [ClubConnection.from_settings(v) for v in values if isinstance(v, dict)]
        except (ValueError, KeyError, TypeError):
            return []

    def remember(self, connection: ClubConnection) -> None:
        """``connection`` succeeded: first in the recent list, and the one to reopen."""
        recent = [connection, *(c for c in self.recent() if c.key != connection.key)]
        self._settings.setValue(RECENT_KEY, json.dumps(
            [c.to_settings() for c in recent[:RECENT_MAX]]))
        self._settings.setValue(LAST_CLUB_KEY, json.dumps(connection.to_settings()))
        self._settings.setValue(LAST_KIND_KEY, CLUB)
        self._settings.sync()

    def remember_local(self, url: str) -> None:
        self._settings.setValue(LAST_LOCAL_KEY, url)
        self._settings.setValue(LAST_KIND_KEY, LOCAL)
        self._settings.sync()

    def last_local(self) -> str | None:
        value = self._settings.value(LAST_LOCAL_KEY)
        return str(value) if value else None

    def startup_club(self) -> ClubConnection | None:
        """The club connection to reopen at start-up, if the laptop was last on one."""
        if self._settings.value(LAST_KIND_KEY) != CLUB:
            return None
        try:
            values: Any = json.loads(str(self._settings.value(LAST_CLUB_KEY, "")))
            return ClubConnection.from_settings(values)
        except (ValueError, KeyError, TypeError):
            return None


class ConnectDialog(QDialog):
    """Host, port, database, user, password, TLS; Test connection; recent connections."""

    def __init__(self, settings: ClubSettings, passwords: PasswordStore,
                 initial: ClubConnection | None = None, message: str = "",
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Connect to a club database")
        self._settings = settings
        self._passwords = passwords
        self._tls_touched = False
        self.database: Database | None = None

        self.recent_list = QListWidget()
        self.recent_list.setAccessibleName("Recent connections")
        for connection in settings.recent():
            item = QListWidgetItem(connection.display())
            item.setData(Qt.ItemDataRole.UserRole, connection)
            self.recent_list.addItem(item)
        self.recent_list.currentItemChanged.connect(self._recent_chosen)

        self.host_edit = QLineEdit()
        self.host_edit.setPlaceholderText("club.example.org")
        self.host_edit.textEdited.connect(self._host_edited)
        self.port_box = QSpinBox()
        self.port_box.setRange(1, 65535)
        self.port_box.setValue(DEFAULT_PORT)
        self.database_edit = QLineEdit("carwars")
        self.user_edit = QLineEdit()
        self.password_edit = QLineEdit()
        self.password_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.tls_box = QCheckBox("Require an encrypted connection (TLS)")
        self.tls_box.setChecked(True)
        self.tls_box.clicked.connect(self._tls_clicked)
        self.tls_box.toggled.connect(self._show_trust)
        self.verify_box = QCheckBox("Verify the server (its certificate or the club's CA file)")
        self.verify_box.setChecked(True)
        self.verify_box.setToolTip("Connect only to a server whose certificate the CA file "
                                   "signed (or, without one, a CA this computer trusts)")
        self.verify_box.toggled.connect(self._show_trust)
        self.ca_edit = QLineEdit()
        self.ca_edit.setPlaceholderText("none: the certificate authorities this computer trusts")
        self.ca_edit.setAccessibleName("CA file")
        self.ca_button = QPushButton("Choose…")
        self.ca_button.setToolTip("The club's CA file (or the server's certificate), from the "
                                  "club organiser")
        self.ca_button.clicked.connect(self._choose_ca_file)
        ca_row = QHBoxLayout()
        ca_row.setContentsMargins(0, 0, 0, 0)
        ca_row.addWidget(self.ca_edit, 1)
        ca_row.addWidget(self.ca_button)
        self.older_sign_in_box = QCheckBox(
            "Allow older sign-in methods (md5, clear text) for an old server")
        self.older_sign_in_box.toggled.connect(self._show_trust)
        self.trust_note = QLabel()
        self.trust_note.setWordWrap(True)
        self.remember_box = QCheckBox("Remember the password in this computer's keyring")
        self.keyring_note = QLabel()
        self.keyring_note.setWordWrap(True)
        self._keyring = passwords.keyring_title()
        self.remember_box.setChecked(self._keyring is not None)
        self.remember_box.setEnabled(self._keyring is not None)
        self.remember_box.toggled.connect(self._show_keyring)
        self._show_keyring()

        form = QFormLayout()
        form.addRow("Host:", self.host_edit)
        form.addRow("Port:", self.port_box)
        form.addRow("Database:", self.database_edit)
        form.addRow("User:", self.user_edit)
        form.addRow("Password:", self.password_edit)
        form.addRow("", self.tls_box)
        form.addRow("", self.verify_box)
        form.addRow("CA file:", ca_row)
        form.addRow("", self.older_sign_in_box)
        form.addRow("", self.trust_note)
        form.addRow("", self.remember_box)
        form.addRow("", self.keyring_note)

        self.result_label = QLabel(message)
        self.result_label.setWordWrap(True)
        self.result_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.test_button = QPushButton("Test connection")
        self.test_button.clicked.connect(self.test_connection)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.connect_button = buttons.addButton("Connect",
                                                QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.test_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.accepted.connect(self.connect_now)
        buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        if self.recent_list.count():
            layout.addWidget(QLabel("Recent connections:"))
            layout.addWidget(self.recent_list)
        layout.addLayout(form)
        layout.addWidget(self.result_label)
        layout.addWidget(buttons)
        self.keyring_problem: str | None = None
        """Why the password could not be kept after connecting (said to the GM at once)."""
        if initial is not None:
            self.fill(initial)
        self._show_trust()

    # --- fields --------------------------------------------------------------------------
    def fill(self, connection: ClubConnection) -> None:
        self.host_edit.setText(connection.host)
        self.port_box.setValue(connection.port)
        self.database_edit.setText(connection.database)
        self.user_edit.setText(connection.user)
        self.tls_box.setChecked(connection.require_tls)
        self.verify_box.setChecked(connection.verify_server)
        self.ca_edit.setText(connection.ca_file)
        self.older_sign_in_box.setChecked(not connection.scram_only)
        self._tls_touched = True
        self.password_edit.setText(self._passwords.get(connection.key) or "")

    def _recent_chosen(self, item: QListWidgetItem | None) -> None:
        if item is not None:
            self.fill(item.data(Qt.ItemDataRole.UserRole))

    def _host_edited(self, host: str) -> None:
        if not self._tls_touched:
            self.tls_box.setChecked(ClubConnection.tls_by_default(host))

    def _tls_clicked(self) -> None:
        self._tls_touched = True

    def _show_keyring(self) -> None:
        """The note under "Remember" says where the password is kept, or that it is not."""
        if self._keyring is None:
            text = ("This computer has no keyring: the password will not be saved. It is "
                    "asked every time you connect, and never written down.")
        elif self.remember_box.isChecked():
            text = (f"The password is kept in {self._keyring} once the connection works, "
                    "never in the database or the app's settings.")
        else:
            text = ("The password will not be saved: it is asked every time you connect "
                    f"(and removed from {self._keyring} when you connect).")
        self.keyring_note.setText(text)
        self._fit_height()

    def _show_trust(self) -> None:
        """The verification fields follow the TLS box; the note says what the choice risks."""
        tls = self.tls_box.isChecked()
        verify = tls and self.verify_box.isChecked()
        self.verify_box.setEnabled(tls)
        self.ca_edit.setEnabled(verify)
        self.ca_button.setEnabled(verify)
        risks = []
        if not tls:
            risks.append("TLS is not required: what is sent may travel unencrypted, and any "
                         "computer on the network can answer in the server's place. Only "
                         "for a server on this computer or a network you trust.")
        elif not verify:
            risks.append("The server is not verified: the connection is encrypted, but to "
                         "whichever server answers, which may not be the club's.")
        if self.older_sign_in_box.isChecked():
            risks.append("Older sign-in methods: the password is sent in clear text or as "
                         "md5 to whichever server asks for it, which can read or replay it. "
                         "Only for a club server too old for scram-sha-256.")
        self.trust_note.setText("⚠ " + " ".join(risks) if risks else "")
        self.trust_note.setVisible(bool(risks))
        self._fit_height()

    def _fit_height(self) -> None:
        """At least tall enough for the wrapped notes at the window's width, the recent list
        at its least (a window does not follow its layout's height-for-width by itself: the
        warning's last lines were cut off)."""
        layout = self.layout()
        if layout is None or not self.isVisible():
            return
        recent = self.recent_list
        spare = (recent.sizeHint().height() - recent.minimumSizeHint().height()
                 if recent.isVisible() else 0)
        layout.invalidate()  # a note's new text: the form's cached heights are stale, and
        layout.activate()  # activating redoes them (the form's too)
        self.setMinimumHeight(max(layout.minimumSize().height(),
                                  layout.totalHeightForWidth(self.width()) - max(spare, 0)))

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        self._fit_height()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self._fit_height()

    def _choose_ca_file(self) -> None:
        chosen, _filter = QFileDialog.getOpenFileName(
            self, "The club's CA file", self.ca_edit.text(),
            "Certificates (*.crt *.pem *.cer);;All files (*)")
        if chosen:
            self.ca_edit.setText(chosen)

    def connection(self) -> ClubConnection:
        return ClubConnection(host=self.host_edit.text().strip(),
                              database=self.database_edit.text().strip(),
                              user=self.user_edit.text().strip(), port=self.port_box.value(),
                              require_tls=self.tls_box.isChecked(),
                              verify_server=self.verify_box.isChecked(),
                              ca_file=self.ca_edit.text().strip(),
                              scram_only=not self.older_sign_in_box.isChecked())

    def _missing(self) -> str | None:
        connection = self.connection()
        for name, value in (("host", connection.host), ("database", connection.database),
                            ("user", connection.user)):
            if not value:
                return f"Fill in the {name}."
        return None

    # --- actions -------------------------------------------------------------------------
    def _off_the_gui_thread(self, title: str, work: Callable[[Job], T]) -> T | None:
        """``work`` (a connection: up to the connect timeout when the server does not
        answer) on a worker thread behind a progress dialog, the window answering
        meanwhile; ``None`` (and said so) when the GM cancelled."""

        QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            return run_with_progress(self, title, work,
                                     f"Connecting to {self.connection().host}…")
        except Cancelled:
            self.result_label.setText(f"{title}: cancelled.")
            return None
        finally:
            QGuiApplication.restoreOverrideCursor()

    def test_connection(self) -> bool:
        # (looked up when called: a test watches which thread runs it)
        from carwars_desktop.storage.club import check_connection

        missing = self._missing()
        if missing:
            self.result_label.setText(missing)
            return False
        connection, password = self.connection(), self.password_edit.text()
        try:
            check = self._off_the_gui_thread(
                "Test connection", lambda job: check_connection(connection, password))
        except ClubConnectionError as error:
            self.result_label.setText(f"⚠ {error}")
            return False
        if check is None:
            return False
        self.result_label.setText(f"✓ {check.summary()}")
        return True

    def connect_now(self) -> bool:
        """Open the club database; on success keep the connection (and maybe the password)."""

        missing = self._missing()
        if missing:
            self.result_label.setText(missing)
            return False
        connection = self.connection()
        password = self.password_edit.text()
        def opening(job: Job) -> Database:
            database = open_club_database(connection, password)
            if job.cancelled:  # the GM cancelled while it connected: not connected
                database.close()
                job.check()
            return database

        try:
            database = self._off_the_gui_thread("Connect", opening)
        except ClubConnectionError as error:
            self.result_label.setText(f"⚠ {error}")
            return False
        if database is None:
            return False
        self.database = database
        self._settings.remember(connection)
        if self.remember_box.isChecked() and password:
            self._keep_password(connection, password)
        elif not self.remember_box.isChecked():
            self._passwords.delete(connection.key)
        self.password_edit.clear()
        self.accept()
        return True

    def _keep_password(self, connection: ClubConnection, password: str) -> None:
        try:
            self._passwords.set(connection.key, password)
        except PasswordNotKeptError as error:
            self.keyring_problem = (
                f"Connected, but the password could not be kept: this computer's keyring "
                f"refused it ({error}). At the next start the app asks for it again, in "
                "File › Connect to a club database….")
            QMessageBox.warning(self, "Password not kept", self.keyring_problem)


# --- start-up -------------------------------------------------------------------------------
@dataclass(frozen=True)
class StartupPlan:
    connection: ClubConnection | None
    """The club to start on: the --db URL when it names a server, else the last one used."""
    password: str | None
    local_url: str | None
    """What to open when there is no club, or the GM takes the local database instead."""


def startup_plan(hint: str | None, settings: ClubSettings) -> StartupPlan:
    if hint is not None and "://" in hint and is_server_url(hint):
        from sqlalchemy.engine import make_url

        return StartupPlan(ClubConnection.from_url(hint), make_url(hint).password,
                           settings.last_local())
    if hint is not None:
        return StartupPlan(None, None, hint)
    club = settings.startup_club()
    if club is None:
        return StartupPlan(None, None, settings.last_local())
    return StartupPlan(club, PasswordStore().get(club.key), settings.last_local())


Connect = Callable[[ClubConnection, str, bool], "Database | None"]


def open_startup_club(plan: StartupPlan, interactive: bool, connect: Connect,
                      offer_local: Callable[[ClubConnectionError], bool],
                      ) -> tuple[Database | None, bool]:
    """(the club database, or None; whether to open ``plan.local_url`` instead).

    An unreachable server is said (stderr, and ``offer_local`` asks the GM); another refusal
    reopens the dialog with the reason (under ``--smoke``: start-up fails).
    """

    connection = plan.connection
    if connection is None:
        return None, True
    if plan.password is None and interactive and not PasswordStore().available():
        database = connect(connection, "This computer has no keyring: enter the password "
                           f"for {connection.display()}.", False)
        return database, database is None
    try:
        return open_club_database(connection, plan.password), False
    except ClubUnreachableError as error:
        print(f"carwars-desktop: {error}", file=sys.stderr, flush=True)
        return None, offer_local(error)
    except ClubConnectionError as error:
        print(f"carwars-desktop: {error}", file=sys.stderr, flush=True)
        if not interactive:
            return None, False
        database = connect(connection, f"⚠ {error}", False)
        return database, database is None


def offer_local_database(parent: QWidget, error: ClubConnectionError, local: str) -> bool:
    """Say the club server is unreachable; True: the GM takes the local database (``local``)."""
    box = message_box(parent, QMessageBox.Icon.Warning, "The club server cannot be reached",
                      str(error), f"Open your local database ({local}) instead?")
    open_local = box.addButton("Open the local database", QMessageBox.ButtonRole.AcceptRole)
    box.addButton("Quit", QMessageBox.ButtonRole.RejectRole)
    box.exec()
    return box.clickedButton() is open_local
