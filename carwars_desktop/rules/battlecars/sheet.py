"""The live record sheet of one Battlecar: damage counters, loaded rounds, speed, driver.

Digest §1.2 (live state, derived max speed), §1.3 (component effects), §2.16 (driver),
§2.17 (wrecks). Immutable: every change returns a new sheet, so a session can undo.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from carwars_desktop.rules.battlecars.card import Card, Component, Loading
from carwars_desktop.rules.battlecars.errors import CardError, IllegalActionError, SheetError
from carwars_desktop.rules.battlecars.options import DEFAULT_OPTIONS, Options
from carwars_desktop.rules.battlecars.pieces import Piece
from carwars_desktop.rules.battlecars.tables import (
    ACCELERATION,
    DECELERATION,
    DRIVER_BOXES,
    ENGINE_BOX_SPEED_LOSS,
    SAFE_SPEED,
    TARGETS_PER_TURN,
    TARGETS_PER_TURN_WITH_GUNNERY_COMPUTER,
    TYRE_DESTROYED_SPEED_LOSS,
)
from carwars_desktop.rules.battlecars.terms import (
    BLOCKS,
    SECTIONS,
    Block,
    Direction,
    Kind,
    Section,
    Surface,
    Weapon,
)
from carwars_desktop.rules.kernel.reader import Reader, enum_value


def _set(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return values[:index] + (value,) + values[index + 1:]


@dataclass(frozen=True)
class CarSheet(Piece):
    """One Battlecar in play. ``armour_hits`` follow :data:`BLOCKS`; ``component_hits`` and
    ``loads`` follow ``card.components`` (loads are empty for anything but pods and turrets).
    """

    name: str
    card: Card
    armour_hits: tuple[int, ...]
    component_hits: tuple[int, ...]
    loads: tuple[tuple[Weapon, ...], ...]
    speed: int = 0
    previous_speed: int = 0
    direction: Direction = Direction.FORWARD
    stunned: bool = False
    occupied: bool = True
    exploded: bool = False
    targets_this_turn: tuple[str, ...] = ()
    drops_this_turn: tuple[str, ...] = ()

    # --- construction ------------------------------------------------------------------
    @staticmethod
    def fresh(card: Card, name: str | None = None) -> CarSheet:
        """A car entering play: no damage, the card's load, speed 0 (BC-D7)."""
        problems = card.problems()
        if problems:
            raise IllegalActionError(f"{card.name} cannot enter play: "
                                     + "; ".join(p.message for p in problems))
        loads = tuple(card.load_of(c.name) for c in card.components)
        return CarSheet(name or card.name, card, (0,) * len(BLOCKS),
                        (0,) * len(card.components), loads)

    # --- armour and components -----------------------------------------------------------
    def armour_left(self, block: Block) -> int:
        return self.card.armour_boxes(block) - self.armour_hits[BLOCKS.index(block)]

    def hits(self, name: str) -> int:
        return self.component_hits[self.card.index(name)]

    def remaining(self, name: str) -> int:
        return self.card.component(name).boxes - self.hits(name)

    def destroyed(self, name: str) -> bool:
        """Totally destroyed: every box covered (§1.3)."""
        return self.remaining(name) <= 0

    def working(self, kind: Kind) -> bool:
        """A component works until totally destroyed (§1.3)."""
        return any(not self.destroyed(c.name) for c in self.card.of_kind(kind))

    def load(self, mount: str) -> tuple[Weapon, ...]:
        return self.loads[self.card.index(mount)]

    def empty_slots(self, mount: str) -> int:
        """Uncovered boxes of a pod or turret not occupied by a counter (§2.14 step 1)."""
        return self.remaining(mount) - self.card.counter_space(self.load(mount))

    def mounts(self) -> tuple[Component, ...]:
        return tuple(c for c in self.card.components if c.kind.is_mount)

    def section_destroyed(self, section: Section, options: Options = DEFAULT_OPTIONS) -> bool:
        """BC-D22: every interior component of the section is destroyed (alternative: and
        its armour blocks are fully covered)."""
        interior = all(self.destroyed(c.name) for c in self.card.components_in(section))
        if options.bc_d22_interior_only:
            return interior
        return interior and all(self.armour_left(b) == 0 for b in BLOCKS
                                if b.section is section)

    # --- derived values ---------------------------------------------------------------------
    @property
    def tyres_destroyed(self) -> int:
        return sum(1 for c in self.card.of_kind(Kind.TYRE) if self.destroyed(c.name))

    @property
    def engine_hits(self) -> int:
        return sum(self.hits(c.name) for c in self.card.of_kind(Kind.ENGINE))

    def max_speed(self, options: Options = DEFAULT_OPTIONS) -> int:
        """Speed Track − 1 per engine box covered − 2 per tyre destroyed, floored at 0
        (BC-D24: cumulative; alternative: only the larger loss). 0 once the tank exploded."""
        if self.exploded:
            return 0
        engine = ENGINE_BOX_SPEED_LOSS * self.engine_hits
        tyres = TYRE_DESTROYED_SPEED_LOSS * self.tyres_destroyed
        loss = engine + tyres if options.bc_d24_stack_reductions else max(engine, tyres)
        return max(0, self.card.speed_track_max - loss)

    def max_acceleration(self, surface: Surface) -> int:
        return ACCELERATION[(surface, self.working(Kind.SUPER_CHARGER))]

    def max_deceleration(self, surface: Surface) -> int:
        return DECELERATION[(surface, self.working(Kind.POWER_BRAKES))]

    def safe_speed(self, angle: int, surface: Surface) -> int:
        return SAFE_SPEED[(angle, surface, self.working(Kind.AUTO_STEER))]

    @property
    def target_limit(self) -> int:
        """2 targets per Turn, 3 with a working Gunnery Computer (§2.9)."""
        if self.working(Kind.GUNNERY_COMPUTER):
            return TARGETS_PER_TURN_WITH_GUNNERY_COMPUTER
        return TARGETS_PER_TURN

    @property
    def driver(self) -> Component:
        return self.card.of_kind(Kind.DRIVER)[0]

    @property
    def driver_hits(self) -> int:
        return self.hits(self.driver.name)

    @property
    def driver_dead(self) -> bool:
        return self.exploded or self.driver_hits >= DRIVER_BOXES

    def destroyed_car(self, options: Options = DEFAULT_OPTIONS) -> bool:
        """BC-D32: a fuel explosion, or all three sections destroyed."""
        return self.exploded or all(self.section_destroyed(s, options) for s in SECTIONS)

    def immobilised(self, options: Options = DEFAULT_OPTIONS) -> bool:
        """BC-D32: max speed 0."""
        return self.max_speed(options) == 0

    def is_wreck(self, options: Options = DEFAULT_OPTIONS) -> bool:
        """A destroyed or immobilised car stays on the board as a Wreck (§2.17)."""
        return self.destroyed_car(options) or self.immobilised(options)

    def mobile_with_driver(self, options: Options = DEFAULT_OPTIONS) -> bool:
        """What wins street combat: a driver occupying a mobile Battlecar (§2.19)."""
        return self.occupied and not self.driver_dead and not self.is_wreck(options)

    def cannot_act(self) -> str | None:
        """Why the driver cannot drive or fire now, or ``None`` (§2.8 step 4, §2.16)."""
        if not self.occupied:
            return f"{self.name} has no driver aboard"
        if self.driver_dead:
            return f"the driver of {self.name} is dead"
        if self.stunned:
            return f"the driver of {self.name} is stunned until the end of the Round"
        return None

    # --- changes (each returns a new sheet) ------------------------------------------------
    def with_armour_hits(self, block: Block, hits: int) -> CarSheet:
        return replace(self, armour_hits=_set(self.armour_hits, BLOCKS.index(block), hits))

    def with_hits(self, name: str, hits: int) -> CarSheet:
        return replace(self, component_hits=_set(self.component_hits, self.card.index(name),
                                                 hits))

    def with_load(self, mount: str, weapons: tuple[Weapon, ...]) -> CarSheet:
        index = self.card.index(mount)
        return replace(self, loads=self.loads[:index] + (weapons,) + self.loads[index + 1:])

    def without_round(self, mount: str, weapon: Weapon) -> CarSheet:
        """The load with the last ``weapon`` counter taken out (fired or dropped)."""
        load = list(self.load(mount))
        if weapon not in load:
            raise IllegalActionError(f"{mount} holds no {weapon.label} round")
        del load[len(load) - 1 - load[::-1].index(weapon)]
        return self.with_load(mount, tuple(load))

    # --- JSON ----------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "battlecars.car",
            "name": self.name,
            "card": self.card.to_json(),
            "armour": {b.value: h for b, h in zip(BLOCKS, self.armour_hits, strict=True)},
            "components": {c.name: h for c, h in zip(self.card.components,
                                                     self.component_hits, strict=True)},
            "loads": {c.name: [w.value for w in load]
                      for c, load in zip(self.card.components, self.loads, strict=True)
                      if c.kind.is_mount},
            "speed": self.speed,
            "previous_speed": self.previous_speed,
            "direction": self.direction.value,
            "stunned": self.stunned,
            "occupied": self.occupied,
            "exploded": self.exploded,
            "targets_this_turn": list(self.targets_this_turn),
            "drops_this_turn": list(self.drops_this_turn),
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> CarSheet:
        """Read a sheet; refuses malformed or impossible data with a :class:`SheetError`."""
        reader = Reader(data, "car sheet", SheetError)
        reader.keys(("kind", "name", "card", "armour", "components", "loads"),
                    ("speed", "previous_speed", "direction", "stunned", "occupied", "exploded",
                     "targets_this_turn", "drops_this_turn"))
        if data["kind"] != "battlecars.car":
            raise reader.fail(f"kind must be 'battlecars.car', not {data['kind']!r}")
        try:
            card = Card.from_json(reader.obj("card"))
        except CardError as error:
            raise SheetError(f"car sheet: {error}") from None
        problems = card.problems()
        if problems:
            raise reader.fail("its card has problems: " + "; ".join(p.message for p in problems))
        armour = _read_armour(reader.sub("armour"), card)
        hits = _read_hits(reader.sub("components"), card)
        loads = _read_loads(reader.sub("loads"), card, hits)
        return CarSheet(
            reader.text("name"), card, armour, hits, loads,
            reader.integer("speed", 0, default=0),
            reader.integer("previous_speed", 0, default=0),
            reader.enum("direction", Direction, Direction.FORWARD),
            reader.flag("stunned", False), reader.flag("occupied", True),
            reader.flag("exploded", False),
            _names(reader, "targets_this_turn"), _names(reader, "drops_this_turn"),
        )


