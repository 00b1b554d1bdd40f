"""A scripted Mini Car Wars session for the battle report's tests: played through the
services with fixed dice (typed), so the same script always gives the same session."""

from __future__ import annotations

from carwars_desktop.rules import find_procedure, find_ruleset
from carwars_desktop.services import Services, typed_dice
from carwars_desktop.session.setup import Entry, prepare


def play_scripted_session(services: Services) -> int:
    """Ann's Rocket Special against Bob's Courier: two shots, a hand mark, the clock moved,
    a shot that misses; the session is finished. Its id."""
    ruleset = find_ruleset("mini_car_wars")
    catalog = ruleset.catalog()
    entries = [Entry("Ann", "Rocket Special", catalog["Rocket Special"].to_json()),
               Entry("Bob", "Courier", catalog["Courier"].to_json())]
    table = services.table
    session_id = table.start("mini_car_wars", "Friday duel", "Road Duel",
                             prepare(ruleset, entries))
    table.open(session_id)
    fire = find_procedure("mini.fire")
    game = table.running()
    for dice, firer, target in (("5 5 6 6", "v1", "v2"), ("2 3", "v2", "v1"), ("", "", ""),
                                ("6 6 6 6", "v1", "v2"),
                                ("", "", ""), ("6 6 6 6 6", "v1", "v2"), ("", "", ""),
                                ("6 6 6 6 6", "v1", "v2")):
        if not dice:  # on to the next turn (the weapons may fire again)
            clock = game.clock
            while clock.turn == game.clock.turn:
                clock = clock.advanced()
            table.set_clock(clock, f"Turn {clock.turn} begins at 0 mph",
                            {key: game.sheet(key).started_turn(0, False)  # type: ignore[attr-defined]
                             for key in ("v1", "v2")})
            continue
        values = fire.bind({"firer": game.sheet(firer), "target": game.sheet(target),
                            "side": "F", "range": "5"}, table.house_for("mini_car_wars"))
        pending = table.resolve(fire, values, typed_dice(dice),
                                bindings={"firer": firer, "target": target})
        pending.apply()
    table.note("Bob's driver swears loudly")
    table.mark("v2", game.sheet("v2").crashed_and_burned(),  # type: ignore[attr-defined]
               "Courier: crashed and burned (power plant gone, into the wall)")
    table.finish()
    table.close()
    _dated(services, session_id)
    return session_id


def _dated(services: Services, session_id: int) -> None:
    """The evening it was played, the same in every run (the report prints its dates)."""
    from datetime import UTC, datetime

    from sqlalchemy import update

    from carwars_desktop.storage.models import GameSessionRow

    database = services.table.database
    assert database is not None
    with database.engine.begin() as connection:
        connection.execute(update(GameSessionRow).where(GameSessionRow.id == session_id).values(
            created_at=datetime(2026, 11, 27, 19, 30, tzinfo=UTC),
            finished_at=datetime(2026, 11, 27, 22, 15, tzinfo=UTC)))
