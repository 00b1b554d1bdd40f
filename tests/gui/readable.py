"""Is every text on a screen readable whole? One check for every screen test.

:func:`unreadable` walks a widget's visible labels, buttons and combo boxes and returns,
for each text that does not show whole, a line saying which and why:

- a label whose text is wider (one line) or taller (word-wrapped) than the label, measured
  with the label's own ``QFontMetrics`` (rich text with a ``QTextDocument`` in its font);
- a label showing a literal ``&`` where a shortcut was meant (a mnemonic with no buddy);
- a button or check box narrower than its text needs (its size hint);
- a combo box whose current text is wider than its text field and is not shown elided;
- any of these cut at the side by what holds it (a scroll area's view), and a scroll area
  that scrolls sideways.

Widgets hidden, scrolled out of a scroll area's view or behind another tab are not
judged: only what is on screen. The caller lays the screen out at the size it tests
(1366×768 and so on) and processes events first.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFontMetrics, QTextDocument
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QCheckBox,
    QComboBox,
    QLabel,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QStyle,
    QStyleOptionComboBox,
    QWidget,
)

SLACK = 1
"""Pixels of rounding allowed between a measured text and the space it has."""

_MNEMONIC = re.compile(r"&(?!&)")


def _shown_text(label: QLabel) -> str:
    text = label.text()
    if label.buddy() is not None:
        text = _MNEMONIC.sub("", text).replace("&&", "&")
    return text


def _rich(label: QLabel) -> bool:
    fmt = label.textFormat()
    return fmt == Qt.TextFormat.RichText or (
        fmt == Qt.TextFormat.AutoText and GuiQt.mightBeRichText(label.text()))


def _label_problem(label: QLabel) -> str | None:
    text = label.text()
    if not text or label.pixmap() is not None and not label.pixmap().isNull():
        return None
    room = label.contentsRect()
    margin = label.margin()
    width, height = room.width() - 2 * margin, room.height() - 2 * margin
    if _rich(label):
        document = QTextDocument()
        document.setDefaultFont(label.font())
        document.setDocumentMargin(0)
        document.setHtml(text)
        if label.wordWrap():
            document.setTextWidth(width)
            if document.size().height() > height + SLACK:
                return f"wraps to {document.size().height():.0f} px in {height} px"
            if document.idealWidth() > width + SLACK:
                return f"a word of {document.idealWidth():.0f} px in {width} px"
        elif document.idealWidth() > width + SLACK:
            return f"{document.idealWidth():.0f} px wide in {width} px"
        return None
    if label.buddy() is None and _MNEMONIC.search(text.replace("&&", "")):
        return "shows a literal '&' (a shortcut with no buddy)"
    metrics = QFontMetrics(label.font())
    shown = _shown_text(label)
    if label.wordWrap():
        needed = metrics.boundingRect(QRect(0, 0, width, 100_000),
                                      int(Qt.TextFlag.TextWordWrap), shown)
        if needed.height() > height + SLACK:
            return f"wraps to {needed.height()} px in {height} px"
        if needed.width() > width + SLACK:
            return f"a word of {needed.width()} px in {width} px"
        return None
    lines = shown.split("\n")
    widest = max(metrics.horizontalAdvance(line) for line in lines)
    if widest > width + SLACK:
        return f"{widest} px wide in {width} px"
    if len(lines) * metrics.lineSpacing() - metrics.leading() > height + SLACK:
        return f"{len(lines)} lines in {height} px"
    return None


def _button_problem(button: QAbstractButton) -> str | None:
    if not button.text() or not isinstance(button, (QPushButton, QCheckBox, QRadioButton)):
        return None
    needed = button.sizeHint().width()
    if button.width() + SLACK < needed:
        return f"{button.width()} px wide, its text needs {needed} px"
    return None


def _combo_problem(combo: QComboBox) -> str | None:
    if combo.isEditable() or not combo.currentText():
        return None
    option = QStyleOptionComboBox()
    combo.initStyleOption(option)
    field = combo.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                         QStyle.SubControl.SC_ComboBoxEditField, combo)
    needed = combo.fontMetrics().horizontalAdvance(combo.currentText())
    available = field.width() - 2  # the style draws the text 1 px in from each side
    if needed <= available + SLACK:
        return None
    shown_text = getattr(combo, "shown_text", None)  # the app's combo boxes elide
    if shown_text is not None and shown_text().endswith("…"):
        return None
    return f"{combo.currentText()!r} needs {needed} px in {available} px, cut without an ellipsis"


def _cut_sideways(widget: QWidget) -> str | None:
    """The part of ``widget`` its containers show, when narrower than the widget."""
    shown = widget.visibleRegion().boundingRect()
    if shown.isEmpty() or shown.width() + SLACK >= widget.width():
        return None
    return f"only {shown.width()} of its {widget.width()} px are in view"


def _on_screen(widget: QWidget, root: QWidget) -> bool:
    """Visible within ``root`` and not entirely outside its ancestors' visible parts."""
    if not widget.isVisibleTo(root) or widget.width() <= 0 or widget.height() <= 0:
        return False
    return not widget.visibleRegion().isEmpty() or not root.isVisible()


def _name(widget: QWidget) -> str:
    text = widget.text() if isinstance(widget, (QLabel, QAbstractButton)) else \
        widget.currentText() if isinstance(widget, QComboBox) else ""
    kind = type(widget).__name__
    name = widget.objectName() or widget.accessibleName()
    return f"{kind}{f' {name!r}' if name else ''} {text[:60]!r}"


def unreadable(root: QWidget) -> list[str]:
    """Every text under ``root`` that does not show whole, with the reason (empty if none)."""
    for _ in range(3):  # a layout that changes posts its parents' layout requests in turn
        QApplication.processEvents()
    problems: list[str] = []
    for widget in root.findChildren(QWidget):
        if not _on_screen(widget, root):
            continue
        problem: str | None = None
        if isinstance(widget, QLabel):
            problem = _label_problem(widget) or (_cut_sideways(widget) if widget.text() else None)
        elif isinstance(widget, QAbstractButton):
            problem = _button_problem(widget) or (_cut_sideways(widget) if widget.text()
                                                  else None)
        elif isinstance(widget, QComboBox):
            problem = _combo_problem(widget) or _cut_sideways(widget)
        elif isinstance(widget, QScrollArea) and widget.horizontalScrollBar().isVisible():
            problem = "scrolls sideways (its content is wider than its view)"
        if problem is not None:
            problems.append(f"{_name(widget)}: {problem}")
    return problems


def clipped(root: QWidget) -> list[str]:
    """Every widget under ``root`` (and ``root`` itself) that its parent cuts: a visible
    child reaching past its parent's rectangle, or ``root`` shown only in part by what
    holds it (a scroll area's view). Empty when everything shows whole."""
    for _ in range(3):
        QApplication.processEvents()
    problems: list[str] = []
    cut = _cut_sideways(root)
    if cut is not None:
        problems.append(f"{_name(root)}: {cut}")
    for widget in root.findChildren(QWidget):
        parent = widget.parentWidget()
        if parent is None or not widget.isVisibleTo(root) or widget.isWindow():
            continue
        inside = parent.rect().adjusted(-SLACK, -SLACK, SLACK, SLACK)
        if not inside.contains(widget.geometry()):
            problems.append(f"{_name(widget)}: {widget.geometry().getRect()} reaches past "
                            f"its parent {_name(parent)} {parent.rect().getRect()}")
    return problems
