"""The phase's fire as one batch: shots declared, their odds shown, dice entered, then
the whole batch applied at once as ONE undoable event.

Mini Car Wars §2.2 (and §8): every declared shot is resolved at the same time and the
damage is held until everyone has fired. With :attr:`BatchRules.hold_input` the batch
does exactly that: every shot is resolved first with its damage held (so a weapon a
shot of the same batch destroys still fires: nothing is damaged yet), then each
held damage is allocated in order by the damage procedure, taking its interior roll
from the dice typed for that shot. Without it (Battlecars return fire, BC-D26) the
shots resolve one after the other on the sheets as the batch leaves them.

The result is one :class:`~carwars_desktop.services.table.PendingResolution` (the
Table service's), applied or discarded like any other: one event; the roll log keeps
the batch's line and one line per shot with its own P(success) (its parts), which the
luck chart counts.

Nothing declared is lost: with a :class:`BatchStore` (the session's events in the
database) every shot is committed when it is declared, its dice with every change,
before the batch shows them; :meth:`FireBatch.restored` reads them back after a restart
(the same shots, dice and phase). The event that applies the batch forgets them in its own
transaction (:attr:`~carwars_desktop.session.Event.ends_batch`); emptying the batch
forgets them too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from carwars_desktop.dice import DiceError, EnteredDice
from carwars_desktop.procedures import (
    InputError,
    Odds,
    Procedure,
    Resolution,
    SheetChange,
    SheetInput,
    Step,
)
from carwars_desktop.rules import RecordSheet, find_procedure
from carwars_desktop.rules.table_input import BatchRules
from carwars_desktop.services.table import (
    PendingResolution,
    ResolutionPart,
    ResolveError,
    TableService,
    compact_dice,
    procedure_sides,
    typed_dice,
)
from carwars_desktop.session import Game


@dataclass
class DeclaredShot:
    """A shot in the batch: its inputs (vehicle inputs as vehicle keys) and the dice;
    ``stored_id`` its row in the :class:`BatchStore`, ``turn`` and ``phase`` when it was
    declared."""

    inputs: dict[str, Any]
    bindings: dict[str, str]
    dice: str = ""
    label: str = ""
    stored_id: int | None = None
    turn: int | None = None
    phase: str = ""


class StoredShotRecord(Protocol):
    """A declared shot as the store gives it back."""

    @property
    def id(self) -> int: ...
    @property
    def procedure_id(self) -> str: ...
    @property
    def inputs(self) -> Mapping[str, Any]: ...
    @property
    def bindings(self) -> Mapping[str, str]: ...
    @property
    def dice(self) -> str: ...
    @property
    def label(self) -> str: ...
    @property
    def turn(self) -> int | None: ...
    @property
    def phase(self) -> str: ...


class BatchStore(Protocol):
    """Where the declared shots are committed (the session's events in the database:
    ``storage.SessionEvents``). Each method is one committed transaction; a refused write
    raises the storage error and keeps nothing."""

    def declared_shots(self) -> Sequence[StoredShotRecord]: ...

    def declare_shot(self, procedure_id: str, inputs: Mapping[str, Any],
                     bindings: Mapping[str, str], dice: str, label: str,
                     turn: int | None, phase: str) -> int: ...

    def set_shot_dice(self, shot_id: int, dice: str) -> None: ...

    def forget_declared(self) -> None: ...


@dataclass
class FireBatch:
    """The shots declared this phase (see the module docstring)."""

    rules: BatchRules
    shots: list[DeclaredShot] = field(default_factory=list)
    store: BatchStore | None = None

    @staticmethod
    def restored(rules: BatchRules, store: BatchStore) -> FireBatch:
        """The batch as the store keeps it (after a restart: the same shots and dice)."""
        shots = [DeclaredShot(dict(s.inputs), dict(s.bindings), s.dice, s.label, s.id,
                              s.turn, s.phase)
                 for s in store.declared_shots() if s.procedure_id == rules.fire]
        return FireBatch(rules, shots, store)

    @property
    def procedure(self) -> Procedure:
        return find_procedure(self.rules.fire)

    def declare(self, inputs: Mapping[str, Any], bindings: Mapping[str, str], dice: str = "",
                label: str = "", turn: int | None = None, phase: str = "") -> DeclaredShot:
        """Add a shot; ``inputs`` are the form's raw values (sheets are read again when the
        batch resolves, from the vehicles in ``bindings``). With a store it is committed
        first: a refused write raises and adds nothing."""
        kept = {k: v for k, v in inputs.items() if k not in bindings}
        shot = DeclaredShot(kept, dict(bindings), dice, label, None, turn, phase)
        if self.store is not None:
            shot.stored_id = self.store.declare_shot(self.rules.fire, kept, shot.bindings,
                                                     dice, label, turn, phase)
        self.shots.append(shot)
        return shot

    def set_dice(self, shot: DeclaredShot, dice: str) -> None:
        """The dice typed for ``shot`` (committed first with a store)."""
        if self.store is not None and shot.stored_id is not None and dice != shot.dice:
            self.store.set_shot_dice(shot.stored_id, dice)
        shot.dice = dice

    def clear(self) -> None:
        """Empty the batch (its declaration forgotten in the store first)."""
        if self.store is not None and self.shots:
            self.store.forget_declared()
        self.shots.clear()

    def resolved(self) -> None:
        """The batch was applied: the event forgot its declaration already."""
        self.shots.clear()

    def raw(self, shot: DeclaredShot, sheets: Mapping[str, RecordSheet]) -> dict[str, Any]:
        raw = dict(shot.inputs)
        raw.update({name: sheets[key] for name, key in shot.bindings.items()})
        return raw

    def _outcome(self, resolution: Resolution) -> str:
        """A shot's outcome in the batch that holds its damage: that damage is applied by
        the batch, once every shot has fired (the shot's own words said "held" though the
        damage was on the sheets once the batch was applied)."""
        mark = self.rules.held_mark
        if mark and resolution.outcome.endswith(mark):
            return resolution.outcome.removesuffix(mark) + APPLIED_AFTER
        return resolution.outcome

    def odds(self, shot: DeclaredShot, game: Game) -> Odds:
        """The shot's exact odds on the sheets as they stand (before the batch), under the
        session's house rules."""
        return self.procedure.odds(self.raw(shot, {v.key: game.sheet(v.key)
                                                   for v in game.vehicles}), game.house)

    def dice_hint(self, shot: DeclaredShot, game: Game) -> str:
        raw = self.raw(shot, {v.key: game.sheet(v.key) for v in game.vehicles})
        needs = self.procedure.dice_needed(raw, game.house)
        return " → ".join(str(n) for n in needs) or "no dice"

    def resolve(self, service: TableService, initiator: object = None) -> PendingResolution:
        """Every shot with its dice, as one result waiting for Apply. Raises
        :class:`ResolveError` naming the shot whose dice or inputs do not fit."""
        game = service.running()
        if not self.shots:
            raise ResolveError("the batch has no shot yet")
        start = {v.key: game.sheet(v.key) for v in game.vehicles}
        sheets = dict(start)
        procedure = self.procedure
        house = game.house  # every shot, its odds and its damage under the session's rules
        dice_used: list[Any] = []
        steps: list[Step] = []
        outcomes: list[str] = []
        held: list[tuple[int, DeclaredShot, Resolution, list[int]]] = []
        parts: list[ResolutionPart] = []
        hold = bool(self.rules.hold_input)
        earlier: list[tuple[str, Mapping[str, str], Mapping[str, Any]]] = []
        dealt: dict[str, dict[str, None]] = {}
        """Each vehicle a shot changed → the other vehicles that shot binds (its firer):
        the dealers of that vehicle's damage (:attr:`Event.dealers`; the combined event
        binds only the sheets it changed)."""

        def credit(shot: DeclaredShot, key: str) -> None:
            firers = dealt.setdefault(key, {})
            firers.update(dict.fromkeys(k for k in shot.bindings.values() if k != key))

        for number, shot in enumerate(self.shots, start=1):
            # What the moment of play refuses (Battlecars §2.9 return fire), shot by shot.
            refused = game.table_problems(procedure.id, shot.bindings, shot.inputs, earlier)
            if refused:
                raise ResolveError(f"shot {number} ({shot.label}): {'; '.join(refused)}")
            earlier.append((procedure.id, shot.bindings, shot.inputs))
            raw = self.raw(shot, sheets)
            if hold:
                raw[self.rules.hold_input] = True
            try:
                values = compact_dice(shot.dice) if all(
                    s < 10 for s in procedure_sides(procedure, raw, house)) else \
                    list(typed_dice(shot.dice).entered)
            except (DiceError, ResolveError) as error:
                raise ResolveError(f"shot {number}: {error}") from None
            dice = EnteredDice(values)
            try:
                resolution = procedure.resolve(raw, dice, house)
                p_success = procedure.odds(raw, house).p_success()
            except (InputError, DiceError, ValueError) as error:
                raise ResolveError(f"shot {number} ({shot.label}): {error}") from None
            if resolution.refusal is not None:
                raise ResolveError(f"shot {number} ({shot.label}): "
                                   f"{resolution.refusal.text()}")
            left = list(dice.unused())
            if left and not hold:
                raise ResolveError(f"shot {number}: {len(left)} typed dice not needed")
            dice_used += resolution.dice
            steps += [Step(f"shot {number}: {s.text}", s.rule) for s in resolution.steps]
            outcome = self._outcome(resolution) if hold else resolution.outcome
            outcomes.append(f"{number}. {outcome}")
            # Each shot on its own line of the roll log, with its odds (the luck chart).
            parts.append(ResolutionPart(
                replace(resolution, outcome=f"fire batch, shot {number} ({shot.label}): "
                                            f"{outcome}"),
                None if p_success is None else str(p_success), dict(shot.bindings)))
            for effect in resolution.effects:
                sheets[shot.bindings[effect.input_name]] = effect.sheet
                if effect.input_name == self.rules.target_input:  # (not its own ammo)
                    credit(shot, shot.bindings[effect.input_name])
            held.append((number, shot, resolution, left))
        if hold:
            damage = find_procedure(self.rules.damage)
            for number, shot, resolution, left in held:
                target = shot.bindings.get(self.rules.target_input)
                amounts = resolution.values.get(self.rules.held_damage, ())
                remaining = EnteredDice(left)
                if target is None:
                    continue
                if amounts:
                    credit(shot, target)
                for amount in amounts:
                    raw = {self.rules.damage_vehicle: sheets[target],
                           self.rules.damage_side: shot.inputs.get(self.rules.side_input),
                           self.rules.damage_amount: amount}
                    before = len(remaining.used)
                    try:
                        applied = damage.resolve(raw, remaining, house)
                    except (InputError, DiceError, ValueError) as error:
                        raise ResolveError(f"shot {number} ({shot.label}), its damage: "
                                           f"{error}") from None
                    dice_used += remaining.used[before:]
                    steps += [Step(f"shot {number}: {s.text}", s.rule) for s in applied.steps]
                    for effect in applied.effects:
                        sheets[target] = effect.sheet
                if remaining.unused():
                    raise ResolveError(f"shot {number}: {len(remaining.unused())} typed dice "
                                       "not needed")
        changed = [key for key in sheets if sheets[key] is not start[key]]
        names = {v.key: v.name for v in game.vehicles}
        effects = tuple(SheetChange(f"vehicle_{key}", sheets[key], f"{names[key]}: after the "
                                    "fire batch") for key in changed)
        bindings = {f"vehicle_{key}": key for key in changed}
        dealers = {key: tuple(dealt[key]) for key in changed if dealt.get(key)}
        combined = Resolution(
            procedure_id=procedure.id,
            inputs={"batch": [{"bindings": s.bindings, "dice": s.dice, "label": s.label,
                               "inputs": dict(s.inputs)} for s in self.shots]},
            dice=tuple(dice_used), steps=tuple(steps),
            outcome=f"fire batch of {len(self.shots)}: " + "; ".join(outcomes),
            success=None, effects=effects, values={})
        return service.pending(combined, bindings, None, initiator=initiator, parts=parts,
                               ends_batch=True, dealers=dealers)


APPLIED_AFTER = " (applied once every shot had fired)"
"""What a held shot's outcome ends in, in the batch that applies its damage."""


def sheet_inputs(procedure: Procedure) -> list[str]:
    return [s.name for s in procedure.inputs if isinstance(s, SheetInput)]


__all__ = ["BatchRules", "BatchStore", "DeclaredShot", "FireBatch", "StoredShotRecord",
           "sheet_inputs"]
