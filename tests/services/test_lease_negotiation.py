"""Opening a session, the service's half: how it is to be opened (under this copy's lease,
or followed read-only) is settled by TableService.negotiate_lease, asking the GM only
while another copy holds it; the Table only shows what was opened."""

from __future__ import annotations

from typing import Any

from carwars_desktop.rules import find_ruleset
from carwars_desktop.services import Services
from carwars_desktop.services.table import LeaseChoice
from carwars_desktop.session.setup import Entry, prepare
from carwars_desktop.storage import open_database


def _session(services: Services) -> int:
    ruleset = find_ruleset("mini_car_wars")
    catalog = ruleset.catalog()
    entries = [Entry(f"Player {n}", name, catalog[name].to_json())
               for n, name in enumerate(("Courier (b)", "Courier"), start=1)]
    return services.table.start("mini_car_wars", "Lease night", "",
                                prepare(ruleset, entries))


def _never(_name: str, _lease: Any) -> LeaseChoice:
    raise AssertionError("nobody else holds it: the GM is not asked")


def test_a_free_running_session_is_taken_without_asking(services: Services) -> None:
    table = services.table
    session_id = _session(services)
    terms = table.negotiate_lease(table.session_info(session_id), None, False, _never)
    assert terms is not None and not terms.follow
    assert terms.lease is not None and terms.lease.session_id == session_id
    again = table.negotiate_lease(table.session_info(session_id), terms.lease, False, _never)
    assert again is not None and again.lease is terms.lease  # held already: kept
    followed = table.negotiate_lease(table.session_info(session_id), terms.lease, True, _never)
    assert followed is not None and followed.follow and followed.lease is None


def test_a_session_another_copy_holds_asks_the_gm(services: Services, sqlite_url: str) -> None:
    table = services.table
    session_id = _session(services)
    info = table.session_info(session_id)
    mine = table.negotiate_lease(info, None, False, _never)
    assert mine is not None and mine.lease is not None
    with open_database(sqlite_url) as other_database:
        other = Services()
        other.table.database = other_database
        asked: list[str] = []

        def answer(choice: LeaseChoice) -> Any:
            def ask(name: str, lease: Any) -> LeaseChoice:
                asked.append(name)
                assert lease is not None  # who holds it, to say so
                return choice
            return ask

        assert other.table.negotiate_lease(info, None, False, answer(LeaseChoice.CANCEL)) \
            is None
        follow = other.table.negotiate_lease(info, None, False, answer(LeaseChoice.FOLLOW))
        assert follow is not None and follow.follow and follow.lease is None
        taken = other.table.negotiate_lease(info, None, False, answer(LeaseChoice.TAKE_OVER))
        assert taken is not None and not taken.follow and taken.lease is not None
        assert taken.lease.token != mine.lease.token
        assert asked == ["Lease night"] * 3


def test_a_finished_session_takes_no_lease(services: Services) -> None:
    table = services.table
    session_id = _session(services)
    table.open(session_id)
    table.finish()
    terms = table.negotiate_lease(table.session_info(session_id), None, False, _never)
    assert terms is not None and terms.lease is None
