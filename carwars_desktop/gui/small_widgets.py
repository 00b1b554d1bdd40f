"""Small widgets many screens make the same way."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QMessageBox, QPushButton, QWidget


def wrapped_label() -> QLabel:
    """An empty label that wraps its words (a verdict, a hint, a list of names)."""
    label = QLabel()
    label.setWordWrap(True)
    return label


def error_label() -> QLabel:
    """An empty, word-wrapped label for what went wrong, in words (its object name
    ``error``)."""
    label = wrapped_label()
    label.setObjectName("error")
    return label


def dice_entry(placeholder: str) -> tuple[QLabel, QLineEdit, QPushButton]:
    """A procedure's dice: the hint of what to throw, the line the dice thrown are typed
    in (``placeholder`` says how) and the button that rolls the rest in the app."""
    edit = QLineEdit()
    edit.setAccessibleName("Dice thrown")
    edit.setPlaceholderText(placeholder)
    roll = QPushButton("&Roll")
    roll.setToolTip("Roll in the app the dice not typed (Ctrl+R)")
    return wrapped_label(), edit, roll


def dice_row(edit: QLineEdit, roll: QPushButton) -> QHBoxLayout:
    """The dice entry's row: "Dice:" (Alt+I goes to the line), the line, the Roll button."""
    row = QHBoxLayout()
    label = QLabel("D&ice:")
    label.setBuddy(edit)
    row.addWidget(label)
    row.addWidget(edit, 1)
    row.addWidget(roll)
    return row


def message_box(parent: QWidget | None, icon: QMessageBox.Icon, title: str, text: str,
                informative: str) -> QMessageBox:
    """A question to the GM: ``text`` says what happened, ``informative`` what to choose;
    the caller adds the answers as buttons."""
    box = QMessageBox(parent)
    box.setIcon(icon)
    box.setWindowTitle(title)
    box.setText(text)
    box.setInformativeText(informative)
    return box
