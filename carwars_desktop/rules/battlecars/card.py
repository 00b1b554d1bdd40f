"""A Battlecar card (the design): sections, armour, components, hit locations, weapon load.

Digest §1.2–§1.4. The rulebook holds no card data (BC-D8): the GM enters each card
from the physical Battlecar card. ``problems()`` lists every structural and loading
problem at once; a card with problems can still exist as a draft.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from carwars_desktop.rules.battlecars.errors import CardError
from carwars_desktop.rules.battlecars.options import BC_D9_SPEED_TRACK, CounterSizes
from carwars_desktop.rules.battlecars.tables import (
    DIE,
    DRIVER_BOXES,
    POD_FACINGS_ALLOWED,
    TURRET_WEAPONS,
)
from carwars_desktop.rules.battlecars.terms import (
    BLOCKS,
    SECTIONS,
    Block,
    Facing,
    Kind,
    Section,
    Weapon,
)
from carwars_desktop.rules.kernel.reader import Reader, enum_value
from carwars_desktop.rules.ruleset import Problem

RULE_CARD = "Battlecars §1.2"
RULE_COMPONENTS = "Battlecars §1.3"
RULE_LOADING = "Battlecars §1.4"
SINGLE_KINDS = (Kind.DRIVER, Kind.ENGINE, Kind.FUEL_TANK)


@dataclass(frozen=True)
class Armour:
    """One of the eight armour blocks and its box count."""

    block: Block
    boxes: int


@dataclass(frozen=True)
class Component:
    """An interior component: its section and boxes; pods also fire out of a ``facing``."""

    name: str
    kind: Kind
    section: Section
    boxes: int
    facing: Facing | None = None

    @property
    def label(self) -> str:
        if self.kind is Kind.POD and self.facing is not None:
            return f"{self.name} ({self.facing.value}-firing pod)"
        return self.name

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "kind": self.kind.value,
                                "section": self.section.value, "boxes": self.boxes}
        if self.facing is not None:
            data["facing"] = self.facing.value
        return data

    @staticmethod
    def from_json(data: Any, where: str) -> Component:
        reader = Reader(data, where, CardError)
        reader.keys(("name", "kind", "section", "boxes"), ("facing",))
        return Component(reader.text("name"), reader.enum("kind", Kind),
                         reader.enum("section", Section), reader.integer("boxes"),
                         reader.optional_enum("facing", Facing))


@dataclass(frozen=True)
class HitLocation:
    """A section's d8 Hit Location Table: ``entries[face - 1]`` names the component."""

    section: Section
    entries: tuple[str, ...]

    def component_for(self, face: int) -> str:
        return self.entries[face - 1]

    def faces_of(self, name: str) -> tuple[int, ...]:
        return tuple(face for face, entry in enumerate(self.entries, 1) if entry == name)


@dataclass(frozen=True)
class Loading:
    """The weapon counters loaded into one pod or turret at set-up (§2.1 step 5)."""

    mount: str
    weapons: tuple[Weapon, ...]


