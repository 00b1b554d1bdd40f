"""House rules on screen, generated from a ruleset's decisions (``Ruleset.decisions``).

:class:`HouseRulesEditor` has one switch or list per decision (each says the digest's
default); :class:`HouseRulesPanel` is the Resolver's read-only "House rules (this
session)" box with its Change… button; :class:`HouseRulesDialog` edits the rules of
the session (or of the Resolver when no session runs), starting from a saved profile.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.rules import Ruleset
from carwars_desktop.rules.kernel.decisions import Decision, DecisionSet
from carwars_desktop.session.house_rules import DIGEST_DEFAULTS, HouseRules


def saved_profiles(database: object | None,
                   ruleset_id: str) -> list[tuple[str, Mapping[str, Any]]]:
    """The saved profiles of ``ruleset_id`` as (name, values) (none without a database)."""
    if database is None:
        return []
    from carwars_desktop.services.house_rules import HouseRulesService

    service = HouseRulesService(database)  # type: ignore[arg-type]
    return [(p.name, p.rules) for p in service.profiles(ruleset_id) if not p.built_in]


def decision_text(decision: Decision, default: Any) -> str:
    """A decision's label, saying the digest's default plainly."""
    return f"{decision.label} (digest default: {decision.text(default)})"


class HouseRulesEditor(QWidget):
    """One editor per decision (``pregame``: only the pre-game questions, or only the rest)."""

    changed = Signal()

    def __init__(self, decisions: DecisionSet[Any], pregame: bool | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.decisions = decisions
        self.editors: dict[str, QCheckBox | QComboBox] = {}
        layout = QFormLayout(self)
        layout.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        for decision in decisions:
            if pregame is not None and decision.pregame != pregame:
                continue
            default = decisions.default(decision.id)
            text = decision_text(decision, default)
            if decision.switch:
                box = QCheckBox(text)
                box.setChecked(bool(default))
                box.toggled.connect(self.changed)
                editor: QCheckBox | QComboBox = box
                layout.addRow(box)
            else:
                combo = QComboBox()
                for choice in decision.choices:
                    combo.addItem(decision.text(choice), choice)
                combo.setCurrentIndex(decision.choices.index(default))
                combo.currentIndexChanged.connect(self.changed)
                editor = combo
                label = QLabel(text)
                label.setWordWrap(True)
                label.setBuddy(combo)
                layout.addRow(label, combo)
            editor.setAccessibleName(decision.label)
            editor.setToolTip(f"{decision.id}: {decision.help}" if decision.help
                              else decision.id)
            self.editors[decision.id] = editor

    def values(self) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for key, editor in self.editors.items():
            values[key] = (editor.isChecked() if isinstance(editor, QCheckBox)
                           else editor.currentData())
        return values

    def set_values(self, values: Mapping[str, Any]) -> None:
        chosen = self.decisions.check({k: v for k, v in values.items()
                                       if k in {d.id for d in self.decisions}})
        for key, editor in self.editors.items():
            editor.blockSignals(True)
            if isinstance(editor, QCheckBox):
                editor.setChecked(bool(chosen[key]))
            else:
                editor.setCurrentIndex(self.decisions.get(key).choices.index(chosen[key]))
            editor.blockSignals(False)
        self.changed.emit()


class HouseRulesPanel(QGroupBox):
    """Read-only: the house rules the roll is resolved under, with a button to change them."""

    change_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("House rules (this session)", parent)
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.change_button = QPushButton("Change house rules…")
        self.change_button.setToolTip("Change the decisions this session plays under "
                                      "(an event in the log, undone like any other)")
        self.change_button.clicked.connect(self.change_requested)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addWidget(self.change_button, 0, Qt.AlignmentFlag.AlignLeft)

    def show_rules(self, ruleset: Ruleset, rules: HouseRules, in_session: bool) -> None:
        self.setTitle("House rules (this session)" if in_session
                      else "House rules (no session: for these rolls)")
        if ruleset.decisions is None:
            self.text.setText("This ruleset has no house rules.")
            self.change_button.setEnabled(False)
            return
        self.change_button.setEnabled(True)
        changed = rules.departures(ruleset)
        self.text.setText(f"{rules.profile}: " + ("; ".join(changed) if changed
                                                  else "every decision as the digest has it"))


class HouseRulesDialog(QDialog):
    """Edit house rules, starting from a saved profile; :meth:`rules` is the result."""

    def __init__(self, ruleset: Ruleset, current: HouseRules,
                 profiles: Sequence[tuple[str, Mapping[str, Any]]] = (),
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        assert ruleset.decisions is not None
        self.setWindowTitle(f"House rules: {ruleset.title}")
        self.ruleset = ruleset
        self._profiles: dict[str, dict[str, Any]] = {DIGEST_DEFAULTS: {}}
        self._profiles.update((name, dict(values)) for name, values in profiles)
        self.profile_box = QComboBox()
        self.profile_box.setAccessibleName("Profile")
        for name in self._profiles:
            self.profile_box.addItem(name)
        if current.profile in self._profiles:
            self.profile_box.setCurrentText(current.profile)
        self.editor = HouseRulesEditor(ruleset.decisions)
        self.editor.set_values(current.values)
        self._profile = current.profile
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.editor)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        form = QFormLayout()
        form.addRow("&Start from profile:", self.profile_box)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(scroll, 1)
        layout.addWidget(buttons)
        self.resize(560, 600)
        self.profile_box.currentTextChanged.connect(self._profile_chosen)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)

    def _profile_chosen(self, name: str) -> None:
        self._profile = name
        self.editor.set_values(self._profiles.get(name, {}))

    def rules(self) -> HouseRules:
        """The rules as edited: named after the profile, ``(changed)`` when edited since."""
        values = self.editor.values()
        base = self.ruleset.decisions.check(self._profiles.get(self._profile, {})) \
            if self.ruleset.decisions else {}
        name = self._profile if values == base else f"{self._profile} (changed)"
        return HouseRules(name, values)
