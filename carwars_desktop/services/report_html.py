"""A battle report as one self-contained HTML file (Qt-free): no script, no font or image
fetched from anywhere (the luck chart is an inline SVG), a print style sheet, the same
bytes for the same report (:mod:`carwars_desktop.services.report`)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from html import escape

from carwars_desktop.procedures import percent
from carwars_desktop.services.report import BattleReport, PlayerLuck, SheetView

STYLE = """
body { font-family: "DejaVu Sans", Arial, Helvetica, sans-serif; color: #111;
       max-width: 60em; margin: 1.5em auto; padding: 0 1em; line-height: 1.4; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.2em; border-bottom: 1px solid #888; margin-top: 1.6em; }
.meta { color: #444; }
.copy { font-weight: bold; }
.sheets { display: flex; flex-wrap: wrap; gap: 0.8em; }
.sheet { border: 1px solid #999; padding: 0.4em 0.7em; min-width: 14em; break-inside: avoid; }
.sheet h3 { font-size: 1em; margin: 0.2em 0; }
.sheet table { border-collapse: collapse; }
.sheet td { padding: 0 0.6em 0 0; vertical-align: top; }
.lost { text-decoration: line-through; color: #777; }
.out { color: #a00; font-weight: bold; }
ol.narrative li { margin-bottom: 0.3em; }
.when { font-weight: bold; }
.details { color: #555; font-size: 0.85em; margin: 0.1em 0 0 1em; }
table.luck { border-collapse: collapse; margin-top: 0.6em; }
table.luck td, table.luck th { border: 1px solid #999; padding: 0.2em 0.6em; text-align: right; }
table.luck th:first-child, table.luck td:first-child { text-align: left; }
@media print {
  body { max-width: none; margin: 0; font-size: 10pt; }
  h2 { break-after: avoid; }
  .sheet, svg, table.luck { break-inside: avoid; }
  a { color: inherit; text-decoration: none; }
}
"""


def _e(text: str) -> str:
    return escape(text, quote=True)


def _fraction(value: Fraction) -> str:
    return str(value) if value.denominator != 1 else str(value.numerator)


def _sheet(sheet: SheetView) -> str:
    rows = []
    for fact in sheet.facts:
        cls = ' class="lost"' if fact.lost else ""
        rows.append(f"<tr{cls}><td>{_e(fact.label)}</td><td>{_e(fact.value)}</td></tr>")
    status = ", ".join(sheet.status)
    out = ' <span class="out">out of play</span>' if sheet.out else ""
    player = f" — {_e(sheet.player)}" if sheet.player else ""
    return (f'<div class="sheet"><h3>{_e(sheet.name)}{player}</h3>'
            f"<div>{_e(status)}{out}</div><table>{''.join(rows)}</table></div>")


def _sheets(sheets: Sequence[SheetView]) -> str:
    return '<div class="sheets">' + "".join(_sheet(s) for s in sheets) + "</div>"


def luck_svg(luck: Sequence[PlayerLuck]) -> str:
    """Each player's successes thrown (dark) against those the exact odds expected (light),
    one pair of bars per player, on one scale."""
    width, bar, gap, left, top = 520, 16, 14, 130, 22
    most = max([float(p.expected) for p in luck] + [p.successes for p in luck] + [1.0])
    height = top + len(luck) * (2 * bar + gap) + 24
    scale = (width - left - 90) / most
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" '
             f'aria-label="Luck: successes against the exact odds, per player">',
             '<rect x="0" y="0" width="100%" height="100%" fill="#ffffff"/>',
             '<text x="4" y="14" font-size="11" fill="#333">'
             '■ thrown   □ expected from the exact odds</text>']
    y = top
    for player in luck:
        thrown = player.successes * scale
        expected = float(player.expected) * scale
        parts.append(f'<text x="4" y="{y + bar + 4}" font-size="12" fill="#111">'
                     f"{_e(player.player[:18])}</text>")
        parts.append(f'<rect x="{left}" y="{y}" width="{thrown:.1f}" height="{bar}" '
                     'fill="#2a5d9f"/>')
        parts.append(f'<text x="{left + thrown + 4:.1f}" y="{y + bar - 4}" font-size="11" '
                     f'fill="#111">{player.successes}</text>')
        parts.append(f'<rect x="{left}" y="{y + bar}" width="{expected:.1f}" height="{bar}" '
                     'fill="#bcd0ea" stroke="#2a5d9f" stroke-width="0.5"/>')
        parts.append(f'<text x="{left + expected + 4:.1f}" y="{y + 2 * bar - 4}" '
                     f'font-size="11" fill="#111">{float(player.expected):.2f}</text>')
        y += 2 * bar + gap
    parts.append("</svg>")
    return "".join(parts)


def luck_svgs(luck: Sequence[PlayerLuck]) -> tuple[str, str]:
    """The luck chart's two drawings: the totals, and the luck over the game."""
    return luck_svg(luck), _running_svg(luck)


COLOURS = ("#2a5d9f", "#c0392b", "#27ae60", "#8e44ad", "#d35400", "#16a085", "#7f8c8d",
           "#b7950b")


def _running_svg(luck: Sequence[PlayerLuck]) -> str:
    """Over the game: each player's successes minus those expected, after each of their
    rolls (above the zero line: luckier than the odds)."""
    width, height, left, right, top, bottom = 520, 200, 40, 110, 14, 26
    longest = max(p.rolls for p in luck)
    swings = [float(hits - expected) for p in luck for hits, expected in p.running]
    high = max([abs(v) for v in swings] + [1.0])
    plot_w, plot_h = width - left - right, height - top - bottom
    zero = top + plot_h / 2

    def x(index: int) -> float:
        return left + plot_w * index / max(longest, 1)

    def y(value: float) -> float:
        return zero - (plot_h / 2) * value / high

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" '
             'aria-label="Luck over the game: successes minus expected, per player">',
             '<rect x="0" y="0" width="100%" height="100%" fill="#ffffff"/>',
             f'<line x1="{left}" y1="{zero:.1f}" x2="{left + plot_w}" y2="{zero:.1f}" '
             'stroke="#888" stroke-width="1"/>',
             f'<text x="2" y="{y(high) + 4:.1f}" font-size="10" fill="#333">+{high:.1f}</text>',
             f'<text x="2" y="{zero + 4:.1f}" font-size="10" fill="#333">0</text>',
             f'<text x="2" y="{y(-high) + 4:.1f}" font-size="10" fill="#333">−{high:.1f}</text>',
             f'<text x="{left}" y="{height - 6}" font-size="10" fill="#333">'
             "each player's rolls in order (successes minus expected)</text>"]
    for number, player in enumerate(luck):
        colour = COLOURS[number % len(COLOURS)]
        points = [(x(0), y(0.0))] + [(x(i), y(float(hits - expected)))
                                     for i, (hits, expected) in enumerate(player.running, 1)]
        path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
        parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}" '
                     'stroke-width="2"/>')
        last_x, last_y = points[-1]
        parts.append(f'<text x="{last_x + 4:.1f}" y="{last_y + 4:.1f}" font-size="11" '
                     f'fill="{colour}">{_e(player.player[:14])}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _luck_table(luck: Sequence[PlayerLuck]) -> str:
    rows = "".join(
        f"<tr><td>{_e(p.player)}</td><td>{p.rolls}</td><td>{p.successes}</td>"
        f"<td>{_e(_fraction(p.expected))} ≈ {float(p.expected):.2f}</td>"
        f"<td>{_e(percent(Fraction(p.successes, p.rolls)))} vs "
        f"{_e(percent(p.expected / p.rolls))}</td><td>{_e(p.verdict)}</td></tr>"
        for p in luck)
    return ('<table class="luck"><tr><th>Player</th><th>Rolls</th><th>Successes</th>'
            "<th>Expected (sum of P(success))</th><th>Rate</th><th></th></tr>"
            f"{rows}</table>")


def report_html(report: BattleReport, chart: str | None = None) -> str:
    """The whole page; ``chart``: what stands for the luck chart (the PDF's painter
    cannot draw an inline SVG and is given an image instead), else the inline SVG."""
    copy = "GM's copy: everything, hidden information included" if report.gm_copy \
        else "Players' copy"
    out: list[str] = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>Battle report — {_e(report.title)}</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>Battle report: {_e(report.title)}</h1>",
        f'<p class="meta">{_e(report.ruleset)} · {_e(report.status)} · started '
        f"{_e(report.started)}"
        + (f" · finished {_e(report.finished)}" if report.finished else "") + "</p>",
        f'<p class="copy">{_e(copy)}</p>',
    ]
    if report.visibility:
        out.append("<ul>" + "".join(f"<li>{_e(line)}</li>" for line in report.visibility)
                   + "</ul>")
    out.append("<h2>House rules in force</h2>")
    out.append(f"<p>{_e(report.house_rules)}</p>")
    out.append("<h2>The vehicles as they started</h2>")
    out.append(_sheets(report.start))
    out.append("<h2>Turn by turn</h2>")
    if report.narrative:
        out.append('<ol class="narrative">')
        for line in report.narrative:
            when = f'<span class="when">{_e(line.when)}:</span> ' if line.when else ""
            details = ("".join(f'<div class="details">{_e(step)}</div>'
                               for step in line.details))
            out.append(f"<li>{when}{_e(line.text)}{details}</li>")
        out.append("</ol>")
    else:
        out.append("<p>Nothing happened yet.</p>")
    out.append("<h2>Kills</h2>")
    if report.kills:
        out.append("<ul>")
        for kill in report.kills:
            when = f"Turn {kill.turn}" + (f", {kill.phase}" if kill.phase else "") \
                if kill.turn is not None else ""
            by = f" by {' and '.join(kill.by)}" if kill.by else ""
            out.append(f"<li><b>{_e(kill.victim)}</b> out of play{_e(by)}"
                       + (f" ({_e(when)})" if when else "") + f": {_e(kill.how)}</li>")
        out.append("</ul>")
    else:
        out.append("<p>No vehicle was put out of play.</p>")
    out.append("<h2>The vehicles as they ended</h2>")
    out.append(_sheets(report.end))
    out.append("<h2>Victory</h2>")
    if report.victory is None:
        out.append("<p>No victory check (the rules have none, or a vehicle is hidden "
                   "from the players).</p>")
    else:
        out.append(f"<p><b>{_e(report.victory.title)}</b> "
                   f"({_e(report.victory.procedure_id)}): {_e(report.victory.outcome)}</p>")
        if report.victory.steps:
            out.append("<ul>" + "".join(f"<li>{_e(s)}</li>" for s in report.victory.steps)
                       + "</ul>")
    out.append("<h2>Luck</h2>")
    if report.luck:
        out.append("<p>Each player's successes against the exact odds of their rolls "
                   "(the sum of P(success) is the number of successes the odds "
                   "expected).</p>")
        out.append(chart if chart is not None else "".join(luck_svgs(report.luck)))
        out.append(_luck_table(report.luck))
    else:
        out.append(f"<p>No luck chart: {_e(report.luck_note)}.</p>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
