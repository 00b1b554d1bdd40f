"""Each ruleset's screens, found by ruleset id: its UI bundle.

A bundle (:class:`RulesetUI`) says which editor edits each kind of design, which
widget draws a record sheet at the Table, which panel runs its clock, and how
each kind prints. One UI module per ruleset defines ``UI``; the built-in ones
are listed here, a plug-in calls :func:`register_ui`. Modules load on first use,
so a ruleset's widgets cost nothing until its first design or session opens. An
id without screens is refused with a clear error: nothing falls through to
another game's screens.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Protocol

from carwars_desktop.rules import UnknownKindError, UnknownRulesetError, ruleset_entry

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from carwars_desktop.gui.table.actions import TableActions
    from carwars_desktop.gui.table.sheet_frame import Explain, SheetFrame
    from carwars_desktop.gui.workshop.editor import DesignEditor
    from carwars_desktop.gui.workshop.printing.live import SheetToPrint
    from carwars_desktop.gui.workshop.printing.page import PageFlow
    from carwars_desktop.rules.play import PlayRules
    from carwars_desktop.services.fire_batch import BatchRules
    from carwars_desktop.services.quick_entry import QuickRules
    from carwars_desktop.session import Game, VehicleInPlay


class ClockPanel(Protocol):
    """What the Table asks of a ruleset's clock panel (a QWidget)."""

    def show_game(self, game: Game, read_only: bool) -> None: ...

    def next_phase(self) -> None: ...


def print_any_sheet(flow: PageFlow, item: SheetToPrint) -> None:
    """A sheet in play as a list of its boxes and values (for a ruleset without a painter)."""
    from carwars_desktop.gui.workshop.printing.live import paint_generic

    paint_generic(flow, item)


def never_small(sheet: Any) -> bool:
    return False


FIRE = "fire"
DAMAGE = "damage"
CONTROL = "control"
COLLISION = "collision"
CRASH = "crash"
LASER = "laser"
SPEED = "speed"
ACTION_KINDS = (FIRE, DAMAGE, CONTROL, COLLISION, CRASH, LASER, SPEED)
"""The Table's one-key actions on the selected vehicle (``table.<kind>`` in
:mod:`carwars_desktop.gui.shortcuts`)."""


@dataclass(frozen=True)
class KeyAction:
    """One key at the Table: a procedure opened with the selected vehicle preset.

    Args:
        kind: one of :data:`ACTION_KINDS` (its key is ``table.<kind>``).
        procedure_id: the procedure opened.
        vehicle_input: the sheet input the selected vehicle fills.
        target_input: the other vehicle of a pair (fire, ram), remembered with
            ``remembered`` for the turn, per pair.
        remembered: inputs kept per vehicle → target pair for the turn (range, side).
        ask: inputs with no sensible default: the dialog's first field unless remembered.
        batch: the phase's fire is one batch by default (Mini Car Wars §8).
        order: the fields the GM types, always in this order whatever the number of
            vehicles (each one key or a number; a field the Table did not fill from the
            GM's own choices starts empty); default: the target, then ``ask``.
    """

    kind: str
    procedure_id: str
    vehicle_input: str
    target_input: str = ""
    remembered: tuple[str, ...] = ()
    ask: tuple[str, ...] = ()
    batch: bool = False
    order: tuple[str, ...] = ()

    def typing_order(self) -> tuple[str, ...]:
        """The fields typed, in order (see ``order``)."""
        if self.order:
            return self.order
        return ((self.target_input,) if self.target_input else ()) + self.ask


@dataclass(frozen=True)
class RulesetUI:
    """The screens of one ruleset.

    Args:
        ruleset_id: the ruleset (its registry id).
        editors: design kind → a new editor for it (``parent`` or ``None``).
        sheet_widget: the Table's record sheet of one vehicle in play.
        clock_panel: the Table's clock panel (a QWidget that is a :class:`ClockPanel`).
        print_pages: design kind → the painter of its paper record sheet.
        print_sheet: the painter of a vehicle's sheet in play, as it stands or blank (from
            the top of a cell 1,900 units across; the session layout scales it to its place).
        sheet_layouts: how many sheets in play may share a printed page (1 first).
        small_sheet: whether a sheet in play takes half a place on a shared page (a cycle).
        key_actions: the Table's one-key actions on the selected vehicle.
        quick: the quick-entry line's reading of this ruleset's words (None: no line).
        fire_batch: how the phase's fire resolves as one batch (None: no batch).
    """

    ruleset_id: str
    editors: Mapping[str, Callable[[QWidget | None], DesignEditor]]
    sheet_widget: Callable[[VehicleInPlay, PlayRules, Explain], SheetFrame]
    clock_panel: Callable[[TableActions], QWidget]
    print_pages: Mapping[str, Callable[[PageFlow, Any], None]]
    print_sheet: Callable[[PageFlow, SheetToPrint], None] = print_any_sheet
    sheet_layouts: tuple[int, ...] = (1,)
    small_sheet: Callable[[Any], bool] = never_small
    key_actions: tuple[KeyAction, ...] = ()
    quick: QuickRules | None = None
    fire_batch: BatchRules | None = None

    def key_action(self, kind: str) -> KeyAction | None:
        return next((a for a in self.key_actions if a.kind == kind), None)

    def editor(self, kind: str, parent: QWidget | None = None) -> DesignEditor:
        self._check_kind(self.editors, kind, "editor")
        return self.editors[kind](parent)

    def print_page(self, kind: str) -> Callable[[PageFlow, Any], None]:
        self._check_kind(self.print_pages, kind, "printed sheet")
        return self.print_pages[kind]

    def _check_kind(self, table: Mapping[str, Any], kind: str, what: str) -> None:
        if kind not in table:
            raise UnknownKindError(f"{self.ruleset_id} has no {what} for {kind!r} designs "
                                   f"(it has: {', '.join(table)})")


BUILT_IN_UI: Mapping[str, str] = {
    "mini_car_wars": "carwars_desktop.gui.plugins.mini_car_wars",
    "battlecars": "carwars_desktop.gui.plugins.battlecars",
    "autopower": "carwars_desktop.gui.plugins.autopower",
}
"""The built-in rulesets' UI modules (what the installers bundle)."""

_MODULES: dict[str, str] = dict(BUILT_IN_UI)


def register_ui(ruleset_id: str, module: str) -> None:
    """Give a registered ruleset its UI module (which defines ``UI``)."""
    ruleset_entry(ruleset_id)
    if ruleset_id in _MODULES:
        raise ValueError(f"the ruleset {ruleset_id!r} already has screens ({_MODULES[ruleset_id]})")
    _MODULES[ruleset_id] = module


def unregister_ui(ruleset_id: str) -> None:
    if ruleset_id in BUILT_IN_UI:
        raise ValueError(f"{ruleset_id!r} is built in")
    _MODULES.pop(ruleset_id, None)
    ruleset_ui.cache_clear()


@cache
def ruleset_ui(ruleset_id: str) -> RulesetUI:
    """The screens of ``ruleset_id``; :class:`UnknownRulesetError` if it has none."""
    module = _MODULES.get(ruleset_id)
    if module is None:
        raise UnknownRulesetError(f"the app has no screens for the ruleset {ruleset_id!r} "
                                  f"(it has screens for: {', '.join(_MODULES)})")
    ui: RulesetUI = importlib.import_module(module).UI
    if ui.ruleset_id != ruleset_id:
        raise UnknownRulesetError(f"{module} holds the screens of {ui.ruleset_id!r}, "
                                  f"not {ruleset_id!r}")
    return ui
