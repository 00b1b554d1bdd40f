"""A weapon with no shots left (MCW-D15: the Heavy Rocket's one shot fired) reads as the
big sheet reads it — "no shots", never "ready" — on the compact sheet, in the players'
view (the players' display and the phones) and on its seat link, this turn and the next
(#28 §4): every one of them shows ``WeaponState.status``."""

from __future__ import annotations

from typing import Any

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.table import TableWorkspace
from carwars_desktop.rules import find_procedure
from carwars_desktop.rules.mini_car_wars.play.marks import set_weapon
from carwars_desktop.services import typed_dice
from carwars_desktop.services.players_view import own_sheets, players_view, recent_events


def _everywhere(table: TableWorkspace) -> dict[str, str]:
    """What each place shows of the Mini Sherman's HR (F)."""
    game = table.context.service.game
    assert game is not None
    big = table.play.sheets["v1"]
    [button] = [b for b in big.weapon_buttons if b.text().startswith("HR")]  # type: ignore[attr-defined]
    [card] = [c for c in table.play.grid.cards if c.key == "v1"]
    view = players_view(game, "", recent_events(game.store), None).to_json()
    public = {f["label"]: f["value"] for f in view["vehicles"][0]["facts"]}
    seat = own_sheets(game)["v1"]
    assert seat is not None
    own = {f["label"]: f["value"] for f in seat.to_json()["facts"]}
    return {"big sheet": button.text().splitlines()[-1],
            "compact sheet": "no shots" if "HR (F) <b>no shots</b>" in card.facts.text()
            else card.facts.text(),
            "players' view": public["HR (F)"], "seat link": own["HR (F)"]}


def test_a_spent_heavy_rocket_reads_no_shots_everywhere(
        window: MainWindow, start_session: Any, qtbot: Any) -> None:
    window.show()
    qtbot.waitExposed(window)
    window.resize(1366, 720)
    table: TableWorkspace = start_session(
        "mini_car_wars", [("Ann", "Mini Sherman (b)"), ("Bo", "Courier"), ("Cy", "Courier"),
                          ("Di", "Courier")])
    qtbot.waitUntil(lambda: table.play.grid.compact)
    service = table.context.service
    game = service.running()
    procedure = find_procedure("mini.fire")
    inputs = procedure.bind({"weapon": "2", "side": "F", "range": "2",
                             "firer": game.sheet("v1"), "target": game.sheet("v2")})
    service.resolve(procedure, inputs, typed_dice("1 1"),
                    bindings={"firer": "v1", "target": "v2"}).apply()  # a miss spends it too
    assert set(_everywhere(table).values()) == {"no shots"}
    # The next turn clears "fired" (§1.3): the spent HR still cannot fire.
    mark = set_weapon(service.running().sheet("v1"), 1, fired=False)
    service.mark("v1", mark.sheet, f"Mini Sherman (b): {mark.summary}")
    assert set(_everywhere(table).values()) == {"no shots"}


def test_a_fired_or_spent_weapon_has_the_spent_mark_never_the_ready_one(
        window: MainWindow, start_session: Any, qtbot: Any) -> None:
    """#28 §4: the compact sheet marks a weapon fired this turn, or with no shots left,
    with the full sheet's "●" (the players' display too: "● MG (F) fired", never "✔")."""
    window.show()
    qtbot.waitExposed(window)
    window.resize(1366, 720)
    table: TableWorkspace = start_session(
        "mini_car_wars", [("Ann", "Mini Sherman (b)"), ("Bo", "Courier"), ("Cy", "Courier"),
                          ("Di", "Courier")])
    qtbot.waitUntil(lambda: table.play.grid.compact)
    service = table.context.service
    game = service.running()
    [card] = [c for c in table.play.grid.cards if c.key == "v1"]
    assert "MG (F) <b>ready</b>" in card.facts.text() and "●" not in card.facts.text()
    procedure = find_procedure("mini.fire")
    inputs = procedure.bind({"weapon": "1", "side": "F", "range": "2",
                             "firer": game.sheet("v1"), "target": game.sheet("v2")})
    service.resolve(procedure, inputs, typed_dice("1 1"),
                    bindings={"firer": "v1", "target": "v2"}).apply()  # a miss: fired
    facts = card.facts.text()
    assert "● MG (F) <b>fired</b>" in facts and "● HR" not in facts, facts
    assert "HR (F) <b>ready</b>" in facts
