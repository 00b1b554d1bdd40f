"""A session's phone sharing in the database (revision 0014): kept while it is on, read back
after a restart as it was, rewritten (never two), forgotten on request and by the
session's finish, refused from a copy that does not play the session, gone with the
session."""

from __future__ import annotations

import pytest

from carwars_desktop.session import VehicleInPlay
from carwars_desktop.storage import NewVehicle, open_database
from carwars_desktop.storage.errors import WriteFailedError
from carwars_desktop.storage.game_sessions import StoredPhoneShare

CLOCK = {"turn": 1, "phase": 0, "phases": ["phase 1", "phase 2"], "word": "turn"}


def _create(database_url: str) -> int:
    with open_database(database_url) as database:
        return database.game_sessions.create(
            "mini_car_wars", "Shared night", "",
            [NewVehicle(VehicleInPlay("v1", "Courier", "Ann", {}), {"hits": 0}),
             NewVehicle(VehicleInPlay("v2", "Kart", "Bo", {}), {"hits": 0})], CLOCK)


def _share(token: str, display_open: bool = False) -> StoredPhoneShare:
    return StoredPhoneShare("127.0.0.1", 8791, token, {"v1": "seat-one-" + token,
                                                       "v2": "seat-two-" + token},
                            "ab" * 32, display_open)


def test_phone_share_kept_read_back_after_a_restart_rewritten_and_forgotten(
        database_url: str) -> None:
    session_id = _create(database_url)
    with open_database(database_url) as database:
        events = database.game_sessions.events(session_id)
        assert events.phone_share() is None
        events.keep_phone_share(_share("first"))
        events.keep_phone_share(_share("second", display_open=True))  # New link: rewritten
    with open_database(database_url) as database:  # a restart
        events = database.game_sessions.events(session_id)
        assert events.phone_share() == _share("second", display_open=True)
        events.keep_phone_share(None)  # Stop sharing
        assert events.phone_share() is None
        events.keep_phone_share(None)  # (nothing kept: nothing to forget)
        events.keep_phone_share(_share("third"))
        database.game_sessions.finish(session_id)  # a finished session is shared no more
        assert database.game_sessions.events(session_id).phone_share() is None


def test_phone_share_refused_from_a_read_only_copy_and_gone_with_the_session(
        database_url: str) -> None:
    session_id = _create(database_url)
    with open_database(database_url) as database:
        watching = database.game_sessions.events(session_id, read_only="it is only watched")
        with pytest.raises(WriteFailedError):
            watching.keep_phone_share(_share("first"))
        events = database.game_sessions.events(session_id)
        assert events.phone_share() is None
        events.keep_phone_share(_share("first"))
        database.game_sessions.delete(session_id)
    with open_database(database_url) as database:
        from sqlalchemy import text

        with database.engine.connect() as db:
            assert db.execute(text("SELECT count(*) FROM phone_shares")).scalar() == 0
