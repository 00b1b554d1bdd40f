"""A Mini Car Wars vehicle design: stock vehicle, one option, accessories, armor.

Mini Car Wars §1.4–§1.5 and decisions MCW-D17, D18, D22. A design may be
illegal (a draft): :meth:`MiniDesign.problems` lists every defect at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from carwars_desktop.rules.builtin import MINI_CAR_WARS
from carwars_desktop.rules.kernel.citation import Citation
from carwars_desktop.rules.kernel.formatting import money
from carwars_desktop.rules.kernel.reader import PATH, Reader
from carwars_desktop.rules.mini_car_wars.cite import mcw
from carwars_desktop.rules.mini_car_wars.decisions import DEFAULT_RULES, MiniRules
from carwars_desktop.rules.mini_car_wars.errors import DesignFormatError, UnknownVehicleError
from carwars_desktop.rules.mini_car_wars.model import Armor, Role, Side, Size
from carwars_desktop.rules.mini_car_wars.tables import (
    BODY_ARMOR,
    CYCLE_ARMOR_SIDES,
    HI_RES_COMPUTER,
    STOCK,
    TARGETING_COMPUTER,
    OptionSpec,
    StockVehicle,
    WeaponFit,
)
from carwars_desktop.rules.ruleset import Problem

RULESET_ID = MINI_CAR_WARS.id


def read_document(data: Mapping[str, Any], kind: str, what: str, keys: frozenset[str],
                  error: type[ValueError]) -> Reader:
    """The reader of a Mini Car Wars JSON document of ``kind`` (``design``, ``sheet``): its
    keys checked, and refused with ``error`` when another ruleset or kind wrote it (``what``
    names the kind to the GM: ``record sheet``)."""
    read = Reader(data, kind, error, PATH)
    read.keys(keys)
    obj = read.data
    if obj["ruleset"] != RULESET_ID or obj["kind"] != kind:
        raise error(f"{kind}: not a Mini Car Wars {what} "
                    f"(ruleset {obj['ruleset']!r}, kind {obj['kind']!r})")
    return read


@dataclass(frozen=True)
class PersonKit:
    """One person's accessories (§1.4): computers and body armor."""

    targeting_computers: int = 0
    hi_res_computers: int = 0
    body_armor: bool = False

    @property
    def is_empty(self) -> bool:
        return not (self.targeting_computers or self.hi_res_computers or self.body_armor)

    @property
    def computers(self) -> int:
        return self.targeting_computers + self.hi_res_computers

    def cost(self) -> int:
        return (TARGETING_COMPUTER.cost * self.targeting_computers
                + HI_RES_COMPUTER.cost * self.hi_res_computers
                + (BODY_ARMOR.cost if self.body_armor else 0))

    def to_hit_bonus(self) -> int:
        """+1 per Targeting Computer, +2 per Hi-Res (one computer each under MCW-D22)."""
        return (TARGETING_COMPUTER.to_hit_bonus * self.targeting_computers
                + HI_RES_COMPUTER.to_hit_bonus * self.hi_res_computers)

    def to_json(self) -> dict[str, Any]:
        return {"targeting_computers": self.targeting_computers,
                "hi_res_computers": self.hi_res_computers, "body_armor": self.body_armor}

    @staticmethod
    def from_json(data: object, where: str) -> PersonKit:
        read = Reader(data, where, DesignFormatError, PATH)
        read.keys(_KIT_KEYS)
        return PersonKit(read.integer("targeting_computers"),
                         read.integer("hi_res_computers"),
                         read.flag("body_armor"))


_KIT_KEYS = frozenset({"targeting_computers", "hi_res_computers", "body_armor"})
_DESIGN_KEYS = frozenset(
    {"ruleset", "kind", "name", "stock", "option", "armor", "driver", "gunner"})


@dataclass(frozen=True)
class Configuration:
    """What a stock vehicle becomes with its option (the derived configurations of §1.5)."""

    stock: StockVehicle
    option: OptionSpec | None
    gunner: bool
    turret: bool
    weapons: tuple[WeaponFit, ...]
    armor_points: int

    @property
    def size(self) -> Size:
        return self.stock.size

    @property
    def cost(self) -> int:
        return self.stock.cost + (self.option.delta if self.option else 0)


_CONFIGURED: dict[tuple[int, int, int],
                  tuple[StockVehicle, OptionSpec | None, MiniRules, Configuration]] = {}
"""Configurations already worked out, by the identity of their (immutable) inputs: a
design's cost and its problems each ask, and an import of 20,000 designs asks for the
same few dozen again and again. The inputs are kept with the answer, so an id is never
mistaken for a later object's."""


