"""The live record sheet of one vehicle in play (Mini Car Wars §1.1–§1.2, §2.12).

Sheets are immutable: every change (damage, firing, a new speed) returns a new
sheet, so a session keeps each snapshot and can undo.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from carwars_desktop.rules.kernel.reader import PATH, Reader
from carwars_desktop.rules.mini_car_wars.decisions import DEFAULT_RULES, MiniRules
from carwars_desktop.rules.mini_car_wars.design import RULESET_ID, MiniDesign, read_document
from carwars_desktop.rules.mini_car_wars.errors import SheetFormatError
from carwars_desktop.rules.mini_car_wars.model import (
    Armor,
    CrewState,
    Mount,
    Role,
    Side,
    Size,
    WeaponType,
)
from carwars_desktop.rules.mini_car_wars.tables import (
    BODY_ARMOR,
    PERSON_BOXES,
    SPEED,
    STOCK,
    WEAPONS,
    WeaponSpec,
)

_STATES = (CrewState.UNHURT, CrewState.WOUNDED, CrewState.UNCONSCIOUS, CrewState.DEAD)


@dataclass(frozen=True)
class CrewMember:
    """A driver or gunner: 3 boxes of his own, plus 3 of body armor if he wears it (§1.2).

    ``hits`` counts his own boxes filled (1 wounded, 2 unconscious, 3 dead);
    ``body_armor`` is the body-armor boxes left, filled first (MCW-D21).
    """

    role: Role
    hits: int = 0
    body_armor: int = 0
    wears_body_armor: bool = False
    to_hit_bonus: int = 0
    fired: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.hits <= PERSON_BOXES:
            raise SheetFormatError(f"{self.role.value}: hits {self.hits} not in 0–{PERSON_BOXES}")
        most = BODY_ARMOR.boxes if self.wears_body_armor else 0
        if not 0 <= self.body_armor <= most:
            raise SheetFormatError(f"{self.role.value}: body armor {self.body_armor} not in "
                                   f"0–{most}")
        if self.to_hit_bonus < 0:
            raise SheetFormatError(f"{self.role.value}: negative computer bonus")

    @property
    def state(self) -> CrewState:
        return _STATES[self.hits]

    @property
    def boxes_left(self) -> int:
        return self.body_armor + PERSON_BOXES - self.hits

    @property
    def is_dead(self) -> bool:
        return self.hits >= PERSON_BOXES

    @property
    def is_down(self) -> bool:
        """Unconscious or dead: cannot fire or drive (§2.12)."""
        return self.hits >= 2

    def killed(self) -> CrewMember:
        return replace(self, hits=PERSON_BOXES)

    def describe(self) -> str:
        armor = f", body armor {self.body_armor}/{BODY_ARMOR.boxes}" if self.wears_body_armor \
            else ""
        return f"{self.role.value} {self.state.value} ({self.hits}/{PERSON_BOXES} hits{armor})"

    def to_json(self) -> dict[str, Any]:
        return {"role": self.role.value, "hits": self.hits, "body_armor": self.body_armor,
                "wears_body_armor": self.wears_body_armor, "to_hit_bonus": self.to_hit_bonus,
                "fired": self.fired}

    @staticmethod
    def from_json(data: object, where: str) -> CrewMember:
        err = SheetFormatError
        read = Reader(data, where, err, PATH)
        read.keys(frozenset(
            {"role", "hits", "body_armor", "wears_body_armor", "to_hit_bonus", "fired"}))
        role = read.text("role")
        if role not in {r.value for r in Role}:
            raise err(f"{where}.role: {role!r} is not driver or gunner")
        return CrewMember(Role(role), read.integer("hits"),
                          read.integer("body_armor"),
                          read.flag("wears_body_armor"),
                          read.integer("to_hit_bonus"),
                          read.flag("fired"))


@dataclass(frozen=True)
class WeaponState:
    """A weapon on the sheet: where it is, its link, and what happened to it this game."""

    kind: WeaponType
    mount: Mount
    link: int | None = None
    destroyed: bool = False
    fired: bool = False
    shots_left: int | None = None

    def __post_init__(self) -> None:
        if self.shots_left is not None and self.shots_left < 0:
            raise SheetFormatError(f"{self.label}: negative shots left")

    @property
    def spec(self) -> WeaponSpec:
        return WEAPONS[self.kind]

    @property
    def label(self) -> str:
        return f"{self.spec.abbreviation} ({self.mount.value})"

    @property
    def spent(self) -> bool:
        return self.shots_left == 0

    @property
    def status(self) -> str:
        """``destroyed``, ``no shots`` (every shot spent: it cannot fire again, MCW-D15),
        ``fired`` (this turn, §1.3) or ``ready``: what every sheet shows of it, the big
        sheet and the public facts alike."""
        if self.destroyed:
            return "destroyed"
        if self.spent:
            return "no shots"
        return "fired" if self.fired else "ready"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind.value, "mount": self.mount.value, "link": self.link,
                "destroyed": self.destroyed, "fired": self.fired, "shots_left": self.shots_left}

    @staticmethod
    def from_json(data: object, where: str) -> WeaponState:
        err = SheetFormatError
        read = Reader(data, where, err, PATH)
        read.keys(frozenset(
            {"type", "mount", "link", "destroyed", "fired", "shots_left"}))
        kind = read.text("type")
        mount = read.text("mount")
        if kind not in {w.value for w in WeaponType}:
            raise err(f"{where}.type: unknown weapon {kind!r}")
        if mount not in {m.value for m in Mount}:
            raise err(f"{where}.mount: unknown mount {mount!r} (F, R, L, B or Turret)")
        return WeaponState(WeaponType(kind), Mount(mount),
                           read.optional_integer("link"),
                           read.flag("destroyed"),
                           read.flag("fired"),
                           read.optional_integer("shots_left", 0))


_SHEET_KEYS = frozenset({
    "ruleset", "kind", "name", "stock", "option", "size", "turret", "armor", "starting_armor",
    "power_plant", "power_plant_max", "driver", "gunner", "weapons", "speed", "reverse",
    "previous_speed", "phases_used", "maneuvers", "skip_next_move", "wrecked"})


@dataclass(frozen=True)
class MiniSheet:
    """The record sheet of §1.1: armor, power plant, crew, weapons, speed and turn state.

    ``phases_used`` counts this turn's move phases already taken (moved or lost to a
    skid); ``maneuvers`` counts this turn's maneuvers. Both reset with each new speed.
    """

    name: str
    stock: str
    option: str | None
    size: Size
    turret: bool
    armor: Armor
    starting_armor: Armor
    power_plant: int
    power_plant_max: int
    driver: CrewMember
    gunner: CrewMember | None
    weapons: tuple[WeaponState, ...]
    speed: int = 0
    reverse: bool = False
    previous_speed: int = 0
    phases_used: int = 0
    maneuvers: int = 0
    skip_next_move: bool = False
    wrecked: bool = False

    def __post_init__(self) -> None:
        err = SheetFormatError
        if self.stock not in STOCK:
            raise err(f"{self.name}: no stock vehicle {self.stock!r}")
        for label, armor in (("armor", self.armor), ("starting armor", self.starting_armor)):
            for side, value in armor.items():
                if value < 0:
                    raise err(f"{self.name}: {label} {side.value} is negative ({value})")
        if not 0 <= self.power_plant <= self.power_plant_max:
            raise err(f"{self.name}: power plant {self.power_plant} not in "
                      f"0–{self.power_plant_max}")
        if self.driver.role is not Role.DRIVER:
            raise err(f"{self.name}: the driver slot holds a {self.driver.role.value}")
        if self.gunner is not None and self.gunner.role is not Role.GUNNER:
            raise err(f"{self.name}: the gunner slot holds a {self.gunner.role.value}")
        for label, speed in (("speed", self.speed), ("previous speed", self.previous_speed)):
            if speed % SPEED.step or not 0 <= speed <= SPEED.top_speed:
                raise err(f"{self.name}: {label} {speed} is not a multiple of {SPEED.step} "
                          f"in 0–{SPEED.top_speed}")
        if self.reverse and (self.size.is_cycle or not 0 < self.speed <= SPEED.top_reverse):
            raise err(f"{self.name}: reverse is only for cars at 10–{SPEED.top_reverse} mph")
        if not 0 <= self.phases_used <= SPEED.phases or not 0 <= self.maneuvers <= SPEED.phases:
            raise err(f"{self.name}: phases used and maneuvers must be 0–{SPEED.phases}")
        if not self.turret and any(w.mount is Mount.TURRET for w in self.weapons):
            raise err(f"{self.name}: a turret weapon on a vehicle without a turret")

    # --- derived state (§2.12) -------------------------------------------------
    @property
    def is_cycle(self) -> bool:
        return self.size.is_cycle

    @property
    def power_plant_destroyed(self) -> bool:
        return self.power_plant == 0

    @property
    def uncontrolled(self) -> bool:
        """Driver unconscious or dead (or the vehicle a wreck): straight ahead, −10 mph/turn."""
        return self.wrecked or self.driver.is_down

    @property
    def is_out(self) -> bool:
        """MCW-D23: crashed and burned, or every occupant unconscious or dead."""
        return self.wrecked or all(person.is_down for person in self.crew)

    @property
    def crew(self) -> tuple[CrewMember, ...]:
        return (self.driver,) if self.gunner is None else (self.driver, self.gunner)

    @property
    def moves_this_turn(self) -> int:
        return self.speed // SPEED.mph_per_move

    @property
    def moves_left(self) -> int:
        return max(0, self.moves_this_turn - self.phases_used)

    @property
    def velocity(self) -> str:
        return f"{self.speed} mph{' reverse' if self.reverse else ''}"

    def person(self, role: Role) -> CrewMember | None:
        return self.driver if role is Role.DRIVER else self.gunner

    def weapons_on(self, side: Side) -> tuple[int, ...]:
        """Indices of the weapons that the armor of ``side`` protects."""
        return tuple(i for i, w in enumerate(self.weapons) if w.mount.side is side)

    def link_partners(self, index: int) -> tuple[int, ...]:
        link = self.weapons[index].link
        if link is None:
            return ()
        return tuple(i for i, w in enumerate(self.weapons) if w.link == link and i != index)

    def can_be_targeted(self, side: Side) -> bool:
        """Only a car with a turret exposes its top (§2.9)."""
        return side is not Side.TOP or self.turret

    # --- new sheets ----------------------------------------------------------
    def with_person(self, member: CrewMember) -> MiniSheet:
        if member.role is Role.DRIVER:
            return replace(self, driver=member)
        return replace(self, gunner=member)

    def with_weapon(self, index: int, weapon: WeaponState) -> MiniSheet:
        weapons = list(self.weapons)
        weapons[index] = weapon
        return replace(self, weapons=tuple(weapons))

    def crashed_and_burned(self) -> MiniSheet:
        """§2.7: stops, becomes a wreck, all occupants killed."""
        gunner = None if self.gunner is None else self.gunner.killed()
        return replace(self, wrecked=True, speed=0, reverse=False, skip_next_move=False,
                       driver=self.driver.killed(), gunner=gunner)

    def started_turn(self, speed: int, reverse: bool, keep_skip: bool = False) -> MiniSheet:
        """A new turn at ``speed`` (§2.2): per-turn state reset (MCW-D2 for the skip)."""
        gunner = None if self.gunner is None else replace(self.gunner, fired=False)
        return replace(
            self, previous_speed=self.speed, speed=speed, reverse=reverse and speed > 0,
            phases_used=0, maneuvers=0, skip_next_move=self.skip_next_move and keep_skip,
            driver=replace(self.driver, fired=False), gunner=gunner,
            weapons=tuple(replace(w, fired=False) for w in self.weapons))

    # --- building and JSON ---------------------------------------------------
    @staticmethod
    def from_design(design: MiniDesign, rules: MiniRules = DEFAULT_RULES) -> MiniSheet:
        """A fresh sheet for a design entering play, at 0 mph (§2.1 step 3)."""
        configuration = design.configuration(rules)

        def person(role: Role) -> CrewMember:
            kit = design.kit(role)
            boxes = BODY_ARMOR.boxes if kit.body_armor else 0
            return CrewMember(role, 0, boxes, kit.body_armor, kit.to_hit_bonus())

        weapons = tuple(
            WeaponState(fit.kind, fit.mount, fit.link,
                        shots_left=WEAPONS[fit.kind].shots if fit.kind is WeaponType.HR
                        else rules.d15_shots)
            for fit in configuration.weapons)
        stock = configuration.stock
        return MiniSheet(
            design.name, design.stock, design.option, stock.size, configuration.turret,
            design.armor, design.armor, stock.power_plant, stock.power_plant,
            person(Role.DRIVER), person(Role.GUNNER) if configuration.gunner else None, weapons)

    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": RULESET_ID, "kind": "sheet", "name": self.name, "stock": self.stock,
            "option": self.option, "size": self.size.value, "turret": self.turret,
            "armor": self.armor.to_json(), "starting_armor": self.starting_armor.to_json(),
            "power_plant": self.power_plant, "power_plant_max": self.power_plant_max,
            "driver": self.driver.to_json(),
            "gunner": None if self.gunner is None else self.gunner.to_json(),
            "weapons": [w.to_json() for w in self.weapons],
            "speed": self.speed, "reverse": self.reverse, "previous_speed": self.previous_speed,
            "phases_used": self.phases_used, "maneuvers": self.maneuvers,
            "skip_next_move": self.skip_next_move, "wrecked": self.wrecked,
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> MiniSheet:
        """Read a record sheet; refuse malformed data with :class:`SheetFormatError`."""
        err = SheetFormatError
        where = "sheet"
        read = read_document(data, where, "record sheet", _SHEET_KEYS, err)
        obj = read.data
        size = read.text("size")
        if size not in {s.value for s in Size}:
            raise err(f"{where}.size: unknown size {size!r}")
        weapons = obj["weapons"]
        if not isinstance(weapons, list):
            raise err(f"{where}.weapons: expected a list")
        gunner = obj["gunner"]
        return MiniSheet(
            name=read.text("name"), stock=read.text("stock"),
            option=read.optional_text("option"), size=Size(size),
            turret=read.flag("turret"),
            armor=Armor.from_json(obj["armor"], f"{where}.armor", err),
            starting_armor=Armor.from_json(obj["starting_armor"], f"{where}.starting_armor", err),
            power_plant=read.integer("power_plant"),
            power_plant_max=read.integer("power_plant_max"),
            driver=CrewMember.from_json(obj["driver"], f"{where}.driver"),
            gunner=None if gunner is None else CrewMember.from_json(gunner, f"{where}.gunner"),
            weapons=tuple(WeaponState.from_json(w, f"{where}.weapons[{i}]")
                          for i, w in enumerate(weapons)),
            speed=read.integer("speed"), reverse=read.flag("reverse"),
            previous_speed=read.integer("previous_speed"),
            phases_used=read.integer("phases_used"),
            maneuvers=read.integer("maneuvers"),
            skip_next_move=read.flag("skip_next_move"),
            wrecked=read.flag("wrecked"))
