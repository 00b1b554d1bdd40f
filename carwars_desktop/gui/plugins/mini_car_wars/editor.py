"""The Mini Car Wars editor: stock vehicle, option, accessories per crew member, armor, cost.

Every number comes from the engine: the Stock Car List (``tables.STOCK_CARS``), the
configuration an option makes (``MiniDesign.configuration``), costs
(``MiniDesign.cost``, ``PersonKit.cost``) and problems (``MiniDesign.problems``).
"""

from __future__ import annotations

import re
from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QLabel,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.gui.elided_combo import ElidedComboBox
from carwars_desktop.gui.plugins.mini_car_wars.armor import ArmorPanel
from carwars_desktop.gui.workshop.editor import (
    DesignEditor,
    focus,
    mark_input,
    show_spin_value,
    two_columns,
)
from carwars_desktop.rules import Design, Problem
from carwars_desktop.rules.builtin import MINI_CAR_WARS
from carwars_desktop.rules.kernel.formatting import money, money_change
from carwars_desktop.rules.mini_car_wars import MiniDesign, PersonKit
from carwars_desktop.rules.mini_car_wars.model import Role, Side
from carwars_desktop.rules.mini_car_wars.tables import (
    ACCESSORIES,
    CYCLE_ARMOR_SIDES,
    SCENARIOS,
    STOCK_CARS,
    OptionSpec,
)

_KIT_FIELDS = ("targeting_computers", "hi_res_computers")


def _right(label: QLabel) -> QLabel:
    label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    return label


def scenario_budgets() -> list[tuple[str, int]]:
    """The budgets the scenarios print or suggest (§2.15), for the budget menu."""
    budgets: list[tuple[str, int]] = []
    for scenario in SCENARIOS.values():
        for side in scenario.sides:
            if side.budget is not None:
                budgets.append((f"{scenario.name}, {side.label}: ${side.budget:,}", side.budget))
        budgets += [(f"{scenario.name}: ${amount:,} (suggested)", amount)
                    for amount in scenario.suggested_budgets]
    return budgets


def option_label(option: OptionSpec) -> str:
    """``(a) −$1,500 — Replace both MGs with one RL (Front), and 25 points of armor
    anywhere``: the key, the change in cost, what the option does (its cost said once)."""
    description = option.printed.strip().rstrip(".")
    head, _, tail = description.rpartition(";")
    if head and re.match(r"\s*(saves|costs)\b", tail):
        description = head
    return f"({option.key}) {money_change(option.delta)} — {description}"


