"""Pedestrians and obstacles: the other record sheets on a Battlecars board.

Digest §1.5 (buildings, trees, wrecks: 4 / 8 / 16 hits, a wreck 2) and §1.6 / §2.18
(pedestrians: 3 damage boxes, 3 MG rounds, speed 0–2). Every sheet is immutable.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from carwars_desktop.rules.battlecars.errors import SheetError
from carwars_desktop.rules.battlecars.tables import (
    OBSTACLE_CAPACITY,
    PEDESTRIAN_BOXES,
    PEDESTRIAN_MAX_SPEED,
    PEDESTRIAN_MG_ROUNDS,
)
from carwars_desktop.rules.battlecars.terms import ObstacleKind, ObstacleSize
from carwars_desktop.rules.kernel.reader import Reader


class Piece:
    """Anything on the board with a record sheet: a car, a pedestrian or an obstacle."""

    __slots__ = ()

    @property
    def title(self) -> str:
        return str(getattr(self, "name", type(self).__name__))


@dataclass(frozen=True)
class Absorbed:
    """What a pedestrian or obstacle took of ``amount`` points, and the surplus."""

    amount: int
    taken: int
    surplus: int


@dataclass(frozen=True)
class PedestrianSheet(Piece):
    """A driver on foot (Pedestrian card): damage carried over from the car (§2.18)."""

    name: str
    damage: int = 0
    mg_rounds: int = PEDESTRIAN_MG_ROUNDS
    speed: int = 0
    stunned: bool = False
    targets_this_turn: tuple[str, ...] = ()

    @property
    def dead(self) -> bool:
        return self.damage >= PEDESTRIAN_BOXES

    def can_fire(self) -> str | None:
        """Why this pedestrian cannot fire now, or ``None``."""
        if self.dead:
            return f"{self.name} is dead"
        if self.stunned:
            return f"{self.name} is stunned until the end of the Round"
        return None

    def wound(self, amount: int) -> tuple[PedestrianSheet, Absorbed]:
        """Damage straight to the 3 boxes; the 3rd point kills (§2.18 step 6)."""
        taken = min(max(amount, 0), PEDESTRIAN_BOXES - self.damage)
        return (replace(self, damage=self.damage + taken),
                Absorbed(amount, taken, max(amount, 0) - taken))

    def to_json(self) -> dict[str, Any]:
        return {"kind": "battlecars.pedestrian", "name": self.name, "damage": self.damage,
                "mg_rounds": self.mg_rounds, "speed": self.speed, "stunned": self.stunned,
                "targets_this_turn": list(self.targets_this_turn)}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> PedestrianSheet:
        reader = Reader(data, "pedestrian", SheetError)
        reader.keys(("kind", "name"), ("damage", "mg_rounds", "speed", "stunned",
                                       "targets_this_turn"))
        if data["kind"] != "battlecars.pedestrian":
            raise reader.fail(f"kind must be 'battlecars.pedestrian', not {data['kind']!r}")
        targets = reader.items("targets_this_turn", [])
        if not all(isinstance(t, str) for t in targets):
            raise reader.fail("targets_this_turn must list target names")
        return PedestrianSheet(
            reader.text("name"),
            reader.integer("damage", 0, PEDESTRIAN_BOXES, default=0),
            reader.integer("mg_rounds", 0, PEDESTRIAN_MG_ROUNDS, default=PEDESTRIAN_MG_ROUNDS),
            reader.integer("speed", 0, PEDESTRIAN_MAX_SPEED, default=0),
            reader.flag("stunned", False),
            tuple(targets),
        )


@dataclass(frozen=True)
class ObstacleSheet(Piece):
    """A building, tree or wreck with the damage counters on it (§1.5, §2.17).

    BC-D43: a full (destroyed) building or tree still blocks movement and fire.
    """

    name: str
    kind: ObstacleKind
    size: ObstacleSize | None
    hits: int = 0

    @property
    def capacity(self) -> int:
        return OBSTACLE_CAPACITY[(self.kind, self.size)]

    @property
    def full(self) -> bool:
        return self.hits >= self.capacity

    def absorb(self, amount: int) -> tuple[ObstacleSheet, Absorbed]:
        """Cover up to the capacity; the surplus goes to a pedestrian in cover (§1.5)."""
        taken = min(max(amount, 0), self.capacity - self.hits)
        return (replace(self, hits=self.hits + taken),
                Absorbed(amount, taken, max(amount, 0) - taken))

    def to_json(self) -> dict[str, Any]:
        return {"kind": "battlecars.obstacle", "name": self.name, "obstacle": self.kind.value,
                "size": None if self.size is None else self.size.value, "hits": self.hits}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> ObstacleSheet:
        reader = Reader(data, "obstacle", SheetError)
        reader.keys(("kind", "name", "obstacle", "size"), ("hits",))
        if data["kind"] != "battlecars.obstacle":
            raise reader.fail(f"kind must be 'battlecars.obstacle', not {data['kind']!r}")
        kind = reader.enum("obstacle", ObstacleKind)
        size = reader.optional_enum("size", ObstacleSize)
        if (kind, size) not in OBSTACLE_CAPACITY:
            need = "no size" if kind is ObstacleKind.WRECK else "a size (small, medium, large)"
            raise reader.fail(f"a {kind.value} has {need}")
        capacity = OBSTACLE_CAPACITY[(kind, size)]
        return ObstacleSheet(reader.text("name"), kind, size,
                             reader.integer("hits", 0, capacity, default=0))
