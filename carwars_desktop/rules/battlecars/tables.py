"""Every Battlecars table, once, as data (digest §3; rulebook tables and flow charts).

Reference views for browsing are built from these values in ``reference.py``; the
procedures read the same values. Decisions (BC-Dn) are marked where they fill a gap.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from carwars_desktop.rules.battlecars.terms import (
    Bearing,
    Block,
    Facing,
    ObstacleKind,
    ObstacleSize,
    Section,
    Surface,
    Weapon,
)

DIE = 8
"""Battlecars uses one eight-sided die: "1 Die" is 1d8, "2 Dice" is 2d8 (§0)."""

# --- Rule constants (the numbers stated in the text) --------------------------------------
DRIVER_BOXES = 3
"""At 3 damage the driver is dead (§2.16)."""
STANDARD_POD_BOXES = 8
"""The standard pod has 8 boxes: 2 Rockets or 4 Shells (§1.4, BC-E1)."""
TYRE_DESTROYED_SPEED_LOSS = 2
ENGINE_BOX_SPEED_LOSS = 1
SUPER_CHARGER_ACCELERATION = 1
POWER_BRAKES_DECELERATION = 1
GUNNERY_COMPUTER_TO_HIT = 1
SMOKE_TO_HIT = -4
TARGETS_PER_TURN = 2
TARGETS_PER_TURN_WITH_GUNNERY_COMPUTER = 3
FUEL_TANK_EXPLODES_ON = 7
FUEL_TANK_MISSILE_PENALTY = 2
"""Rocket or Shell: deduct 2 from the fuel-tank check (§2.15 step 3)."""
STUN_RV = 14
"""RV 14 or more stuns (the asterisked rows of §3.5)."""
CRASH_OBSTACLE_DAMAGE = 1
PEDESTRIAN_BOXES = 3
PEDESTRIAN_MG_ROUNDS = 3
PEDESTRIAN_MAX_SPEED = 2
ARENA_ENTRY_SPEED = 3
CONTINUE_FACINGS = frozenset({1, 2, 3, 4})
"""Final facing 1–4: the car completes its move; 5–11: speed 0 (§2.5 step 7)."""
SMOKE_REMOVED_ON = frozenset({5, 6, 7, 8})
"""End of round, per Smoke marker: 1–4 stays, 5–8 removed (§2.2 step 4)."""
AMMUNITION_DETONATES_ON = frozenset({7, 8})
"""A missile round hit by a Rocket or Shell without a working Gunnery Computer (§2.14)."""


@dataclass(frozen=True)
class DieRoll:
    """``count``d8 + ``modifier``: a roll as the rulebook writes it ("2 Dice + 3")."""

    count: int
    modifier: int = 0

    def __str__(self) -> str:
        if self.count == 0:
            return str(self.modifier)
        text = f"{self.count}d8"
        return f"{text}{self.modifier:+d}" if self.modifier else text

    def rulebook(self) -> str:
        """As the rulebook prints it: "1 Die − 2", "2 Dice", "3 Dice + 1"."""
        text = f"{self.count} {'Die' if self.count == 1 else 'Dice'}"
        if self.modifier:
            text += f" {'+' if self.modifier > 0 else '−'} {abs(self.modifier)}"
        return text


# --- §3.1 Acceleration and deceleration ---------------------------------------------------
ACCELERATION: Mapping[tuple[Surface, bool], int] = MappingProxyType({
    (Surface.ROAD, False): 2,
    (Surface.GRASS, False): 1,
    (Surface.ROAD, True): 3,
    (Surface.GRASS, True): 2,
})
"""Max acceleration per Round by (surface, working Super-Charger)."""

DECELERATION: Mapping[tuple[Surface, bool], int] = MappingProxyType({
    (Surface.ROAD, False): 3,
    (Surface.GRASS, False): 2,
    (Surface.ROAD, True): 4,
    (Surface.GRASS, True): 3,
})
"""Max deceleration per Round by (surface, working Power Brakes)."""

REVERSE_MAX: Mapping[Surface, int] = MappingProxyType({Surface.ROAD: 3, Surface.GRASS: 2})

# --- §2.4 / §3.2 Maximum safe cornering speeds --------------------------------------------
CORNER_ANGLES: tuple[int, ...] = (45, 90, 135)

SAFE_SPEED: Mapping[tuple[int, Surface, bool], int] = MappingProxyType({
    (45, Surface.ROAD, False): 8,
    (45, Surface.GRASS, False): 4,
    (45, Surface.ROAD, True): 9,
    (45, Surface.GRASS, True): 6,
    (90, Surface.ROAD, False): 4,
    (90, Surface.GRASS, False): 2,
    (90, Surface.ROAD, True): 6,
    (90, Surface.GRASS, True): 3,
    (135, Surface.ROAD, False): 2,
    (135, Surface.GRASS, False): 1,
    (135, Surface.ROAD, True): 3,
    (135, Surface.GRASS, True): 2,
})
"""Safe speed by (corner angle, surface, working Auto-Steer)."""

# --- §3.3 Speed Difference sources --------------------------------------------------------
MARKER_SD: Mapping[Weapon, int] = MappingProxyType({
    Weapon.OIL: 5,
    Weapon.SMOKE: 3,
    Weapon.SPIKES: 2,
})
"""Driving onto a marker: SD = this value, or the car's speed if greater."""