class MiniEditor(DesignEditor):
    ruleset_id = MINI_CAR_WARS.id

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # --- the vehicle: stock list and option ---------------------------------------
        self.stock_box = ElidedComboBox()
        self.stock_box.setAccessibleName("Stock vehicle")
        for vehicle in STOCK_CARS:
            self.stock_box.addItem(f"{vehicle.name} — {vehicle.size.value}, "
                                   f"{money(vehicle.cost)}", vehicle.key)
        self.stock_box.let_shrink()
        self.option_box = ElidedComboBox()
        self.option_box.let_shrink()  # an option's description is long: elided, whole below
        self.option_box.setAccessibleName("Option")
        self.option_text = QLabel()
        self.option_text.setWordWrap(True)
        self.facts = QLabel()
        self.facts.setWordWrap(True)
        self.facts.setTextFormat(Qt.TextFormat.RichText)
        vehicle_box = QGroupBox("Vehicle (Stock Car List, §1.5)")
        vehicle_form = QFormLayout(vehicle_box)
        vehicle_form.addRow("&Stock vehicle", mark_input(self.stock_box))
        vehicle_form.addRow("&Option", mark_input(self.option_box))
        vehicle_form.addRow("", self.option_text)
        vehicle_form.addRow(self.facts)

        # --- accessories, per crew member ------------------------------------------------
        self.kit: dict[tuple[Role, str], QSpinBox] = {}
        self.body_armor: dict[Role, QCheckBox] = {}
        crew_box = QGroupBox("Accessories per crew member (§1.4)")
        crew = QGridLayout(crew_box)
        self.crew_headers = {role: QLabel(f"<b>{role.value.capitalize()}</b>") for role in Role}
        crew.addWidget(self.crew_headers[Role.DRIVER], 0, 1)
        crew.addWidget(self.crew_headers[Role.GUNNER], 0, 2)
        for row, spec in enumerate(ACCESSORIES, start=1):
            crew.addWidget(QLabel(f"{spec.name} ({money(spec.cost)})"), row, 0)
        for column, role in enumerate(Role, start=1):
            for row, field in enumerate(_KIT_FIELDS, start=1):
                spin = QSpinBox()
                spin.setRange(0, 9)
                spin.setAlignment(Qt.AlignmentFlag.AlignRight)
                spin.setAccessibleName(f"{role.value} {ACCESSORIES[row - 1].name}")
                spin.valueChanged.connect(lambda _v, role=role: self._kit_edited(role))
                self.kit[(role, field)] = spin
                crew.addWidget(mark_input(spin), row, column)
            check = QCheckBox()
            check.setAccessibleName(f"{role.value} body armor")
            check.toggled.connect(lambda _v, role=role: self._kit_edited(role))
            self.body_armor[role] = check
            crew.addWidget(mark_input(check), len(_KIT_FIELDS) + 1, column,
                           Qt.AlignmentFlag.AlignHCenter)
        self.crew_note = QLabel()
        self.crew_note.setWordWrap(True)
        crew.addWidget(self.crew_note, len(_KIT_FIELDS) + 2, 0, 1, 3)

        # --- armor ---------------------------------------------------------------------
        self.armor = ArmorPanel()
        armor_box = QGroupBox("Armor, seen from above (§1.1, §1.5)")
        QVBoxLayout(armor_box).addWidget(self.armor)

        # --- cost and budget -----------------------------------------------------------
        self.cost_labels = {key: _right(QLabel()) for key in
                            ("stock", "option", "driver", "gunner", "total", "left")}
        self.option_caption = QLabel("Option")
        self.budget = QSpinBox()
        self.budget.setRange(0, 1_000_000)
        self.budget.setSingleStep(250)
        self.budget.setPrefix("$")
        self.budget.setGroupSeparatorShown(True)
        self.budget.setSpecialValueText("no budget")
        self.budget.setAlignment(Qt.AlignmentFlag.AlignRight)
        self.budget.setAccessibleName("Budget")
        self.budget_menu = ElidedComboBox()
        self.budget_menu.setAccessibleName("Scenario budgets")
        self.budget_menu.addItem("Scenario budgets…", 0)
        for text, amount in scenario_budgets():
            self.budget_menu.addItem(text, amount)
        cost_box = QGroupBox("Cost (§1.5)")
        cost = QGridLayout(cost_box)
        rows = (("Stock vehicle", "stock"), (None, "option"), ("Driver's accessories", "driver"),
                ("Gunner's accessories", "gunner"), ("<b>Total</b>", "total"))
        for row, (caption, key) in enumerate(rows):
            cost.addWidget(self.option_caption if caption is None else QLabel(caption), row, 0)
            cost.addWidget(self.cost_labels[key], row, 1)
        budget_label = QLabel("&Budget")
        budget_label.setBuddy(self.budget)
        cost.addWidget(budget_label, len(rows), 0)
        cost.addWidget(self.budget, len(rows), 1)
        cost.addWidget(self.budget_menu, len(rows) + 1, 0, 1, 2)
        cost.addWidget(QLabel("Remaining"), len(rows) + 2, 0)
        cost.addWidget(self.cost_labels["left"], len(rows) + 2, 1)
        cost.setColumnStretch(1, 1)

        two_columns(self, (vehicle_box, crew_box, cost_box), (armor_box,), (4, 5))

        self.stock_box.activated.connect(self._stock_chosen)
        self.option_box.activated.connect(self._option_chosen)
        self.armor.side_changed.connect(self._side_edited)
        self.armor.move_requested.connect(self.move_points)
        self.budget.valueChanged.connect(self._budget_changed)
        self.budget_menu.activated.connect(self._budget_chosen)

    # --- showing ---------------------------------------------------------------------------
    def mini(self) -> MiniDesign:
        return self.design_as(MiniDesign)

    def show_design(self, design: Design) -> None:
        assert isinstance(design, MiniDesign)
        super().show_design(design)
        vehicle = design.stock_vehicle
        configuration = design.configuration()
        self._set_combo(self.stock_box, design.stock)
        self.option_box.blockSignals(True)
        self.option_box.clear()
        self.option_box.addItem("No option", None)
        for option in vehicle.options:
            self.option_box.addItem(option_label(option), option.key)
            self.option_box.setItemData(self.option_box.count() - 1, option.printed,
                                        Qt.ItemDataRole.ToolTipRole)
        if design.option is not None and vehicle.option(design.option) is None:
            self.option_box.addItem(f"({design.option}) — not offered", design.option)
        self.option_box.blockSignals(False)
        # The list shows each option's whole description, wider than the closed box.
        metrics = self.option_box.view().fontMetrics()
        widest = max(metrics.horizontalAdvance(self.option_box.itemText(i))
                     for i in range(self.option_box.count()))
        self.option_box.view().setMinimumWidth(widest + 40)
        self._set_combo(self.option_box, design.option)
        spec = design.option_spec
        self.option_text.setText(spec.printed if spec else
                                 (f"{len(vehicle.options)} option(s) offered" if vehicle.options
                                  else "This vehicle has no options."))
        crew = "driver and gunner" if configuration.gunner else "driver only"
        weapons = " · ".join(str(fit) for fit in configuration.weapons) or "none"
        self.facts.setText(
            f"<table cellspacing=3>"
            f"<tr><td>Size</td><td><b>{vehicle.size.value}</b></td></tr>"
            f"<tr><td>Power plant</td><td><b>{vehicle.power_plant} DP</b></td></tr>"
            f"<tr><td>Crew</td><td><b>{crew}</b></td></tr>"
            f"<tr><td>Turret</td><td><b>{'yes' if configuration.turret else 'no'}</b></td></tr>"
            f"<tr><td>Weapons</td><td><b>{weapons}</b></td></tr></table>")
        for role in Role:
            kit = design.kit(role)
            for field in _KIT_FIELDS:
                show_spin_value(self.kit[(role, field)], int(getattr(kit, field)))
            check = self.body_armor[role]
            if check.isChecked() != kit.body_armor:
                check.blockSignals(True)
                check.setChecked(kit.body_armor)
                check.blockSignals(False)
        self.crew_headers[Role.GUNNER].setText(
            "<b>Gunner</b>" if configuration.gunner else "<b>Gunner</b> <i>(none)</i>")
        self.crew_note.setText("" if configuration.gunner else
                               f"{design.title} carries no gunner: leave his column empty.")
        sides = CYCLE_ARMOR_SIDES if vehicle.size.is_cycle else frozenset(Side)
        self.armor.show_armor(design.armor, configuration.armor_points, sides)
        self._show_cost()

    def _show_cost(self) -> None:
        design = self.mini()
        configuration = design.configuration()
        option = configuration.option
        self.option_caption.setText(f"Option ({option.key})" if option else "Option")
        labels = self.cost_labels
        labels["stock"].setText(money(configuration.stock.cost))
        labels["option"].setText(money_change(option.delta) if option else "—")
        labels["driver"].setText(money(design.driver.cost()))
        labels["gunner"].setText(money(design.gunner.cost()))
        labels["total"].setText(f"<b>{money(design.cost())}</b>")
        budget = self.budget.value()
        if budget:
            left = budget - design.cost()
            labels["left"].setText(f"{money(left)}" + ("" if left >= 0 else " ⚠ over budget"))
        else:
            labels["left"].setText("—")

    @staticmethod
    def _set_combo(box: QComboBox, data: object) -> None:
        index = box.findData(data)
        if index != box.currentIndex():
            box.blockSignals(True)
            box.setCurrentIndex(index)
            box.blockSignals(False)

    # --- editing ---------------------------------------------------------------------------
    def _stock_chosen(self) -> None:
        design = self.mini()
        stock = str(self.stock_box.currentData())
        if stock == design.stock:
            return
        changed = MiniDesign.stock_design(stock, None, design.name, design.driver,
                                          design.gunner)
        self.propose(changed, f"Stock vehicle {changed.stock_vehicle.name}")

    def _option_chosen(self) -> None:
        design = self.mini()
        option = self.option_box.currentData()
        if option == design.option:
            return
        changed = MiniDesign.stock_design(design.stock, option, design.name, design.driver,
                                          design.gunner)
        self.propose(changed, f"Option {option or 'none'}")

    def _kit_edited(self, role: Role) -> None:
        design = self.mini()
        kit = PersonKit(self.kit[(role, "targeting_computers")].value(),
                        self.kit[(role, "hi_res_computers")].value(),
                        self.body_armor[role].isChecked())
        changed = (replace(design, driver=kit) if role is Role.DRIVER
                   else replace(design, gunner=kit))
        self.propose(changed, f"{role.value.capitalize()}'s accessories", f"kit.{role.value}")

    def _side_edited(self, side: Side, value: int) -> None:
        design = self.mini()
        changed = design.with_armor(design.armor.with_side(side, value))
        self.propose(changed, f"{side.label.capitalize()} armor {value}", f"armor.{side.value}")

    def move_points(self, source: Side, target: Side, points: int) -> None:
        """Move up to ``points`` armor points from ``source`` to ``target`` (total kept)."""
        design = self.mini()
        points = min(points, design.armor.get(source))
        if points <= 0 or source is target:
            return
        self.propose(design.rearranged(source, target, points),
                     f"{points} armor from {source.label} to {target.label}")
        self.armor.spin(source).setFocus()

    def _budget_changed(self) -> None:
        if self._design is not None:
            self._show_cost()
            self.recheck.emit()

    def _budget_chosen(self) -> None:
        amount = int(self.budget_menu.currentData() or 0)
        if amount:
            self.budget.setValue(amount)
        self.budget_menu.setCurrentIndex(0)

    # --- validation ------------------------------------------------------------------------
    def extra_warnings(self, design: Design) -> tuple[Problem, ...]:
        """Over the budget typed here: the engine's verdict, as a warning (the budget is the
        scenario's, not the design's)."""
        assert isinstance(design, MiniDesign)
        budget = self.budget.value()
        if not budget:
            return ()
        return tuple(p for p in design.problems(budget=budget) if p.code == "over-budget")

    def focus_field(self, field: str) -> bool:
        head, _, rest = field.partition(".")
        widget: QWidget | None = None
        if head == "stock":
            widget = self.stock_box
        elif head == "option":
            widget = self.option_box
        elif head == "armor":
            side = Side(rest) if rest in {s.value for s in Side} else Side.FRONT
            widget = self.armor.spin(side)
        elif head in ("driver", "gunner"):
            role = Role(head)
            widget = (self.body_armor[role] if rest == "body_armor"
                      else self.kit[(role, rest if rest in _KIT_FIELDS else _KIT_FIELDS[0])])
        elif head == "cost":
            widget = self.budget
        return focus(widget)
