"""Start a session: ruleset, scenario (from the rules, or free), a name, players and vehicles."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.gui.elided_combo import ElidedComboBox
from carwars_desktop.gui.house_rules import HouseRulesEditor, ProfilesDialog
from carwars_desktop.gui.rulesets import has_screens
from carwars_desktop.gui.small_widgets import error_label
from carwars_desktop.gui.table.vehicle_choices import VehicleChoice, vehicle_choices
from carwars_desktop.library.profiles import ProfileFileError, read_profiles
from carwars_desktop.rules import AnyRuleset, find_ruleset
from carwars_desktop.rules.play import play_rules
from carwars_desktop.rules.registry import ruleset_ids, ruleset_title
from carwars_desktop.services.house_rules import (
    HouseRulesService,
    Profile,
    ProfileRefused,
    built_in,
    profile_for_session,
)
from carwars_desktop.session.house_rules import HouseRules
from carwars_desktop.session.setup import Entry, Setup, SetupError, prepare

DEFAULT_PLAYERS = 2


class PlayerDelegate(QStyledItemDelegate):
    """The player cell edits in a box listing the club's players (typing a new name makes
    a new player when the session starts; "ann" picks Ann)."""

    def __init__(self, names: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.names = names

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem,  # noqa: N802
                     index: QModelIndex | QPersistentModelIndex) -> QWidget:
        box = QComboBox(parent)
        box.setEditable(True)
        box.addItems(self.names)
        box.setAccessibleName("Player")
        completer = box.completer()
        if completer is not None:
            completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        return box

    def setEditorData(self, editor: QWidget,  # noqa: N802 (Qt's name)
                      index: QModelIndex | QPersistentModelIndex) -> None:
        if isinstance(editor, QComboBox):
            editor.setEditText(str(index.data() or ""))

    def setModelData(self, editor: QWidget, model: QAbstractItemModel,  # noqa: N802
                     index: QModelIndex | QPersistentModelIndex) -> None:
        if isinstance(editor, QComboBox):
            model.setData(index, known_player(self.names, editor.currentText()))


def known_player(names: list[str], typed: str) -> str:
    """The club's player a typed name is (trimmed, case-folded), else the name as typed."""
    key = " ".join(typed.split()).casefold()
    for name in names:
        if " ".join(name.split()).casefold() == key:
            return name
    return " ".join(typed.split())


