"""Two real processes on one database (SQLite and PostgreSQL): nothing is reverted or lost.

Two copies of the app play one session, 500 attempts each, taking it over from each
other when refused; two copies save one design 500 times each. Every acknowledged mark
is in the final sheet, every save is a revision of its own made from the one before
it, every refusal was told, and nothing escaped as an uncaught error.
"""

from __future__ import annotations

import json
import subprocess
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from carwars_desktop.rules.autopower import Car
from carwars_desktop.session import VehicleInPlay
from carwars_desktop.storage import NewDesign, NewVehicle, open_database

WORKER = Path(__file__).with_name("several_writers_worker.py")
COUNT = 500


def _run_two(kind: str, url: str, target: int) -> list[dict[str, Any]]:
    reports = []
    with ExitStack() as stack:  # each worker's pipes closed and the process waited for
        workers = [stack.enter_context(subprocess.Popen(
            [sys.executable, str(WORKER), kind, url, str(target), name, str(COUNT)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)) for name in ("A", "B")]
        try:
            for worker in workers:  # both have opened the database …
                assert worker.stdout is not None
                assert worker.stdout.readline().strip() == "ready"
            for worker in workers:  # … and wait: go
                assert worker.stdin is not None
                worker.stdin.write("go\n")
                worker.stdin.flush()
            for worker in workers:
                out, _ = worker.communicate(timeout=600)
                assert worker.returncode == 0
                reports.append(json.loads(out))
        finally:
            for worker in workers:
                if worker.poll() is None:
                    worker.kill()
    for report in reports:
        print(kind, {k: v for k, v in report.items() if k not in ("acked", "saves")},
              "acknowledged:", len(report.get("acked", report.get("saves", []))))
    return reports


def test_two_copies_playing_one_session_revert_nothing(database_url: str) -> None:
    with open_database(database_url) as database:
        session_id = database.game_sessions.create(
            "mini_car_wars", "Club night", "",
            [NewVehicle(VehicleInPlay("v1", "Ace", "Ann", {}), {"marks": []})], {"turn": 1})
    reports = _run_two("events", database_url, session_id)
    with open_database(database_url) as database:
        loaded = database.game_sessions.load(session_id)
        final = loaded.sheets["v1"]["marks"]
        stored = database.game_sessions.events(session_id).count()
        assert loaded.info.lease is None  # both let it go
    acked = [mark for report in reports for mark in report["acked"]]
    assert [report["uncaught"] for report in reports] == [[], []]
    reverted = set(acked) - set(final)
    assert not reverted, f"{len(reverted)} acknowledged marks were reverted"
    assert sorted(final) == sorted(acked) and len(final) == stored == len(acked)
    for report in reports:  # each copy kept its own marks in order
        mine = [mark for mark in final if mark.startswith(report["acked"][0][:2])] \
            if report["acked"] else []
        assert mine == report["acked"]
    # Both played, and each was told when the other held or took the session.
    assert all(report["acked"] for report in reports)
    for report in reports:
        told = report["told"]
        assert told["held"] + told["taken_over"] > 0
        assert len(report["acked"]) + sum(told.values()) == COUNT


def test_two_copies_saving_one_design_lose_no_update(database_url: str) -> None:
    with open_database(database_url) as database:
        design_id = database.library.add(
            NewDesign("autopower", Car("Zoom", 5, 5, 5, 2).to_json())).id
    reports = _run_two("designs", database_url, design_id)
    assert [report["uncaught"] for report in reports] == [[], []]
    with open_database(database_url) as database:
        revisions = {r.number: r for r in database.library.revisions(design_id)}
    saves = [save for report in reports for save in report["saves"]]
    numbers = [save["number"] for save in saves]
    assert len(set(numbers)) == len(numbers), "two saves claimed one revision"
    assert sorted(revisions) == [1, *sorted(numbers)]
    for save in saves:  # each save was made on the revision just before it: none lost
        assert save["from"] == save["number"] - 1
        assert revisions[save["number"]].data["notes"] == save["notes"]
    for report in reports:  # every attempt was saved or told
        assert len(report["saves"]) + report["conflicts"] + report["write_failed"] == COUNT
    assert sum(report["conflicts"] for report in reports) > 0
