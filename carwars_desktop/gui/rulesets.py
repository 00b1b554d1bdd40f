"""Each ruleset's screens, found by ruleset id: its UI bundle.

A bundle (:class:`RulesetUI`) says which editor edits each kind of design, which
widget draws a record sheet at the Table, which panel runs its clock, and how
each kind prints. Each ruleset's screens are one package, ``gui/plugins/<id>/``
for a built-in one, whose ``__init__`` defines ``UI``; its
:class:`~carwars_desktop.rules.RulesetEntry` names it (``screens``), a test may
also call :func:`register_ui`. Modules load on first use, so a ruleset's widgets
cost nothing until its first design or session opens. An id without screens is
refused with a clear error (:class:`NoScreensError`): nothing falls through to
another game's screens.

``RulesetUI`` is generic in the ruleset's vehicle design and record-sheet types,
so mypy checks the painters and hooks a plug-in gives against them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Generic, Never, Protocol, TypeVar

from carwars_desktop.rules import (
    VEHICLE,
    RulesetEntry,
    UnknownKindError,
    UnknownRulesetError,
    ruleset_entry,
)
from carwars_desktop.rules.table_input import (
    ACTION_KINDS,
    COLLISION,
    CONTROL,
    CRASH,
    DAMAGE,
    FIRE,
    LASER,
    SPEED,
    BatchRules,
    KeyAction,
    QuickRules,
)

__all__ = ["ACTION_KINDS", "COLLISION", "CONTROL", "CRASH", "DAMAGE", "FIRE", "LASER", "SPEED",
           "ClockPanel", "KeyAction", "NoScreensError", "PagePainter", "RulesetUI",
           "has_screens", "register_ui", "require_screens", "ruleset_ui", "unregister_ui"]

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from carwars_desktop.gui.table.actions import TableActions
    from carwars_desktop.gui.table.sheet_frame import Explain, SheetFrame
    from carwars_desktop.gui.workshop.editor import DesignEditor
    from carwars_desktop.gui.workshop.printing.live import SheetToPrint
    from carwars_desktop.gui.workshop.printing.page import PageFlow
    from carwars_desktop.rules.play import PlayRules
    from carwars_desktop.session import Game, VehicleInPlay

DesignT = TypeVar("DesignT")
SheetT = TypeVar("SheetT")

PagePainter = Callable[["PageFlow", Never], None]
"""The painter of one kind's paper sheet, called with a design its kind's ``own`` checked
(a ``Callable[[PageFlow, Deck], None]`` is one)."""


class ClockPanel(Protocol):
    """What the Table asks of a ruleset's clock panel (a QWidget)."""

    def show_game(self, game: Game, read_only: bool) -> None: ...

    def next_phase(self) -> None: ...


def print_any_sheet(flow: PageFlow, item: SheetToPrint) -> None:
    """A sheet in play as a list of its boxes and values (for a ruleset without a painter)."""
    from carwars_desktop.gui.workshop.printing.live import paint_generic

    paint_generic(flow, item)


def never_small(sheet: object) -> bool:
    return False


