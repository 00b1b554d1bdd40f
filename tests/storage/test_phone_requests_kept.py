"""The phones' requests in the database (issue 33, revision 0012): kept per session, a
known seat and key written over (never twice), read back after a restart in the order
received, refused from a copy that does not play the session, gone with the session."""

from __future__ import annotations

import pytest

from carwars_desktop.session import VehicleInPlay
from carwars_desktop.storage import NewVehicle, SessionDataError, open_database
from carwars_desktop.storage.errors import WriteFailedError
from carwars_desktop.storage.game_sessions import StoredPhoneRequest

CLOCK = {"turn": 1, "phase": 0, "phases": ["phase 1", "phase 2"], "word": "turn"}


def _create(database_url: str) -> int:
    with open_database(database_url) as database:
        return database.game_sessions.create(
            "mini_car_wars", "Phone night", "",
            [NewVehicle(VehicleInPlay("v1", "Courier", "Ann", {}), {"hits": 0}),
             NewVehicle(VehicleInPlay("v2", "Kart", "Bo", {}), {"hits": 0})], CLOCK)


def _request(number: int, seat: str, key: str, state: str = "waiting",
             reason: str = "") -> StoredPhoneRequest:
    return StoredPhoneRequest(number, seat, key, "token-" + seat, "speed", 1, 0,
                              {"speed": 10, "reverse": False}, f"speed for {seat}",
                              "allowed by the rules", state, reason)


def test_phone_request_rows_survive_a_restart_and_a_key_is_kept_once(
        database_url: str) -> None:
    session_id = _create(database_url)
    with open_database(database_url) as database:
        events = database.game_sessions.events(session_id)
        events.keep_phone_requests([_request(1, "v1", "key-one-1"),
                                    _request(2, "v2", "key-two-2")])
        events.keep_phone_requests([_request(1, "v1", "key-one-1", "in")])
        # The same key from another seat is another request.
        events.keep_phone_requests([_request(3, "v2", "key-one-1", "refused", "too late")])
    with open_database(database_url) as database:  # a restart
        kept = database.game_sessions.events(session_id).phone_requests()
        assert [(r.number, r.seat, r.key, r.state, r.reason, dict(r.values)) for r in kept] \
            == [(1, "v1", "key-one-1", "in", "", {"speed": 10, "reverse": False}),
                (2, "v2", "key-two-2", "waiting", "", {"speed": 10, "reverse": False}),
                (3, "v2", "key-one-1", "refused", "too late", {"speed": 10,
                                                              "reverse": False})]
        database.game_sessions.events(session_id).forget_phone_requests()
        assert database.game_sessions.events(session_id).phone_requests() == []


def test_phone_request_rows_refused_from_a_read_only_copy_and_bad_values(
        database_url: str) -> None:
    session_id = _create(database_url)
    with open_database(database_url) as database:
        watching = database.game_sessions.events(session_id, read_only="it is only watched")
        with pytest.raises(WriteFailedError):
            watching.keep_phone_requests([_request(1, "v1", "key-one-1")])
        events = database.game_sessions.events(session_id)
        with pytest.raises(SessionDataError):
            events.keep_phone_requests([_request(1, "v1", "k" * 65)])
        assert events.phone_requests() == []
