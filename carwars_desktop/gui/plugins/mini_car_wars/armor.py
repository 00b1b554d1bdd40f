"""Mini Car Wars armor seen from above: five sides, their boxes, and points moved between them.

Keyboard: in a side's field, Up/Down change it; Alt+Up, Alt+Down, Alt+Left,
Alt+Right and Alt+PgUp move points from that side to the front, back, left,
right or top. Mouse: drag one side's boxes onto another side to move points
(Shift: one point). The panel only reports what the GM asks for; the editor
makes the new design through the engine (``MiniDesign.rearranged``).
"""

from __future__ import annotations

from PySide6.QtCore import QMimeData, QPoint, Qt, Signal
from PySide6.QtGui import QDrag, QDragEnterEvent, QDropEvent, QKeyEvent, QMouseEvent
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.gui.workshop.boxes import BoxStrip
from carwars_desktop.gui.workshop.editor import mark_input
from carwars_desktop.rules.mini_car_wars.model import Armor, Side

MIME = "application/x-carwars-armor-side"
MOVE_KEYS = {Qt.Key.Key_Up: Side.FRONT, Qt.Key.Key_Down: Side.BACK, Qt.Key.Key_Left: Side.LEFT,
             Qt.Key.Key_Right: Side.RIGHT, Qt.Key.Key_PageUp: Side.TOP}
MAX_POINTS = 300


class SideSpin(QSpinBox):
    """A side's armor points; Alt+arrows ask to move points to another side."""

    move_requested = Signal(object)

    def __init__(self, side: Side) -> None:
        super().__init__()
        self.side = side
        self.setRange(0, MAX_POINTS)
        self.setAlignment(Qt.AlignmentFlag.AlignRight)
        self.setAccessibleName(f"{side.label.capitalize()} armor points")
        self.setKeyboardTracking(True)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        key = Qt.Key(event.key())
        if event.modifiers() & Qt.KeyboardModifier.AltModifier and key in MOVE_KEYS:
            self.move_requested.emit(MOVE_KEYS[key])
            event.accept()
            return
        super().keyPressEvent(event)


class SideBox(QFrame):
    """One side: its name, its points, its boxes; a drag source and a drop target."""

    dropped = Signal(object, object, bool)
    """(source side, this side, one point only)"""

    def __init__(self, side: Side) -> None:
        super().__init__()
        self.side = side
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAcceptDrops(True)
        self.caption = QLabel(f"<b>{side.label.upper()}</b>")
        self.note = QLabel("<i>none on a cycle</i>")
        self.note.setVisible(False)
        self.spin = SideSpin(side)
        mark_input(self.spin)
        self.strip = BoxStrip(per_row=10 if side in (Side.LEFT, Side.RIGHT) else 15, box=9)
        self.strip.setToolTip("Drag these boxes onto another side to move armor points there "
                              "(Shift: one point)")
        top = QHBoxLayout()
        top.addWidget(self.caption)
        top.addStretch(1)
        top.addWidget(self.spin)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 6)
        layout.addLayout(top)
        layout.addWidget(self.note)
        layout.addWidget(self.strip, 0, Qt.AlignmentFlag.AlignLeft)
        self._press: QPoint | None = None

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if event.button() == Qt.MouseButton.LeftButton:
            self._press = event.position().toPoint()
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        start = self._press
        if start is None or not self.spin.isEnabled():
            return
        if (event.position().toPoint() - start).manhattanLength() < 8:
            return
        self._press = None
        mime = QMimeData()
        mime.setData(MIME, self.side.value.encode())
        drag = QDrag(self)
        drag.setMimeData(mime)
        drag.setPixmap(self.strip.grab())
        drag.exec(Qt.DropAction.MoveAction)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802
        if event.mimeData().hasFormat(MIME) and self.spin.isEnabled():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802
        source = Side(bytes(event.mimeData().data(MIME).data()).decode())
        if source is not self.side:
            one = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
            self.dropped.emit(source, self.side, one)
        event.acceptProposedAction()


class ArmorPanel(QWidget):
    """The five sides around the car, the points still to place, and the move step."""

    side_changed = Signal(object, int)
    """(side, its new points) — typed or spun in a side's field"""
    move_requested = Signal(object, object, int)
    """(from side, to side, points)"""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.sides = {side: SideBox(side) for side in Side}
        self.step = QSpinBox()
        self.step.setRange(1, 50)
        self.step.setValue(5)
        self.step.setAccessibleName("Points per move")
        self.step.setToolTip("How many points Alt+arrow or a drag moves between sides")
        self.placed = QLabel()
        self.placed.setObjectName("armor-placed")
        self.placed.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        body = QLabel("▲\nfront of\nthe car")
        body.setAlignment(Qt.AlignmentFlag.AlignCenter)
        body.setStyleSheet("color: palette(mid);")

        grid = QGridLayout()
        grid.addWidget(self.sides[Side.FRONT], 0, 1)
        grid.addWidget(self.sides[Side.LEFT], 1, 0)
        middle = QVBoxLayout()
        middle.addWidget(body)
        middle.addWidget(self.sides[Side.TOP])
        grid.addLayout(middle, 1, 1)
        grid.addWidget(self.sides[Side.RIGHT], 1, 2)
        grid.addWidget(self.sides[Side.BACK], 2, 1)
        for column in range(3):
            grid.setColumnStretch(column, 1)

        footer = QHBoxLayout()
        footer.addWidget(self.placed, 1)
        footer.addSpacing(16)
        step_label = QLabel("Move &step:")
        step_label.setBuddy(self.step)
        footer.addWidget(step_label)
        footer.addWidget(self.step)
        hint = QLabel("Alt+arrows move points from the side being edited; or drag boxes "
                      "between sides.")
        hint.setWordWrap(True)
        hint.setStyleSheet("color: palette(dark);")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(grid)
        layout.addLayout(footer)
        layout.addWidget(hint)

        for side, box in self.sides.items():
            box.spin.valueChanged.connect(
                lambda value, side=side: self.side_changed.emit(side, int(value)))
            box.spin.move_requested.connect(
                lambda target, side=side: self.move_requested.emit(side, target,
                                                                   self.step.value()))
            box.dropped.connect(self._dropped)

    def _dropped(self, source: Side, target: Side, one: bool) -> None:
        self.move_requested.emit(source, target, 1 if one else self.step.value())

    def spin(self, side: Side) -> QSpinBox:
        return self.sides[side].spin

    def show_armor(self, armor: Armor, available: int, sides_allowed: frozenset[Side]) -> None:
        """Show each side's points and boxes, and how many points are still to place."""
        for side, box in self.sides.items():
            value = armor.get(side)
            if box.spin.value() != value:
                box.spin.blockSignals(True)
                box.spin.setValue(max(0, min(MAX_POINTS, value)))
                box.spin.blockSignals(False)
            box.strip.set_boxes(value)
            allowed = side in sides_allowed
            box.note.setVisible(not (allowed or value))
        placed = armor.total
        left = available - placed
        if left == 0:
            state = "✔ all placed"
        elif left > 0:
            state = f"⚠ {left} still to place"
        else:
            state = f"⚠ {-left} too many"
        self.placed.setText(f"Placed <b>{placed}</b> of {available} armor points · {state}")
