"""Small typed values of Mini Car Wars: sides, mounts, sizes, weapons, crew, results.

Mini Car Wars §0–§1 (digest ``mini-car-wars.md``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from carwars_desktop.rules.kernel.reader import PATH, Reader


class Side(Enum):
    """The five targetable sides of a vehicle (Mini Car Wars §1.1)."""

    FRONT = "F"
    RIGHT = "R"
    LEFT = "L"
    BACK = "B"
    TOP = "T"

    @property
    def label(self) -> str:
        return _SIDE_LABELS[self]

    @property
    def opposite(self) -> Side | None:
        """F↔B, L↔R; the top has none (damage passes over the car, §2.11)."""
        return _OPPOSITE.get(self)

    @property
    def is_front_or_rear(self) -> bool:
        return self in (Side.FRONT, Side.BACK)


_SIDE_LABELS = {Side.FRONT: "front", Side.RIGHT: "right", Side.LEFT: "left",
                Side.BACK: "back", Side.TOP: "top"}
_OPPOSITE = {Side.FRONT: Side.BACK, Side.BACK: Side.FRONT,
             Side.LEFT: Side.RIGHT, Side.RIGHT: Side.LEFT}
SIDES: tuple[Side, ...] = tuple(Side)


class Mount(Enum):
    """Where a weapon sits: a side, or the turret (Mini Car Wars §1.1)."""

    FRONT = "F"
    RIGHT = "R"
    LEFT = "L"
    BACK = "B"
    TURRET = "Turret"

    @property
    def side(self) -> Side:
        """The armor that protects the weapon: its own side, the top for a turret."""
        return Side.TOP if self is Mount.TURRET else Side(self.value)

    @property
    def label(self) -> str:
        return "turret" if self is Mount.TURRET else self.side.label


class Size(Enum):
    """Vehicle sizes of the Stock Car List (Mini Car Wars §1.1)."""

    SUBCOMPACT = "Subcompact"
    COMPACT = "Compact"
    MID_SIZE = "Mid-size"
    LUXURY = "Luxury"
    CYCLE = "Cycle"

    @property
    def is_cycle(self) -> bool:
        return self is Size.CYCLE


class WeaponType(Enum):
    """The five weapons of the Weapons Chart (Mini Car Wars §1.3)."""

    MG = "MG"
    RL = "RL"
    LASER = "Laser"
    SMOKESCREEN = "Smokescreen"
    HR = "HR"


class Role(Enum):
    """A person aboard: the driver (always) or the gunner (optional), §1.2."""

    DRIVER = "driver"
    GUNNER = "gunner"


class CrewState(Enum):
    """A person's condition after 0, 1, 2 or 3 hits on his own boxes (§1.2)."""

    UNHURT = "unhurt"
    WOUNDED = "wounded"
    UNCONSCIOUS = "unconscious"
    DEAD = "dead"


class Component(Enum):
    """What the interior roll hits (Mini Car Wars §3.5)."""

    DRIVER = "driver"
    GUNNER = "gunner"
    POWER_PLANT = "power plant"


class ControlResult(Enum):
    """Control Table results (Mini Car Wars §3.4)."""

    NO_EFFECT = "No effect"
    FISHTAIL = "Fishtail"
    SKID = "Skid"
    FISHTAIL_AND_SKID = "Fishtail and Skid"
    CRASH_AND_BURN = "Crash and Burn"

    @property
    def fishtails(self) -> bool:
        return self in (ControlResult.FISHTAIL, ControlResult.FISHTAIL_AND_SKID)

    @property
    def skids(self) -> bool:
        return self in (ControlResult.SKID, ControlResult.FISHTAIL_AND_SKID)


class CollisionKind(Enum):
    """The four collision geometries of Mini Car Wars §2.8."""

    SAME_DIRECTION = "same-direction"
    HEAD_ON = "head-on"
    T_BONE = "t-bone"
    FIXED_OBJECT = "fixed-object"


class Maneuver(Enum):
    """What a vehicle does with one move (Mini Car Wars §2.5)."""

    STRAIGHT = "straight"
    DRIFT = "drift"
    SWERVE = "swerve"
    PIVOT = "pivot"


@dataclass(frozen=True)
class Armor:
    """Armor points on each of the five sides (F, R, L, B, T)."""

    front: int = 0
    right: int = 0
    left: int = 0
    back: int = 0
    top: int = 0

    def get(self, side: Side) -> int:
        return int(getattr(self, _FIELD[side]))

    def with_side(self, side: Side, value: int) -> Armor:
        return replace(self, **{_FIELD[side]: value})

    def moved(self, source: Side, destination: Side, points: int) -> Armor:
        """Rearranged: ``points`` taken from ``source`` and put on ``destination`` (total kept)."""
        moved = self.with_side(source, self.get(source) - points)
        return moved.with_side(destination, moved.get(destination) + points)

    @property
    def total(self) -> int:
        return int(self.front) + int(self.right) + int(self.left) + int(self.back) + int(self.top)

    def items(self) -> tuple[tuple[Side, int], ...]:
        """Each side and its points, in :data:`SIDES` order."""
        return ((Side.FRONT, int(self.front)), (Side.RIGHT, int(self.right)),
                (Side.LEFT, int(self.left)), (Side.BACK, int(self.back)),
                (Side.TOP, int(self.top)))

    def __str__(self) -> str:
        return ", ".join(f"{side.value}{value}" for side, value in self.items())

    def to_json(self) -> dict[str, int]:
        return {"F": int(self.front), "R": int(self.right), "L": int(self.left),
                "B": int(self.back), "T": int(self.top)}

    @staticmethod
    def from_json(data: object, where: str, error: type[ValueError]) -> Armor:
        """Read ``{"F": 30, "R": 20, "L": 20, "B": 25, "T": 0}``; refuse anything else."""
        read = Reader(data, where, error, PATH)
        read.keys(_ARMOR_KEYS)
        return Armor(*(read.integer(key) for key in _ARMOR_ORDER))


_FIELD = {Side.FRONT: "front", Side.RIGHT: "right", Side.LEFT: "left",
          Side.BACK: "back", Side.TOP: "top"}
_ARMOR_ORDER = ("F", "R", "L", "B", "T")
"""The sides' keys in the order of :class:`Armor`'s fields (front, right, left, back, top)."""
_ARMOR_KEYS = frozenset(_ARMOR_ORDER)