# --- §3.4 Drift Table ---------------------------------------------------------------------
@dataclass(frozen=True)
class DriftRow:
    """One column of the Drift Table: ``distance`` (``None`` = no roll, 0) and tyre damage."""

    sd: int
    distance: DieRoll | None
    tyre_damage: int


DRIFT: tuple[DriftRow, ...] = (
    DriftRow(1, None, 0),
    DriftRow(2, DieRoll(1, -7), 0),
    DriftRow(3, DieRoll(1, -6), 0),
    DriftRow(4, DieRoll(1, -5), 0),
    DriftRow(5, DieRoll(1, -4), 1),
    DriftRow(6, DieRoll(1, -3), 1),
    DriftRow(7, DieRoll(1, -2), 2),
    DriftRow(8, DieRoll(1, -1), 2),
)
DRIFT_MAX_SD = 8


# --- §2.5 step 5 / §3.9 Final Facing modifier ---------------------------------------------
@dataclass(frozen=True)
class FacingModifier:
    low: int
    high: int | None
    modifier: int


FINAL_FACING_MODIFIERS: tuple[FacingModifier, ...] = (
    FacingModifier(0, 3, 0),
    FacingModifier(4, 4, 1),
    FacingModifier(5, 6, 2),
    FacingModifier(7, None, 3),  # 7, 8, 9 in the text; BC-D39: and above
)

FINAL_FACING_FALLBACK: Mapping[int, str] = MappingProxyType({
    1: "unchanged",
    2: "45° left",
    3: "45° right",
    4: "unchanged",
    5: "90° left",
    6: "90° right",
    7: "135° left",
    8: "135° right",
    9: "180°",
    10: "180°",
    11: "180°",
})
"""BC-D11 digital fallback for the lost Final Facing diagram (a Decision, not a rule)."""


# --- §3.5 Crash/Ram Damage Table ----------------------------------------------------------
@dataclass(frozen=True)
class CrashRow:
    rv: int
    damage: DieRoll
    stun: bool


CRASH_DAMAGE: tuple[CrashRow, ...] = (
    CrashRow(1, DieRoll(1, -2), False),
    CrashRow(2, DieRoll(1, -1), False),
    CrashRow(3, DieRoll(1, 0), False),
    CrashRow(4, DieRoll(1, 1), False),
    CrashRow(5, DieRoll(1, 2), False),
    CrashRow(6, DieRoll(1, 3), False),
    CrashRow(7, DieRoll(1, 4), False),
    CrashRow(8, DieRoll(2, 0), False),
    CrashRow(9, DieRoll(2, 1), False),
    CrashRow(10, DieRoll(2, 2), False),
    CrashRow(11, DieRoll(2, 3), False),
    CrashRow(12, DieRoll(2, 4), False),
    CrashRow(13, DieRoll(3, 0), False),
    CrashRow(14, DieRoll(3, 1), True),
    CrashRow(15, DieRoll(3, 2), True),
    CrashRow(16, DieRoll(3, 3), True),
    CrashRow(17, DieRoll(3, 4), True),
    CrashRow(18, DieRoll(4, 0), True),
)
CRASH_TABLE_MAX_RV = 18


@dataclass(frozen=True)
class RamType:
    """§2.7 step 2: how the RV is found and what share the rammer takes."""

    key: str
    struck_face: str
    rv_rule: str
    rammer_share: str


RAM_TYPES: tuple[RamType, ...] = (
    RamType("head-on", "front", "sum of both speeds", "full"),
    RamType("side", "side", "rammer's speed", "half, rounded down"),
    RamType("shunt", "rear", "higher speed − lower speed", "half, rounded down"),
)