def configure(stock: StockVehicle, option: OptionSpec | None,
              rules: MiniRules = DEFAULT_RULES) -> Configuration:
    """Apply an option to a stock vehicle (§1.5; MCW-D19 links, MCW-D28 turret)."""
    key = (id(stock), id(option), id(rules))
    known = _CONFIGURED.get(key)
    if known is not None and known[0] is stock and known[1] is option and known[2] is rules:
        return known[3]
    configuration = _configure(stock, option, rules)
    if len(_CONFIGURED) > 512:
        _CONFIGURED.clear()
    _CONFIGURED[key] = (stock, option, rules, configuration)
    return configuration


def _configure(stock: StockVehicle, option: OptionSpec | None,
               rules: MiniRules) -> Configuration:
    if option is None:
        return Configuration(stock, None, stock.gunner, stock.turret, stock.weapons,
                             stock.armor.total)
    weapons = list(stock.weapons)
    insert_at = len(weapons)
    removed_link: int | None = None
    for fit in option.remove:
        index = max(i for i, w in enumerate(weapons)
                    if w.kind is fit.kind and w.mount is fit.mount)
        removed_link = weapons[index].link
        del weapons[index]
        insert_at = min(insert_at, index)
    added = list(option.add)
    if option.replacement_keeps_link and rules.d19_sherman_b_linked and removed_link is not None:
        added = [replace(fit, link=removed_link) for fit in added]
    weapons[insert_at:insert_at] = added
    groups = [w.link for w in weapons if w.link is not None]
    weapons = [w if w.link is None or groups.count(w.link) > 1 else replace(w, link=None)
               for w in weapons]
    turret = stock.turret and not (option.empties_turret and not rules.d28_empty_turret_targetable)
    return Configuration(stock, option, stock.gunner and not option.removes_gunner, turret,
                         tuple(weapons), stock.armor.total + option.added_armor)


def _rule(section: str, *decisions: str) -> Citation:
    return mcw(f"§{section}", *decisions)


