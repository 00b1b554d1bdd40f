"""A call stuck on an already-open connection whose path hangs is cut on this side (§2)."""

from __future__ import annotations

import threading
import time
from dataclasses import replace

from sqlalchemy import text

from carwars_desktop.storage.club import ClubConnection, is_connection_lost, open_club_database
from carwars_desktop.storage.stuck_calls import StuckCalls

from .proxy import stalling_proxy


def test_a_statement_stuck_on_a_hung_path_is_cut_and_fails_as_a_lost_connection(
        club: ClubConnection, club_password: str) -> None:
    with stalling_proxy(club.port) as proxy:
        through = replace(club, port=proxy.port)
        with open_club_database(through, club_password) as database:
            stuck = StuckCalls(database.engine)
            outcome: list[BaseException | int] = []
            with database.engine.connect() as connection:
                assert connection.scalar(text("SELECT 1")) == 1  # open, and answering
                proxy.stall()

                def call() -> None:
                    try:
                        outcome.append(connection.scalar(text("SELECT 2")))
                    except Exception as error:
                        outcome.append(error)

                worker = threading.Thread(target=call, daemon=True)
                worker.start()
                while not stuck.running():  # the statement was sent
                    time.sleep(0.01)
                assert stuck.cut(older_than=3600) == 0  # not stuck for that long
                while stuck.cut(older_than=0.2) == 0:
                    time.sleep(0.05)
                worker.join(timeout=30)
                assert not worker.is_alive()
            stuck.close()
    assert len(outcome) == 1 and isinstance(outcome[0], Exception)
    assert is_connection_lost(outcome[0])
