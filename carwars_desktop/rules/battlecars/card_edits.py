"""Editing a Battlecars card: each edit returns a new card, references kept in step.

A component's name is how the hit-location tables and the weapon load refer to
it, so renaming one renames those references too. Nothing here judges the card:
``Card.problems`` does.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from carwars_desktop.rules.battlecars import Armour, Card, Component, HitLocation, Loading
from carwars_desktop.rules.battlecars.tables import DIE
from carwars_desktop.rules.battlecars.terms import Block, Facing, Kind, Section, Weapon


def with_armour(card: Card, block: Block, boxes: int) -> Card:
    """The block's box count set (the block added if the card lacked it)."""
    armour = [a for a in card.armour if a.block is not block]
    position = next((i for i, a in enumerate(card.armour) if a.block is block), len(armour))
    armour.insert(min(position, len(armour)), Armour(block, boxes))
    return replace(card, armour=tuple(armour))


def with_component(card: Card, index: int, component: Component) -> Card:
    """Component ``index`` replaced; a new name is carried into hit locations and the load."""
    old = card.components[index]
    components = list(card.components)
    components[index] = component
    card = replace(card, components=tuple(components))
    if component.name != old.name:
        card = _renamed_references(card, old.name, component.name)
    if component.kind.is_mount is False and old.kind.is_mount:
        card = replace(card, loadout=tuple(lo for lo in card.loadout
                                           if lo.mount != component.name))
    return card


def _renamed_references(card: Card, old: str, new: str) -> Card:
    tables = tuple(HitLocation(t.section, tuple(new if e == old else e for e in t.entries))
                   for t in card.hit_locations)
    loadout = tuple(Loading(new, lo.weapons) if lo.mount == old else lo for lo in card.loadout)
    return replace(card, hit_locations=tables, loadout=loadout)


def added_component(card: Card, section: Section, kind: Kind = Kind.TYRE,
                    boxes: int = 2) -> tuple[Card, int]:
    """A new component in ``section`` (a pod fires to the front); returns the card and its
    index. It is on no hit-location face yet: the validation says so."""
    taken = {c.name for c in card.components}
    name = _free_name(kind.value.title(), taken)
    facing = Facing.FRONT if kind is Kind.POD else None
    component = Component(name, kind, section, boxes, facing)
    return replace(card, components=(*card.components, component)), len(card.components)


def without_component(card: Card, index: int) -> Card:
    """The component removed with its weapon load; hit-location faces naming it stay, for the
    GM to give to another component (the validation lists them)."""
    gone = card.components[index]
    components = card.components[:index] + card.components[index + 1:]
    loadout = tuple(lo for lo in card.loadout if lo.mount != gone.name)
    return replace(card, components=components, loadout=loadout)


def with_hit_location(card: Card, section: Section, face: int, name: str) -> Card:
    """Face ``face`` (1–8) of the section's d8 table names ``name``; a section without a
    table gets one with every face naming it."""
    tables = list(card.hit_locations)
    for position, table in enumerate(tables):
        if table.section is section:
            entries = list(table.entries) + [name] * max(0, DIE - len(table.entries))
            entries[face - 1] = name
            tables[position] = HitLocation(section, tuple(entries))
            return replace(card, hit_locations=tuple(tables))
    tables.append(HitLocation(section, (name,) * DIE))
    return replace(card, hit_locations=tuple(tables))


def loaded(card: Card, mount: str, weapon: Weapon) -> Card:
    """One more counter of ``weapon`` in the pod or turret ``mount``."""
    return _with_load(card, mount, (*card.load_of(mount), weapon))


def unloaded_last(card: Card, mount: str) -> Card:
    """The last counter loaded into ``mount`` taken out (nothing when it is empty)."""
    return _with_load(card, mount, card.load_of(mount)[:-1])


def emptied(card: Card, mount: str) -> Card:
    return _with_load(card, mount, ())


def _with_load(card: Card, mount: str, weapons: tuple[Weapon, ...]) -> Card:
    loadout = [lo for lo in card.loadout if lo.mount != mount]
    position = next((i for i, lo in enumerate(card.loadout) if lo.mount == mount),
                    len(loadout))
    if weapons:
        loadout.insert(min(position, len(loadout)), Loading(mount, weapons))
    return replace(card, loadout=tuple(loadout))


def with_counter_size(card: Card, weapon: str, size: int) -> Card:
    """BC-D37: the size of a counter the text does not give."""
    sizes = card.counter_sizes.to_json()
    sizes[weapon] = size
    return replace(card, counter_sizes=type(card.counter_sizes)(**sizes))


def _free_name(name: str, taken: Collection[str]) -> str:
    """``name`` itself if no component has it, else ``name (2)``, ``name (3)``…"""
    if name not in taken:
        return name
    number = 2
    while f"{name} ({number})" in taken:
        number += 1
    return f"{name} ({number})"
