"""The outcome table: short odds, combined outcomes grouped by vehicle, long names elided."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTableWidget

from carwars_desktop.gui.outcome_table import (
    exact_text,
    fill_outcome_table,
    outcome_rows,
)
from carwars_desktop.procedures import Odds, Outcome, percent
from carwars_desktop.rules import find_procedure, find_ruleset


def test_percent_never_rounds_to_a_misleading_zero_or_hundred() -> None:
    assert percent(Fraction(5, 18)) == "27.8%"
    assert percent(Fraction(1, 2048)) == "< 0.1%"
    assert percent(Fraction(2047, 2048)) == "> 99.9%"
    assert percent(Fraction(0)) == "0%" and percent(Fraction(1)) == "100%"


def test_exact_odds_short_or_approximate() -> None:
    assert exact_text(Fraction(10, 36)) == "5/18"
    assert exact_text(Fraction(1)) == "1"
    assert exact_text(Fraction(77395649, 816293376)) == "≈ 1 in 11"
    assert exact_text(Fraction(2, 3) + Fraction(1, 3 ** 20)) == "≈ 2/3"
    assert exact_text(Fraction(1006143437, 49358138940850176)) == "≈ 1 in 4.9e+07"
    assert exact_text(Fraction(945901, 120932352)) == "≈ 1 in 128"


@given(st.fractions(min_value=0, max_value=1))
def test_every_probability_reads_short(p: Fraction) -> None:
    assert len(percent(p)) <= 7
    assert len(exact_text(p)) <= 21 or p.denominator <= 10_000
    if 0 < p < 1:
        assert percent(p) not in ("0.0%", "100.0%")


def _collision_outcomes() -> tuple[Outcome, ...]:
    ruleset = find_ruleset("mini_car_wars")
    catalog = ruleset.catalog()
    mover = replace(ruleset.sheet_for_design(catalog["Courier"]), speed=60,
                    name="Roadie's Courier with a very long name indeed")
    other = replace(ruleset.sheet_for_design(catalog["Killer Kart"]), speed=50)
    procedure = find_procedure("mini.collision")
    return procedure.odds(procedure.bind({"mover": mover, "other": other})).outcomes


def test_a_collision_is_grouped_under_each_vehicle() -> None:
    outcomes = _collision_outcomes()
    assert len(outcomes) == 40
    rows = outcome_rows(outcomes)
    headings = [row.label for row in rows if row.heading]
    assert headings == ["Roadie's Courier with a very long name indeed", "Killer Kart"]
    second = rows.index(next(row for row in rows if row.label == "Killer Kart"))
    for section in (rows[1:second], rows[second + 1:]):
        assert sum(row.probability or 0 for row in section) == 1
        assert len({row.label for row in section}) == len(section)
    assert [row.label for row in rows[second + 1:]] == [
        "driver killed", "power plant destroyed", "power plant damaged",
        "front armor gone (its weapons destroyed)"]
    assert len(rows) == 2 + 10 + 4
    assert all("/" not in row.label or row.heading for row in rows)
    assert not any(row.percent == "0.0%" for row in rows)


def test_plain_outcomes_stay_one_row_each() -> None:
    outcomes = (Outcome("hit: 3 damage", Fraction(1, 3)), Outcome("miss", Fraction(2, 3)))
    rows = outcome_rows(outcomes)
    assert [(r.label, r.exact, r.percent) for r in rows] == [
        ("hit: 3 damage", "1/3", "33.3%"), ("miss", "2/3", "66.7%")]


def test_long_names_elide_in_the_middle_with_the_whole_in_the_tooltip(qtbot) -> None:  # type: ignore[no-untyped-def]
    table = QTableWidget(0, 3)
    qtbot.addWidget(table)
    outcomes = _collision_outcomes()
    fill_outcome_table(table, outcomes)
    assert table.textElideMode() == Qt.TextElideMode.ElideMiddle
    assert table.horizontalHeaderItem(1).text() == "Odds"
    rows = outcome_rows(outcomes)
    assert table.rowCount() == len(rows)
    assert [table.item(r, 0).text().strip() for r in range(table.rowCount())] == \
        [row.label for row in rows]
    heading = table.item(0, 0)
    assert heading.font().bold() and heading.toolTip() == rows[0].label
    assert table.item(1, 2).toolTip().startswith(rows[1].label + "\nexactly ")


def _collision_odds() -> Odds:
    ruleset = find_ruleset("mini_car_wars")
    catalog = ruleset.catalog()
    mover = replace(ruleset.sheet_for_design(catalog["Courier"]), speed=60)
    other = replace(ruleset.sheet_for_design(catalog["Killer Kart"]), speed=50)
    procedure = find_procedure("mini.collision")
    return procedure.odds(procedure.bind({"mover": mover, "other": other}))


def test_each_vehicle_opens_with_its_effect_categories() -> None:
    odds = _collision_odds()
    rows = outcome_rows(odds.outcomes, odds.effects)
    starts = [n for n, row in enumerate(rows) if row.heading]
    assert [rows[n].label for n in starts] == ["Courier", "Killer Kart"]
    for start, name in zip(starts, ("Courier", "Killer Kart"), strict=True):
        summary = rows[start + 1:start + 4]
        assert [row.label for row in summary] == [
            "armor breached (in all)", "crew hurt (in all)", "wrecked (in all)"]
        assert all(row.summary and not row.heading for row in summary)
        expected = {e.category.value: e.probability for e in odds.effects if e.subject == name}
        assert [row.probability for row in summary] == list(expected.values())
        outcomes = {row.label: row.probability or 0 for row in
                    rows[start + 4:(starts + [len(rows)])[starts.index(start) + 1]]}
        # the tags agree with the worst-effect labels: a killed driver or a destroyed power
        # plant is a wreck, and any of those rows breached the armor
        worst = outcomes.get("driver killed", 0) + outcomes.get("power plant destroyed", 0)
        assert summary[2].probability is not None and summary[2].probability >= worst
        assert summary[0].probability is not None and summary[0].probability >= worst
    # the outcome rows themselves are unchanged by the summaries
    plain = [row for row in rows if not row.summary]
    assert plain == outcome_rows(odds.outcomes)


def test_the_table_shows_the_summaries_in_italics(qtbot) -> None:  # type: ignore[no-untyped-def]
    odds = _collision_odds()
    table = QTableWidget(0, 3)
    qtbot.addWidget(table)
    fill_outcome_table(table, odds.outcomes, odds.effects)
    labels = [table.item(row, 0).text().strip() for row in range(table.rowCount())]
    row = labels.index("wrecked (in all)")
    assert table.item(row, 0).font().italic() and not table.item(row, 0).font().bold()
    assert "not one of the outcomes" in table.item(row, 2).toolTip()
    assert table.item(row, 2).text().endswith("%")
