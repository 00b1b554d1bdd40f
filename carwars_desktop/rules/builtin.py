"""The three built-in rulesets' entries: the one place of each one's id and title.

Each is registered like any installed ruleset, through the ``carwars_desktop.rulesets``
entry-point group (``pyproject.toml``); :data:`BUILT_IN` is also what the registry falls
back to when the app's metadata is missing (a bundle or checkout without its dist-info),
and the menus' order. This module imports nothing heavy: the packages it names load on
first use.
"""

from __future__ import annotations

from carwars_desktop.rules.ruleset import RulesetEntry

MINI_CAR_WARS = RulesetEntry("mini_car_wars", "Mini Car Wars",
                             "carwars_desktop.rules.mini_car_wars", "mini",
                             screens="carwars_desktop.gui.plugins.mini_car_wars")
BATTLECARS = RulesetEntry("battlecars", "Battlecars", "carwars_desktop.rules.battlecars",
                          "battlecars", screens="carwars_desktop.gui.plugins.battlecars")
AUTOPOWER = RulesetEntry("autopower", "AUTOpower", "carwars_desktop.rules.autopower",
                         "autopower", screens="carwars_desktop.gui.plugins.autopower")

BUILT_IN: tuple[RulesetEntry, ...] = (MINI_CAR_WARS, BATTLECARS, AUTOPOWER)
"""The built-in rulesets, in menu order (what the installers bundle)."""
