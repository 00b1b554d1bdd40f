"""Every Mini Car Wars table, once, as data (digest §1.3–§1.5, §2.3–§2.8, §2.15, §3).

The reference views (``reference.py``), the designer, the record sheet and the
procedures all read these values; nothing here is retyped elsewhere.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from carwars_desktop.rules.mini_car_wars.model import (
    Armor,
    CollisionKind,
    Component,
    ControlResult,
    Maneuver,
    Mount,
    Side,
    Size,
    WeaponType,
)

# --- Weapons Chart (§1.3, readings MCW-A1) ------------------------------------


@dataclass(frozen=True)
class WeaponSpec:
    """One line of the Weapons Chart.

    ``shots`` is ``None`` for unlimited ammunition (MCW-D15), 1 for the HR.
    """

    kind: WeaponType
    name: str
    abbreviation: str
    to_hit: int | None
    damage_dice: int
    shots: int | None
    fires_through_smoke: bool
    makes_smoke: bool
    note: str


WEAPONS: Mapping[WeaponType, WeaponSpec] = MappingProxyType({
    WeaponType.MG: WeaponSpec(WeaponType.MG, "Machine Gun", "MG", 7, 1, None, True, False,
                              "The text confirms 7 and 1 die."),
    WeaponType.RL: WeaponSpec(WeaponType.RL, "Rocket Launcher", "RL", 8, 2, None, True, False,
                              "Reading by column order (MCW-A1)."),
    WeaponType.LASER: WeaponSpec(WeaponType.LASER, "Laser", "Laser", 6, 3, None, False, False,
                                 "Cannot fire through smoke."),
    WeaponType.SMOKESCREEN: WeaponSpec(
        WeaponType.SMOKESCREEN, "Smokescreen", "Smokescreen", None, 0, None, True, True,
        "No roll: places a smoke cloud behind the vehicle (lasts 60 turns, MCW-A4)."),
    WeaponType.HR: WeaponSpec(WeaponType.HR, "Heavy Rocket", "HR", 9, 3, 1, True, False,
                              "Fires once, then spent."),
})

# --- To-hit modifiers (§3.2) ---------------------------------------------------


@dataclass(frozen=True)
class ToHitModifiers:
    """The To-Hit Modifications chart; all modifiers are cumulative (§3.2)."""

    point_blank_under: int = 1
    point_blank: int = 4
    long_range_step: int = 4
    long_range_per_step: int = -1
    small_body: int = -1
    small_body_sizes: frozenset[Size] = frozenset({Size.SUBCOMPACT, Size.COMPACT})
    front_or_rear: int = -1
    cycle: int = -2
    turret: int = -2
    firer_stationary: int = 1
    target_stationary: int = 1
    smoke_cloud: int = -2
    natural_miss: int = 2


TO_HIT = ToHitModifiers()

# --- Control Table (§2.6, §3.4, reading MCW-A2) -------------------------------


@dataclass(frozen=True)
class ControlBand:
    """Modified 2d6 totals ``low..high`` (``high`` None = "or more") and their result."""

    low: int
    high: int | None
    result: ControlResult


CONTROL_TABLE: tuple[ControlBand, ...] = (
    ControlBand(2, 10, ControlResult.NO_EFFECT),
    ControlBand(11, 11, ControlResult.FISHTAIL),
    ControlBand(12, 12, ControlResult.SKID),
    ControlBand(13, 13, ControlResult.FISHTAIL_AND_SKID),
    ControlBand(14, None, ControlResult.CRASH_AND_BURN),
)
CONTROL_SPEED_STEP = 20
"""+1 on the control roll for each full 20 mph of speed (§2.6)."""
CONTROL_CYCLE_BONUS = 2
"""+2 more on the control roll for a motorcycle (§2.6)."""

CONTROL_EFFECTS: Mapping[ControlResult, str] = MappingProxyType({
    ControlResult.NO_EFFECT: "Nothing happens; continue normally.",
    ControlResult.FISHTAIL: "Hold one front corner; move the diagonally opposite rear corner "
                            "2 squares (½\") sideways (rear-left or rear-right at random).",
    ControlResult.SKID: "Move 1\" in the direction the vehicle was heading at the start of the "
                        "phase; it skips its next phase of movement.",
    ControlResult.FISHTAIL_AND_SKID: "Fishtail, then skid (MCW-D4).",
    ControlResult.CRASH_AND_BURN: "The vehicle stops and becomes a wreck; all occupants are "
                                  "killed and its player loses.",
})

FISHTAIL_SIDE: tuple[tuple[frozenset[int], str], ...] = (
    (frozenset({1, 2, 3}), "rear-left"),
    (frozenset({4, 5, 6}), "rear-right"),
)
"""The 1d6 "roll randomly" for which rear corner a fishtail moves (§2.7)."""

# --- Movement, speed and maneuvers (§0, §2.3–§2.5) ----------------------------


@dataclass(frozen=True)
class SpeedRules:
    """Speed and movement limits (§0, §2.3, §2.4)."""

    step: int = 10
    top_speed: int = 100
    top_reverse: int = 20
    accelerate: int = 10
    max_decelerate: int = 20
    forced_decelerate: int = 10
    phases: int = 10
    mph_per_move: int = 10


SPEED = SpeedRules()


@dataclass(frozen=True)
class ManeuverSpec:
    """One maneuver of §2.5: when it is allowed and how it is executed."""

    maneuver: Maneuver
    allowed_when: str
    execution: str
    only_at_speed: int | None = None


MANEUVERS: Mapping[Maneuver, ManeuverSpec] = MappingProxyType({
    Maneuver.STRAIGHT: ManeuverSpec(Maneuver.STRAIGHT, "any moving phase",
                                    "Move 1\" straight ahead."),
    Maneuver.DRIFT: ManeuverSpec(Maneuver.DRIFT, "any moving phase",
                                 "Move 1\" forward and ¼\" or ½\" sideways, keeping the same "
                                 "orientation (MCW-D29)."),
    Maneuver.SWERVE: ManeuverSpec(Maneuver.SWERVE, "any moving phase",
                                  "Move 1\" ahead, then hold one rear corner in its square and "
                                  "move the diagonally opposite corner 1 or 2 squares."),
    Maneuver.PIVOT: ManeuverSpec(Maneuver.PIVOT, "only at 10 mph",
                                 "Move ½\" ahead, then turn any amount while holding one rear "
                                 "corner in place.", only_at_speed=10),
})

# --- Crew, interior and accessories (§1.2, §1.4, §3.5) ------------------------

PERSON_BOXES = 3
"""Each person: 1st hit wounds, 2nd knocks unconscious, 3rd kills (§1.2)."""

INTERIOR_LOCATION: tuple[tuple[frozenset[int], Component], ...] = (
    (frozenset({1, 2}), Component.DRIVER),
    (frozenset({3, 4}), Component.GUNNER),
    (frozenset({5, 6}), Component.POWER_PLANT),
)
"""The one interior roll (1d6) of a hit that gets past the armor (§3.5)."""


@dataclass(frozen=True)
class AccessorySpec:
    """An accessory of §1.4, bought per person."""

    key: str
    name: str
    cost: int
    to_hit_bonus: int = 0
    boxes: int = 0


TARGETING_COMPUTER = AccessorySpec("tc", "Targeting Computer", 1_000, to_hit_bonus=1)
HI_RES_COMPUTER = AccessorySpec("hrtc", "Hi-Res Targeting Computer", 4_000, to_hit_bonus=2)
BODY_ARMOR = AccessorySpec("body_armor", "Body Armor", 250, boxes=3)
ACCESSORIES: tuple[AccessorySpec, ...] = (TARGETING_COMPUTER, HI_RES_COMPUTER, BODY_ARMOR)

# --- Collisions (§2.8, §3.6) --------------------------------------------------


@dataclass(frozen=True)
class CollisionRule:
    """One collision geometry: its speed rule, sides struck and speeds afterwards."""

    kind: CollisionKind
    name: str
    speed_rule: str
    striker_side: Side
    struck_side: Side | None
    speeds_after: str


COLLISIONS: Mapping[CollisionKind, CollisionRule] = MappingProxyType({
    CollisionKind.SAME_DIRECTION: CollisionRule(
        CollisionKind.SAME_DIRECTION, "Same direction (rear-end or sideswipe)",
        "higher speed − lower speed", Side.FRONT, Side.BACK,
        "both take the average of the two speeds, rounded up to 10 mph (MCW-D7)"),
    CollisionKind.HEAD_ON: CollisionRule(
        CollisionKind.HEAD_ON, "Head-on", "sum of the two speeds", Side.FRONT, Side.FRONT,
        "both 0 mph; counters scattered (MCW-D24)"),
    CollisionKind.T_BONE: CollisionRule(
        CollisionKind.T_BONE, "T-bone (right angles)", "speed of the most recent mover",
        Side.FRONT, None, "both 0 mph; counters scattered (MCW-D24)"),
    CollisionKind.FIXED_OBJECT: CollisionRule(
        CollisionKind.FIXED_OBJECT, "Fixed object", "the vehicle's own speed", Side.FRONT, None,
        "0 mph (MCW-D31)"),
})
COLLISION_MPH_PER_DIE = 10
"""One d6 of damage for every 10 mph of collision speed (§2.8)."""
CYCLE_DAMAGE_DIVISOR = 3
"""Cycles do only 1/3 of the collision damage to whatever they hit (§2.8, MCW-A6)."""

# --- Stock Car List with options (§1.5, readings MCW-A3, A5, A7) ---------------


@dataclass(frozen=True)
class WeaponFit:
    """A weapon as fitted: type, mount, and link group (linked weapons share it)."""

    kind: WeaponType
    mount: Mount
    link: int | None = None

    def __str__(self) -> str:
        text = f"{WEAPONS[self.kind].abbreviation} ({self.mount.value})"
        return f"{text} linked" if self.link is not None else text


@dataclass(frozen=True)
class OptionSpec:
    """An option of the Stock Car List: the printed change and what it does.

    ``remove`` are taken off (the last matching fit for each), ``add`` are put in
    the place of the first weapon removed. ``added_armor`` points are placed by
    the player (MCW-D18). ``replacement_keeps_link`` marks Mini Sherman (b), whose
    HR joins the removed MG's link only under the MCW-D19 alternative.
    ``empties_turret`` marks Rocket Special (b) (MCW-D28).
    """

    key: str
    printed: str
    delta: int
    remove: tuple[WeaponFit, ...]
    add: tuple[WeaponFit, ...]
    removes_gunner: bool = False
    added_armor: int = 0
    replacement_keeps_link: bool = False
    empties_turret: bool = False


@dataclass(frozen=True)
class StockVehicle:
    """One entry of the Stock Car List (§1.5)."""

    key: str
    name: str
    size: Size
    power_plant: int
    armor: Armor
    gunner: bool
    weapons: tuple[WeaponFit, ...]
    cost: int
    turret: bool = False
    options: tuple[OptionSpec, ...] = ()

    def option(self, key: str) -> OptionSpec | None:
        for option in self.options:
            if option.key == key:
                return option
        return None


_MG_F = WeaponFit(WeaponType.MG, Mount.FRONT)
_RL_F = WeaponFit(WeaponType.RL, Mount.FRONT)
_HR_F = WeaponFit(WeaponType.HR, Mount.FRONT)

STOCK_CARS: tuple[StockVehicle, ...] = (
    StockVehicle("killer_kart", "Killer Kart", Size.SUBCOMPACT, 8, Armor(6, 4, 4, 4, 0), False,
                 (_MG_F,), 3_750),
    StockVehicle(
        "mini_sherman", "Mini Sherman", Size.COMPACT, 10, Armor(35, 25, 25, 33, 0), False,
        (WeaponFit(WeaponType.MG, Mount.FRONT, 1), WeaponFit(WeaponType.MG, Mount.FRONT, 1),
         WeaponFit(WeaponType.SMOKESCREEN, Mount.BACK)), 7_500,
        options=(
            OptionSpec("a", "Replace both MGs with one RL (Front), and 25 points of armor "
                            "anywhere; saves $1,500.", -1_500,
                       (WeaponFit(WeaponType.MG, Mount.FRONT, 1),
                        WeaponFit(WeaponType.MG, Mount.FRONT, 1)), (_RL_F,), added_armor=25),
            OptionSpec("b", "Replace one MG with one HR (F) and add 16 points of armor; "
                            "saves $1,250.", -1_250,
                       (WeaponFit(WeaponType.MG, Mount.FRONT, 1),), (_HR_F,), added_armor=16,
                       replacement_keeps_link=True),
        )),
    StockVehicle(
        "rocket_special", "Rocket Special", Size.MID_SIZE, 12, Armor(40, 35, 35, 35, 30), True,
        (_RL_F, WeaponFit(WeaponType.MG, Mount.TURRET)), 12_250, turret=True,
        options=(
            OptionSpec("a", "Remove the RL, the MG, and the gunner; add a laser in the turret; "
                            "costs $4,250 extra.", 4_250,
                       (_RL_F, WeaponFit(WeaponType.MG, Mount.TURRET)),
                       (WeaponFit(WeaponType.LASER, Mount.TURRET),), removes_gunner=True),
            OptionSpec("b", "Remove the MG and the gunner; add 3 HRs (2F, 1B) and 25 points of "
                            "armor; saves $1,500.", -1_500,
                       (WeaponFit(WeaponType.MG, Mount.TURRET),),
                       (_HR_F, _HR_F, WeaponFit(WeaponType.HR, Mount.BACK)),
                       removes_gunner=True, added_armor=25, empties_turret=True),
        )),
    StockVehicle(
        "courier", "Courier", Size.LUXURY, 12, Armor(30, 20, 20, 25, 0), True,
        (_RL_F, WeaponFit(WeaponType.MG, Mount.RIGHT), WeaponFit(WeaponType.MG, Mount.LEFT),
         WeaponFit(WeaponType.MG, Mount.BACK)), 13_000,
        options=(
            OptionSpec("a", "Replace rear MG with one HR and a smokescreen; saves $950.", -950,
                       (WeaponFit(WeaponType.MG, Mount.BACK),),
                       (WeaponFit(WeaponType.HR, Mount.BACK),
                        WeaponFit(WeaponType.SMOKESCREEN, Mount.BACK))),
            OptionSpec("b", "Remove the RL, all three MGs, and the gunner; add two linked lasers "
                            "firing forward; costs $10,200 extra.", 10_200,
                       (_RL_F, WeaponFit(WeaponType.MG, Mount.RIGHT),
                        WeaponFit(WeaponType.MG, Mount.LEFT), WeaponFit(WeaponType.MG, Mount.BACK)),
                       (WeaponFit(WeaponType.LASER, Mount.FRONT, 1),
                        WeaponFit(WeaponType.LASER, Mount.FRONT, 1)), removes_gunner=True),
        )),
    StockVehicle("shogun_100", "Shogun 100", Size.CYCLE, 2, Armor(6, 0, 0, 6, 0), False,
                 (_MG_F,), 3_000),
    StockVehicle("shogun_220", "Shogun 220", Size.CYCLE, 3, Armor(20, 0, 0, 20, 0), False,
                 (_RL_F,), 4_000),
    StockVehicle(
        "firelight_deluxe", "Firelight Deluxe", Size.CYCLE, 5, Armor(6, 0, 0, 6, 0), False,
        (WeaponFit(WeaponType.LASER, Mount.FRONT),), 11_250,
        options=(
            OptionSpec("opt", "Replace the laser with one MG and 2 HRs firing forward, and add 17 "
                              "points of armor; saves $6,000.", -6_000,
                       (WeaponFit(WeaponType.LASER, Mount.FRONT),), (_MG_F, _HR_F, _HR_F),
                       added_armor=17),
        )),
)
STOCK: Mapping[str, StockVehicle] = MappingProxyType({car.key: car for car in STOCK_CARS})
CYCLE_ARMOR_SIDES: frozenset[Side] = frozenset({Side.FRONT, Side.BACK})
"""Cycles never have side or top armor (§1.5)."""

# --- Scenarios (§2.15) --------------------------------------------------------


@dataclass(frozen=True)
class ScenarioSide:
    """What one player buys in a scenario: ``budget`` None = set by the players."""

    label: str
    budget: int | None
    min_vehicles: int
    max_vehicles: int | None
    cycles: bool


@dataclass(frozen=True)
class Scenario:
    """A sample scenario of §2.15: purchase, start and victory."""

    key: str
    name: str
    sides: tuple[ScenarioSide, ...]
    start_speed: int
    start: str
    victory: str
    suggested_budgets: tuple[int, ...] = ()
    gap_dice: int = 0
    lead: int = 0
    winning_lead_over: int | None = None


ROAD_DUEL = Scenario(
    "road_duel", "Road Duel",
    (ScenarioSide("player A", None, 1, 1, False), ScenarioSide("player B", None, 1, 1, False)),
    60, "Roll randomly for which car is in front; gap 2d6 inches (2–12), bumper to bumper "
        "(MCW-D27); both cars go the same direction at 60 mph.",
    "The survivor wins.", suggested_budgets=(10_000, 15_000), gap_dice=2)
PACK_ATTACK = Scenario(
    "pack_attack", "Pack Attack",
    (ScenarioSide("car", 17_000, 1, 1, False), ScenarioSide("cycles", 25_000, 5, None, True)),
    80, "The lone car starts with a 12\" lead; all vehicles go 80 mph.",
    "Cycles win by destroying the car; the car wins if every cycle is destroyed or its lead "
    "grows to more than 30\" (MCW-D26: along the road, to the nearest cycle).",
    lead=12, winning_lead_over=30)
SCENARIOS: Mapping[str, Scenario] = MappingProxyType({s.key: s for s in (ROAD_DUEL, PACK_ATTACK)})

# --- Optional road hazards (§2.14) --------------------------------------------

DEBRIS_SECTION_ON = frozenset({6})
"""Roll 1d6 when a new road section is placed: on a 6 it is debris-littered (§2.14)."""
