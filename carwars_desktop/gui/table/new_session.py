"""Start a session: ruleset, scenario (from the rules, or free), a name, players and vehicles."""

from __future__ import annotations

from datetime import date

from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.gui.table.vehicle_choices import VehicleChoice, vehicle_choices
from carwars_desktop.rules import find_ruleset
from carwars_desktop.rules.play import play_rules
from carwars_desktop.rules.registry import ruleset_ids, ruleset_title
from carwars_desktop.session.setup import Entry, Setup, SetupError, prepare

DEFAULT_PLAYERS = 2


class NewSessionDialog(QDialog):
    """The form; :meth:`setup` gives the engine-checked :class:`Setup` of the session."""

    def __init__(self, database: object | None, ruleset_id: str,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New session")
        self._database = database
        self.choices: list[VehicleChoice] = []
        self.result_setup: Setup | None = None

        self.ruleset_box = QComboBox()
        for rid in ruleset_ids():
            self.ruleset_box.addItem(ruleset_title(rid), rid)
        self.ruleset_box.setCurrentIndex(max(0, self.ruleset_box.findData(ruleset_id)))
        self.scenario_box = QComboBox()
        self.scenario_text = QLabel()
        self.scenario_text.setWordWrap(True)
        self.name_edit = QLineEdit()
        self.name_edit.setMaxLength(200)
        self.name_edit.setAccessibleName("Session name")
        self.players = QTableWidget(0, 3)
        self.players.setHorizontalHeaderLabels(["Player", "Vehicle (a copy goes in play)",
                                                "Name at the table"])
        self.players.verticalHeader().hide()
        header = self.players.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(0, 130)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.players.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.add_button = QPushButton("&Add player")
        self.remove_button = QPushButton("Re&move player")
        self.error = QLabel()
        self.error.setObjectName("error")
        self.error.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText("&Start session")

        form = QFormLayout()
        form.addRow("&Ruleset:", self.ruleset_box)
        form.addRow("S&cenario:", self.scenario_box)
        form.addRow("", self.scenario_text)
        form.addRow("&Name:", self.name_edit)
        row = QHBoxLayout()
        row.addWidget(self.add_button)
        row.addWidget(self.remove_button)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(QLabel("Players and their vehicles:"))
        layout.addWidget(self.players, 1)
        layout.addLayout(row)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.resize(620, 480)

        self.ruleset_box.currentIndexChanged.connect(self._ruleset_chosen)
        self.scenario_box.currentIndexChanged.connect(self._scenario_chosen)
        self.add_button.clicked.connect(lambda: self.add_player())
        self.remove_button.clicked.connect(self.remove_player)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self._ruleset_chosen()

    # --- choices -----------------------------------------------------------------
    def ruleset_id(self) -> str:
        return str(self.ruleset_box.currentData())

    def _ruleset_chosen(self) -> None:
        ruleset = find_ruleset(self.ruleset_id())
        self.choices = vehicle_choices(self._database, ruleset)
        self.scenario_box.clear()
        for scenario in play_rules(ruleset.id).scenarios:
            self.scenario_box.addItem(scenario.name, scenario.key)
        self.players.setRowCount(0)
        for number in range(DEFAULT_PLAYERS):
            self.add_player(f"Player {number + 1}", number)

    def _scenario_chosen(self) -> None:
        key = self.scenario_box.currentData()
        for scenario in play_rules(self.ruleset_id()).scenarios:
            if scenario.key == key:
                self.scenario_text.setText(scenario.description)
                title = scenario.name if scenario.key else ruleset_title(self.ruleset_id())
                self.name_edit.setText(f"{title}, {date.today():%d %b %Y}")

    def add_player(self, name: str = "", choice: int = 0) -> None:
        row = self.players.rowCount()
        self.players.insertRow(row)
        self.players.setItem(row, 0, QTableWidgetItem(name or f"Player {row + 1}"))
        combo = QComboBox()
        combo.setAccessibleName(f"Vehicle of player {row + 1}")
        for vehicle in self.choices:
            combo.addItem(vehicle.label)
        combo.setCurrentIndex(min(choice, combo.count() - 1))
        self.players.setCellWidget(row, 1, combo)
        in_play = QTableWidgetItem("")
        in_play.setToolTip("empty: the vehicle's own name")
        self.players.setItem(row, 2, in_play)

    def remove_player(self) -> None:
        row = self.players.currentRow()
        if row < 0:
            row = self.players.rowCount() - 1
        if row >= 0:
            self.players.removeRow(row)

    def set_player(self, row: int, player: str, vehicle_name: str, name: str = "") -> None:
        """Fill a row: the player, the first choice named ``vehicle_name``, its name in play."""
        while self.players.rowCount() <= row:
            self.add_player()
        self.players.setItem(row, 0, QTableWidgetItem(player))
        self.players.setItem(row, 2, QTableWidgetItem(name))
        combo = self.players.cellWidget(row, 1)
        assert isinstance(combo, QComboBox)
        for index, choice in enumerate(self.choices):
            if choice.name == vehicle_name:
                combo.setCurrentIndex(index)
                return
        raise ValueError(f"no vehicle {vehicle_name!r} to choose")

    def entries(self) -> list[Entry]:
        entries: list[Entry] = []
        for row in range(self.players.rowCount()):
            item = self.players.item(row, 0)
            combo = self.players.cellWidget(row, 1)
            if not isinstance(combo, QComboBox) or combo.currentIndex() < 0:
                continue
            choice = self.choices[combo.currentIndex()]
            named = self.players.item(row, 2)
            name = named.text().strip() if named is not None else ""
            entries.append(Entry(item.text() if item else "", name or choice.name,
                                 choice.design))
        return entries

    # --- result --------------------------------------------------------------------
    def setup(self) -> Setup:
        """The session as asked, checked by the engines.

        Raises:
            SetupError: why it cannot start (no name, no vehicle, a refused design).
        """
        if not self.name_edit.text().strip():
            raise SetupError("give the session a name")
        return prepare(find_ruleset(self.ruleset_id()), self.entries(),
                       str(self.scenario_box.currentData() or ""))

    def scenario_name(self) -> str:
        return self.scenario_box.currentText() if self.scenario_box.currentData() else ""

    def accept(self) -> None:
        try:
            self.result_setup = self.setup()
        except SetupError as error:
            self.error.setText(f"⚠ {error}")
            return
        super().accept()