@dataclass(frozen=True)
class MiniDesign:
    """A vehicle bought from the Stock Car List (§1.5) with at most one option (MCW-D17).

    ``armor`` is the player's arrangement: the stock armor rearranged, plus any
    points the option adds, placed anywhere (MCW-D18; cycles only F and B).
    """

    name: str
    stock: str
    option: str | None
    armor: Armor
    driver: PersonKit = PersonKit()
    gunner: PersonKit = PersonKit()

    def __post_init__(self) -> None:
        if self.stock not in STOCK:
            raise UnknownVehicleError(
                f"no stock vehicle {self.stock!r} (known: {', '.join(STOCK)})")

    # --- derived -----------------------------------------------------------
    @property
    def stock_vehicle(self) -> StockVehicle:
        return STOCK[self.stock]

    @property
    def option_spec(self) -> OptionSpec | None:
        """The option as listed, or None (no option, or one this vehicle does not offer)."""
        return None if self.option is None else self.stock_vehicle.option(self.option)

    @property
    def title(self) -> str:
        """``Courier (a)``: the stock name and option letter."""
        base = self.stock_vehicle.name
        return f"{base} ({self.option})" if self.option else base

    def configuration(self, rules: MiniRules = DEFAULT_RULES) -> Configuration:
        return configure(self.stock_vehicle, self.option_spec, rules)

    def kit(self, role: Role) -> PersonKit:
        return self.driver if role is Role.DRIVER else self.gunner

    def cost(self) -> int:
        """Stock cost + option delta + accessories, in whole dollars (§1.5 cost formula)."""
        return self.configuration().cost + self.driver.cost() + self.gunner.cost()

    # --- editing (each returns a new design) --------------------------------
    def with_armor(self, armor: Armor) -> MiniDesign:
        return replace(self, armor=armor)

    def rearranged(self, source: Side, destination: Side, points: int) -> MiniDesign:
        """Armor moved between sides; the total is kept (§1.5)."""
        return replace(self, armor=self.armor.moved(source, destination, points))

    def renamed(self, name: str) -> MiniDesign:
        return replace(self, name=name)

    @staticmethod
    def stock_design(stock: str, option: str | None = None, name: str | None = None,
                     driver: PersonKit = PersonKit(),
                     gunner: PersonKit = PersonKit()) -> MiniDesign:
        """The stock arrangement; an option's added armor goes on the front (catalog default,
        rearrange it freely: MCW-D18)."""
        vehicle = STOCK.get(stock)
        if vehicle is None:
            raise UnknownVehicleError(f"no stock vehicle {stock!r} (known: {', '.join(STOCK)})")
        spec = None if option is None else vehicle.option(option)
        if option is not None and spec is None:
            raise UnknownVehicleError(f"{vehicle.name} has no option {option!r}")
        added = spec.added_armor if spec else 0
        armor = vehicle.armor.with_side(Side.FRONT, vehicle.armor.front + added)
        title = f"{vehicle.name} ({option})" if option else vehicle.name
        return MiniDesign(name or title, stock, option, armor, driver, gunner)

    # --- validation ---------------------------------------------------------
    def problems(self, budget: int | None = None,
                 rules: MiniRules = DEFAULT_RULES) -> tuple[Problem, ...]:
        """Every defect at once, each with its reason, rule and field; never raises."""
        found: list[Problem] = []
        vehicle = self.stock_vehicle
        if not self.name.strip():
            found.append(Problem("name-missing", "The design needs a name.", _rule("2.1"), "name"))
        if self.option is not None and self.option_spec is None:
            offered = ", ".join(o.key for o in vehicle.options) or "none"
            found.append(Problem(
                "unknown-option", f"{vehicle.name} has no option {self.option!r} "
                f"(options: {offered}).", _rule("1.5"), "option"))
        configuration = self.configuration(rules)
        found += self._armor_problems(configuration)
        found += self._crew_problems(configuration, rules)
        if budget is not None and self.cost() > budget:
            found.append(Problem(
                "over-budget", f"Costs {money(self.cost())}, over the {money(budget)} budget "
                f"by {money(self.cost() - budget)}.", _rule("2.1"), "cost"))
        return tuple(found)

    def _armor_problems(self, configuration: Configuration) -> list[Problem]:
        found: list[Problem] = []
        for side, value in self.armor.items():
            if value < 0:
                found.append(Problem("negative-armor", f"{side.label.capitalize()} armor is "
                                     f"{value}; armor cannot be negative.", _rule("1.1"),
                                     f"armor.{side.value}"))
            if configuration.size.is_cycle and side not in CYCLE_ARMOR_SIDES and value:
                found.append(Problem("cycle-armor", f"A cycle has no {side.label} armor "
                                     f"({value} placed there).", _rule("1.5"),
                                     f"armor.{side.value}"))
        placed = self.armor.total
        available = configuration.armor_points
        if placed != available:
            option = configuration.option
            source = f"stock {configuration.stock.armor.total}" + (
                f" + option {option.added_armor}" if option and option.added_armor else "")
            how = (f"{available - placed} points still to place" if placed < available
                   else f"{placed - available} points too many")
            found.append(Problem(
                "armor-total", f"{placed} armor points placed, {available} available "
                f"({source}): {how}. Rearranging keeps the total.", _rule("1.5"), "armor"))
        return found

    def _crew_problems(self, configuration: Configuration, rules: MiniRules) -> list[Problem]:
        found: list[Problem] = []
        if not configuration.gunner and not self.gunner.is_empty:
            found.append(Problem(
                "no-gunner", f"{self.title} has no gunner, but the gunner has accessories.",
                _rule("1.4"), "gunner"))
        for role in Role:
            kit = self.kit(role)
            for field_name in ("targeting_computers", "hi_res_computers"):
                count = int(getattr(kit, field_name))
                if count < 0:
                    found.append(Problem("negative-count", f"The {role.value} cannot have "
                                         f"{count} computers.", _rule("1.4"),
                                         f"{role.value}.{field_name}"))
            if rules.d22_one_computer_per_person and kit.computers > 1:
                found.append(Problem(
                    "computers", f"The {role.value} has {kit.computers} computers; one per "
                    "person (MCW-D22): buy a Hi-Res instead of two.", _rule("1.4", "MCW-D22"),
                    f"{role.value}"))
        return found

    # --- JSON ---------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {"ruleset": RULESET_ID, "kind": "design", "name": self.name,
                "stock": self.stock, "option": self.option, "armor": self.armor.to_json(),
                "driver": self.driver.to_json(), "gunner": self.gunner.to_json()}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> MiniDesign:
        """Read a design; refuse malformed data with :class:`DesignFormatError`."""
        where = "design"
        read = read_document(data, where, "design", _DESIGN_KEYS, DesignFormatError)
        obj = read.data
        stock = read.text("stock")
        if stock not in STOCK:
            raise DesignFormatError(f"{where}.stock: no stock vehicle {stock!r} "
                                    f"(known: {', '.join(STOCK)})")
        return MiniDesign(
            read.text("name"), stock,
            read.optional_text("option"),
            Armor.from_json(obj["armor"], f"{where}.armor", DesignFormatError),
            PersonKit.from_json(obj["driver"], f"{where}.driver"),
            PersonKit.from_json(obj["gunner"], f"{where}.gunner"))

