"""The Battlecars card editor: the card as the GM copies it from the box — three sections
front to rear with their components and d8 hit-location tables, the eight armour blocks
around them, and the weapon counters loaded into the pods and the turret.

Every edit makes a new card (``rules.battlecars.card_edits``); ``Card.problems`` judges it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.gui.elided_combo import ElidedComboBox
from carwars_desktop.gui.plugins.battlecars.load import LoadPanel
from carwars_desktop.gui.plugins.battlecars.models import (
    BOXES,
    COMPONENT_COLUMNS,
    FACING,
    FACING_CHOICES,
    KIND,
    KIND_CHOICES,
    NAME,
    ChoiceDelegate,
    ComponentsModel,
)
from carwars_desktop.gui.workshop.boxes import BoxStrip
from carwars_desktop.gui.workshop.editor import (
    DesignEditor,
    editable_table,
    focus,
    mark_input,
    show_spin_value,
)
from carwars_desktop.rules import Design
from carwars_desktop.rules.battlecars import Card, CounterSizes, card_edits
from carwars_desktop.rules.battlecars.tables import DIE
from carwars_desktop.rules.battlecars.terms import (
    BLOCKS,
    SECTIONS,
    Block,
    Facing,
    Kind,
    Section,
    Weapon,
)
from carwars_desktop.rules.builtin import BATTLECARS

MAX_BOXES = 40


class BlockBox(QFrame):
    """One armour block: its name, its box count, its boxes."""

    def __init__(self, block: Block) -> None:
        super().__init__()
        self.block = block
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.spin = QSpinBox()
        self.spin.setRange(0, MAX_BOXES)
        self.spin.setAlignment(Qt.AlignmentFlag.AlignRight)
        self.spin.setAccessibleName(f"{block.label} armour boxes")
        self.strip = BoxStrip(per_row=6, box=11)
        caption = QLabel(f"<b>{block.value.upper()}</b>")
        caption.setToolTip(f"The {block.label} armour block")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 3, 6, 4)
        layout.addWidget(caption)
        layout.addWidget(mark_input(self.spin), 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.strip, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addStretch(1)


class SectionBox(QGroupBox):
    """A section of the card: its components and its d8 Hit Location Table."""

    def __init__(self, section: Section, model: ComponentsModel) -> None:
        super().__init__(f"{section.value.upper()} section")
        self.section = section
        self.model = model
        self.table = QTableView()
        self.table.setModel(model)
        self.table.setAccessibleName(f"{section.value} components")
        self.table.setItemDelegate(ChoiceDelegate({KIND: KIND_CHOICES, FACING: FACING_CHOICES},
                                                  self.table))
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        editable_table(self.table, NAME)
        for signal in (model.modelReset, model.rowsInserted, model.rowsRemoved,
                       model.dataChanged):
            signal.connect(self._fit_columns)
        self.add_button = QPushButton("Add")
        self.add_button.setToolTip(f"A new component in the {section.value} section")
        self.remove_button = QPushButton("Remove")
        self.remove_button.setToolTip("Remove the selected component")
        buttons = QHBoxLayout()
        buttons.addWidget(mark_input(self.add_button))
        buttons.addWidget(mark_input(self.remove_button))
        buttons.addStretch(1)
        self.faces: list[QComboBox] = []
        faces = QGridLayout()
        faces.setVerticalSpacing(2)
        title = QLabel("<b>d8 hit location</b>")
        title.setToolTip("Which component a hit on this section strikes, by the d8 roll")
        faces.addWidget(title, 0, 0, 1, 2)
        for face in range(1, DIE + 1):
            box = ElidedComboBox()
            box.setAccessibleName(f"{section.value} hit location {face}")
            box.setMinimumContentsLength(11)
            box.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            label = QLabel(f"{face}")
            label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            faces.addWidget(label, face, 0)
            faces.addWidget(mark_input(box), face, 1)
            self.faces.append(box)
        faces.setRowStretch(DIE + 1, 1)
        left = QVBoxLayout()
        left.addWidget(mark_input(self.table))
        left.addLayout(buttons)
        layout = QHBoxLayout(self)
        layout.addLayout(left, 1)
        layout.addLayout(faces)
        model.modelReset.connect(self.fit_table)
        self.fit_table()
        self._fit_columns()

    def _fit_columns(self, *_: object) -> None:
        """The columns but the name as wide as what they show, once per change of the
        section (fitting them on every layout pass, ResizeToContents, asked the model
        3,000 times as the editor was first shown: half of that turn)."""
        for column in range(len(COMPONENT_COLUMNS)):
            if column != NAME:
                self.table.resizeColumnToContents(column)

    def fit_table(self) -> None:
        """As tall as its components (at least three rows): the card shows them all."""
        rows = max(3, self.model.rowCount())
        height = (self.table.horizontalHeader().sizeHint().height()
                  + rows * self.table.verticalHeader().defaultSectionSize()
                  + 2 * self.table.frameWidth())
        self.table.setFixedHeight(height)

    def show_faces(self, card: Card) -> None:
        names = [c.name for c in card.components_in(self.section)]
        entries: tuple[str, ...] = ()
        for table in card.hit_locations:
            if table.section is self.section:
                entries = table.entries
        for face, box in enumerate(self.faces, start=1):
            entry = entries[face - 1] if face <= len(entries) else None
            choices = ([] if entry is not None else ["—"]) + names
            if entry is not None and entry not in names:
                choices.append(entry)
            texts = [c if c in names or c == "—" else f"⚠ {c}" for c in choices]
            if [box.itemText(i) for i in range(box.count())] != texts:
                box.blockSignals(True)
                box.clear()
                for text, choice in zip(texts, choices, strict=True):
                    box.addItem(text, choice)
                box.blockSignals(False)
            index = box.findData(entry if entry is not None else "—")
            if index != box.currentIndex():
                box.blockSignals(True)
                box.setCurrentIndex(index)
                box.blockSignals(False)


class CardEditor(DesignEditor):
    ruleset_id = BATTLECARS.id

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.speed = QSpinBox()
        self.speed.setRange(0, 20)
        self.speed.setAlignment(Qt.AlignmentFlag.AlignRight)
        self.speed.setAccessibleName("Speed Track maximum")
        self.speed_strip = BoxStrip(per_row=20, box=14)
        speed_row = QHBoxLayout()
        speed_label = QLabel("Speed &Track 0 –")
        speed_label.setBuddy(self.speed)
        speed_row.addWidget(speed_label)
        speed_row.addWidget(mark_input(self.speed))
        speed_row.addWidget(self.speed_strip)
        speed_row.addStretch(1)

        self.blocks = {block: BlockBox(block) for block in BLOCKS}
        self.models = {section: ComponentsModel(section, self._component_edited)
                       for section in SECTIONS}
        self.sections = {section: SectionBox(section, self.models[section])
                         for section in SECTIONS}
        card = QGridLayout()
        card.setHorizontalSpacing(6)
        card.setVerticalSpacing(6)
        # Seen from above, the front up: left blocks on the left, right blocks on the right.
        card.addWidget(self.blocks[Block.FRONT], 0, 1, Qt.AlignmentFlag.AlignHCenter)
        for row, section in enumerate(SECTIONS, start=1):
            card.addWidget(self.blocks[Block(f"left-{section.value}")], row, 0)
            card.addWidget(self.sections[section], row, 1)
            card.addWidget(self.blocks[Block(f"right-{section.value}")], row, 2)
        card.addWidget(self.blocks[Block.REAR], len(SECTIONS) + 1, 1,
                       Qt.AlignmentFlag.AlignHCenter)
        card.setColumnStretch(1, 1)
        card_box = QGroupBox("The card seen from above, front up: sections front to rear, "
                             "armour blocks around them (§1.2, §1.3)")
        card_layout = QVBoxLayout(card_box)
        card_layout.addLayout(speed_row)
        card_layout.addLayout(card)

        self.load = LoadPanel()
        load_box = QGroupBox("Weapon load: counters in the pods and the turret (§1.4)")
        QVBoxLayout(load_box).addWidget(self.load)

        self.sizes: dict[str, QSpinBox] = {}
        sizes_box = QGroupBox("Counter sizes in boxes (BC-D37)")
        sizes = QFormLayout(sizes_box)
        for name in CounterSizes().to_json():
            spin = QSpinBox()
            spin.setRange(0, 8)
            spin.setAlignment(Qt.AlignmentFlag.AlignRight)
            spin.setAccessibleName(f"{name} counter size")
            spin.valueChanged.connect(lambda value, name=name: self._size_edited(name, value))
            self.sizes[name] = spin
            sizes.addRow(Weapon(name).label, mark_input(spin))
        self.note = QPlainTextEdit()
        self.note.setAccessibleName("Note")
        self.note.setPlaceholderText("Where the card comes from…")
        self.note.setMaximumHeight(90)
        note_box = QGroupBox("Note")
        QVBoxLayout(note_box).addWidget(mark_input(self.note))
        side = QVBoxLayout()
        side.addWidget(sizes_box)
        side.addWidget(note_box)
        side.addStretch(1)
        lower = QHBoxLayout()
        lower.addWidget(load_box, 3)
        lower.addLayout(side, 1)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(card_box)
        layout.addLayout(lower)

        self.speed.valueChanged.connect(self._speed_edited)
        for block, box in self.blocks.items():
            box.spin.valueChanged.connect(lambda value, block=block: self._armour_edited(
                block, value))
        for section, section_box in self.sections.items():
            section_box.add_button.clicked.connect(
                lambda _c=False, s=section: self.add_component(s))
            section_box.remove_button.clicked.connect(
                lambda _c=False, s=section: self.remove_component(s))
            for face, combo in enumerate(section_box.faces, start=1):
                combo.activated.connect(
                    lambda _i, s=section, f=face, c=combo: self._face_chosen(s, f, c))
        self.note.textChanged.connect(self._note_edited)
        self.load.load_requested.connect(self.load_weapon)
        self.load.unload_requested.connect(
            lambda mount: self._propose(card_edits.unloaded_last(self.card(), mount),
                                        f"Take a counter out of {mount}"))
        self.load.empty_requested.connect(
            lambda mount: self._propose(card_edits.emptied(self.card(), mount),
                                        f"Empty {mount}"))

    def card(self) -> Card:
        return self.design_as(Card)

    # --- showing ---------------------------------------------------------------------------
    def show_design(self, design: Design) -> None:
        assert isinstance(design, Card)
        super().show_design(design)
        show_spin_value(self.speed, design.speed_track_max)
        self.speed_strip.set_boxes(max(0, design.speed_track_max) + 1)
        for block, box in self.blocks.items():
            boxes = design.armour_boxes(block)
            show_spin_value(box.spin, boxes)
            box.strip.set_boxes(boxes)
        for section in SECTIONS:
            self.models[section].set_card(design)
            self.sections[section].show_faces(design)
        for name, spin in self.sizes.items():
            show_spin_value(spin, int(design.counter_sizes.to_json()[name]))
        if self.note.toPlainText() != design.note:
            self.note.blockSignals(True)
            self.note.setPlainText(design.note)
            self.note.blockSignals(False)
        self.load.show_card(design)

    # --- editing ---------------------------------------------------------------------------
    def _propose(self, card: Card, label: str, key: str = "") -> None:
        self.propose(card, label, key)

    def _speed_edited(self, value: int) -> None:
        self._propose(replace(self.card(), speed_track_max=value), f"Speed Track {value}",
                      "speed")

    def _armour_edited(self, block: Block, value: int) -> None:
        self._propose(card_edits.with_armour(self.card(), block, value),
                      f"{block.label.capitalize()} armour {value}", f"armour.{block.value}")

    def _size_edited(self, name: str, value: int) -> None:
        self._propose(card_edits.with_counter_size(self.card(), name, value),
                      f"{Weapon(name).label} counter size {value}", f"size.{name}")

    def _note_edited(self) -> None:
        self._propose(replace(self.card(), note=self.note.toPlainText()), "Note", "note")

    def _component_edited(self, index: int, column: int, value: Any) -> str | None:
        card = self.card()
        component = card.components[index]
        if column == NAME:
            changed = replace(component, name=str(value).strip())
        elif column == KIND:
            changed = replace(component, kind=Kind(str(value)))
        elif column == BOXES:
            try:
                boxes = int(value)
            except (TypeError, ValueError):
                return f"{value!r} is not a number of boxes"
            changed = replace(component, boxes=boxes)
        elif column == FACING:
            changed = replace(component, facing=Facing(value) if value else None)
        else:
            return "that column cannot be changed"
        self._propose(card_edits.with_component(card, index, changed),
                      f"{component.name}: {('name', 'type', 'boxes', 'firing')[column]}")
        return None

    def add_component(self, section: Section, kind: Kind = Kind.TYRE) -> None:
        if self.read_only:
            return
        card, index = card_edits.added_component(self.card(), section, kind)
        self._propose(card, f"Add a component to the {section.value} section")
        self.focus_component(index, NAME)

    def remove_component(self, section: Section) -> None:
        box = self.sections[section]
        row = box.table.currentIndex().row()
        if self.read_only or row < 0:
            return
        index = box.model.card_index(row)
        name = self.card().components[index].name
        self._propose(card_edits.without_component(self.card(), index), f"Remove {name}")

    def _face_chosen(self, section: Section, face: int, box: QComboBox) -> None:
        name = box.currentData()
        if name is None or name == "—":
            return
        self._propose(card_edits.with_hit_location(self.card(), section, face, str(name)),
                      f"{section.value.capitalize()} hit location {face}: {name}")

    def load_weapon(self, mount: str, weapon: Weapon) -> None:
        self._propose(card_edits.loaded(self.card(), mount, weapon),
                      f"Load {weapon.label} into {mount}")

    # --- finding fields ----------------------------------------------------------------------
    def focus_component(self, index: int, column: int) -> bool:
        card = self.card()
        if not 0 <= index < len(card.components):
            return False
        box = self.sections[card.components[index].section]
        row = box.model.row_of(index)
        if row is None:
            return False
        box.table.setCurrentIndex(box.model.index(row, column))
        box.table.setFocus(Qt.FocusReason.OtherFocusReason)
        return True

    def focus_field(self, field: str) -> bool:
        head, _, rest = field.partition(".")
        widget: QWidget | None = None
        if field == "speed_track_max":
            widget = self.speed
        elif head == "armour" and rest in {b.value for b in Block}:
            widget = self.blocks[Block(rest)].spin
        elif head == "counter_sizes" and rest in self.sizes:
            widget = self.sizes[rest]
        elif field.startswith("components["):
            number, _, part = field[len("components["):].partition("]")
            column = {".name": NAME, ".boxes": BOXES, ".facing": FACING}.get(part, NAME)
            return number.isdigit() and self.focus_component(int(number), column)
        elif head == "components":
            section = Section(rest) if rest in {s.value for s in Section} else Section.CENTRE
            widget = self.sections[section].table
        elif head == "hit_locations":
            name, _, face = rest.partition("[")
            if name in {s.value for s in Section}:
                face_number = int(face.rstrip("]")) if face.rstrip("]").isdigit() else 1
                widget = self.sections[Section(name)].faces[max(1, min(DIE, face_number)) - 1]
        elif head == "loadout" and self.load.select(rest):
            widget = self.load.mounts
        elif head == "note":
            widget = self.note
        return focus(widget)
