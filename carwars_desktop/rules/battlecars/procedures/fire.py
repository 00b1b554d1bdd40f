"""Procedure: missile fire, with a miss carrying on to the next target (§2.9–§2.11, §3.7)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from carwars_desktop.dice import DiceSource
from carwars_desktop.procedures import (
    BoolInput,
    Chart,
    ChoiceInput,
    DiceNeed,
    IntInput,
    Odds,
    Procedure,
    Result,
    SheetChange,
    SheetInput,
    TextInput,
    Values,
)
from carwars_desktop.rules.battlecars.catalog import (
    car_catalog,
    load_piece,
    pedestrian_catalog,
)
from carwars_desktop.rules.battlecars.cite import bc
from carwars_desktop.rules.battlecars.fire import (
    FireMode,
    FireOrder,
    FireResult,
    Shot,
    fire_odds,
    fire_problems,
    fire_weapon,
    resolve_fire,
    target_limit,
    to_hit,
)
from carwars_desktop.rules.battlecars.missiles import damage_distribution
from carwars_desktop.rules.battlecars.options import Options, options_from
from carwars_desktop.rules.battlecars.pieces import ObstacleSheet, Piece
from carwars_desktop.rules.battlecars.procedures.common import (
    RULESET,
    area_input,
    decisions,
    need,
    odds_line,
    outcomes,
    pedestrian_input,
    piece_input,
    refuse,
)
from carwars_desktop.rules.battlecars.sheet import CarSheet
from carwars_desktop.rules.battlecars.tables import DIE, MISSILE_TABLE
from carwars_desktop.rules.battlecars.terms import MISSILES, Bearing, Block, Weapon


def _shooters() -> dict[str, Piece]:
    found: dict[str, Piece] = {}
    found.update(car_catalog())
    found.update(pedestrian_catalog())
    return found


def _shot(values: Values, prefix: str = "") -> Shot | None:
    target = values[f"{prefix}target"]
    if target is None:
        return None
    area = values[f"{prefix}area"]
    return Shot(target, values[f"{prefix}points_between"] or 0,
                None if area is None else Block(area), Bearing(values[f"{prefix}bearing"]),
                values[f"{prefix}smoke"])


def _order(values: Values) -> FireOrder:
    firer = values["firer"]
    if isinstance(firer, ObstacleSheet):
        refuse([f"{firer.name} is an obstacle: only cars and pedestrians fire"])
    shot = _shot(values)
    assert shot is not None
    weapon = values["weapon"]
    return FireOrder(firer, values["mount"] or None, shot, FireMode(values["mode"]),
                     None if weapon is None else Weapon(weapon), _shot(values, "next_"),
                     values["sheltering"])


def _check(values: Values) -> None:
    if values["next_target"] is not None and values["next_points_between"] is None:
        need(["give next_points_between for the next target"])
    refuse(fire_problems(_order(values), options_from(values)))


def _resolve(values: Values, dice: DiceSource) -> Result:
    order = _order(values)
    result = resolve_fire(order, dice, options_from(values))
    effects = []
    if result.firer != order.firer:
        effects.append(SheetChange("firer", result.firer, f"{result.weapon.label} round spent"))
    if result.first is not None:
        effects.append(SheetChange("target", result.first.target,
                                   f"hit: {result.first.summary}"))
        if result.first.sheltering is not None and result.first.sheltering != order.sheltering:
            effects.append(SheetChange("sheltering", result.first.sheltering,
                                       f"damage {result.first.sheltering.damage}/3"))
    if result.second is not None:
        effects.append(SheetChange("next_target", result.second.target,
                                   f"hit: {result.second.summary}"))
    fired_off = [f for struck in (result.first, result.second) if struck is not None
                 for f in struck.fired_off]
    fired = [f.describe() for f in fired_off]
    return Result(result.outcome, result.steps, result.hit, effects,
                  {"weapon": result.weapon.value, "hit": result.hit,
                   "damage": result.first.damage if result.first else
                   (result.second.damage if result.second else 0),
                   "fired_off": fired, "fired_off_items": [f.to_json() for f in fired_off],
                   **_shot_values(order, result, options_from(values))},
                  label=result.label)


def _shot_values(order: FireOrder, result: FireResult, options: Options) -> dict[str, object]:
    """The to-hit of the first target and the Turn's target tally, as the steps state them."""
    th = to_hit(order, order.shot, options)
    own = None if th.row.to_hit is None else th.row.to_hit.modifier
    return {"targets_fired_at": len(result.firer.targets_this_turn),
            "target_limit": target_limit(result.firer), "range": th.range,
            "weapon_to_hit_modifier": own,
            "to_hit_modifiers": [m.to_json() for m in th.modifiers()],
            "to_hit_modifier": None if th.automatic else th.modifier,
            "to_hit_need": None if th.automatic else max(th.need(), th.dice),
            "to_hit_totals": list(result.to_hit_totals)}


