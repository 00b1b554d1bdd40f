"""House rules on screen, generated from a ruleset's decisions (``Ruleset.decisions``).

:class:`HouseRulesEditor` has one switch or list per decision (each says the digest's
default); :class:`HouseRulesPanel` is the Resolver's read-only "House rules (this
session)" box with its Change… button; :class:`HouseRulesDialog` edits the rules of
the session (or of the Resolver when no session runs), starting from a saved profile.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QListWidget,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.gui.elided_combo import ElidedComboBox
from carwars_desktop.gui.small_widgets import error_label
from carwars_desktop.library.profiles import SUFFIX as PROFILE_SUFFIX
from carwars_desktop.rules import AnyRuleset
from carwars_desktop.rules.kernel.decisions import Decision, DecisionSet
from carwars_desktop.rules.registry import ruleset_title
from carwars_desktop.services.house_rules import HouseRulesService, Profile, ProfileRefused
from carwars_desktop.session.house_rules import DIGEST_DEFAULTS, HouseRules
from carwars_desktop.storage import Database


def saved_profiles(database: object | None,
                   ruleset_id: str) -> list[tuple[str, Mapping[str, Any]]]:
    """The saved profiles of ``ruleset_id`` as (name, values) (none without a database)."""
    if database is None:
        return []

    service = HouseRulesService(database)  # type: ignore[arg-type]
    return [(p.name, p.rules) for p in service.profiles(ruleset_id) if not p.built_in]


def decision_text(decision: Decision, default: Any) -> str:
    """A decision's label, saying the digest's default plainly."""
    return f"{decision.label} (digest default: {decision.text(default)})"


class SwitchLabel(QLabel):
    """A switch's words, wrapped to the width there is (a check box's own text never wraps
    and would widen the editor past its dialog); a click on them flips the switch."""

    def __init__(self, text: str, box: QCheckBox) -> None:
        super().__init__(text)
        self.box = box
        self.setWordWrap(True)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt's name)
        if event.button() == Qt.MouseButton.LeftButton and self.box.isEnabled():
            self.box.toggle()
        super().mouseReleaseEvent(event)


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
                box = QCheckBox()
                box.setChecked(bool(default))
                box.toggled.connect(self.changed)
                editor: QCheckBox | QComboBox = box
                words = SwitchLabel(text, box)
                words.setToolTip(f"{decision.id}: {decision.help}" if decision.help
                                 else decision.id)
                switch = QHBoxLayout()  # the box beside its words, as a check box's own text
                switch.addWidget(box, 0, Qt.AlignmentFlag.AlignTop)
                switch.addWidget(words, 1)
                layout.addRow(switch)
            else:
                combo = ElidedComboBox()
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

    def show_rules(self, ruleset: AnyRuleset, rules: HouseRules, in_session: bool) -> None:
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

    def __init__(self, ruleset: AnyRuleset, current: HouseRules,
                 profiles: Sequence[tuple[str, Mapping[str, Any]]] = (),
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        assert ruleset.decisions is not None
        self.setWindowTitle(f"House rules: {ruleset.title}")
        self.ruleset = ruleset
        self._profiles: dict[str, dict[str, Any]] = {DIGEST_DEFAULTS: {}}
        self._profiles.update((name, dict(values)) for name, values in profiles)
        # The rules in force first when they are no saved profile's (edited in play).
        self._profiles.setdefault(current.profile, dict(current.values))
        self.profile_box = ElidedComboBox()
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


class ProfilesDialog(QDialog):
    """The saved profiles of one ruleset: New, Copy, Rename, Delete, Export, Import, and
    the chosen one's decisions (the built-in digest's defaults are shown, never changed)."""

    def __init__(self, database: Database, ruleset: AnyRuleset,
                 parent: QWidget | None = None) -> None:

        super().__init__(parent)
        assert ruleset.decisions is not None
        self.setWindowTitle(f"House-rule profiles: {ruleset.title}")
        self.ruleset = ruleset
        self.service = HouseRulesService(database)
        self.list = QListWidget()
        self.list.setAccessibleName("Profiles")
        self.editor = HouseRulesEditor(ruleset.decisions)
        self.message = error_label()
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.editor)
        self.buttons: dict[str, QPushButton] = {}
        row = QHBoxLayout()
        for key, text in (("new", "&New"), ("copy", "&Copy"), ("rename", "&Rename"),
                          ("delete", "&Delete"), ("undo", "&Undo delete"), ("save", "&Save"),
                          ("export", "&Export…"), ("import", "&Import…")):
            button = QPushButton(text)
            self.buttons[key] = button
            row.addWidget(button)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        split = QHBoxLayout()
        split.addWidget(self.list, 1)
        split.addWidget(scroll, 2)
        layout = QVBoxLayout(self)
        layout.addLayout(split, 1)
        layout.addLayout(row)
        layout.addWidget(self.message)
        layout.addWidget(close)
        self.resize(820, 600)
        close.rejected.connect(self.reject)
        self.list.currentRowChanged.connect(self._chosen)
        self.buttons["new"].clicked.connect(lambda: self._ask_name("New profile", self.new))
        self.buttons["copy"].clicked.connect(
            lambda: self._ask_name("Copy as", self.copy, f"{self.current().name} (copy)"))
        self.buttons["rename"].clicked.connect(
            lambda: self._ask_name("Rename to", self.rename, self.current().name))
        self.buttons["delete"].clicked.connect(lambda: self.delete())
        self.buttons["undo"].clicked.connect(self.undo_delete)
        self.buttons["undo"].setToolTip("Bring back the profile deleted last")
        self._deleted: Profile | None = None
        self.confirm_box: QMessageBox | None = None
        self.buttons["undo"].setEnabled(False)
        self.buttons["save"].clicked.connect(self.save)
        self.buttons["export"].clicked.connect(self._export_to_file)
        self.buttons["import"].clicked.connect(self._import_from_file)
        self.reload()

    # --- the list ------------------------------------------------------------------------
    def reload(self, chosen: str | None = None) -> None:
        self.profiles = self.service.profiles(self.ruleset.id)
        self.list.blockSignals(True)
        self.list.clear()
        for profile in self.profiles:
            self.list.addItem(profile.name + ("  (built in)" if profile.built_in else ""))
        self.list.blockSignals(False)
        names = [p.name for p in self.profiles]
        self.list.setCurrentRow(names.index(chosen) if chosen in names else 0)
        self._chosen()

    def current(self) -> Profile:
        return self.profiles[max(0, self.list.currentRow())]

    def _chosen(self) -> None:
        profile = self.current()
        self.editor.set_values(profile.rules)
        self.editor.setEnabled(not profile.built_in)
        for key in ("rename", "delete", "save"):
            self.buttons[key].setEnabled(not profile.built_in)

    def _done(self, action: Callable[[], Profile | None]) -> bool:
        try:
            profile = action()
        except ProfileRefused as error:
            self.message.setText(f"⚠ {error}")
            return False
        self.message.setText("")
        self.reload(profile.name if profile is not None else None)
        return True

    def _ask_name(self, title: str, then: Callable[[str], bool], text: str = "") -> None:
        name, ok = QInputDialog.getText(self, title, "Name:", text=text)
        if ok:
            then(name)

    # --- operations (the buttons; also called directly) ----------------------------------
    def new(self, name: str) -> bool:
        return self._done(lambda: self.service.create(self.ruleset.id, name,
                                                      self.editor.values()))

    def copy(self, name: str) -> bool:
        return self._done(lambda: self.service.copy(self.current(), name))

    def rename(self, name: str) -> bool:
        return self._done(lambda: self.service.rename(self.current(), name))

    def save(self) -> bool:
        return self._done(lambda: self.service.save(self.current(), self.editor.values()))

    def delete(self, confirmed: bool = False) -> bool:
        """Delete the chosen profile once the GM confirms; Undo delete brings it back."""
        profile = self.current()
        if profile.built_in:
            return False
        if not confirmed and not self._confirm(
                "Delete profile", f"Delete the house-rule profile {profile.name!r}? "
                "Undo delete brings it back while this window is open."):
            return False

        def deleted() -> None:
            self.service.delete(profile)
        if not self._done(deleted):
            return False
        self._deleted = profile
        self.buttons["undo"].setEnabled(True)
        self.message.setText(f"Deleted {profile.name!r}. Undo delete brings it back.")
        return True

    def undo_delete(self) -> bool:
        """Bring back the profile deleted last, under its name and with its rules."""
        profile = self._deleted
        if profile is None:
            return False
        if not self._done(lambda: self.service.create(profile.ruleset_id, profile.name,
                                                      profile.rules)):
            return False
        self._deleted = None
        self.buttons["undo"].setEnabled(False)
        self.message.setText(f"Restored {profile.name!r}.")
        return True

    def _confirm(self, title: str, text: str) -> bool:
        """Ask with a Yes/No box (No by default); the box is :attr:`confirm_box` meanwhile."""
        box = QMessageBox(QMessageBox.Icon.Question, title, text,
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, self)
        box.setDefaultButton(QMessageBox.StandardButton.No)
        self.confirm_box = box
        try:
            return box.exec() == QMessageBox.StandardButton.Yes
        finally:
            self.confirm_box = None
            box.deleteLater()

    def export_to(self, path: Path) -> bool:
        try:
            path.write_text(self.service.export([self.current()]), encoding="utf-8")
        except OSError as error:
            self.message.setText(f"⚠ {path.name}: {error.strerror or error}")
            return False
        self.message.setText(f"Exported {self.current().name!r} to {path.name}.")
        return True

    def import_from(self, path: Path) -> bool:
        try:
            added = self.service.import_text(path.read_bytes())
        except (OSError, ProfileRefused) as error:
            self.message.setText(f"⚠ {path.name}: {error}")
            return False
        own = [p.name for p in added if p.ruleset_id == self.ruleset.id]
        self.reload(own[0] if own else None)
        self.message.setText(imported_text(self.ruleset.id, [p.ruleset_id for p in added]))
        return True

    def _export_to_file(self) -> None:
        name = f"{self.current().name}{PROFILE_SUFFIX}"
        path, _ = QFileDialog.getSaveFileName(self, "Export profile", name,
                                              "House rules (*.json)")
        if path:
            self.export_to(Path(path))

    def _import_from_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Import profiles", "",
                                              "House rules (*.json);;All files (*)")
        if path:
            self.import_from(Path(path))


def imported_text(shown: str, ruleset_ids: Sequence[str]) -> str:
    """What an import says: how many profiles came in, and where those of other rulesets
    went (``Imported 1 Battlecars profile: switch the ruleset to see it.``)."""
    def counted(count: int, title: str = "") -> str:
        return f"{count} {title + ' ' if title else ''}profile{'s' if count != 1 else ''}"

    own = sum(1 for rid in ruleset_ids if rid == shown)
    parts = [counted(own)] if own else []
    for rid in dict.fromkeys(r for r in ruleset_ids if r != shown):
        count = sum(1 for r in ruleset_ids if r == rid)
        parts.append(f"{counted(count, ruleset_title(rid))}: switch the ruleset to see "
                     f"{'it' if count == 1 else 'them'}")
    return f"Imported {'; '.join(parts) if parts else 'no profiles'}."
