"""A scripted Mini Car Wars session played through the Table, for the SIGKILL test.

    python crash_player.py DATABASE_URL EVENTS

Opens the database and the app's Table workspace (offscreen; the other
workspaces are left out to keep each restart short) the way the main window's
start-up does: the last running session reopens, or a new one is started. Then
it plays hand marks and clock moves through the Table until the session holds EVENTS events, undoing
and redoing every tenth. After each operation returns — committed, then drawn —
it prints one acknowledgement line, flushed:

    ack STEP OP LAST_ACTIVE_SEQ DIGEST

where DIGEST is the SHA-1 of the sheets and clock the screen now shows. It
prints ``done`` at the end. The test kills it (SIGKILL) at random moments.

    python crash_player.py serve

reads lines ``DATABASE_URL EVENTS ERRORS_FILE`` and plays each in a child forked from
this process on Linux (the imports done once, not at each of the test's twenty-one
starts; elsewhere a process started for the run): the
child prints ``pid PID`` first, then the lines above, and writes its errors to
ERRORS_FILE; once it has ended (or was killed) this process prints ``exit CODE`` (``-9``:
killed by SIGKILL). The child is a process of its own: the kill is as sudden.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import traceback

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from carwars_desktop.gui.application import create_application  # noqa: E402
from carwars_desktop.gui.game_context import GameContext  # noqa: E402
from carwars_desktop.gui.plugins.mini_car_wars.clock_panel import MiniClockPanel  # noqa: E402
from carwars_desktop.gui.plugins.mini_car_wars.sheet import MiniSheetWidget  # noqa: E402
from carwars_desktop.gui.table import TableWorkspace  # noqa: E402
from carwars_desktop.rules import find_ruleset  # noqa: E402
from carwars_desktop.rules.mini_car_wars import MiniSheet  # noqa: E402
from carwars_desktop.rules.mini_car_wars.model import Role, Side  # noqa: E402
from carwars_desktop.session import Game  # noqa: E402
from carwars_desktop.session.setup import Entry, prepare  # noqa: E402
from carwars_desktop.storage import open_database  # noqa: E402

VEHICLES = ("Courier", "Killer Kart", "Mini Sherman", "Rocket Special")
SIDES = (Side.FRONT, Side.RIGHT, Side.LEFT, Side.BACK)


def digest(game: Game) -> str:
    """The sheets and clock shown, hashed exactly as the test hashes the database's."""
    state = {"sheets": {v.key: game.sheet(v.key).to_json() for v in game.vehicles},
             "clock": game.clock.to_json()}
    return hashlib.sha1(json.dumps(state, sort_keys=True).encode()).hexdigest()


def last_seq(game: Game) -> int:
    return game.last_active_seq()


def ack(step: int, op: str, game: Game) -> None:
    print(f"ack {step} {op} {last_seq(game)} {digest(game)}", flush=True)


def start(table: TableWorkspace) -> None:
    ruleset = find_ruleset("mini_car_wars")
    catalog = ruleset.catalog()
    setup = prepare(ruleset, [Entry(f"Player {n}", name, catalog[name].to_json())
                              for n, name in enumerate(VEHICLES, start=1)])
    table.start_session("mini_car_wars", "Crash test", "", setup)


def play(table: TableWorkspace, game: Game, step: int) -> None:
    """One operation of the script; each makes exactly one event."""
    key = f"v{(step // 4) % len(VEHICLES) + 1}"
    sheet = game.sheet(key)
    widget = table.play.sheets[key]
    clock = table.play.clock
    assert isinstance(sheet, MiniSheet) and isinstance(widget, MiniSheetWidget)
    assert isinstance(clock, MiniClockPanel)
    kind = step % 4
    if kind == 0:
        if game.clock.phase + 1 < 10:
            clock.next_phase()
        else:
            clock.show_speeds()
            clock.start_turn()
    elif kind == 1:
        side = SIDES[(step // 16) % len(SIDES)]
        left = sheet.armor.get(side)
        widget.mark_armor(side, left - 1 if left > 0 else sheet.starting_armor.get(side))
    elif kind == 2:
        widget.mark_weapon(0, fired=not sheet.weapons[0].fired)
    else:
        widget.mark_crew(Role.DRIVER, (sheet.driver.hits + 1) % 3)


def main() -> int:
    if sys.argv[1:] == ["serve"]:
        return serve()
    if sys.argv[3:] == ["--print-pid"]:
        print(f"pid {os.getpid()}", flush=True)
    return run(sys.argv[1], int(sys.argv[2]))


FORK = sys.platform.startswith("linux")
"""Whether runs are forked: elsewhere (macOS forbids a fork once its frameworks are up)
each is a process started for it, as before."""


def serve() -> int:
    for request in sys.stdin:
        url, events, errors = request.split()
        sys.stdout.flush()
        if not FORK:
            import subprocess

            with open(errors, "w", encoding="utf-8") as stream:
                child = subprocess.run([sys.executable, __file__, url, events, "--print-pid"],
                                       stderr=stream, check=False)
            print(f"exit {child.returncode}", flush=True)
            continue
        pid = os.fork()
        if pid == 0:  # the child: it plays, and never returns into this loop
            code = 1
            try:
                with open(errors, "w", encoding="utf-8") as stream:
                    os.dup2(stream.fileno(), 2)
                print(f"pid {os.getpid()}", flush=True)
                code = run(url, int(events))
                sys.stdout.flush()
            except BaseException:
                traceback.print_exc()
                sys.stderr.flush()
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
        print(f"exit {code}", flush=True)
    return 0


def run(url: str, events: int) -> int:
    app = create_application()
    context = GameContext()
    table = TableWorkspace(context)
    table.resize(1280, 800)
    table.show()
    app.processEvents()
    database = open_database(url)
    table.attach_database(database)
    table.reopen_last_running()
    if table.context.service.game is None:
        start(table)
    game = table.context.service.game
    assert game is not None
    print(f"opened {last_seq(game)} {digest(game)}", flush=True)
    if game.can_redo():  # killed between an undo and its redo
        table.redo()
        ack(0, "redo", game)
    while (step := last_seq(game) + 1) <= events:
        before = last_seq(game)
        play(table, game, step)
        if last_seq(game) != before + 1:
            print(f"error: step {step} made no event: {table.play.message.text()}",
                  file=sys.stderr, flush=True)
            return 3
        app.processEvents()
        ack(step, "event", game)
        if step % 10 == 0:
            table.undo()
            ack(step, "undo", game)
            table.redo()
            ack(step, "redo", game)
    print("done", flush=True)
    database.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
