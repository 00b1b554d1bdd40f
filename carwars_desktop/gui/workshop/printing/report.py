"""A battle report on paper: the report's HTML (``services/report_html.py``) laid out by
Qt's text document on the print pipeline's page (A4, 10 mm margins, 300 dpi: ``prepare``),
with the luck chart's SVG drawn into an image (the text document draws no inline SVG)."""

from __future__ import annotations

import sys

from PySide6.QtCore import QByteArray, QSizeF, QUrl
from PySide6.QtGui import QColor, QGuiApplication, QImage, QPainter, QPdfWriter, QTextDocument
from PySide6.QtSvg import QSvgRenderer

from carwars_desktop.gui.workshop.printing import RESOLUTION, prepare
from carwars_desktop.services.report import BattleReport
from carwars_desktop.services.report_html import luck_svgs, report_html

CHART = "carwars-report:luck-{}.png"


def _chart_image(svg: str) -> QImage:
    renderer = QSvgRenderer(QByteArray(svg.encode("utf-8")))
    size = renderer.defaultSize()
    image = QImage(size.width() * 2, size.height() * 2, QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    renderer.render(painter)
    painter.end()
    return image


def report_document(report: BattleReport) -> QTextDocument:
    """The report as a text document ready to print (its chart an image resource)."""
    document = QTextDocument()
    chart = None
    if report.luck:
        chart = ""
        for number, svg in enumerate(luck_svgs(report.luck)):
            image = _chart_image(svg)
            name = CHART.format(number)
            document.addResource(QTextDocument.ResourceType.ImageResource, QUrl(name), image)
            chart += f'<p><img src="{name}" width="{image.width() // 2}"></p>'
    document.setHtml(report_html(report, chart=chart))
    return document


def write_report_pdf(path: str, report: BattleReport, standalone: bool = False) -> int:
    """Save the report as a PDF; the number of pages written. ``standalone``: called from
    the command line, with no application yet (one is made, off screen)."""
    app = QGuiApplication.instance()
    if app is None and standalone:
        app = QGuiApplication([sys.argv[0] if sys.argv else "carwars-desktop",
                               "-platform", "offscreen"])
    writer = QPdfWriter(path)
    writer.setResolution(RESOLUTION)
    writer.setTitle(f"Battle report — {report.title}"[:200])
    writer.setCreator("Carwars Desktop")
    prepare(writer)
    document = report_document(report)
    document.documentLayout().setPaintDevice(writer)
    document.setPageSize(QSizeF(writer.width(), writer.height()))
    document.print_(writer)
    return max(1, document.pageCount())
