"""Reference views of the Mini Car Wars tables, built from ``tables.py`` (never retyped)."""

from __future__ import annotations

from fractions import Fraction

from carwars_desktop.rules.kernel.formatting import money, money_change, percent, signed
from carwars_desktop.rules.mini_car_wars.cite import mcw
from carwars_desktop.rules.mini_car_wars.control import control_bonus
from carwars_desktop.rules.mini_car_wars.design import configure
from carwars_desktop.rules.mini_car_wars.model import CollisionKind
from carwars_desktop.rules.mini_car_wars.movement import Velocity, legal_velocities, move_phases
from carwars_desktop.rules.mini_car_wars.tables import (
    ACCESSORIES,
    COLLISION_MPH_PER_DIE,
    COLLISIONS,
    CONTROL_CYCLE_BONUS,
    CONTROL_EFFECTS,
    CONTROL_SPEED_STEP,
    CONTROL_TABLE,
    CYCLE_DAMAGE_DIVISOR,
    INTERIOR_LOCATION,
    MANEUVERS,
    SCENARIOS,
    SPEED,
    STOCK_CARS,
    TO_HIT,
    WEAPONS,
    WeaponFit,
)
from carwars_desktop.rules.mini_car_wars.to_hit import hit_ways
from carwars_desktop.rules.ruleset import ReferenceTable


def _dice(count: int) -> str:
    return "—" if count == 0 else ("1 die" if count == 1 else f"{count} dice")


def _weapons(fits: tuple[WeaponFit, ...]) -> str:
    return "; ".join(str(fit) for fit in fits) or "none"


def weapons_chart() -> ReferenceTable:
    rows = tuple((s.name, s.abbreviation, "—" if s.to_hit is None else f"{s.to_hit}+",
                  "smoke" if s.makes_smoke else _dice(s.damage_dice),
                  "unlimited (MCW-D15)" if s.shots is None else str(s.shots), s.note)
                 for s in WEAPONS.values())
    return ReferenceTable("weapons", "Weapons Chart", mcw("§1.3"),
                          ("Weapon", "Abbr.", "To hit (2d6)", "Damage", "Shots", "Notes"), rows,
                          "Each weapon fires at most once per turn; a natural 2 always misses.")


def to_hit_modifiers() -> ReferenceTable:
    t = TO_HIT
    step = t.long_range_step
    rows = (
        (f"Point-blank: range under {t.point_blank_under}\" (edge to edge)", signed(t.point_blank)),
        (f"Range {t.point_blank_under}–{step - 0.01:.2f}\"", signed(0)),
        (f"Range {step}–{2 * step - 0.01:.2f}\"", signed(t.long_range_per_step)),
        (f"Range {2 * step}–{3 * step - 0.01:.2f}\"", signed(2 * t.long_range_per_step)),
        (f"… {signed(t.long_range_per_step)} per further full {step}\"", ""),
        ("Target is the body of a " + " or ".join(s.value.lower() for s in sorted(
            t.small_body_sizes, key=lambda s: s.value)), signed(t.small_body)),
        ("Target side is the front or rear (MCW-D13: cycles too)", signed(t.front_or_rear)),
        ("Target is a cycle", signed(t.cycle)),
        ("Target is a car's turret (top; MCW-D14: no other target modifier)", signed(t.turret)),
        ("Firing vehicle not moving", signed(t.firer_stationary)),
        ("Target not moving", signed(t.target_stationary)),
        ("Each smoke cloud the line of fire crosses", signed(t.smoke_cloud)),
        *((f"{a.name} of the firer", signed(a.to_hit_bonus)) for a in ACCESSORIES
          if a.to_hit_bonus),
        (f"Natural {t.natural_miss}", "always misses"),
    )
    return ReferenceTable("to_hit_modifiers", "To-hit modifiers", mcw("§3.2"),
                          ("Condition", "Modifier"), rows, "All modifiers are cumulative.")


def hit_probability() -> ReferenceTable:
    rows = []
    for need in range(3, 14):
        ways = hit_ways(need)
        label = "≤3" if need == 3 else ("≥13" if need == 13 else str(need))
        p = Fraction(ways, 36)
        rows.append((label, f"{ways}/36", f"{p.numerator}/{p.denominator}" if ways else "0",
                     percent(p)))
    return ReferenceTable("hit_probability", "Hit probability (2d6, natural 2 misses)",
                          mcw("§3.3"), ("Need", "Ways", "P(hit)", "%"), tuple(rows),
                          "need = to-hit number − total modifier")


def control_table() -> ReferenceTable:
    rows = tuple((f"{b.low}–{b.high}" if b.high is not None and b.high != b.low
                  else (str(b.low) if b.high is not None else f"{b.low} or more"),
                  b.result.value, CONTROL_EFFECTS[b.result]) for b in CONTROL_TABLE)
    return ReferenceTable("control", "Control Table", mcw("§3.4"),
                          ("Modified 2d6", "Result", "Effect"), rows,
                          f"+1 per full {CONTROL_SPEED_STEP} mph of speed; "
                          f"+{CONTROL_CYCLE_BONUS} for a motorcycle.")


def control_modifier_table() -> ReferenceTable:
    rows = tuple((f"{mph}" if mph == SPEED.top_speed else f"{mph}–{mph + SPEED.step}",
                  signed(control_bonus(mph, False)), signed(control_bonus(mph, True)))
                 for mph in range(0, SPEED.top_speed + 1, CONTROL_SPEED_STEP))
    return ReferenceTable("control_modifiers", "Control roll modifiers", mcw("§2.6"),
                          ("Speed (mph)", "Car", "Cycle"), rows)


