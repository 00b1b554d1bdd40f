"""A roll killed at every point of its show and its apply (issue 29 §3).

``roll_kill_player.py`` shows one Mini Car Wars shot and applies it; it is killed with
SIGKILL before each SQL statement and each commit in turn (and once after Apply
returned). After every kill the database holds the roll applied (its event, its line
settled as applied, its dice) or not applied (no event; its line pending with its dice,
discarded as "app stopped" once the session reopens; or nothing at all when the kill
came before the show's commit): never an applied event whose line says discarded, never
dice without their line.

Before, the apply was two transactions (the event, then the line settled): a kill between
them left the shot applied and its line "discarded: app stopped before it was applied".
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from carwars_desktop.services import Services
from carwars_desktop.storage import open_database
from carwars_desktop.storage.game_sessions import APP_STOPPED

PLAYER = Path(__file__).with_name("roll_kill_player.py")
POSTGRES_ENV = "CARWARS_TEST_POSTGRES_URL"
BACKENDS = ["sqlite"] + (["postgres"] if os.environ.get(POSTGRES_ENV) else [])


class Player:
    """``roll_kill_player.py serve``: each run a child forked from it, killed or not."""

    def __init__(self) -> None:
        self.process = subprocess.Popen([sys.executable, str(PLAYER), "serve"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True)

    def run(self, url: str, point: str) -> subprocess.CompletedProcess[str]:
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        stdin.write(f"{url} {point}\n")
        stdin.flush()
        answer = stdout.readline()
        assert answer, f"the player stopped (return code {self.process.wait(timeout=60)})"
        run = json.loads(answer)
        return subprocess.CompletedProcess([str(PLAYER), url, point], run["returncode"],
                                           run["stdout"], run["stderr"])

    def close(self) -> None:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.close()
        try:
            assert self.process.wait(timeout=60) == 0
        finally:
            self.process.stdout.close()


@pytest.fixture
def player() -> Iterator[Player]:
    started = Player()
    try:
        yield started
    finally:
        started.close()


class Urls:
    """A new database URL per run (a file, or a PostgreSQL database dropped at the end)."""

    def __init__(self, backend: str, folder: Path) -> None:
        self.backend, self.folder, self.made = backend, folder, []  # type: list[str]
        self.admin = os.environ.get(POSTGRES_ENV, "")

    def new(self) -> str:
        if self.backend == "sqlite":
            return f"sqlite:///{self.folder / f'run-{uuid.uuid4().hex[:8]}.sqlite3'}"
        name = f"carwars_kill_{uuid.uuid4().hex[:12]}"
        self._admin(f'CREATE DATABASE "{name}"')
        self.made.append(name)
        return make_url(self.admin).set(database=name).render_as_string(hide_password=False)

    def _admin(self, statement: str) -> None:
        engine = create_engine(self.admin, isolation_level="AUTOCOMMIT", poolclass=NullPool)
        try:
            with engine.connect() as connection:
                connection.execute(text(statement))
        finally:
            engine.dispose()

    def drop(self) -> None:
        for name in self.made:
            self._admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=BACKENDS)
def urls(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Urls]:
    made = Urls(str(request.param), tmp_path)
    try:
        yield made
    finally:
        made.drop()


def _check(url: str, session_id: int, point: int) -> str:
    """What the kill at ``point`` left: "applied", "pending" or "nothing" (asserting it is
    one of them, whole)."""
    with open_database(url) as database:
        sessions = database.game_sessions
        events = sessions.events(session_id)
        applied = [e for e in events.page(0, 100) if e.event.procedure_id == "mini.fire"]
        lines = sessions.roll_log(session_id)
        dice = database.dice_history.recent()
        where = f"killed at point {point}: events {applied}, lines {lines}, dice {dice}"
        assert len(lines) <= 1 and len(dice) <= 1, where
        if not lines:
            assert not applied and not dice, where  # never dice without their line
            return "nothing"
        [line] = lines
        assert [d.resolution_id for d in dice] == [line.id], where
        if applied:
            assert len(applied) == 1 and line.state == "applied", where
            return "applied"
        assert line.state == "pending", where
        # The next start reads it as discarded (the app stopped before Apply).
        services = Services()
        services.table.database = database
        services.table.open(session_id)
        [line] = sessions.roll_log(session_id)
        assert (line.state, line.note) == ("discarded", APP_STOPPED), where
        assert not [e for e in events.page(0, 100) if e.event.procedure_id == "mini.fire"]
        return "pending"


@pytest.mark.slow  # a process started and killed at each of 17 points, per database
@pytest.mark.posix_signals  # (the player kills itself with SIGKILL)
def test_a_kill_at_any_point_of_a_roll_leaves_it_whole(urls: Urls, player: Player) -> None:
    counted = player.run(urls.new(), "count")
    assert counted.returncode == 0, counted.stderr
    words = counted.stdout.split()
    points = int(words[words.index("points") + 1])
    shown = int(words[words.index("shown") + 1])
    assert 0 < shown < points
    outcomes = []
    for point in range(points + 1):
        url = urls.new()
        run = player.run(url, str(point))
        assert run.returncode == -9, (point, run.returncode, run.stderr)  # SIGKILL
        session_id = int(run.stdout.split()[1])
        outcomes.append(_check(url, session_id, point))
    # Killed before the show's commit: nothing; then pending; from the apply's commit on:
    # applied. Each kind of ending is reached, in that order, never mixed back.
    assert outcomes == sorted(outcomes, key=["nothing", "pending", "applied"].index)
    assert {"nothing", "pending", "applied"} == set(outcomes)
