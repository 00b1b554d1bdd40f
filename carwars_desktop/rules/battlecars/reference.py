"""Reference tables for browsing, built from the data in ``tables.py`` (never retyped)."""

from __future__ import annotations

from fractions import Fraction

from carwars_desktop.rules.battlecars.cite import bc
from carwars_desktop.rules.battlecars.missiles import ToHit
from carwars_desktop.rules.battlecars.options import CounterSizes
from carwars_desktop.rules.battlecars.tables import (
    ACCELERATION,
    AMMUNITION_DETONATES_ON,
    CORNER_ANGLES,
    CRASH_DAMAGE,
    DECELERATION,
    DIE,
    DRIFT,
    FINAL_FACING_FALLBACK,
    FINAL_FACING_MODIFIERS,
    MARKER_SD,
    MINE_SECTION,
    MISSILE_TABLE,
    MISSIONS,
    OBSTACLE_CAPACITY,
    POD_FACINGS_ALLOWED,
    RAM_TYPES,
    REVERSE_MAX,
    SAFE_SPEED,
    SIDE_RAM_AREA,
    SMOKE_REMOVED_ON,
    TARGET_AREAS,
    TURRET_DETONATION,
)
from carwars_desktop.rules.battlecars.terms import MISSILES, Surface, Weapon
from carwars_desktop.rules.ruleset import ReferenceTable

_SURFACES = (Surface.ROAD, Surface.GRASS)
_FACES = tuple(range(1, DIE + 1))


def _fraction(p: Fraction) -> str:
    return "1" if p == 1 else ("0" if p == 0 else f"{p.numerator}/{p.denominator}")


def _limits() -> tuple[ReferenceTable, ...]:
    accel = ReferenceTable(
        "battlecars.acceleration", "Acceleration and deceleration", bc("§3.1"),
        ("", "Road", "Grass", "Road + extra", "Grass + extra"),
        (("Max acceleration (extra: Super-Charger)",
          *(str(ACCELERATION[(s, e)]) for e in (False, True) for s in _SURFACES)),
         ("Max deceleration (extra: Power Brakes)",
          *(str(DECELERATION[(s, e)]) for e in (False, True) for s in _SURFACES)),
         ("Max reverse speed", *(str(REVERSE_MAX[s]) for s in _SURFACES), "—", "—")),
        "Direction changes only at speed 0 (BC-D44); the limits also apply in reverse (BC-D48).")
    safe = ReferenceTable(
        "battlecars.safe_speeds", "Maximum safe cornering speeds", bc("§2.4 · §3.2"),
        ("Corner", "Road", "Grass", "Road, Auto-Steer", "Grass, Auto-Steer"),
        tuple((f"{a}°", *(str(SAFE_SPEED[(a, s, st)]) for st in (False, True)
                         for s in _SURFACES)) for a in CORNER_ANGLES),
        "Speed − safe speed = the SD of the skid test.")
    sd = ReferenceTable(
        "battlecars.speed_difference", "Speed Difference sources", bc("§3.3"),
        ("Source", "SD"),
        (("Corner above safe speed", "speed − safe"),
         *((m.label, f"max({v}, speed)") for m, v in MARKER_SD.items()),
         ("Driver killed", "speed"), ("Several at once", "the greatest")))
    return accel, safe, sd


def _skids() -> tuple[ReferenceTable, ...]:
    drift = ReferenceTable(
        "battlecars.drift", "Drift Table", bc("§3.4"),
        ("SD", *(str(r.sd) for r in DRIFT)),
        (("Distance drifted", *("0" if r.distance is None else r.distance.rulebook()
                                for r in DRIFT)),
         ("Damage per tyre", *(str(r.tyre_damage) for r in DRIFT))),
        "Negative distances count as 0 (BC-D1); SD above 8 uses column 8 (BC-D10).")
    facing = ReferenceTable(
        "battlecars.final_facing", "Final Facing modifier", bc("§2.5 step 5 · §3.9"),
        ("Speed", "Die modifier"),
        tuple((f"{r.low}–{r.high}" if r.high is not None and r.high != r.low else
               (str(r.low) if r.high is not None else f"{r.low}+ (BC-D39)"), f"+{r.modifier}")
              for r in FINAL_FACING_MODIFIERS),
        "Result 1–4: complete the move; 5–11: speed 0, no further move this Turn.")
    fallback = ReferenceTable(
        "battlecars.final_facing_fallback", "Final facing fallback (BC-D11, a decision)",
        bc("", "BC-D11"), ("Result", "Turn"),
        tuple((str(k), v) for k, v in FINAL_FACING_FALLBACK.items()),
        "The printed Final Facing diagram is not in the text: use the play sheet when you "
        "have it. This fallback is a decision, not a rule.")
    return drift, facing, fallback