@dataclass(frozen=True)
class RulesetUI(Generic[DesignT, SheetT]):
    """The screens of one ruleset (``DesignT``: its vehicle design type, ``SheetT``: its
    record-sheet type).

    Args:
        ruleset: the ruleset's entry (its id and title, written once).
        editors: design kind → a new editor for it (``parent`` or ``None``).
        sheet_widget: the Table's record sheet of one vehicle in play.
        clock_panel: the Table's clock panel (a QWidget that is a :class:`ClockPanel`).
        print_vehicle: the painter of a vehicle design's paper record sheet.
        print_pages: its other design kinds → the painter of each one's paper sheet.
        print_sheet: the painter of a vehicle's sheet in play, as it stands or blank (from
            the top of a cell 1,900 units across; the session layout scales it to its place).
        sheet_layouts: how many sheets in play may share a printed page (1 first).
        small_sheet: whether a sheet in play takes half a place on a shared page (a cycle).
        key_actions: the Table's one-key actions on the selected vehicle.
        quick: the quick-entry line's reading of this ruleset's words (None: no line).
        fire_batch: how the phase's fire resolves as one batch (None: no batch).
    """

    ruleset: RulesetEntry
    editors: Mapping[str, Callable[[QWidget | None], DesignEditor]]
    sheet_widget: Callable[[VehicleInPlay, PlayRules, Explain], SheetFrame]
    clock_panel: Callable[[TableActions], QWidget]
    print_vehicle: Callable[[PageFlow, DesignT], None]
    print_pages: Mapping[str, PagePainter] = field(default_factory=dict)
    print_sheet: Callable[[PageFlow, SheetToPrint], None] = print_any_sheet
    sheet_layouts: tuple[int, ...] = (1,)
    small_sheet: Callable[[SheetT], bool] = never_small
    key_actions: tuple[KeyAction, ...] = ()
    quick: QuickRules | None = None
    fire_batch: BatchRules | None = None

    @property
    def ruleset_id(self) -> str:
        return self.ruleset.id

    def key_action(self, kind: str) -> KeyAction | None:
        return next((a for a in self.key_actions if a.kind == kind), None)

    def editor(self, kind: str, parent: QWidget | None = None) -> DesignEditor:
        self._check_kind(self.editors, kind, "editor")
        return self.editors[kind](parent)

    def print_page(self, kind: str) -> PagePainter:
        if kind == VEHICLE:
            return self.print_vehicle
        self._check_kind({VEHICLE: None, **self.print_pages}, kind, "printed sheet")
        return self.print_pages[kind]

    def _check_kind(self, table: Mapping[str, object], kind: str, what: str) -> None:
        if kind not in table:
            raise UnknownKindError(f"{self.ruleset_id} has no {what} for {kind!r} designs "
                                   f"(it has: {', '.join(table)})")


class NoScreensError(UnknownRulesetError):
    """A ruleset the app knows (its rules load, its procedures resolve) with no screens."""


_MODULES: dict[str, str] = {}
"""Screens given at run time (:func:`register_ui`), over the entries' own."""


def register_ui(ruleset_id: str, module: str) -> None:
    """Give a registered ruleset without screens its UI module (which defines ``UI``)."""
    entry = ruleset_entry(ruleset_id)
    held = _MODULES.get(ruleset_id) or entry.screens
    if held:
        raise ValueError(f"the ruleset {ruleset_id!r} already has screens ({held})")
    _MODULES[ruleset_id] = module


def unregister_ui(ruleset_id: str) -> None:
    if ruleset_entry(ruleset_id).screens:
        raise ValueError(f"{ruleset_id!r} has screens of its own")
    _MODULES.pop(ruleset_id, None)
    ruleset_ui.cache_clear()


def _screens(ruleset_id: str) -> str:
    """The module of ``ruleset_id``'s screens; :class:`UnknownRulesetError` for an unknown
    id, :class:`NoScreensError` for a ruleset without screens."""
    entry = ruleset_entry(ruleset_id)
    module = _MODULES.get(ruleset_id) or entry.screens
    if not module:
        raise NoScreensError(
            f"{entry.title} ({ruleset_id}) is installed without screens: its designs and "
            f"sessions cannot be opened (its package must name its UI module, "
            f"RulesetEntry.screens)")
    return module


def has_screens(ruleset_id: str) -> bool:
    """Whether the app can open ``ruleset_id``'s designs and sessions (imports nothing)."""
    try:
        _screens(ruleset_id)
    except UnknownRulesetError:
        return False
    return True


def require_screens(ruleset_id: str) -> None:
    """Refuse (:class:`NoScreensError`, :class:`UnknownRulesetError`) a ruleset the app
    has no screens for, before anything is opened for it; imports nothing."""
    _screens(ruleset_id)


@cache
def ruleset_ui(ruleset_id: str) -> RulesetUI[object, object]:
    """The screens of ``ruleset_id``; :class:`UnknownRulesetError` if it has none."""
    try:
        module = _screens(ruleset_id)
    except UnknownRulesetError as error:
        if isinstance(error, NoScreensError):
            raise
        raise UnknownRulesetError(f"the app has no screens for the ruleset {ruleset_id!r} "
                                  f"({error})") from None
    ui: RulesetUI[object, object] = importlib.import_module(module).UI
    if ui.ruleset_id != ruleset_id:
        raise UnknownRulesetError(f"{module} holds the screens of {ui.ruleset_id!r}, "
                                  f"not {ruleset_id!r}")
    return ui
