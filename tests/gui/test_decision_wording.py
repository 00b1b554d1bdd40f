"""Every decision checkbox reads the same way: it says the digest's default plainly."""

from __future__ import annotations

import re

from PySide6.QtWidgets import QCheckBox

from carwars_desktop.gui.house_rules import HouseRulesEditor, SwitchLabel
from carwars_desktop.gui.procedure_form import ProcedureForm, checkbox_text
from carwars_desktop.procedures import BoolInput, decision_of
from carwars_desktop.rules import all_procedures, find_ruleset

DECISION = re.compile(r"^[A-Z]+-D\d+")


def test_every_decision_box_shows_its_default(qtbot) -> None:  # type: ignore[no-untyped-def]
    # The decisions moved from each roll's form to the house rules (issue 14): the
    # house-rules editor shows every one, as the digest has it; the forms ask none.
    form = ProcedureForm()
    qtbot.addWidget(form)
    seen = 0
    for procedure in all_procedures():
        decisions = [spec for spec in procedure.inputs
                     if isinstance(spec, BoolInput) and DECISION.match(spec.label)]
        if not decisions:
            continue
        form.set_procedure(procedure, None)
        assert not {spec.name for spec in decisions} & set(form.editors)
        editor_widget = HouseRulesEditor(find_ruleset(procedure.ruleset).decisions)
        qtbot.addWidget(editor_widget)
        labels = {label.text() for label in editor_widget.findChildren(SwitchLabel)}
        for spec in decisions:
            seen += 1
            editor = editor_widget.editors[decision_of(spec)]
            assert isinstance(editor, QCheckBox)
            assert editor.isChecked() == spec.default  # on screen as the digest has it
            word = "on" if spec.default else "off"
            assert checkbox_text(spec).endswith(f"(digest default: {word})")
            assert checkbox_text(spec) in labels
    assert seen > 30


def test_mcw_d2_reads_off_as_the_default() -> None:
    spec = next(s for p in all_procedures("mini_car_wars") for s in p.inputs
                if s.name == "mcw_d2_skid_carries_over")
    assert isinstance(spec, BoolInput) and spec.default is False
    assert checkbox_text(spec).endswith("(digest default: off)")
    assert spec.help.startswith("off, the digest's default")


def test_a_plain_checkbox_keeps_its_label() -> None:
    assert checkbox_text(BoolInput("smoke", "Smoke on the line", False)) == "Smoke on the line"
