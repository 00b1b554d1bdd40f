"""The game's words as small typed values: sections, armour blocks, components, weapons.

Battlecars digest §1.2–§1.5 (source: the Battlecars rulebook, Games Workshop 1983).
"""

from __future__ import annotations

from enum import StrEnum


class Section(StrEnum):
    """The three sections of a Battlecar card, front to rear (§1.2)."""

    FRONT = "front"
    CENTRE = "centre"
    REAR = "rear"

    @property
    def order(self) -> int:
        return SECTIONS.index(self)


SECTIONS: tuple[Section, ...] = (Section.FRONT, Section.CENTRE, Section.REAR)


class Side(StrEnum):
    LEFT = "left"
    RIGHT = "right"


class Block(StrEnum):
    """The eight armour blocks, which are also the areas a firer nominates (§2.13 step 4)."""

    FRONT = "front"
    LEFT_FRONT = "left-front"
    RIGHT_FRONT = "right-front"
    LEFT_CENTRE = "left-centre"
    RIGHT_CENTRE = "right-centre"
    LEFT_REAR = "left-rear"
    RIGHT_REAR = "right-rear"
    REAR = "rear"

    @property
    def section(self) -> Section:
        return _BLOCK_SECTION[self]

    @property
    def side(self) -> Side | None:
        """The side of a side block; ``None`` for the front and rear blocks."""
        if self in (Block.FRONT, Block.REAR):
            return None
        return Side.LEFT if self.value.startswith("left") else Side.RIGHT

    @property
    def label(self) -> str:
        """The rulebook's area name: front, side-front, side-centre, side-rear, rear."""
        side = self.side
        if side is None:
            return self.value
        return f"{side.value} side-{self.section.value}"

    @staticmethod
    def side_block(side: Side, section: Section) -> Block:
        return Block(f"{side.value}-{section.value}")


BLOCKS: tuple[Block, ...] = tuple(Block)

_BLOCK_SECTION = {
    Block.FRONT: Section.FRONT,
    Block.LEFT_FRONT: Section.FRONT,
    Block.RIGHT_FRONT: Section.FRONT,
    Block.LEFT_CENTRE: Section.CENTRE,
    Block.RIGHT_CENTRE: Section.CENTRE,
    Block.LEFT_REAR: Section.REAR,
    Block.RIGHT_REAR: Section.REAR,
    Block.REAR: Section.REAR,
}


class Kind(StrEnum):
    """Interior component types (§1.3)."""

    TYRE = "tyre"
    ENGINE = "engine"
    FUEL_TANK = "fuel tank"
    POD = "weapon pod"
    TURRET = "turret"
    SUPER_CHARGER = "super-charger"
    AUTO_STEER = "auto-steer"
    GUNNERY_COMPUTER = "gunnery computer"
    FIRE_EXTINGUISHER = "fire extinguisher"
    POWER_BRAKES = "power brakes"
    DRIVER = "driver"

    @property
    def is_mount(self) -> bool:
        """Pods and turrets hold weapon counters."""
        return self in (Kind.POD, Kind.TURRET)


class Facing(StrEnum):
    """Which way a weapon pod fires out of the car (§1.4 loading rules)."""

    FRONT = "front"
    REAR = "rear"
    LEFT = "left"
    RIGHT = "right"


class Weapon(StrEnum):
    """Weapon counters (§1.4): four missile weapons and four passive ones."""

    ROCKET = "rocket"
    SHELL = "shell"
    MG = "mg"
    FLAME = "flame"
    SMOKE = "smoke"
    OIL = "oil"
    SPIKES = "spikes"
    MINES = "mines"

    @property
    def is_missile(self) -> bool:
        return self in (Weapon.ROCKET, Weapon.SHELL, Weapon.MG, Weapon.FLAME)

    @property
    def is_passive(self) -> bool:
        return not self.is_missile

    @property
    def label(self) -> str:
        return "MG" if self is Weapon.MG else self.value.capitalize()


MISSILES: tuple[Weapon, ...] = (Weapon.ROCKET, Weapon.SHELL, Weapon.MG, Weapon.FLAME)
PASSIVES: tuple[Weapon, ...] = (Weapon.SMOKE, Weapon.OIL, Weapon.SPIKES, Weapon.MINES)


class Surface(StrEnum):
    """The terrain a car is on, for acceleration and safe speeds (§1.5, BC-D31)."""

    ROAD = "road"
    GRASS = "grass"


class Direction(StrEnum):
    FORWARD = "forward"
    REVERSE = "reverse"


class Line(StrEnum):
    """How damage travels through a car, for pass-through (§2.13 step 3, BC-D23).

    ``from-front``: end-on or at 45° from the front half, passing front → centre → rear.
    ``from-rear``: end-on or at 45° from the rear half, passing rear → centre → front.
    ``right-angle``: at right angles to the side; a destroyed section stops it.
    """

    FROM_FRONT = "from-front"
    FROM_REAR = "from-rear"
    RIGHT_ANGLE = "right-angle"


class Bearing(StrEnum):
    """The firer's bearing from the target's centre line (§2.10 step 6, a Reading)."""

    AHEAD = "ahead"
    FRONT_45 = "front-45"
    SIDE = "side"
    REAR_45 = "rear-45"
    BEHIND = "behind"

    @property
    def line(self) -> Line:
        if self in (Bearing.AHEAD, Bearing.FRONT_45):
            return Line.FROM_FRONT
        if self in (Bearing.BEHIND, Bearing.REAR_45):
            return Line.FROM_REAR
        return Line.RIGHT_ANGLE


class Source(StrEnum):
    """What caused a damage point (for fuel-tank and ammunition checks, BC-D21)."""

    ROCKET = "rocket"
    SHELL = "shell"
    MG = "mg"
    FLAME = "flame"
    COLLISION = "collision"
    MINES = "mines"
    SPIKES = "spikes"
    SKID = "skid"

    @staticmethod
    def of(weapon: Weapon) -> Source:
        return Source(weapon.value)

    @property
    def detonates_ammunition(self) -> bool:
        """Only a Rocket or Shell hit may detonate missile rounds (§2.14 step 3)."""
        return self in (Source.ROCKET, Source.SHELL)


class ObstacleKind(StrEnum):
    BUILDING = "building"
    TREE = "tree"
    WRECK = "wreck"


class ObstacleSize(StrEnum):
    SMALL = "small"
    MEDIUM = "medium"
    LARGE = "large"