# --- §3.6 one-die tables ------------------------------------------------------------------
SIDE_RAM_AREA: Mapping[int, Section] = MappingProxyType({
    1: Section.FRONT, 2: Section.FRONT,
    3: Section.CENTRE, 4: Section.CENTRE, 5: Section.CENTRE, 6: Section.CENTRE,
    7: Section.REAR, 8: Section.REAR,
})
"""Side ram, 1d8: 1–2 Side-Front, 3–6 Side-Centre, 7–8 Side-Rear (§2.8 step 2)."""

MINE_SECTION: Mapping[int, Section] = MappingProxyType({
    1: Section.FRONT, 2: Section.FRONT,
    3: Section.CENTRE, 4: Section.CENTRE, 5: Section.CENTRE, 6: Section.CENTRE,
    7: Section.REAR, 8: Section.REAR,
})
"""Mines, 1d8 for the section: 1–2 Front, 3–6 Centre, 7–8 Rear (§2.12)."""

TURRET_DETONATION: Mapping[int, str] = MappingProxyType({
    1: "left", 2: "front-left", 3: "front", 4: "front-right",
    5: "right", 6: "rear-right", 7: "rear", 8: "rear-left",
})
"""Direction a detonated turret round fires off (§2.14 step 4)."""

POD_DETONATION: Mapping[Facing, str] = MappingProxyType({
    Facing.FRONT: "front",
    Facing.REAR: "rear",
    Facing.LEFT: "left",
    Facing.RIGHT: "right",
})
"""A pod round fires off at 90° out from the side or end where the pod is (§2.14 step 4)."""


# --- §1.4 / §3.7 Weapons ------------------------------------------------------------------
@dataclass(frozen=True)
class MissileRow:
    """To hit: ``to_hit`` total ≥ range (``None`` = automatic). Damage floored at 0 (BC-D1)."""

    weapon: Weapon
    to_hit: DieRoll | None
    damage: DieRoll
    max_range: int | None
    explodes_fuel_tank: bool
    detonates_ammunition: bool


MISSILE_TABLE: Mapping[Weapon, MissileRow] = MappingProxyType({
    Weapon.MG: MissileRow(Weapon.MG, DieRoll(1, 0), DieRoll(1, -2), None, False, False),
    Weapon.SHELL: MissileRow(Weapon.SHELL, DieRoll(1, 3), DieRoll(1, 0), None, True, True),
    Weapon.ROCKET: MissileRow(Weapon.ROCKET, DieRoll(2, 0), DieRoll(2, 0), None, True, True),
    Weapon.FLAME: MissileRow(Weapon.FLAME, None, DieRoll(1, 3), 3, True, False),
})

STATED_COUNTER_SIZES: Mapping[Weapon, int] = MappingProxyType({Weapon.ROCKET: 4, Weapon.SHELL: 2})
"""The only sizes in the text: 2 Rockets or 4 Shells fill an 8-box pod (BC-E1)."""

POD_FACINGS_ALLOWED: Mapping[Weapon, frozenset[Facing]] = MappingProxyType({
    Weapon.ROCKET: frozenset({Facing.FRONT, Facing.REAR}),
    Weapon.SHELL: frozenset({Facing.FRONT, Facing.REAR}),
    Weapon.MG: frozenset(Facing),
    Weapon.FLAME: frozenset(Facing),
    Weapon.SMOKE: frozenset({Facing.REAR, Facing.LEFT, Facing.RIGHT}),
    Weapon.OIL: frozenset({Facing.REAR, Facing.LEFT, Facing.RIGHT}),
    Weapon.SPIKES: frozenset({Facing.REAR, Facing.LEFT, Facing.RIGHT}),
    Weapon.MINES: frozenset({Facing.REAR, Facing.LEFT, Facing.RIGHT}),
})
"""Loading rules 6–8 (§1.4): which pod facings may hold each weapon."""

TURRET_WEAPONS = frozenset({Weapon.MG})
"""Loading rule 5: a turret holds MG rounds only."""

MARKER_TYRE_DAMAGE = DieRoll(1, -3)
"""Spikes and Mines: each tyre takes 1d8 − 3, no carry-over between tyres (§2.12)."""
MINE_INTERIOR_DAMAGE = DieRoll(1, -2)
"""Mines: the component hit takes 1d8 − 2, carried over as usual (§2.12)."""

