"""One roll shown and applied through the Table's service, killed at a chosen point.

    python roll_kill_player.py DATABASE_URL count      # how many points, printed
    python roll_kill_player.py DATABASE_URL POINT      # SIGKILL at that point
    python roll_kill_player.py serve                   # each line read: one run, forked

With ``serve`` each line ``DATABASE_URL POINT`` (or ``count``) read from stdin is one run
in a child forked from this process on Linux (its imports done once, not per run: the
test runs some fifty; elsewhere a process started for it), and one JSON line answers
it: the child's return code (``-9`` killed by SIGKILL), what it printed and its errors.
The child is a process of its own: its kill is as sudden as that of a process started
for the run.

A *point* is each SQL statement and each commit the database is sent from the moment the
result is shown until Apply returns, in order: the process kills itself (SIGKILL) just
before point POINT is sent; POINT equal to the count kills it just after Apply returned.
It starts a Mini Car Wars session first (not counted) and prints ``session ID``.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import traceback
from typing import Any

from sqlalchemy import event

from carwars_desktop.rules import find_procedure, find_ruleset
from carwars_desktop.services import Services, typed_dice
from carwars_desktop.session.setup import Entry, prepare
from carwars_desktop.storage import open_database


def main() -> int:
    if sys.argv[1:] == ["serve"]:
        return serve()
    return play(sys.argv[1], sys.argv[2])


def serve() -> int:
    for request in sys.stdin:
        url, point = request.split()
        print(json.dumps(forked(url, point)), flush=True)
    return 0


def _read_all(fd: int) -> str:
    chunks = []
    while chunk := os.read(fd, 65536):
        chunks.append(chunk)
    os.close(fd)
    return b"".join(chunks).decode()


FORK = sys.platform.startswith("linux")
"""Whether runs are forked: elsewhere (macOS forbids a fork once some of its frameworks
are up) each is a process started for it, as before."""


def forked(url: str, point: str) -> dict[str, Any]:
    """One run in a forked child: its return code, output and errors."""
    if not FORK:
        import subprocess

        child = subprocess.run([sys.executable, __file__, url, point], capture_output=True,
                               text=True, timeout=120, check=False)
        return {"returncode": child.returncode, "stdout": child.stdout,
                "stderr": child.stderr}
    out_read, out_write = os.pipe()
    err_read, err_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its output into the pipes, never back into serve()
        code = 1
        try:
            os.close(out_read)
            os.close(err_read)
            os.dup2(out_write, 1)
            os.dup2(err_write, 2)
            sys.stdout = os.fdopen(1, "w", closefd=False)
            sys.stderr = os.fdopen(2, "w", closefd=False)
            signal.alarm(120)  # a run that hangs ends (SIGALRM), as the test's timeout did
            code = play(url, point)
            sys.stdout.flush()
        except BaseException:
            traceback.print_exc()
            sys.stderr.flush()
        finally:
            os._exit(code)
    os.close(out_write)
    os.close(err_write)
    # (The child's errors are short: read after its output, no pipe fills meanwhile.)
    stdout = _read_all(out_read)
    stderr = _read_all(err_read)
    _, status = os.waitpid(pid, 0)
    code = (-os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status))
    return {"returncode": code, "stdout": stdout, "stderr": stderr}


def play(url: str, point: str) -> int:
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