@dataclass(frozen=True)
class Card:
    """A Battlecar card as entered by the GM, with its weapon load."""

    name: str
    speed_track_max: int
    armour: tuple[Armour, ...]
    components: tuple[Component, ...]
    hit_locations: tuple[HitLocation, ...]
    loadout: tuple[Loading, ...] = ()
    counter_sizes: CounterSizes = field(default_factory=CounterSizes)
    note: str = ""

    # --- look-ups ---------------------------------------------------------------------
    def armour_boxes(self, block: Block) -> int:
        return sum(a.boxes for a in self.armour if a.block is block)

    def index(self, name: str) -> int:
        for i, component in enumerate(self.components):
            if component.name == name:
                return i
        raise KeyError(f"{self.name} has no component {name!r}")

    def component(self, name: str) -> Component:
        return self.components[self.index(name)]

    def components_in(self, section: Section) -> tuple[Component, ...]:
        return tuple(c for c in self.components if c.section is section)

    def of_kind(self, kind: Kind) -> tuple[Component, ...]:
        return tuple(c for c in self.components if c.kind is kind)

    def hit_location(self, section: Section) -> HitLocation:
        for table in self.hit_locations:
            if table.section is section:
                return table
        raise KeyError(f"{self.name} has no hit-location table for the {section.value} section")

    def load_of(self, mount: str) -> tuple[Weapon, ...]:
        return tuple(w for loading in self.loadout if loading.mount == mount
                     for w in loading.weapons)

    def counter_space(self, weapons: tuple[Weapon, ...]) -> int:
        return sum(self.counter_sizes.size(w) for w in weapons)

    # --- validation -------------------------------------------------------------------
    def problems(self) -> tuple[Problem, ...]:
        """Every problem of this card at once, each with its rule and field."""
        found: list[Problem] = []
        found += self._card_problems()
        found += self._component_problems()
        found += self._hit_location_problems()
        found += self.loading_problems()
        # One problem once: two passives in a front pod, two components of one name or a
        # pod loaded twice say the same thing twice otherwise (issue 20).
        unique: dict[tuple[str, str], Problem] = {}
        for problem in found:
            unique.setdefault((problem.code, problem.message), problem)
        return tuple(unique.values())

    def _card_problems(self) -> list[Problem]:
        found: list[Problem] = []
        if not self.name.strip():
            found.append(Problem("name-missing", "the card needs a name", RULE_CARD, "name"))
        if self.speed_track_max < 1:
            found.append(Problem("speed-track", f"the Speed Track maximum must be at least 1, "
                                 f"not {self.speed_track_max}", RULE_CARD, "speed_track_max"))
        counts = Counter(a.block for a in self.armour)
        for block in BLOCKS:
            if counts[block] == 0:
                found.append(Problem("armour-block-missing",
                                     f"the {block.value} armour block is missing: a Battlecar "
                                     "has 8 armour blocks", RULE_CARD, f"armour.{block.value}"))
            elif counts[block] > 1:
                found.append(Problem("armour-block-duplicate",
                                     f"the {block.value} armour block is given {counts[block]} "
                                     "times", RULE_CARD, f"armour.{block.value}"))
        for armour in self.armour:
            if armour.boxes < 1:
                found.append(Problem("armour-boxes", f"the {armour.block.value} armour block "
                                     f"needs at least 1 box, not {armour.boxes}", RULE_CARD,
                                     f"armour.{armour.block.value}"))
        for name, size in self.counter_sizes.to_json().items():
            if size < 1:
                found.append(Problem("counter-size", f"a {name} counter needs at least 1 box "
                                     f"(BC-D37), not {size}", RULE_LOADING,
                                     f"counter_sizes.{name}"))
        return found

    def _component_problems(self) -> list[Problem]:
        found: list[Problem] = []
        names = Counter(c.name for c in self.components)
        for i, c in enumerate(self.components):
            where = f"components[{i}]"
            if not c.name.strip():
                found.append(Problem("component-name-missing", f"component {i + 1} needs a "
                                     "name", RULE_COMPONENTS, f"{where}.name"))
            elif names[c.name] > 1:
                found.append(Problem("component-name-duplicate", f"two components are called "
                                     f"{c.name!r}", RULE_COMPONENTS, f"{where}.name"))
            if c.boxes < 1:
                found.append(Problem("component-boxes", f"{c.name} needs at least 1 box, "
                                     f"not {c.boxes}", RULE_COMPONENTS, f"{where}.boxes"))
            if c.kind is Kind.POD and c.facing is None:
                found.append(Problem("pod-facing-missing", f"weapon pod {c.name} needs the "
                                     "direction it fires (front, rear, left or right)",
                                     RULE_LOADING, f"{where}.facing"))
            if c.kind is not Kind.POD and c.facing is not None:
                found.append(Problem("facing-not-pod", f"{c.name} is a {c.kind.value}: only "
                                     "weapon pods have a firing direction", RULE_COMPONENTS,
                                     f"{where}.facing"))
            if c.kind is Kind.DRIVER and c.boxes != DRIVER_BOXES:
                found.append(Problem("driver-boxes", f"the driver has {DRIVER_BOXES} damage "
                                     f"boxes (dead at 3), not {c.boxes}", "Battlecars §2.16",
                                     f"{where}.boxes"))
        kinds = Counter(c.kind for c in self.components)
        if kinds[Kind.DRIVER] == 0:
            found.append(Problem("driver-missing", "the card needs a Driver in its hit "
                                 "locations", "Battlecars §1.3", "components"))
        for kind in SINGLE_KINDS:
            if kinds[kind] > 1:
                found.append(Problem(f"{kind.value.replace(' ', '-')}-count",
                                     f"a card has one {kind.value}, not {kinds[kind]}",
                                     RULE_COMPONENTS, "components"))
        for section in SECTIONS:
            if not self.components_in(section):
                found.append(Problem("section-empty", f"the {section.value} section has no "
                                     "interior components", RULE_CARD,
                                     f"components.{section.value}"))
        return found

    def _hit_location_problems(self) -> list[Problem]:
        found: list[Problem] = []
        rule = "Battlecars §2.13"
        tables = Counter(t.section for t in self.hit_locations)
        known = {c.name: c for c in self.components}
        for section in SECTIONS:
            where = f"hit_locations.{section.value}"
            if tables[section] == 0 and self.components_in(section):
                found.append(Problem("hit-location-missing", f"the {section.value} section "
                                     "needs a d8 Hit Location Table", rule, where))
            elif tables[section] > 1:
                found.append(Problem("hit-location-duplicate", f"the {section.value} section "
                                     "has two Hit Location Tables", rule, where))
        for table in self.hit_locations:
            where = f"hit_locations.{table.section.value}"
            if len(table.entries) != DIE:
                found.append(Problem("hit-location-faces", f"the {table.section.value} Hit "
                                     f"Location Table needs 8 entries (1–8), not "
                                     f"{len(table.entries)}", rule, where))
            for face, entry in enumerate(table.entries, 1):
                component = known.get(entry)
                if component is None:
                    found.append(Problem("hit-location-unknown", f"{table.section.value} hit "
                                         f"location {face} names {entry!r}, which is not a "
                                         "component", rule, f"{where}[{face}]"))
                elif component.section is not table.section:
                    found.append(Problem("hit-location-wrong-section", f"{table.section.value} "
                                         f"hit location {face} names {entry}, which is in the "
                                         f"{component.section.value} section", rule,
                                         f"{where}[{face}]"))
            for component in self.components_in(table.section):
                if component.name not in table.entries:
                    found.append(Problem("hit-location-unreachable", f"{component.name} is on "
                                         f"no face of the {table.section.value} Hit Location "
                                         "Table, so it can never be hit", rule, where))
        return found

    def loading_problems(self) -> list[Problem]:
        found: list[Problem] = []
        known = {c.name: c for c in self.components}
        mounts = Counter(loading.mount for loading in self.loadout)
        for loading in self.loadout:
            where = f"loadout.{loading.mount}"
            mount = known.get(loading.mount)
            if mount is None:
                found.append(Problem("loading-unknown-mount", f"{loading.mount!r} is not a "
                                     "component of this card", RULE_LOADING, where))
                continue
            if not mount.kind.is_mount:
                found.append(Problem("loading-not-mount", f"{mount.name} is a "
                                     f"{mount.kind.value}: weapons go only in Weapon Pods and "
                                     "Turrets (loading rule 1)", RULE_LOADING, where))
                continue
            if mounts[loading.mount] > 1:
                found.append(Problem("loading-duplicate", f"{mount.name} is loaded twice",
                                     RULE_LOADING, where))
            space = self.counter_space(loading.weapons)
            if space > mount.boxes:
                found.append(Problem("loading-overfull", f"{mount.name} has {mount.boxes} boxes "
                                     f"but its counters need {space}: counters may not be "
                                     "stacked (loading rule 2)", RULE_LOADING, where))
            found += self._mount_weapon_problems(mount, loading.weapons, where)
        return found

    def _mount_weapon_problems(self, mount: Component, weapons: tuple[Weapon, ...],
                               where: str) -> list[Problem]:
        found: list[Problem] = []
        kinds = set(weapons)
        if mount.kind is Kind.TURRET:
            for weapon in sorted(kinds - TURRET_WEAPONS):
                found.append(Problem("turret-mg-only", f"{mount.name} is a turret: it holds MG "
                                     f"rounds only, not {weapon.label} (loading rule 5)",
                                     RULE_LOADING, where))
            return found
        if mount.facing is not None:
            forbidden: dict[str, None] = {}
            for weapon in sorted(kinds):
                if mount.facing not in POD_FACINGS_ALLOWED[weapon]:
                    rule = ("Rockets and Shells go only in front- or rear-firing pods "
                            "(loading rule 6)" if weapon.is_missile else
                            "passive weapons may not go in a front-firing pod (loading rule 8)")
                    forbidden[rule] = None
            for rule in forbidden:
                found.append(Problem("pod-facing-forbidden", f"{mount.name} fires "
                                     f"{mount.facing.value}: {rule}", RULE_LOADING, where))
        missiles = sorted(w for w in kinds if w.is_missile)
        if len(missiles) > 1 or (missiles and len(kinds) > len(missiles)):
            found.append(Problem("pod-mixed", f"{mount.name} holds "
                                 f"{', '.join(w.label for w in sorted(kinds))}: a pod holds one "
                                 "type of missile weapon or a mix of passive weapons "
                                 "(loading rule 4)", RULE_LOADING, where))
        return found

    # --- JSON -------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": "battlecars.card",
            "name": self.name,
            "speed_track_max": self.speed_track_max,
            "armour": {a.block.value: a.boxes for a in self.armour},
            "components": [c.to_json() for c in self.components],
            "hit_locations": {t.section.value: list(t.entries) for t in self.hit_locations},
            "loadout": {loading.mount: [w.value for w in loading.weapons]
                        for loading in self.loadout},
            "counter_sizes": self.counter_sizes.to_json(),
        }
        if self.note:
            data["note"] = self.note
        return data

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Card:
        """Read a card; refuses malformed JSON with a :class:`CardError` saying why.

        A missing ``speed_track_max`` is 9 (BC-D9).
        """
        reader = Reader(data, "card", CardError)
        reader.keys(("name", "armour", "components", "hit_locations"),
                    ("kind", "speed_track_max", "loadout", "counter_sizes", "note"))
        if data.get("kind", "battlecars.card") != "battlecars.card":
            raise reader.fail(f"kind must be 'battlecars.card', not {data.get('kind')!r}")
        armour_reader = reader.sub("armour")
        armour = tuple(Armour(enum_value(key, Block, "card.armour", CardError),
                              armour_reader.integer(key))
                       for key in armour_reader.data)
        components = tuple(Component.from_json(item, f"card.components[{i}]")
                           for i, item in enumerate(reader.items("components")))
        tables = reader.obj("hit_locations")
        hit_locations = tuple(
            HitLocation(enum_value(key, Section, "card.hit_locations", CardError),
                        _names(value, f"card.hit_locations.{key}"))
            for key, value in tables.items())
        loads = reader.obj("loadout", {})
        loadout = tuple(Loading(str(mount), _weapons(value, f"card.loadout.{mount}"))
                        for mount, value in loads.items())
        sizes_reader = reader.sub("counter_sizes", CounterSizes().to_json())
        sizes_reader.keys((), tuple(CounterSizes().to_json()))
        sizes = CounterSizes(**{key: sizes_reader.integer(key, default=default)
                                for key, default in CounterSizes().to_json().items()})
        speed_track = reader.integer("speed_track_max", default=BC_D9_SPEED_TRACK)
        return Card(reader.text("name"), speed_track, armour, components,
                    hit_locations, loadout, sizes, reader.text("note", ""))


def _names(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise CardError(f"{where}: expected a list of component names, got {value!r}")
    return tuple(value)


def _weapons(value: Any, where: str) -> tuple[Weapon, ...]:
    if not isinstance(value, list):
        raise CardError(f"{where}: expected a list of weapons, got {value!r}")
    return tuple(enum_value(v, Weapon, where, CardError) for v in value)