# --- §1.5 / §3.8 Obstacles ----------------------------------------------------------------
OBSTACLE_CAPACITY: Mapping[tuple[ObstacleKind, ObstacleSize | None], int] = MappingProxyType({
    (ObstacleKind.BUILDING, ObstacleSize.SMALL): 4,
    (ObstacleKind.BUILDING, ObstacleSize.MEDIUM): 8,
    (ObstacleKind.BUILDING, ObstacleSize.LARGE): 16,
    (ObstacleKind.TREE, ObstacleSize.SMALL): 4,
    (ObstacleKind.TREE, ObstacleSize.MEDIUM): 8,
    (ObstacleKind.TREE, ObstacleSize.LARGE): 16,
    (ObstacleKind.WRECK, None): 2,
})


# --- §3.10 Mission plots ------------------------------------------------------------------
@dataclass(frozen=True)
class Mission:
    faces: tuple[int, ...]
    goal: str
    story: str


MISSION_FACES = ((1, 2), (3, 4), (5, 6), (7, 8))
"""The d8 faces of a plot's four missions, in the plot's order (§3.10)."""


def _plot(*missions: tuple[str, str]) -> tuple[Mission, ...]:
    """One car's plot: its missions (goal, story) on :data:`MISSION_FACES` in order."""
    return tuple(Mission(faces, goal, story)
                 for faces, (goal, story) in zip(MISSION_FACES, missions, strict=True))


MISSIONS: Mapping[int, tuple[Mission, ...]] = MappingProxyType({
    1: _plot(
        ("Kill the driver of car 2",
         "He killed your brother in a car combat, and only his death will even the score."),
        ("Kill the driver of car 3",
         "He ran over your dog, and said something derisive about your parents."),
        ("Kill the driver of car 4", "The honour of your gang demands it."),
        ("Kill any other driver",
         "Your score has been low lately, you must kill any other driver in order to "
         "walk tall in your gang."),
    ),
    2: _plot(
        ("Kill the driver of car 1",
         "The driver of car 1 is an old opponent of yours. He gave you your limp."),
        ("Kill the driver of car 3",
         "The driver of car 3 has robbed your gang's hideout for too long."),
        ("Kill the driver of car 4", "The driver of car 4 killed your best friend."),
        ("Immobilise two cars",
         "You have a deal with the local car repair shop. You get a commission on each "
         "car repaired."),
    ),
    3: _plot(
        ("Kill the driver of car 1",
         "Car 1 just creamed your cousin. Kill the swine!"),
        ("Kill the driver of car 2",
         "The driver of car 2 just machine-gunned your aunt's pedigree Siamese."),
        ("Kill the driver of car 4",
         "Car 4 has encroached on your gang's territory once too often: for the honour "
         "of the Southside Marauders."),
        ("Immobilise two cars",
         "You have a deal with the local garage, you get commission on every wreck they "
         "repair."),
    ),
    4: _plot(
        ("Kill the driver of car 1", "He is the rat that jilted your sister."),
        ("Kill the driver of car 3",
         "His paintwork is just too colourful and killing him should provide a much "
         "needed lesson in taste."),
        ("Kill the driver of car 3",
         "The driver of car 3 is a member of a rival gang, the Scarlet Angels."),
        ("Kill at least one driver", "Your score has been low lately."),
    ),
})
"""Mission Accomplished (§2.19, §3.10). Car 4's 3–4 and 5–6 both name car 3 (BC-D34)."""

# --- §2.10 step 6 Target areas (a Reading of the rulebook's example) ----------------------
TARGET_AREAS: Mapping[Bearing, frozenset[Block]] = MappingProxyType({
    Bearing.AHEAD: frozenset({Block.FRONT}),
    Bearing.FRONT_45: frozenset({Block.FRONT, Block.LEFT_FRONT, Block.LEFT_CENTRE,
                                 Block.RIGHT_FRONT, Block.RIGHT_CENTRE}),
    Bearing.SIDE: frozenset({Block.LEFT_FRONT, Block.LEFT_CENTRE, Block.LEFT_REAR,
                             Block.RIGHT_FRONT, Block.RIGHT_CENTRE, Block.RIGHT_REAR}),
    Bearing.REAR_45: frozenset({Block.REAR, Block.LEFT_REAR, Block.LEFT_CENTRE,
                                Block.RIGHT_REAR, Block.RIGHT_CENTRE}),
    Bearing.BEHIND: frozenset({Block.REAR}),
})
"""Areas a firer may nominate by bearing from the target's centre line (the side blocks
are those of the side nearer the firer, which the GM sees on the board)."""