class NewSessionDialog(QDialog):
    """The form; :meth:`setup` gives the engine-checked :class:`Setup` of the session."""

    def __init__(self, database: object | None, ruleset_id: str,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New session")
        self._database = database
        self.choices: list[VehicleChoice] = []
        self.result_setup: Setup | None = None
        self.result_rules: HouseRules | None = None
        self.profiles: list[Profile] = []
        self.profile_box = ElidedComboBox()
        self.profile_box.setAccessibleName("House rules profile")
        self.profile_box.setToolTip("The house rules this session is played under (a copy: "
                                    "later edits of the saved profile do not change it)")
        self.profiles_button = QPushButton("&Profiles…")
        self.profiles_button.setToolTip("Create, copy, rename, delete, export and import "
                                        "house-rule profiles")
        self.profile_file_button = QPushButton("Profile from &file…")
        self.profile_file_button.setToolTip("Use a house-rules file (.house-rules.json)")
        self.pregame_box = QGroupBox("Before the game")
        self._pregame_layout = QVBoxLayout(self.pregame_box)
        self.pregame: HouseRulesEditor | None = None
        self._file_profile: Profile | None = None

        self.ruleset_box = ElidedComboBox()
        for rid in filter(has_screens, ruleset_ids()):
            self.ruleset_box.addItem(ruleset_title(rid), rid)
        self.ruleset_box.setCurrentIndex(max(0, self.ruleset_box.findData(ruleset_id)))
        self.scenario_box = ElidedComboBox()
        self.scenario_text = QLabel()
        self.scenario_text.setWordWrap(True)
        self.name_edit = QLineEdit()
        self.name_edit.setMaxLength(200)
        self.name_edit.setAccessibleName("Session name")
        self.players = QTableWidget(0, 3)
        self.players.setHorizontalHeaderLabels(["Player", "Vehicle (a copy goes in play)",
                                                "Name at the table"])
        self.players.verticalHeader().hide()
        self.player_names: list[str] = []
        """The club's players (the database's), offered in the player column."""
        players = getattr(database, "players", None)
        if players is not None:
            self.player_names = [p.name for p in players.all()]
        self.players.setItemDelegateForColumn(0, PlayerDelegate(self.player_names,
                                                                self.players))
        self.players.setToolTip("Double-click a player to pick one of the club's players "
                                "or type a new name")
        header = self.players.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(0, 130)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.players.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.add_button = QPushButton("&Add player")
        self.remove_button = QPushButton("Re&move player")
        self.error = error_label()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText("&Start session")

        form = QFormLayout()
        form.addRow("&Ruleset:", self.ruleset_box)
        form.addRow("S&cenario:", self.scenario_box)
        form.addRow("", self.scenario_text)
        form.addRow("&Name:", self.name_edit)
        profile_row = QHBoxLayout()
        profile_row.addWidget(self.profile_box, 1)
        profile_row.addWidget(self.profiles_button)
        profile_row.addWidget(self.profile_file_button)
        profile_label = QLabel("&House rules:")  # a row of widgets: the label needs its buddy
        profile_label.setBuddy(self.profile_box)
        form.addRow(profile_label, profile_row)
        row = QHBoxLayout()
        row.addWidget(self.add_button)
        row.addWidget(self.remove_button)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.pregame_box)
        layout.addWidget(QLabel("Players and their vehicles:"))
        layout.addWidget(self.players, 1)
        layout.addLayout(row)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.resize(620, 640)
        self.profile_box.currentIndexChanged.connect(self._profile_chosen)
        self.profile_file_button.clicked.connect(self._choose_profile_file)
        self.profiles_button.clicked.connect(self.manage_profiles)

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
        self._load_house_rules(ruleset)

    # --- house rules ---------------------------------------------------------------
    def _load_house_rules(self, ruleset: AnyRuleset) -> None:
        if self.pregame is not None:
            self.pregame.deleteLater()
            self.pregame = None
        self._file_profile = None
        self.profiles = [built_in(ruleset.id)]
        if self._database is not None:

            self.profiles = HouseRulesService(self._database).profiles(  # type: ignore[arg-type]
                ruleset.id)
        self.profile_box.blockSignals(True)
        self.profile_box.clear()
        for profile in self.profiles:
            self.profile_box.addItem(profile.name)
        self.profile_box.blockSignals(False)
        has_rules = ruleset.decisions is not None
        self.profile_box.setEnabled(has_rules)
        self.profile_file_button.setEnabled(has_rules)
        self.profiles_button.setEnabled(has_rules and self._database is not None)
        self.pregame_box.setVisible(has_rules and bool(ruleset.decisions
                                                       and ruleset.decisions.pregame))
        if ruleset.decisions is not None and ruleset.decisions.pregame:
            self.pregame = HouseRulesEditor(ruleset.decisions, pregame=True)
            self._pregame_layout.addWidget(self.pregame)
            self.pregame.changed.connect(self._judge_choices)
        self._profile_chosen()

    def manage_profiles(self) -> ProfilesDialog | None:
        """Open the profiles of this ruleset; the list here follows when it closes."""
        ruleset = find_ruleset(self.ruleset_id())
        if self._database is None or ruleset.decisions is None:
            return None
        dialog = ProfilesDialog(self._database, ruleset, self)  # type: ignore[arg-type]
        chosen = self.profile().name

        def reload() -> None:
            self._load_house_rules(ruleset)
            if self.profile_box.findText(chosen) >= 0:
                self.choose_profile(chosen)
        dialog.finished.connect(reload)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def profile(self) -> Profile:
        """The profile chosen (a file's, once one is chosen)."""
        if self._file_profile is not None:
            return self._file_profile
        index = max(0, self.profile_box.currentIndex())
        return self.profiles[index] if index < len(self.profiles) else \
            built_in(self.ruleset_id())

    def choose_profile(self, name: str) -> None:
        index = self.profile_box.findText(name)
        if index < 0:
            raise ValueError(f"no profile {name!r} to choose")
        self.profile_box.setCurrentIndex(index)

    def _profile_chosen(self) -> None:
        self._file_profile = None
        if self.pregame is not None:
            self.pregame.set_values(self.profile().rules)
        self._judge_choices()

    def _judge_choices(self) -> None:
        """Say which vehicles have problems under the house rules chosen (the one verdict
        the Workshop and ``design check`` give), the choices staying as they are."""
        ruleset = find_ruleset(self.ruleset_id())
        try:
            values = self.house_rules().values
        except ProfileRefused:
            values = {}
        defaults = {} if ruleset.decisions is None else ruleset.decisions.defaults()
        options = None if {**defaults, **values} == defaults else ruleset.house_options(values)
        self.choices = vehicle_choices(self._database, ruleset, options)
        for row in range(self.players.rowCount()):
            combo = self.players.cellWidget(row, 1)
            if isinstance(combo, QComboBox) and combo.count() == len(self.choices):
                for index, choice in enumerate(self.choices):
                    combo.setItemText(index, choice.label)

    def _choose_profile_file(self) -> None:

        path, _ = QFileDialog.getOpenFileName(self, "House rules file", "",
                                              "House rules (*.json);;All files (*)")
        if path:
            self.use_profile_file(Path(path))

    def use_profile_file(self, path: Path) -> bool:
        """Play under the profile of a house-rules file; refused with the reason (another
        ruleset's profile, a bad file) and nothing changes."""

        ruleset = find_ruleset(self.ruleset_id())
        try:
            read = read_profiles(path.read_bytes())
            own = [p for p in read if p.ruleset_id == ruleset.id]
            profile = (Profile(own[0].ruleset_id, own[0].name, dict(own[0].rules)) if own
                       else Profile(read[0].ruleset_id, read[0].name, dict(read[0].rules)))
            profile_for_session(ruleset, profile)
        except (OSError, ProfileFileError, ProfileRefused) as error:
            self.error.setText(f"⚠ {path.name}: {error}")
            return False
        self.error.setText("")
        self._file_profile = profile
        self.profile_box.blockSignals(True)
        self.profile_box.addItem(f"{profile.name} (from {path.name})")
        self.profile_box.setCurrentIndex(self.profile_box.count() - 1)
        self.profile_box.blockSignals(False)
        if self.pregame is not None:
            self.pregame.set_values(profile.rules)
        self._judge_choices()
        return True

    def house_rules(self) -> HouseRules:
        """The house rules the session starts under: the profile's values (a copy) with
        the pre-game answers."""
        ruleset = find_ruleset(self.ruleset_id())
        rules = profile_for_session(ruleset, self.profile())
        values = dict(rules.values)
        if self.pregame is not None:
            values.update(self.pregame.values())
        return HouseRules(rules.profile, values)

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
        combo = ElidedComboBox()
        combo.let_shrink(12)  # the column's width, a long name elided
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
            entries.append(Entry(known_player(self.player_names, item.text() if item else ""),
                                 name or choice.name,
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
        ruleset = find_ruleset(self.ruleset_id())
        return prepare(ruleset, self.entries(), str(self.scenario_box.currentData() or ""),
                       ruleset.house_options(self.house_rules().values))

    def scenario_name(self) -> str:
        return self.scenario_box.currentText() if self.scenario_box.currentData() else ""

    def accept(self) -> None:
        try:
            rules = self.house_rules()
            self.result_setup = self.setup()
        except (SetupError, ProfileRefused) as error:
            self.error.setText(f"⚠ {error}")
            return
        self.result_rules = rules
        super().accept()