def interior_location() -> ReferenceTable:
    rows = tuple(("–".join(str(f) for f in sorted(faces)), component.value)
                 for faces, component in INTERIOR_LOCATION)
    return ReferenceTable("interior", "Interior hit location (1d6)", mcw("§3.5"),
                          ("1d6", "Component"), rows,
                          "A missing or destroyed component sends the damage to the opposite "
                          "side.")


def collision_table() -> ReferenceTable:
    rows = tuple((r.name, r.speed_rule, f"{r.striker_side.label}",
                  r.struck_side.label if r.struck_side else
                  ("side struck" if r.kind is CollisionKind.T_BONE else "—"), r.speeds_after)
                 for r in COLLISIONS.values())
    return ReferenceTable("collisions", "Collision damage", mcw("§2.8, §3.6"),
                          ("Situation", "Collision speed", "Striker takes it on", "Struck takes "
                           "it on", "Speeds after"), rows,
                          f"1d6 per {COLLISION_MPH_PER_DIE} mph of collision speed for each "
                          f"vehicle; a cycle does 1/{CYCLE_DAMAGE_DIVISOR} (rounded down, "
                          "MCW-D6).")


def accessories_table() -> ReferenceTable:
    rows = tuple((a.name, money(a.cost), signed(a.to_hit_bonus) + " to hit" if a.to_hit_bonus
                  else f"+{a.boxes} boxes") for a in ACCESSORIES)
    return ReferenceTable("accessories", "Accessories", mcw("§1.4"),
                          ("Accessory", "Cost", "Effect"), rows,
                          "Per person; one computer each (MCW-D22).")


def stock_car_list() -> ReferenceTable:
    rows = tuple((car.name, car.size.value, str(car.power_plant),
                  *(str(v) for _, v in car.armor.items()), str(car.armor.total),
                  "driver + gunner" if car.gunner else "driver", _weapons(car.weapons),
                  money(car.cost)) for car in STOCK_CARS)
    return ReferenceTable("stock", "Stock Car List", mcw("§1.5"),
                          ("Vehicle", "Size", "PP DP", "F", "R", "L", "B", "T", "Armor",
                           "Crew", "Weapons", "Cost"), rows,
                          "Armor may be rearranged; cycles never have side or top armor.")


def options_table() -> ReferenceTable:
    rows = tuple((car.name, option.key, option.printed,
                  money_change(option.delta),
                  money(car.cost + option.delta))
                 for car in STOCK_CARS for option in car.options)
    return ReferenceTable("options", "Options", mcw("§1.5"),
                          ("Vehicle", "Option", "Change (as printed)", "Delta", "Cost"), rows,
                          "At most one option per vehicle (MCW-D17).")


def configurations_table() -> ReferenceTable:
    rows = []
    for car in STOCK_CARS:
        for option in car.options:
            config = configure(car, option)
            rows.append((f"{car.name} ({option.key})",
                         "driver + gunner" if config.gunner else "driver",
                         _weapons(config.weapons), str(config.armor_points),
                         money(config.cost)))
    return ReferenceTable("configurations", "Derived configurations", mcw("§1.5"),
                          ("Config", "Crew", "Weapons", "Armor total", "Cost"), tuple(rows),
                          "Added armor is placed by the player (MCW-D18).")


def scenarios_table() -> ReferenceTable:
    rows = tuple((s.name, "; ".join(
        f"{side.label}: {'agreed budget' if side.budget is None else money(side.budget)}, "
        f"{side.min_vehicles}{'' if side.max_vehicles == side.min_vehicles else '+'} "
        f"{'cycles' if side.cycles else 'car'}" for side in s.sides), s.start, s.victory)
        for s in SCENARIOS.values())
    return ReferenceTable("scenarios", "Scenarios", mcw("§2.15"),
                          ("Scenario", "Purchase", "Start", "Victory"), rows)


def schedule_table() -> ReferenceTable:
    rows = tuple((str(mph), f"1–{move_phases(mph)[-1]}" if mph > SPEED.step else "1")
                 for mph in range(SPEED.step, SPEED.top_speed + 1, SPEED.step))
    return ReferenceTable("schedule", "Movement schedule", mcw("§2.4", "MCW-D1"),
                          ("Speed (mph)", "Phases with a move"), rows,
                          "1\" per move; in each phase the fastest vehicle moves first.")


def speed_table() -> ReferenceTable:
    starts = [Velocity(mph) for mph in range(0, SPEED.top_speed + 1, SPEED.step)]
    starts += [Velocity(mph, True) for mph in range(SPEED.step, SPEED.top_reverse + 1, SPEED.step)]
    rows = tuple((str(v), ", ".join(str(n) for n in legal_velocities(v))) for v in starts)
    return ReferenceTable("speeds", "Legal new speeds", mcw("§2.3"),
                          ("Previous speed", "Legal new speeds"), rows,
                          "R = reverse (cars only). A destroyed power plant must lose ≥ 10 mph; "
                          "a driver who is down loses exactly 10 mph.")


def maneuvers_table() -> ReferenceTable:
    rows = tuple((m.maneuver.value, m.allowed_when, m.execution) for m in MANEUVERS.values())
    return ReferenceTable("maneuvers", "Maneuvers", mcw("§2.5"),
                          ("Maneuver", "Allowed", "Execution"), rows,
                          "The first maneuver of a turn is free; each later one needs a control "
                          "roll.")


def reference_tables() -> tuple[ReferenceTable, ...]:
    return (weapons_chart(), to_hit_modifiers(), hit_probability(), control_table(),
            control_modifier_table(), interior_location(), collision_table(),
            accessories_table(), stock_car_list(), options_table(), configurations_table(),
            scenarios_table(), schedule_table(), speed_table(), maneuvers_table())
