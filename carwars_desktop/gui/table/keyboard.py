"""The Table by keyboard: select a vehicle by its number, one key per action, memory.

Each sheet shows its number (``[1]``); the number key selects that vehicle (its sheet
is outlined). An action key (``table.fire``, ``table.damage``… in
:mod:`carwars_desktop.gui.shortcuts`) opens the ruleset's procedure for it
(:class:`~carwars_desktop.gui.rulesets.KeyAction`) with the selected vehicle preset.
``table.fire_1``…``table.fire_9`` (F1…F9): vehicle n fires. The dialog's fields are
typed in the action's fixed order (:meth:`KeyAction.typing_order`), whatever the number
of vehicles, each starting empty unless the GM chose its value before (#28 §3).
Within a turn the range and side of each firer → target pair are remembered and
offered next time (shown in the dialog's note, never silently); ``table.repeat`` opens
the selected vehicle's last shot again. ``table.actions`` lists every procedure of the
ruleset that acts on vehicles, ``table.mark`` opens the selected sheet's mark menu.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from functools import partial
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QPoint
from PySide6.QtWidgets import QMenu, QWidget

from carwars_desktop.gui.rulesets import KeyAction, RulesetUI, ruleset_ui
from carwars_desktop.gui.vehicle_order import acting_order
from carwars_desktop.procedures import Procedure, SheetInput
from carwars_desktop.rules import all_procedures
from carwars_desktop.services.fire_batch import BatchStore, FireBatch
from carwars_desktop.services.house_rules import not_offered_in_session
from carwars_desktop.session import StaleSessionError
from carwars_desktop.storage.errors import DatabaseError

if TYPE_CHECKING:
    from carwars_desktop.gui.table.batch_dialog import BatchDialog
    from carwars_desktop.gui.table.procedure_dialog import ProcedureDialog
    from carwars_desktop.gui.table.workspace import TableWorkspace
    from carwars_desktop.session import Changes, Game

SELECTED_STYLE = "QFrame#record-sheet[selected=\"true\"] { border: 2px solid palette(highlight); }"


def vehicle_procedures(ruleset_id: str, sheet: object | None = None) -> list[Procedure]:
    """Every procedure of the ruleset that acts on a vehicle (has a vehicle input); with
    ``sheet``, those whose first vehicle input takes it (a car, not a pedestrian)."""
    found = []
    for procedure in all_procedures(ruleset_id):
        first = next((s for s in procedure.inputs if isinstance(s, SheetInput)), None)
        if procedure.ruleset != ruleset_id or first is None:
            continue
        if sheet is None or isinstance(sheet, first.sheet_type):
            found.append(procedure)
    return found


def batch_write_errors() -> tuple[type[BaseException], ...]:
    """What a refused write of the batch's declaration raises (nothing was kept)."""
    from carwars_desktop.storage.offline_queue import ClubOfflineError

    # (ClubOfflineError: a club session offline keeps its batch on the server only.)
    return (DatabaseError, StaleSessionError, ValueError, LookupError, ClubOfflineError)


