"""Running an engine procedure from the Table: at once when it needs no dice, else a dialog.

Either way the Table service resolves it and its pending result is applied (one
event, committed before the screen shows it) or discarded, and kept in the roll
log with its exact odds, for the luck chart.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QWidget

from carwars_desktop.dice import DiceError, EnteredDice
from carwars_desktop.gui.game_context import GameContext
from carwars_desktop.gui.operation import Ops, Retry
from carwars_desktop.procedures import InputError, Procedure, SheetInput
from carwars_desktop.rules import find_procedure
from carwars_desktop.services import Handler, PendingResolution, PendingState
from carwars_desktop.services.house_rules import not_offered_in_session
from carwars_desktop.session import Game, StaleSessionError

if TYPE_CHECKING:
    from carwars_desktop.gui.table.procedure_dialog import ProcedureDialog

__all__ = ["Handler", "ProcedureRunner"]


class ProcedureRunner(QObject):
    """See the module docstring. :attr:`failed` carries any refusal, in words."""

    failed = Signal(str)
    done = Signal(object)
    write_failed = Signal(str, object)
    """(what was not saved and why, a retry returning True once it went through)."""
    closed = Signal()
    """A dialog closed (applied or not): the Table takes the keyboard focus back."""

    def __init__(self, context: GameContext, parent_widget: QWidget) -> None:
        super().__init__(parent_widget)
        self.context = context
        self._parent = parent_widget
        self.dialog: ProcedureDialog | None = None
        self.ops = Ops(self.write_failed.emit, context.service.bus)
        """How the Table's operations run (a refused write: :attr:`write_failed`)."""

    def _game(self) -> Game | None:
        game = self.context.service.game
        if game is None or self.context.service.read_only:
            self.failed.emit("open a running session first")
            return None
        return game

    @staticmethod
    def _raw(procedure: Procedure, game: Game,
             presets: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
        raw: dict[str, Any] = {}
        bindings: dict[str, str] = {}
        for name, value in presets.items():
            spec = procedure.input(name)
            if isinstance(spec, SheetInput) and isinstance(value, str):
                raw[name] = game.sheet(value)
                bindings[name] = value
            else:
                raw[name] = value
        return raw, bindings

    def run(self, procedure_id: str, presets: Mapping[str, Any], *, quick: bool = False,
            handler: Handler | None = None, note: str = "",
            ask: Collection[str] = (),
            batch: Callable[[Any, Any, str], None] | None = None,
            batch_default: bool = False, order: Sequence[str] = ()) -> None:
        """Resolve ``procedure_id`` with ``presets`` (sheet inputs given as vehicle keys).

        A procedure the session's house rules do not offer (a variant left off) opens
        nothing: :attr:`failed` says why and how to switch it on.
        ``quick``: when the procedure needs no dice, resolve and apply without asking.
        ``ask``: inputs with no sensible default (the dialog's first field). ``batch``
        takes a shot added to the phase's fire batch (the dialog then offers it;
        ``batch_default``: Ctrl+Enter adds to the batch). ``order``: the fields the GM
        types, in that order (the dialog's first field, each one a key). When the
        dialog closes the keyboard focus goes back to the Table (:attr:`closed`).
        """
        game = self._game()
        if game is None:
            return
        procedure = find_procedure(procedure_id)
        refused = not_offered_in_session(procedure, game.house)
        if refused:  # a variant the session's house rules leave off (the AUTOpower ram)
            self.failed.emit(f"{procedure.title}: {refused}")
            return
        service = self.context.service
        vehicles = {name: value for name, value in presets.items()
                    if isinstance(procedure.input(name), SheetInput) and isinstance(value, str)}
        # The moment of play's defaults (Battlecars return fire, §2.9; MCW crew, §1.2); the
        # presets win, and a field the GM types in ``order`` stays empty until typed (#28 §3).
        typed = set(order)
        defaults = {name: value
                    for name, value in game.table_defaults(procedure_id, vehicles).items()
                    if name not in typed}
        presets = {**defaults, **presets}
        if quick:
            raw, bindings = self._raw(procedure, game, presets)
            try:
                needs = procedure.dice_needed(raw, game.house)
                if not needs:
                    pending = service.resolve(procedure, raw, EnteredDice([]),
                                              bindings=bindings,
                                              odds=procedure.odds(raw, game.house),
                                              house=game.house, initiator=self)
                    self.finish(pending, handler)
                    return
            except (InputError, DiceError, ValueError) as error:  # ResolveError included
                self.failed.emit(str(error))
                return
        from carwars_desktop.gui.table.procedure_dialog import ProcedureDialog  # on first use

        dialog = ProcedureDialog(procedure, game, presets, note, self._parent, table=service,
                                 ask=ask, batch=batch is not None, batch_default=batch_default,
                                 ops=self.ops, order=order)
        if batch is not None:
            dialog.batched.connect(batch)
        dialog.accepted_result.connect(lambda pending: self.finish(pending, handler))
        dialog.finished.connect(dialog.deleteLater)
        dialog.finished.connect(self.closed)
        self.dialog = dialog
        dialog.open()
        dialog.activateWindow()  # its keys work at once

    def discard(self, owner: object, reason: str = "") -> bool:
        """Discard ``owner``'s result on screen (logged, with why); a refused write goes
        to :attr:`write_failed` with Retry."""
        return self.ops(lambda: self.context.service.discard_shown(reason, owner=owner)).run()

    def finish(self, pending: PendingResolution, handler: Handler | None) -> bool:
        """Apply a result (or hand it to ``handler``), which logs it; a result without
        effects is discarded (and logged) with its outcome as the reason. False: not
        applied (a refused write goes to :attr:`write_failed` with a retry)."""
        if handler is None and not pending.resolution.effects:
            self.ops(lambda: pending.discard()).run()
            self.failed.emit(pending.resolution.outcome)
            return True

        def applied(_changes: object) -> None:
            self.done.emit(pending.resolution)
            self._offer_due(pending)

        def only_the_log(text: str) -> tuple[str, Retry] | None:
            if pending.state is not PendingState.APPLIED:
                return None
            self.done.emit(pending.resolution)
            return (f"{text} (the result was applied; only its line in the roll log is "
                    "missing)", self.ops(pending.retry_log).run)

        return (self.ops(lambda: pending.apply(handler))
                # the service announced a stale write: the Table reloads and says so
                .refused(StaleSessionError, lambda _error: None)
                .refused(ValueError, lambda error: self.failed.emit(str(error)))
                .partly(only_the_log).failed(self.failed.emit).success(applied).run())

    def _offer_due(self, pending: PendingResolution) -> None:
        """A roll the applied result made due (AUTOpower §2.8: the hit car rolls for
        control) opens at once, filled in, once the dialog that applied it has closed."""
        game = self.context.service.game
        if game is None:
            return
        touched = set(pending.bindings.values())
        due = [d for d in game.due_rolls() if d.vehicle in touched
               and d.procedure_id != pending.resolution.procedure_id]
        if due:
            roll = due[0]
            QTimer.singleShot(0, lambda: self.run(
                roll.procedure_id, {roll.vehicle_input: roll.vehicle, **roll.presets},
                note=f"{roll.label} ({roll.rule})"))