def _read_armour(reader: Reader, card: Card) -> tuple[int, ...]:
    for key in reader.data:
        enum_value(key, Block, f"{reader.where}", SheetError)
    return tuple(reader.integer(b.value, 0, card.armour_boxes(b), default=0) for b in BLOCKS)


def _read_hits(reader: Reader, card: Card) -> tuple[int, ...]:
    names = {c.name for c in card.components}
    unknown = sorted(set(reader.data) - names)
    if unknown:
        raise reader.fail(f"no component called {', '.join(unknown)} on {card.name}")
    return tuple(reader.integer(c.name, 0, c.boxes, default=0) for c in card.components)


def _read_loads(reader: Reader, card: Card, hits: tuple[int, ...]) -> tuple[tuple[Weapon, ...],
                                                                             ...]:
    mounts = {c.name for c in card.components if c.kind.is_mount}
    unknown = sorted(set(reader.data) - mounts)
    if unknown:
        raise reader.fail(f"{', '.join(unknown)} is not a pod or turret of {card.name}")
    loads: list[tuple[Weapon, ...]] = []
    loadings: list[Loading] = []
    for component, covered in zip(card.components, hits, strict=True):
        if not component.kind.is_mount:
            loads.append(())
            continue
        raw = reader.items(component.name, [])
        weapons = tuple(enum_value(w, Weapon, f"{reader.where}.{component.name}", SheetError)
                        for w in raw)
        space = card.counter_space(weapons)
        if covered + space > component.boxes:
            raise reader.fail(f"{component.name} has {component.boxes} boxes, {covered} "
                              f"covered: no room for counters needing {space}")
        loads.append(weapons)
        loadings.append(Loading(component.name, weapons))
    problems = replace(card, loadout=tuple(loadings)).loading_problems()
    if problems:
        raise reader.fail("; ".join(p.message for p in problems))
    return tuple(loads)


def _names(reader: Reader, key: str) -> tuple[str, ...]:
    values = reader.items(key, [])
    if not all(isinstance(v, str) for v in values):
        raise reader.fail(f"{key} must list names")
    return tuple(values)
