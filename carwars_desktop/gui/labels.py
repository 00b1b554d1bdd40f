"""Small labels many screens make the same way."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel


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
