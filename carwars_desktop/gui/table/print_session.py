"""Print the session: every vehicle's sheet as it stands (or blank), so the game can go on on
paper when the battery dies, or be kept. All vehicles or one; one or several sheets to a page
(as the ruleset allows); print preview (the printer's page setup) or a PDF on A4 or Letter."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QLocale
from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QLabel,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.gui.elided_combo import ElidedComboBox
from carwars_desktop.gui.rulesets import ruleset_ui
from carwars_desktop.gui.workshop.printing.live import SheetToPrint
from carwars_desktop.gui.workshop.printing.preview import SessionPrintPreview
from carwars_desktop.gui.workshop.printing.session import SessionPrint, write_session_pdf
from carwars_desktop.session import Game
from carwars_desktop.session.house_rules import HouseRules


def house_rules_words(game: Game) -> str:
    """What the footer says of the session's house rules: its profile and what it changes."""
    return HouseRules.of(game.settings).words(game.ruleset)


@dataclass(frozen=True)
class PrintChoice:
    """What the GM chose: one vehicle's key or all (``None``), blank or as it stands, the
    sheets per page, the paper of a PDF."""

    vehicle: str | None = None
    blank: bool = False
    per_page: int = 1
    paper: str = "A4"


def default_paper() -> str:
    """Letter where the locale measures in inches (the US), A4 elsewhere."""
    imperial = QLocale().measurementSystem() == QLocale.MeasurementSystem.ImperialUSSystem
    return "Letter" if imperial else "A4"


def session_job(game: Game, title: str, choice: PrintChoice,
                house_rules: str | None = None) -> SessionPrint:
    """The sheets to print of ``game`` as ``choice`` says (the footer names the session's
    house rules unless ``house_rules`` is given)."""

    ruleset = game.ruleset
    rules = ruleset.play()
    # A blank sheet is the sheet a vehicle enters play with under the session's house
    # rules (MCW-D15 shots, D19 links, D28 the empty turret), as the session made them.
    options = ruleset.house_options(game.house)
    when = "blank, as they enter play" if choice.blank else f"as it stands, {game.clock}"
    sheets = []
    for vehicle in game.vehicles:
        if choice.vehicle is not None and vehicle.key != choice.vehicle:
            continue
        if choice.blank:
            sheet = ruleset.sheet_under(ruleset.design_from_json(vehicle.design), options)
        else:
            sheet = game.sheet(vehicle.key)
        sheets.append((ruleset.id, SheetToPrint(vehicle.name, vehicle.player, sheet, rules,
                                                choice.blank,
                                                "blank" if choice.blank
                                                else f"as it stands · {game.clock}")))
    return SessionPrint(title, when,
                        house_rules if house_rules is not None else house_rules_words(game),
                        tuple(sheets), choice.per_page)


class PrintSessionDialog(QDialog):
    """The choices, then a print preview or a PDF (see the module docstring)."""

    def __init__(self, game: Game, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.game = game
        self.session_title = title
        self.setWindowTitle("Print session")
        self.preview_dialog: QWidget | None = None
        self.vehicle_box = ElidedComboBox()
        self.vehicle_box.setAccessibleName("Which vehicles")
        self.vehicle_box.addItem("All vehicles", None)
        for vehicle in game.vehicles:
            player = f" ({vehicle.player})" if vehicle.player else ""
            self.vehicle_box.addItem(f"{vehicle.name}{player}", vehicle.key)
        self.current_button = QRadioButton("As they stand now (damage, weapons, crew, speed)")
        self.blank_button = QRadioButton("Blank, as they entered play")
        self.current_button.setChecked(True)
        self.state_group = QButtonGroup(self)
        self.state_group.addButton(self.current_button)
        self.state_group.addButton(self.blank_button)
        self.layout_box = ElidedComboBox()
        self.layout_box.setAccessibleName("Sheets per page")
        for count in ruleset_ui(game.ruleset.id).sheet_layouts:
            self.layout_box.addItem("One sheet per page" if count == 1
                                    else f"{count} sheets per page", count)
        self.paper_box = ElidedComboBox()
        self.paper_box.setAccessibleName("Paper of the PDF")
        self.paper_box.addItems(["A4", "Letter"])
        self.paper_box.setCurrentText(default_paper())
        self.message = QLabel()
        self.message.setWordWrap(True)
        form = QFormLayout()
        form.addRow("Vehicles:", self.vehicle_box)
        form.addRow("Sheets:", self.current_button)
        form.addRow("", self.blank_button)
        form.addRow("Layout:", self.layout_box)
        form.addRow("PDF paper:", self.paper_box)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.preview_button = QPushButton("Print &preview…")
        self.preview_button.setToolTip("Print from Qt's preview: paper and margins follow "
                                       "the printer's page setup")
        self.pdf_button = QPushButton("Save as P&DF…")
        buttons.addButton(self.preview_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.pdf_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        self.preview_button.clicked.connect(self.show_preview)
        self.pdf_button.clicked.connect(lambda: self.save_pdf())
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.message)
        layout.addWidget(buttons)

    def choice(self) -> PrintChoice:
        return PrintChoice(self.vehicle_box.currentData(), self.blank_button.isChecked(),
                           int(self.layout_box.currentData() or 1),
                           self.paper_box.currentText())

    def job(self) -> SessionPrint:
        return session_job(self.game, self.session_title, self.choice())

    def save_pdf(self, path: str | None = None) -> int:
        """Write the PDF (asks where when ``path`` is None); return the pages written."""

        if path is None:
            path, _ = QFileDialog.getSaveFileName(self, "Save the session's sheets as PDF",
                                                  f"{self.session_title} sheets.pdf",
                                                  "PDF (*.pdf)")
            if not path:
                return 0
        choice = self.choice()
        pages = write_session_pdf(path, self.job(), choice.paper)
        self.message.setText(f"Saved {pages} page{'s' if pages != 1 else ''} to {path}.")
        return pages

    def show_preview(self) -> QWidget:
        dialog = SessionPrintPreview(self.job(), self.choice().paper, self)
        dialog.open()
        self.preview_dialog = dialog
        return dialog