def _odds(values: Values) -> Odds:
    order = _order(values)
    options = options_from(values)
    odds, expected = fire_odds(order, options)
    th = to_hit(order, order.shot, options)
    if th.automatic:
        damage = damage_distribution(th.weapon, th.range)
        chart = Chart(f"{th.weapon.label} damage at range {th.range}", damage, x_label="damage")
    else:
        distribution = th.distribution()
        chart = Chart(f"to hit: {th.weapon.label}", distribution,
                      frozenset(v for v in distribution.values() if v >= th.range))
    return Odds(outcomes=outcomes(odds),
                summary=f"{th.summary()} · " + odds_line(odds),
                modifiers=th.modifiers(),
                need=None if th.automatic else th.range,
                chart=chart,
                expected=(("damage", expected),))


def _dice(values: Values) -> list[DiceNeed]:
    order = _order(values)
    weapon = fire_weapon(order)
    row = MISSILE_TABLE[weapon]
    needs = []
    if row.to_hit is not None:
        needs.append(DiceNeed("to hit", row.to_hit.count, DIE))
    needs.append(DiceNeed("damage", row.damage.count, DIE, "on a hit"))
    needs.append(DiceNeed("hit location", 1, DIE, "per interior hit on a car, again for a "
                                                  "destroyed component", repeat=True))
    if row.explodes_fuel_tank:
        needs.append(DiceNeed("fuel tank", 1, DIE, "if the hit triggers the check"))
    if row.detonates_ammunition:
        needs.append(DiceNeed("ammunition", 1, DIE, "per missile round hit, without a working "
                                                    "Gunnery Computer", repeat=True))
        needs.append(DiceNeed("turret detonation direction", 1, DIE,
                              "per detonating turret round", repeat=True))
    if order.next_shot is not None:
        needs.append(DiceNeed("to hit (next target), then damage and locations", 1, DIE,
                              "on a miss"))
    return needs


def _mount_choices(values: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The firer's pods and turret, each with the rounds it holds."""
    firer = values.get("firer")
    if not isinstance(firer, CarSheet):
        return []
    choices = []
    for mount in firer.mounts():
        rounds = ", ".join(w.value for w in firer.load(mount.name)) or "empty"
        choices.append((mount.name, f"{mount.name} ({rounds})"))
    return choices


FIRE = Procedure(
    id="battlecars.fire",
    title="Fire missile (to hit, damage, hit location)",
    ruleset=RULESET,
    rule=bc("§2.9 · §2.10 · §2.11 · §3.7"),
    summary="Rocket 2d8, Shell 1d8+3, MG 1d8 (+1 Gunnery Computer, −4 smoke) ≥ range; Flame "
            "automatic within 3. Damage minus range onto the nominated area, then the fuel-tank "
            "and ammunition checks; a miss carries on to the next target in line.",
    inputs=(
        SheetInput("firer", "Firer", Piece, load_piece, _shooters,
                   help="the firing car, or a pedestrian (MG)"),
        TextInput("mount", "Pod or turret", None, optional=True, choices_from=_mount_choices,
                  help="the pod or turret fired from, e.g. Pod A or Turret"),
        ChoiceInput("mode", "When", tuple(m.value for m in FireMode), FireMode.OWN_TURN.value,
                    help="own-turn, return-fire (one round at the attacker, BC-D26) or "
                         "detonation (a round firing off, §2.14)"),
        ChoiceInput("weapon", "Weapon", tuple(w.value for w in MISSILES), None, optional=True,
                    help="for a detonated round; otherwise taken from the pod"),
        piece_input("target", "Target"),
        area_input(),
        ChoiceInput("bearing", "Firer's bearing from the target",
                    tuple(b.value for b in Bearing), Bearing.AHEAD.value,
                    help="ahead, front-45, side, rear-45, behind: limits the areas (§2.10) and "
                         "sets pass-through (BC-D23)"),
        IntInput("points_between", "Points between", 0, 0, 40,
                 help="points strictly between firer and target (BC-D2)"),
        BoolInput("smoke", "Smoke on the line", False,
                  help="a Smoke marker between firer and target or on the target (BC-D5)"),
        pedestrian_input("sheltering", "Pedestrian in cover", optional=True,
                         help="takes the surplus when the target is a building, tree or wreck"),
        piece_input("next_target", "Next target in line", optional=True,
                    help="hit instead on a miss, if within reach (§2.11 step 6)"),
        area_input("next_area", "Next target's area"),
        ChoiceInput("next_bearing", "Bearing from the next target",
                    tuple(b.value for b in Bearing), Bearing.AHEAD.value),
        IntInput("next_points_between", "Points between (next target)", None, 0, 40,
                 optional=True),
        BoolInput("next_smoke", "Smoke on the line to the next target", False),
    ) + decisions("bc_d2_range", "bc_d4_only_if_possible", "bc_d19_count_after_hit",
                  "bc_d22_interior_only", "bc_d24_stack_reductions", "bc_d49_fuel_first"),
    resolve_fn=_resolve,
    odds_fn=_odds,
    dice_fn=_dice,
    check_fn=_check,
)