class TableKeys(QObject):
    """See the module docstring."""

    def __init__(self, table: TableWorkspace) -> None:
        super().__init__(table)
        self.table = table
        self.selected: str | None = None
        self.memory: dict[tuple[int, str, str, str], dict[str, Any]] = {}
        """(turn, procedure, firer key, target key) → remembered inputs."""
        self.last_shot: tuple[str, dict[str, Any]] | None = None
        self.last_shots: dict[str, tuple[str, dict[str, Any]]] = {}
        """Firer key → its last shot (procedure, every input): Shift+F repeats it."""
        self.actions_menu: QMenu | None = None
        self.batch: FireBatch | None = None
        """The phase's declared shots (a ruleset with a fire batch)."""
        self.batch_dialog: BatchDialog | None = None

    # --- the game -------------------------------------------------------------------------
    @property
    def game(self) -> Game | None:
        context = self.table.context
        return None if context.service.read_only else context.service.game

    def ui(self) -> RulesetUI[object, object] | None:
        game = self.game
        return ruleset_ui(game.ruleset.id) if game is not None else None

    def keys(self) -> list[str]:
        game = self.game
        return [v.key for v in game.vehicles] if game is not None else []

    def session_shown(self, shown: Game | None = None) -> None:
        """A session opened: number the sheets, select the first vehicle, forget the memory.

        ``shown``: the game on screen when it is not yet the Table's own (start-up shows it
        from the file before the database is open): it looks as it will once it is."""
        self.memory = {}
        self.last_shot = None
        self.last_shots = {}
        game = shown if shown is not None else self.game
        ui = ruleset_ui(game.ruleset.id) if game is not None else None
        self.batch = FireBatch(ui.fire_batch) if ui is not None and ui.fire_batch else None
        sheets = self.table.play.sheets
        for number, (key, sheet) in enumerate(sheets.items(), start=1):
            sheet.title.setText(f"[{number}] {sheet.vehicle.name}" if number <= 9
                                else sheet.vehicle.name)
            sheet.setStyleSheet(SELECTED_STYLE)
            sheet.setToolTip(f"Press {number} to select {sheet.vehicle.name}" if number <= 9
                             else "")
            del key
        self.selected = None
        self.follow_clock(game)

    def follow_clock(self, game: Game | None = None) -> None:
        """Select the vehicle whose turn the clock runs (the first that can act)."""
        game = game if game is not None else self.game
        if game is None or not self.table.play.sheets:
            return
        order = [k for k in acting_order(game) if k in self.table.play.sheets]
        if order:
            self.select(self.number_of(order[0]))

    def clock_changed(self, changes: Changes) -> None:
        """The clock moved: the acting vehicle is selected; a new turn forgets the memory."""
        if changes.clock:
            self.follow_clock()

    # --- selection ------------------------------------------------------------------------
    def select(self, number: int) -> None:
        """Select the ``number``-th vehicle (1 = first sheet)."""
        sheets = self.table.play.sheets
        keys = list(sheets)
        if not 1 <= number <= len(keys) or self.table.play.game is None:
            return
        self.selected = keys[number - 1]
        self.table.play.grid.select(self.selected)  # shown large when the sheets are compact
        for key, sheet in sheets.items():
            sheet.setProperty("selected", key == self.selected)
            sheet.style().unpolish(sheet)
            sheet.style().polish(sheet)
        name = sheets[self.selected].vehicle.name
        self.table.play.show_message(f"{name} selected: F fire, D damage, C control, "
                                     "R collision/ram, S speed, M marks, A every action, "
                                     "Q quick entry", False)

    def chosen_on_grid(self, key: str) -> None:
        """A compact sheet was clicked: that vehicle is the selected one for the keys too."""
        if key != self.selected and key in self.table.play.sheets:
            self.select(self.number_of(key))

    def number_of(self, key: str) -> int:
        return list(self.table.play.sheets).index(key) + 1

    # --- actions --------------------------------------------------------------------------
    def act(self, kind: str) -> ProcedureDialog | None:
        """Open the ruleset's ``kind`` action for the selected vehicle."""
        ui = self.ui()
        game = self.game
        if ui is None or game is None or self.selected is None:
            self.table.play.show_message("⚠ open a running session first", True)
            return None
        action = ui.key_action(kind)
        if action is None:
            self.table.play.show_message(f"⚠ {game.ruleset.title} has no {kind} action: "
                                         "A lists every one", True)
            return None
        return self.open_action(action, {action.vehicle_input: self.selected})

    def open_action(self, action: KeyAction, presets: Mapping[str, Any],
                    note: str = "") -> ProcedureDialog | None:
        """The action's dialog with ``presets`` and what the turn remembers for the pair."""
        game = self.game
        if game is None:
            return None
        notes = [note] if note else []
        due = next((d for d in game.due_rolls() if d.procedure_id == action.procedure_id
                    and presets.get(d.vehicle_input) == d.vehicle), None)
        if due is not None:  # the rules' roll due (AUTOpower §2.8): its values, filled in
            presets = {**due.presets, **presets}  # as when it is offered after the hit
            notes.append(f"{due.label} ({due.rule})")
        given = dict(presets)
        ask = set(action.ask)
        memory_line = ""
        if action.target_input:
            if action.target_input not in given:
                target = self._default_target(action, given)
                if target is not None:
                    given[action.target_input] = target
            firer, target = given.get(action.vehicle_input), given.get(action.target_input)
            remembered, memory_line = self._recalled(action, firer, target)
            if remembered:
                for name, value in remembered.items():
                    given.setdefault(name, value)
                ask -= set(remembered)
        ask -= {name for name in given if name in ask and name in presets}
        batch = self.batch if self.batch is not None and \
            self.batch.rules.fire == action.procedure_id else None
        after = []
        if batch is not None:
            after.append("Fire is simultaneous: Ctrl+Enter adds the shot to the phase's batch "
                         "(B shows it), Ctrl+Shift+Enter applies it alone now"
                         if action.batch else "Ctrl+B adds the shot to a batch (B shows it)")
        def batched(values: Any, bindings: Any, dice: str) -> None:
            self._batched(action, values, bindings, dice)

        def noted(line: str) -> str:
            return "\n".join(n for n in [*notes, line, *after] if n)

        order = tuple(name for name in action.typing_order() if name not in presets)
        dialog = self.run(action.procedure_id, given, noted(memory_line), ask,
                          batch=batched if batch is not None else None,
                          batch_default=action.batch, order=order)
        if dialog is not None and action.remembered and action.target_input:
            dialog.accepted_result.connect(
                lambda _pending, d=dialog, a=action: self._remember(a, d))
            shown = dialog.form.bindings()
            pair = [(shown.get(action.vehicle_input), shown.get(action.target_input))]

            def pair_changed(d: ProcedureDialog = dialog, a: KeyAction = action) -> None:
                self._pair_changed(a, d, pair, noted)

            dialog.form.changed.connect(pair_changed)
            pair_changed()  # (the move preset may use none of them)
        return dialog

    def _recalled(self, action: KeyAction, firer: Any,
                  target: Any) -> tuple[dict[str, Any] | None, str]:
        """What the turn remembers for the pair, and the dialog's note saying so."""
        remembered = None
        if isinstance(firer, str) and isinstance(target, str):
            remembered = self.memory.get(self._pair(action.procedure_id, firer, target))
        if remembered:
            shown = ", ".join(f"{name.replace('_', ' ')} {value}"
                              for name, value in remembered.items())
            return remembered, f"Remembered this turn for this pair: {shown}"
        if action.remembered:
            return None, ("Not measured yet this turn for this pair: "
                          + ", ".join(n.replace("_", " ") for n in action.remembered))
        return None, ""

    def _pair_changed(self, action: KeyAction, dialog: ProcedureDialog,
                      pair: list[tuple[str | None, str | None]],
                      noted: Callable[[str], str]) -> None:
        """The GM changed the dialog's form. A new firer or target: what the turn
        remembers for the new pair is filled in, and the note says which; a move that
        does not use the pair's measures (a Mini Car Wars smokescreen uses no target,
        range nor side, §2.5) has no such line."""
        bindings = dialog.form.bindings()
        now = (bindings.get(action.vehicle_input), bindings.get(action.target_input))
        remembered, line = self._recalled(action, *now)
        if now != pair[0]:
            pair[0] = now
            for name, value in (remembered or {}).items():
                with suppress(ValueError):  # (a value the new pair's lists do not offer)
                    dialog.recall(name, value)
        unused = dialog.form.unused()
        if action.target_input in unused or unused >= set(action.remembered):
            line = ""  # a move that aims at no one (a smokescreen): nothing to measure
        text = noted(line)
        if text != dialog.note.text():
            dialog.note.setText(text)
        dialog.note.setVisible(bool(text))

    def _default_target(self, action: KeyAction, presets: Mapping[str, Any]) -> str | None:
        """The last target of this firer this turn, else none (the form picks one)."""
        firer = presets.get(action.vehicle_input)
        game = self.game
        if game is None:
            return None
        turn = game.clock.turn
        for (when, procedure, who, target) in reversed(list(self.memory)):
            if when == turn and procedure == action.procedure_id and who == firer:
                return target
        return None

    def _pair(self, procedure_id: str, firer: str, target: str) -> tuple[int, str, str, str]:
        game = self.game
        turn = game.clock.turn if game is not None else 0
        return (turn, procedure_id, firer, target)

    def _remember(self, action: KeyAction, dialog: ProcedureDialog) -> None:
        bindings = dialog.form.bindings()
        firer, target = bindings.get(action.vehicle_input), bindings.get(action.target_input)
        snapshot = dialog.form.snapshot()
        if firer is None or target is None:
            return
        self.memory[self._pair(action.procedure_id, firer, target)] = {
            name: snapshot[name] for name in action.remembered if name in snapshot}
        self.last_shot = (action.procedure_id, {
            name: value for name, value in snapshot.items()
            if name not in bindings and value is not None} | dict(bindings))
        self.last_shots[firer] = self.last_shot

    def run(self, procedure_id: str, presets: Mapping[str, Any], note: str = "",
            ask: set[str] | None = None,
            batch: Callable[[Any, Any, str], None] | None = None,
            batch_default: bool = False, order: Sequence[str] = ()) -> ProcedureDialog | None:
        hub = self.table.hub
        hub.run(procedure_id, presets, note=note, ask=ask or set(), batch=batch,
                batch_default=batch_default, order=order)
        dialog = hub.runner.dialog
        if dialog is not None and dialog.isVisible():
            return dialog
        return None

    def _batched(self, action: KeyAction, values: Mapping[str, Any],
                 bindings: Mapping[str, str], dice: str) -> None:
        """A shot added to the phase's batch from the dialog (and remembered like one
        applied)."""
        refused = self.declare(action, values, bindings, dice)
        dialog = self.table.hub.runner.dialog
        if refused and dialog is not None:
            dialog.batch_refusal = refused

    def declare(self, action: KeyAction, values: Mapping[str, Any],
                bindings: Mapping[str, str], dice: str, note: str = "") -> str:
        """A shot (the form's raw values, its vehicles, the dice typed) added to the phase's
        batch, committed before the batch shows it (with ``note`` after its label: "from
        Bob's phone"); why not, or "" when it was."""
        if self.batch is None or self.game is None:
            return "this ruleset has no fire batch"
        game = self.game
        names = {v.key: v.name for v in game.vehicles}
        firer = names.get(bindings.get(action.vehicle_input, ""), "?")
        target = names.get(bindings.get(action.target_input, ""), "")
        weapon = values.get("weapon") or values.get("mount") or ""
        # (a smokescreen aims at no one: its firer and weapon only)
        label = (f"{firer} → {target}" if target else firer) + (
            f" ({weapon})" if weapon else "") + (f" {note}" if note else "")
        try:  # committed before the batch shows it (a kill then loses nothing)
            self.batch.declare(values, bindings, dice, label, game.clock.turn,
                               game.clock.phase_name)
        except batch_write_errors() as error:
            return f"the shot was not added to the batch: {error}"
        if action.target_input and bindings.get(action.vehicle_input) and \
                bindings.get(action.target_input):
            key = self._pair(action.procedure_id, bindings[action.vehicle_input],
                             bindings[action.target_input])
            self.memory[key] = {n: values[n] for n in action.remembered if n in values}
            self.last_shot = (action.procedure_id, {
                n: v for n, v in values.items() if n not in bindings and v is not None
                and not hasattr(v, "to_json")} | dict(bindings))
            self.last_shots[bindings[action.vehicle_input]] = self.last_shot
        self.table.play.show_message(
            f"batch: {len(self.batch.shots)} shot(s) declared — B shows them, their odds "
            "and dice; Ctrl+Enter there applies them all", False)
        return ""

    def restore_batch(self, store: BatchStore) -> None:
        """The session opened for play: its batch as the database keeps it (a restart
        shows the shots declared before it, with their dice)."""
        ui = self.ui()
        if ui is None or ui.fire_batch is None:
            self.batch = None
            return
        try:
            self.batch = FireBatch.restored(ui.fire_batch, store)
        except batch_write_errors() as error:
            self.batch = FireBatch(ui.fire_batch, [], store)
            self.table.play.show_message(f"⚠ {error}", True)
            return
        if self.batch.shots:
            self.table.play.show_message(
                f"batch: {len(self.batch.shots)} shot(s) declared before the app stopped "
                "wait in the fire batch — B shows them", False)

    def show_batch(self) -> BatchDialog | None:
        """The phase's fire batch (the B key)."""
        if self.batch is None or self.game is None:
            title = self.game.ruleset.title if self.game is not None else "this ruleset"
            self.table.play.show_message(f"⚠ {title} has no fire batch", True)
            return None
        from carwars_desktop.gui.table.batch_dialog import BatchDialog  # on first use

        dialog = BatchDialog(self.table, self.batch)
        dialog.finished.connect(dialog.deleteLater)
        dialog.finished.connect(self.table.focus_default)
        self.batch_dialog = dialog
        dialog.open()
        return dialog

    def repeat_last(self) -> ProcedureDialog | None:
        """The selected vehicle's last shot again (same weapon, target, range, side),
        everything preset: the dice are next. Where fire is a batch by default the shot
        offers the batch as the fire key does."""
        game = self.game
        shot = self.last_shots.get(self.selected or "")
        if shot is None or game is None:
            name = (self.table.play.sheets[self.selected].vehicle.name
                    if self.selected in self.table.play.sheets else "the selected vehicle")
            self.table.play.show_message(f"⚠ {name} has no shot yet to repeat", True)
            return None
        procedure_id, presets = shot
        ui = ruleset_ui(game.ruleset.id)
        action = next((a for a in ui.key_actions if a.procedure_id == procedure_id), None)
        batched: Callable[[Any, Any, str], None] | None = None
        if action is not None and self.batch is not None and \
                self.batch.rules.fire == procedure_id:
            batched = partial(self._batched, action)
        dialog = self.run(procedure_id, presets, "The last shot again", batch=batched,
                          batch_default=action is not None and action.batch)
        if dialog is not None and action is not None and action.remembered:
            dialog.accepted_result.connect(
                lambda _pending, d=dialog, a=action: self._remember(a, d))
        return dialog

    def fire_with(self, number: int) -> ProcedureDialog | None:
        """F1…F9: vehicle ``number`` fires (selected, then its fire dialog)."""
        if not 1 <= number <= len(self.table.play.sheets):
            self.table.play.show_message(f"⚠ there is no vehicle {number}", True)
            return None
        self.select(number)
        return self.act("fire")

    def mark_menu(self) -> None:
        """The selected sheet's mark menu, under its button."""
        if self.selected is None or self.game is None:
            return
        sheet = self.table.play.sheets[self.selected]
        button = sheet.marks_button
        sheet.marks_menu.popup(button.mapToGlobal(QPoint(0, button.height())))

    def every_action_menu(self, parent: QWidget) -> QMenu:
        """Every procedure of the ruleset that acts on vehicles, the selected one preset."""
        menu = QMenu(parent)
        menu.setToolTipsVisible(True)  # a procedure not offered says why
        menu.aboutToShow.connect(lambda: self._fill_actions(menu))
        return menu

    def _fill_actions(self, menu: QMenu) -> None:
        menu.clear()
        game = self.game
        if game is None:
            menu.addAction("Open a running session first").setEnabled(False)
            return
        selected = self.selected
        name = self.table.play.sheets[selected].vehicle.name if selected else ""
        ui = ruleset_ui(game.ruleset.id)
        keyed = {a.procedure_id: a for a in ui.key_actions}
        sheet = game.sheet(selected) if selected else None
        for procedure in vehicle_procedures(game.ruleset.id, sheet):
            first = next(s for s in procedure.inputs if isinstance(s, SheetInput))
            action = keyed.get(procedure.id)
            text = f"{name}: {procedure.title}" if name else procedure.title
            refused = not_offered_in_session(procedure, game.house)
            if refused:  # a variant left off: shown, greyed, saying how to switch it on
                item = menu.addAction(f"{text} — off in this session's house rules")
                item.setEnabled(False)
                item.setToolTip(f"{refused} ({procedure.id})")
                continue
            item = menu.addAction(text, partial(self._open, procedure, first.name, action))
            item.setToolTip(procedure.id)

    def _open(self, procedure: Procedure, first: str, action: KeyAction | None) -> None:
        if self.selected is None:
            return
        if action is not None:
            self.open_action(action, {action.vehicle_input: self.selected})
        else:
            self.run(procedure.id, {first: self.selected})

    def show_actions(self) -> None:
        """The menu of every action, at the Table's top left (the A key)."""
        if self.actions_menu is None:
            self.actions_menu = self.every_action_menu(self.table)
        self.actions_menu.popup(self.table.mapToGlobal(QPoint(40, 40)))
