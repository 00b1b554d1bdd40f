"""The battle report (issue 36 §2), Qt-free: a scripted session's report is the stored
one byte for byte; the players' copy follows the session's visibility; luck per player
from the exact odds the events kept."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

from carwars_desktop.rules import find_ruleset
from carwars_desktop.services import Services
from carwars_desktop.services.report import ReportError, find_session, session_report
from carwars_desktop.services.report_html import report_html
from carwars_desktop.session.setup import Entry, prepare
from carwars_desktop.session.visibility import Visibility
from carwars_desktop.storage import Database

from .report_script import play_scripted_session

DATA = Path(__file__).parent / "data"


def test_report_of_the_scripted_session_is_the_stored_one(services: Services,
                                                          database: Database) -> None:
    session_id = play_scripted_session(services)
    html = report_html(session_report(database, session_id))
    stored = (DATA / "scripted-session.report.html").read_text(encoding="utf-8")
    assert html == stored
    assert report_html(session_report(database, session_id)) == html  # the same bytes


def test_report_tells_the_game_in_words(services: Services, database: Database) -> None:
    report = session_report(database, play_scripted_session(services))
    first = report.narrative[0]
    assert first.when == "Turn 1, phase 1"
    assert first.text.startswith("Ann's Rocket Special fired its RL (F) at Bob's Courier "
                                 "(range 5) — need 8+, 41.7% — hit")
    assert "Courier: 12 damage to the front" in first.text
    assert [k.victim for k in report.kills] == ["Bob's Courier"]
    assert report.kills[0].by == ("Ann's Rocket Special",) and report.kills[0].turn == 4
    assert report.victory is not None and report.victory.procedure_id == "mini.victory"
    assert report.victory.outcome == "Rocket Special wins (the survivor)"
    assert report.house_rules == "The digest's defaults"
    ann, bob = report.luck
    assert (ann.player, ann.rolls, ann.successes, ann.expected) == ("Ann", 4, 4,
                                                                    Fraction(5, 3))
    assert (bob.player, bob.rolls, bob.successes, bob.expected) == ("Bob", 1, 0,
                                                                    Fraction(5, 12))
    assert [s.name for s in report.start] == ["Rocket Special", "Courier"]
    assert not report.start[1].out and report.end[1].out


def test_report_html_is_self_contained_and_prints(services: Services,
                                                  database: Database) -> None:
    html = report_html(session_report(database, play_scripted_session(services)))
    assert html.startswith("<!DOCTYPE html>") and "@media print" in html
    assert "<svg" in html and "<script" not in html
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)  # nothing fetched
    assert "url(" not in html


def test_report_players_copy_follows_the_visibility(services: Services,
                                                   database: Database) -> None:
    session_id = play_scripted_session(services)
    services.table.open(session_id)
    assert services.table.read_only  # finished: the settings change through the store
    with database.engine.begin() as connection:
        connection.exec_driver_sql("UPDATE game_sessions SET status = 'running' WHERE id = ?",
                                   (session_id,))
    services.table.close()
    services.table.open(session_id)
    services.table.set_visibility(Visibility(sheets_open=False, odds_shown=False,
                                             hidden_vehicles=frozenset()))
    players = session_report(database, session_id)
    html = report_html(players)
    assert "need 8+" not in html and "41.7%" not in html and "<svg" not in html
    assert "the odds are hidden" in html
    assert "armor F18" not in html  # what only the sheet says
    assert "the GM marked the sheet" in html and "crashed and burned" not in html
    assert "visibility" not in " ".join(line.text for line in players.narrative).lower()
    gm = report_html(session_report(database, session_id, gm_copy=True))
    assert "need 8+, 41.7%" in gm and "<svg" in gm and "crashed and burned" in gm
    services.table.set_visibility(Visibility(sheets_open=True, odds_shown=False))
    open_sheets = report_html(session_report(database, session_id))
    assert "armor F18" in open_sheets and "crashed and burned" in open_sheets
    assert "41.7%" not in open_sheets and "need 8+" not in open_sheets  # not in the steps
    assert "5/12" not in open_sheets
    services.table.set_visibility(Visibility(hidden_vehicles=frozenset({"v2"})))
    ambush = report_html(session_report(database, session_id))
    assert "Courier" not in ambush and "<td>Bob</td>" not in ambush  # (a note names Bob)
    assert "Courier" in report_html(session_report(database, session_id, gm_copy=True))
    services.table.set_visibility(Visibility(hidden_vehicles=frozenset({"v1"})))
    killer_hidden = session_report(database, session_id)
    assert [(k.victim, k.by) for k in killer_hidden.kills] == [("Bob's Courier", ())]
    assert "Rocket Special" not in report_html(killer_hidden)
    assert killer_hidden.victory is None  # it would name the hidden survivor


def test_report_finds_a_session_by_number_or_name(services: Services,
                                                  database: Database) -> None:
    first = play_scripted_session(services)
    assert find_session(database, str(first)).id == first
    assert find_session(database, f"#{first}").id == first
    assert find_session(database, "Friday duel").id == first
    assert find_session(database, "Friday duel — Road Duel").id == first
    second = play_scripted_session(services)
    try:
        find_session(database, "Friday duel")
    except ReportError as error:
        assert f"#{first}" in str(error) and f"#{second}" in str(error)
    else:
        raise AssertionError("an ambiguous name was accepted")
    try:
        find_session(database, "Saturday")
    except ReportError as error:
        assert "no session 'Saturday'" in str(error)
    else:
        raise AssertionError("an unknown name was accepted")


@pytest.mark.parametrize("ruleset_id", ["mini_car_wars", "battlecars", "autopower"])
def test_report_of_each_ruleset_runs_its_victory_check(services: Services, database: Database,
                                                      ruleset_id: str) -> None:
    ruleset = find_ruleset(ruleset_id)
    design = next(iter(ruleset.catalog().values())).to_json()
    session_id = services.table.start(ruleset_id, "Two of a kind", "", prepare(
        ruleset, [Entry("Ann", "First", design), Entry("Bob", "Second", design)]))
    report = session_report(database, session_id)
    assert report.victory is not None and report.victory.procedure_id == ruleset.victory
    assert report.victory.outcome and not report.victory.outcome.startswith("not checked")
    assert [s.player for s in report.end] == ["Ann", "Bob"]
    assert report.luck == () and "no roll with exact odds" in report.luck_note
    html = report_html(report)
    assert ruleset.title in html and report.victory.outcome in html.replace("&#x27;", "'")


def test_report_counts_each_shot_of_the_fire_batch(services: Services,
                                                  database: Database) -> None:
    from carwars_desktop.rules.mini_car_wars.play.table import BATCH
    from carwars_desktop.services.fire_batch import FireBatch

    ruleset = find_ruleset("mini_car_wars")
    catalog = ruleset.catalog()
    table = services.table
    session_id = table.start("mini_car_wars", "Batch night", "", prepare(ruleset, [
        Entry("Ann", "Rocket Special", catalog["Rocket Special"].to_json()),
        Entry("Bob", "Courier", catalog["Courier"].to_json())]))
    table.open(session_id)
    batch = FireBatch(BATCH)
    shot = {"weapon": "1", "side": "F", "range": "5"}
    batch.declare(shot, {"firer": "v1", "target": "v2"}, "2 3")
    batch.declare(shot, {"firer": "v2", "target": "v1"}, "6 6 6 6")
    batch.resolve(table).apply()
    [stored] = [e for e in table.running().store.page(0, 10) if not e.undone]  # type: ignore[attr-defined]
    rolls = stored.event.rolls
    assert [(r["bindings"]["firer"], r["p_success"], r["success"]) for r in rolls] == [
        ("v1", "5/12", False), ("v2", "5/12", True)]
    report = session_report(database, session_id)
    assert [(p.player, p.rolls, p.successes, p.expected) for p in report.luck] == [
        ("Ann", 1, 0, Fraction(5, 12)), ("Bob", 1, 1, Fraction(5, 12))]


def test_report_odds_of_a_session_recorded_before_events_kept_their_rolls(
        services: Services, database: Database) -> None:
    """An older session's events kept no rolls: the report (and the ledger) read each
    resolution's exact odds from the roll log, its applied lines matched to the events in
    order, so the luck is the same as had the events kept them."""
    import json

    from sqlalchemy import text

    from carwars_desktop.services.ledger import LedgerService

    session_id = play_scripted_session(services)
    kept = session_report(database, session_id)
    kept_ledger = LedgerService(database).ledger()
    with database.engine.begin() as connection:
        rows = connection.execute(text("SELECT id, body FROM session_events "
                                       "WHERE session_id = :s"), {"s": session_id}).all()
        for row_id, body in rows:
            data = json.loads(body)
            data.pop("rolls", None)
            connection.execute(text("UPDATE session_events SET body = :b WHERE id = :i"),
                               {"b": json.dumps(data), "i": row_id})
        connection.execute(text("DELETE FROM session_ledger"))
    older = session_report(database, session_id)
    assert [(p.player, p.rolls, p.successes, p.expected) for p in older.luck] == \
        [(p.player, p.rolls, p.successes, p.expected) for p in kept.luck]
    assert "41.7%" in older.narrative[0].text and "need 8+" not in older.narrative[0].text
    ledger = LedgerService(database).ledger()
    assert [(r.name, r.shots, r.hits, r.luck) for r in ledger.players] == \
        [(r.name, r.shots, r.hits, r.luck) for r in kept_ledger.players]
