"""The club's ledger at 1,000 finished sessions (issue 36 §3).

    .venv/bin/python benchmarks/ledger.py [--sessions 1000] [--played 30] [--quick]

``--played`` sessions of the three rulesets are played through the services with seeded
dice (two players each, shots until a vehicle is out or 8 turns: the tests' club history,
``tests/services/club_history.py``), then copied in the database (rows and events, new
ids) up to ``--sessions`` finished sessions. Printed:

- the baseline, measured in the same run: the ledger with no summary kept — every
  session's summary computed from its events (what the first look at a database costs);
- the ledger with every summary kept (each later look, another copy's, the command line's):
  its time and its ratio to the baseline;
- one more session finished: the ledger again, computing that one summary only.

``--quick``: 60 sessions, 6 played (./dev test keeps the benchmark working). Times are
printed, never judged against a clock here: the ratio says what the cache buys.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import insert, select

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the tests' club history


def _copy_sessions(database: object, copies_needed: int) -> None:
    """Copy the played sessions (rows, vehicles, events) until there are enough."""
    from carwars_desktop.storage.models import GameSessionRow, SessionEventRow, SessionVehicleRow

    engine = database.engine  # type: ignore[attr-defined]
    with engine.begin() as connection:
        sessions = [dict(r._mapping) for r in connection.execute(select(GameSessionRow.__table__))]
        vehicles = [dict(r._mapping) for r in connection.execute(
            select(SessionVehicleRow.__table__))]
        events = [dict(r._mapping) for r in connection.execute(
            select(SessionEventRow.__table__))]
        next_id = max(s["id"] for s in sessions) + 1
        made = 0
        while made < copies_needed:
            for template in sessions:
                if made >= copies_needed:
                    break
                new_id = next_id
                next_id += 1
                made += 1
                connection.execute(insert(GameSessionRow.__table__),
                                   [{**template, "id": new_id}])
                connection.execute(insert(SessionVehicleRow.__table__),
                                   [{**{k: v for k, v in row.items() if k != "id"},
                                     "session_id": new_id}
                                    for row in vehicles if row["session_id"] == template["id"]])
                rows = [{**{k: v for k, v in row.items() if k != "id"}, "session_id": new_id}
                        for row in events if row["session_id"] == template["id"]]
                if rows:
                    connection.execute(insert(SessionEventRow.__table__), rows)


def _timed(label: str, run: object) -> float:
    start = time.perf_counter()
    result = run()  # type: ignore[operator]
    seconds = time.perf_counter() - start
    print(f"{label}: {seconds * 1000:.0f} ms", end="")
    return seconds if result is None else seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--played", type=int, default=30)
    parser.add_argument("--quick", action="store_true")
    options = parser.parse_args()
    if options.quick:
        options.sessions, options.played = 60, 6
    from carwars_desktop.services import Services
    from carwars_desktop.services.ledger import LedgerService
    from carwars_desktop.storage import open_database
    from carwars_desktop.storage.engine import sqlite_url_for_path
    from tests.services.club_history import Totals, play_history, play_session

    with tempfile.TemporaryDirectory() as folder:
        url = sqlite_url_for_path(Path(folder) / "club.sqlite3")
        with open_database(url) as database:
            services = Services()
            services.table.database = database
            start = time.perf_counter()
            play_history(services, options.played)
            print(f"played {options.played} sessions through the services in "
                  f"{time.perf_counter() - start:.1f} s; copying them up to "
                  f"{options.sessions}")
            _copy_sessions(database, options.sessions - options.played)
            cold = LedgerService(database)
            baseline = _timed(f"baseline, no summary kept ({options.sessions} sessions, "
                              "each computed from its events)", cold.ledger)
            print(f" — {baseline * 1000 / options.sessions:.2f} ms a session "
                  f"({cold.computed} computed)")
            warm = LedgerService(database)
            kept = _timed(f"ledger, every summary kept ({options.sessions} sessions)",
                          warm.ledger)
            print(f" — {kept / baseline:.3f} × the baseline ({warm.computed} computed)")
            play_session(services, options.played, random.Random(1), Totals())
            again = _timed("one more session finished: the ledger again", warm.ledger)
            print(f" — {again / baseline:.3f} × the baseline ({warm.computed} computed)")
            filtered = LedgerService(database)
            from carwars_desktop.services.ledger import LedgerFilter

            _timed("ledger of one ruleset, summaries kept",
                   lambda: filtered.ledger(LedgerFilter("autopower")))
            print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
