"""The Charts tab's summary line of an evening with a fire batch and an undone shot: the
batch's damage credited to its firers (not "with no dealer named"), the undone hit left
out of the luck, and "1 roll", "1 success" in the singular."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from carwars_desktop.gui.table.charts import SessionCharts
from carwars_desktop.session.history import Luck, SessionHistory
from carwars_desktop.storage import open_database
from tests.storage.test_chart_parts import (
    _fire,
    _next_turn,
    _services,
    _start,
    _three_shot_batch,
)


def test_the_summary_credits_the_batchs_firers_and_leaves_the_undone_shot_out(
        qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    with open_database(str(tmp_path / "charts.sqlite3")) as database:
        table = _services(database).table
        session_id = _start(table)
        _three_shot_batch(table)  # Ann and Cy hit Bob (30 damage), Bob misses Ann
        _next_turn(table)
        _fire(table, "v3", "v1", "1 1")  # a miss, 13/18
        _fire(table, "v1", "v3", "6 6 6 6")  # a hit, then undone
        table.undo()
        table.finish()
        history, luck = table.history(table.open(session_id))
    charts = SessionCharts()
    qtbot.addWidget(charts)
    charts.show_history(history, luck)
    assert charts.summary.text() == (
        "3 events over 2 turns · Rocket Special: took 0, dealt 15 · Courier: took 30, "
        "dealt 0 · Courier (b): took 0, dealt 15<br>Luck: 2 successes in 4 rolls, 2.3 "
        "expected: unluckier than the odds")


def test_one_roll_and_one_success_read_in_the_singular(qtbot) -> None:  # type: ignore[no-untyped-def]
    charts = SessionCharts()
    qtbot.addWidget(charts)
    charts.show_history(SessionHistory({}, (), 0), Luck((1,), (Fraction(1, 2),)))
    assert "Luck: 1 success in 1 roll, 0.5 expected: luckier than the odds" in \
        charts.summary.text()
