"""The club's ledger (issue 36 §3), Qt-free: a generated club history (50 sessions, 8
players, the three rulesets, fixed dice, played through the services) gives the totals
noted at the table as it was played; filtered; kept per session and computed again only
when stale; printed by ``carwars-desktop ledger`` as JSON and CSV."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from datetime import date
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from carwars_desktop.app import main
from carwars_desktop.services import Changes, Services
from carwars_desktop.services.ledger import Ledger, LedgerFilter, LedgerService
from carwars_desktop.storage import Database, open_database
from carwars_desktop.storage.engine import sqlite_url_for_path

from .club_history import COUNTED, PLAYERS, RULESETS, Totals, play_history, play_session


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Totals]]:
    """One database holding the club's 50 sessions (played once for the module)."""
    path = tmp_path_factory.mktemp("club") / "club.sqlite3"
    url = sqlite_url_for_path(path)
    with open_database(url) as database:
        services = Services()
        services.table.database = database
        totals = play_history(services, 50)
    yield url, totals


def _rows(ledger: Ledger, by: str = "player") -> dict[Any, dict[str, Any]]:
    return {(r.name if by == "player" else (r.ruleset, r.name)):
            {**{c: r.value(c) for c in COUNTED}, "luck": r.luck} for r in ledger.rows(by)}


def _expected(counts: dict[Any, dict[str, Any]]) -> dict[Any, dict[str, Any]]:
    return {key: dict(value) for key, value in counts.items() if value["games"]}


def test_ledger_of_the_club_history_matches_the_table(club: tuple[str, Totals]) -> None:
    url, totals = club
    with open_database(url) as database:
        ledger = LedgerService(database).ledger()
    assert ledger.sessions == 50
    assert {s[1] for s in totals.sessions} == set(RULESETS)
    assert set(_rows(ledger)) == set(PLAYERS)  # typed "ANN", " Ann ": one Ann
    assert _rows(ledger) == _expected(totals.players)
    assert _rows(ledger, "design") == _expected(totals.designs)
    played = _rows(ledger)
    assert sum(p["games"] for p in played.values()) == 100
    assert sum(p["wins"] for p in played.values()) > 0
    assert sum(p["kills"] for p in played.values()) == sum(p["deaths"]
                                                           for p in played.values()) > 0


def test_ledger_filters_by_ruleset_and_dates(club: tuple[str, Totals]) -> None:
    url, totals = club
    since, until = date(2026, 3, 1), date(2026, 6, 30)
    for ruleset in RULESETS:
        chosen = [sid for sid, rid, started in totals.sessions
                  if rid == ruleset and since <= started.date() <= until]
        expected: dict[str, dict[str, Any]] = {}
        for sid in chosen:
            for player, counts in totals.per_session[sid].items():
                mine = expected.setdefault(player, {c: 0 for c in COUNTED} | {"luck": 0})
                for what, amount in counts.items():
                    mine[what] += amount
        with open_database(url) as database:
            ledger = LedgerService(database).ledger(LedgerFilter(ruleset, since, until))
        assert ledger.sessions == len(chosen) > 0
        assert _rows(ledger) == {p: {k: (Fraction(v) if k == "luck" else v)
                                     for k, v in c.items()} for p, c in expected.items()}
    with open_database(url) as database:
        service = LedgerService(database)
        assert service.profiles() == ["The digest's defaults"]
        assert service.ledger(LedgerFilter(profile="Friday club")).sessions == 0
        assert service.ledger(LedgerFilter(profile="The digest's defaults")).sessions == 50


def test_ledger_keeps_summaries_and_computes_only_the_stale(tmp_path: Path) -> None:
    url = sqlite_url_for_path(tmp_path / "c.sqlite3")
    with open_database(url) as database:
        services = Services()
        services.table.database = database
        totals = play_history(services, 3)
        first = LedgerService(database)
        first.ledger()
        assert first.computed == 3
        again = LedgerService(database)  # another run: every summary is kept
        assert _rows(again.ledger()) == _expected(totals.players)
        assert again.computed == 0
        import random

        play_session(services, 3, random.Random(1), totals)  # one more finishes
        again.ledger()
        assert again.computed == 1
        # a kept summary whose session moved on since (another write) is stale
        with database.engine.begin() as connection:
            connection.exec_driver_sql("UPDATE game_sessions SET version = version + 1 "
                                       "WHERE id = 1")
        third = LedgerService(database)
        assert _rows(third.ledger()) == _expected(totals.players)
        assert third.computed == 1


def test_ledger_hears_a_session_finished_by_another_copy(tmp_path: Path) -> None:
    url = sqlite_url_for_path(tmp_path / "c.sqlite3")
    with open_database(url) as here, open_database(url) as there:
        heard: list[Changes] = []
        mine = Services()
        mine.bus.subscribe(heard.append)
        service = LedgerService(here, mine.bus)
        assert not service.poll()  # the first look takes the stamp
        other = Services()
        other.table.database = there
        import random

        play_session(other, 0, random.Random(2), Totals())
        assert service.poll() and heard[-1].sessions
        assert not service.poll()
        assert service.ledger().sessions == 1


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_ledger_cli_prints_json_and_csv(club: tuple[str, Totals],
                                       capsys: pytest.CaptureFixture[str]) -> None:
    url, totals = club
    status, out, err = _run(capsys, "--db", url, "ledger", "--json")
    assert status == 0, err
    data = json.loads(out)
    assert data["sessions"] == 50
    players = {row["name"]: row for row in data["players"]}
    for name, counts in _expected(totals.players).items():
        assert {c: players[name][c] for c in COUNTED} == {c: counts[c] for c in COUNTED}
        assert Fraction(players[name]["luck_exact"]) == counts["luck"]
    status, out, err = _run(capsys, "--db", url, "ledger", "--ruleset", "autopower",
                            "--since", "2026-01-01", "--until", "2026-12-31", "--csv")
    assert status == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    autopower = [s for s in totals.sessions if s[1] == "autopower"
                 and s[2].year == 2026]
    assert sum(int(r["Games"]) for r in rows) == 2 * len(autopower)
    assert list(rows[0]) == ["Player", "Games", "Wins", "Kills", "Deaths", "Damage dealt",
                             "Damage taken", "Shots", "Hits", "Luck"]
    status, out, err = _run(capsys, "--db", url, "ledger", "--by", "design", "--csv")
    assert status == 0 and out.startswith("Design,Ruleset,Games")
    status, out, err = _run(capsys, "--db", url, "ledger")
    assert status == 0 and "(50 finished sessions)" in out and "Hana" in out


def test_ledger_cli_refuses_bad_input(club: tuple[str, Totals],
                                      capsys: pytest.CaptureFixture[str]) -> None:
    url, _ = club
    status, _, err = _run(capsys, "--db", url, "ledger", "--since", "27/11/2026")
    assert status == 2 and "not a date" in err and len(err.strip().splitlines()) == 1
    status, _, err = _run(capsys, "--db", url, "ledger", "--ruleset", "chess")
    assert status == 2 and "no ruleset 'chess'" in err


def test_ledger_names_each_player_once(database: Database, services: Services) -> None:
    import random

    play_session(services, 0, random.Random(3), Totals())
    play_session(services, 1, random.Random(3), Totals())
    names = [p.name for p in database.players.all()]
    assert len(names) == len({n.casefold() for n in names})
    assert database.players.named("  ann ").name in {"Ann", "ANN"} or "Ann" not in names
    assert database.players.named("Zed").name == "Zed"
    assert database.players.named("zed ").name == "Zed"