def _collisions() -> tuple[ReferenceTable, ...]:
    damage = ReferenceTable(
        "battlecars.crash_damage", "Crash/Ram Damage Table", bc("§3.5"),
        ("RV", "Damage", "Driver stunned"),
        tuple((str(r.rv), r.damage.rulebook(), "*" if r.stun else "") for r in CRASH_DAMAGE),
        "RV 0 does no damage; RV above 18 continues the pattern and stuns (BC-D18).")
    rams = ReferenceTable(
        "battlecars.ram_types", "Ram types", bc("§2.7 · §2.8", "BC-D15"),
        ("Ram", "Target struck on", "RV", "Rammer takes"),
        tuple((t.key, t.struck_face, t.rv_rule, t.rammer_share) for t in RAM_TYPES),
        "One damage roll per collision (BC-D16).")
    one_die = ReferenceTable(
        "battlecars.one_die", "Side-ram area, mine section, detonation, smoke", bc("§3.6"),
        ("1d8", *(str(f) for f in _FACES)),
        (("Side-ram area", *(f"side-{SIDE_RAM_AREA[f].value}" for f in _FACES)),
         ("Mine section", *(MINE_SECTION[f].value for f in _FACES)),
         ("Turret detonation", *(TURRET_DETONATION[f] for f in _FACES)),
         ("Smoke, end of round", *("removed" if f in SMOKE_REMOVED_ON else "stays"
                                  for f in _FACES)),
         ("Ammo hit (no Gunnery Computer)", *("detonates" if f in AMMUNITION_DETONATES_ON
                                             else "safe" for f in _FACES))))
    return damage, rams, one_die


def _weapons() -> tuple[ReferenceTable, ...]:
    sizes = CounterSizes()
    weapons = ReferenceTable(
        "battlecars.weapons", "Weapons", bc("§1.4 · §2.11"),
        ("Weapon", "To hit (≥ range)", "Damage (floored at 0)", "Max range", "Counter boxes",
         "Allowed in"),
        tuple((w.label,
               "automatic" if MISSILE_TABLE[w].to_hit is None else str(MISSILE_TABLE[w].to_hit),
               f"{MISSILE_TABLE[w].damage} − range",
               str(MISSILE_TABLE[w].max_range or "—"),
               str(sizes.size(w)) + ("" if w in (Weapon.ROCKET, Weapon.SHELL) else " (BC-D37)"),
               _allowed(w)) for w in MISSILES)
        + tuple((w.label, "—", "—", "dropped adjacent", f"{sizes.size(w)} (BC-D37)",
                 _allowed(w)) for w in Weapon if w.is_passive),
        "+1 to hit with a working Gunnery Computer; −4 through Smoke (not for Flame).")
    ranges = range(0, 18)
    odds = ReferenceTable(
        "battlecars.to_hit", "Probability of a hit by range (no GC, no smoke)", bc("§3.7"),
        ("Weapon", *(str(r) if r < 17 else "17+" for r in ranges)),
        tuple((w.label, *(_fraction(ToHit(w, r).p_hit()) if w is not Weapon.FLAME or r <= 3
                          else "—" for r in ranges)) for w in MISSILES),
        "A Gunnery Computer shifts a row one step right; smoke shifts it four steps left.")
    areas = ReferenceTable(
        "battlecars.target_areas", "Areas a firer may nominate", bc("§2.10 step 6"),
        ("Firer's bearing", "Areas"),
        tuple((b.value, ", ".join(sorted(a.value for a in blocks)))
              for b, blocks in TARGET_AREAS.items()),
        "A Reading of the rulebook's example: only the areas nearest the firer.")
    return weapons, odds, areas


def _allowed(weapon: Weapon) -> str:
    facings = POD_FACINGS_ALLOWED[weapon]
    text = "any pod" if len(facings) == 4 else \
        " or ".join(f.value for f in sorted(facings)) + "-firing pods"
    return text + (" or turret" if weapon is Weapon.MG else "")


def _scenarios() -> tuple[ReferenceTable, ...]:
    capacity = ReferenceTable(
        "battlecars.obstacles", "Building, tree and wreck capacity", bc("§1.5 · §3.8"),
        ("Obstacle", "Hits"),
        tuple((f"{size.value + ' ' if size else ''}{kind.value}", str(hits))
              for (kind, size), hits in OBSTACLE_CAPACITY.items()),
        "A crash adds 1 hit. Surplus goes to a pedestrian (or driver in a wreck) in cover; "
        "a full building or tree still blocks (BC-D43).")
    missions = ReferenceTable(
        "battlecars.missions", "Mission plots (1d8 per car)", bc("§3.10"),
        ("Car", "1–2", "3–4", "5–6", "7–8"),
        tuple((str(car), *(m.goal for m in plots)) for car, plots in MISSIONS.items()),
        "Car 4's 3–4 and 5–6 both name car 3, as printed (BC-D34).")
    return capacity, missions


def reference_tables() -> tuple[ReferenceTable, ...]:
    return _limits() + _skids() + _collisions() + _weapons() + _scenarios()
