"""Reference tables set in columns below a sheet, the way the paper games print them."""

from __future__ import annotations

from collections.abc import Sequence

from carwars_desktop.gui.workshop.printing.page import (
    SMALL,
    WIDTH,
    PageFlow,
    draw_table,
    table_height,
)
from carwars_desktop.rules import ReferenceTable

GUTTER = 50.0


def draw_tables(flow: PageFlow, tables: Sequence[ReferenceTable], columns: int = 2,
                size: float = SMALL) -> None:
    """Place each table in the shortest column; a new page when the columns would not fit."""
    if not tables:
        return
    width = (WIDTH - GUTTER * (columns - 1)) / columns
    heights = [table_height(flow.painter, table, width, size) for table in tables]
    pending = list(zip(tables, heights, strict=True))
    while pending:
        tops = [flow.y] * columns
        placed: list[tuple[ReferenceTable, int, float]] = []
        rest: list[tuple[ReferenceTable, float]] = []
        for table, height in pending:
            column = min(range(columns), key=lambda c: tops[c])
            if tops[column] + height <= flow.bottom or (not placed and flow.y == 0):
                placed.append((table, column, tops[column]))
                tops[column] += height
            else:
                rest.append((table, height))
        if not placed:
            flow.new_page()
            continue
        for table, column, top in placed:
            flow.y = top
            draw_table(flow, table, x=column * (width + GUTTER), width=width, size=size)
        flow.y = max(tops)
        pending = rest
        if pending:
            flow.new_page()
