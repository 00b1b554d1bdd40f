"""File › Battle report…: a session's report (``services/report.py``) saved as HTML or
PDF, the players' copy unless the GM ticks "GM's copy"."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.gui.background import Cancelled, Job, run_with_progress
from carwars_desktop.gui.session_box import session_box
from carwars_desktop.services.report import BattleReport, ReportError, session_report
from carwars_desktop.services.report_html import report_html
from carwars_desktop.storage import Database, DatabaseError


class ReportDialog(QDialog):
    """Pick a session (the one at the Table first), the copy, and save."""

    def __init__(self, database: Database, current: int | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Battle report")
        self.database = database
        self.sessions = session_box(database, current)
        some = self.sessions.count() > 0
        self.gm_copy = QCheckBox("GM's copy (hidden information included)")
        self.gm_copy.setToolTip("Unticked: the players' copy, which shows what the session's "
                                "visibility settings let the players see")
        self.message = QLabel("" if some else "No session yet: start one at the Table.")
        self.message.setWordWrap(True)
        self.html_button = QPushButton("Save &HTML…")
        self.pdf_button = QPushButton("Save &PDF…")
        close = QPushButton("Close")
        for button in (self.html_button, self.pdf_button):
            button.setEnabled(some)
        self.html_button.clicked.connect(lambda: self.save("html"))
        self.pdf_button.clicked.connect(lambda: self.save("pdf"))
        close.clicked.connect(self.reject)
        form = QFormLayout()
        form.addRow("Session", self.sessions)
        form.addRow("", self.gm_copy)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        for button in (self.html_button, self.pdf_button, close):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.message)
        layout.addLayout(buttons)

    def save(self, kind: str, path: str | None = None) -> bool:
        """Write the chosen session's report as ``kind`` (``html`` or ``pdf``) to ``path``
        (asked when not given); True once written."""

        session_id = self.sessions.currentData()
        if session_id is None:
            return False
        if path is None:
            path, _ = QFileDialog.getSaveFileName(
                self, "Save the battle report", f"battle-report-{session_id}.{kind}",
                "Web pages (*.html)" if kind == "html" else "PDF files (*.pdf)")
            if not path:
                return False
        gm_copy = self.gm_copy.isChecked()
        database = self.database

        def read(job: Job) -> tuple[BattleReport, str]:
            # a long evening's events are read and told on a worker (never a frozen turn)
            report = session_report(database, int(session_id), gm_copy=gm_copy)
            job.check()
            return report, report_html(report) if kind == "html" else ""

        try:
            report, html = run_with_progress(self, "Battle report", read,
                                             "Reading the session's events…")
            if kind == "html":
                Path(path).write_bytes(html.encode("utf-8"))
            else:
                from carwars_desktop.gui.workshop.printing.report import write_report_pdf

                write_report_pdf(path, report)
        except Cancelled:
            self.message.setText("Not saved: cancelled")
            return False
        except (ReportError, DatabaseError, OSError) as error:
            self.message.setText(f"⚠ Not saved: {error}")
            return False
        self.message.setText(f"Saved {path}")
        return True
