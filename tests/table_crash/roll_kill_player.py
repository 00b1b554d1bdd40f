"""One roll shown and applied through the Table's service, killed at a chosen point.

    python roll_kill_player.py DATABASE_URL count      # how many points, printed
    python roll_kill_player.py DATABASE_URL POINT      # SIGKILL at that point

A *point* is each SQL statement and each commit the database is sent from the moment the
result is shown until Apply returns, in order: the process kills itself (SIGKILL) just
before point POINT is sent; POINT equal to the count kills it just after Apply returned.
It starts a Mini Car Wars session first (not counted) and prints ``session ID``.
"""

from __future__ import annotations

import os
import signal
import sys
from typing import Any

from sqlalchemy import event

from carwars_desktop.rules import find_procedure, find_ruleset
from carwars_desktop.services import Services, typed_dice
from carwars_desktop.session.setup import Entry, prepare
from carwars_desktop.storage import open_database


def main() -> int:
    url, point = sys.argv[1], sys.argv[2]
    kill_at = None if point == "count" else int(point)
    database = open_database(url)
    services = Services()
    table = services.table
    table.database = database
    ruleset = find_ruleset("mini_car_wars")
    catalog = ruleset.catalog()
    session_id = table.start("mini_car_wars", "Kill", "", prepare(ruleset, [
        Entry(f"P{n}", name, catalog[name].to_json())
        for n, name in enumerate(("Courier (b)", "Courier"), start=1)]))
    table.open(session_id)
    print(f"session {session_id}", flush=True)
    passed = [0]

    def reached(*_args: Any) -> None:
        if kill_at is not None and passed[0] == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)
        passed[0] += 1

    event.listen(database.engine, "before_cursor_execute", reached)
    event.listen(database.engine, "commit", reached)
    game = table.running()
    procedure = find_procedure("mini.fire")
    inputs = procedure.bind({"firer": game.sheet("v1"), "target": game.sheet("v2"),
                             "side": "L", "range": "5"})
    pending = table.resolve(procedure, inputs, typed_dice("4 4 5 6 6"),
                            bindings={"firer": "v1", "target": "v2"})
    shown = passed[0]
    pending.apply()
    reached()  # just after Apply returned
    print(f"points {passed[0] - 1} shown {shown}", flush=True)
    database.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
