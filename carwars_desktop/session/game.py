"""A game in progress: the sheets of the vehicles in play, the clock, undo and redo.

Each operation builds an :class:`Event`, has the store commit it, and only then
changes the state it holds and returns the :class:`Changes` (Anki's OpChanges):
what the screen shows has always been written first.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from carwars_desktop.procedures import Resolution
from carwars_desktop.rules import VEHICLE, AnyRuleset, Problem, RecordSheet
from carwars_desktop.rules.clock import Clock
from carwars_desktop.rules.play import Done, DueRoll, no_table_problems
from carwars_desktop.session.events import Event, EventKind, SheetUpdate, StoredEvent
from carwars_desktop.session.house_rules import HouseRules
from carwars_desktop.session.store import EventStore, RollRecord


class GameError(ValueError):
    """An operation that does not fit the game (an unknown vehicle, nothing to undo)."""


@dataclass(frozen=True)
class VehicleInPlay:
    """A vehicle at the table: a copy of its design, never the library's own."""

    key: str
    name: str
    player: str
    design: Mapping[str, Any]


@dataclass(frozen=True)
class Changes:
    """What an operation changed, so the GUI redraws only that."""

    vehicles: frozenset[str] = frozenset()
    clock: bool = False
    event: StoredEvent | None = None
    undone: bool = False
    settings: bool = False
    """The session's settings changed (:attr:`Game.settings`)."""


class Game:
    """The live state of one session, kept in step with its :class:`EventStore`."""

    def __init__(self, ruleset: AnyRuleset, vehicles: Sequence[VehicleInPlay],
                 sheets: Mapping[str, RecordSheet], clock: Clock, store: EventStore,
                 settings: Mapping[str, Any] | None = None) -> None:
        self.ruleset = ruleset
        self.settings: Mapping[str, Any] = dict(settings or {})
        """The session's settings, a JSON object kept on the session (what the players'
        display shows, the house rules…); changed only by :meth:`change_settings`."""
        self.vehicles = tuple(vehicles)
        self._sheets = dict(sheets)
        self.clock = clock
        self.store = store
        missing = {v.key for v in self.vehicles} - set(self._sheets)
        if missing:
            raise GameError(f"no sheet for {', '.join(sorted(missing))}")
        # Kept in step with each operation so that asking costs no query: events are
        # numbered 1, 2, 3…; the redoable ones are always the last (an undo asks again:
        # an abandoned branch may lie between the event undone and the one before it).
        self._last_active: int | None = None
        self._redoable: bool | None = None
        self._verdicts: dict[tuple[str, str], tuple[Problem, ...]] = {}
        self.rewinds = 0
        """How many times the history was changed other than by appending (an undo, a
        redo, another store): what was read of it before may be stale."""

    def use_store(self, store: EventStore) -> None:
        """Go on with ``store``, which holds this game's events as they are (the database's
        store of a game first shown from the file): what was asked of the old one is asked
        again."""
        self.store = store
        self._last_active = None
        self._redoable = None
        self.rewinds += 1

    # --- reading -------------------------------------------------------
    @property
    def house(self) -> dict[str, Any]:
        """The house rules this session is played under (decision id → value), the context
        of every procedure resolved in it (empty: the digest's defaults)."""

        return dict(HouseRules.of(self.settings).values)

    def design_problems(self, key: str) -> tuple[Problem, ...]:
        """What makes vehicle ``key``'s design illegal under this session's house rules
        (empty: legal): the one verdict, :func:`~carwars_desktop.library.summarize_design`
        under the session's options, as the Workshop, the Library, New Session and
        ``design check --rules`` give it. New Session lets such a vehicle start (it says
        so); it plays at full strength, and its sheet and every shot it fires or takes
        say what is wrong (#28 §2). A house-rules change mid-session judges it again."""
        vehicle = self.vehicle(key)
        values = self.house
        cache_key = (key, json.dumps(values, sort_keys=True, default=str))
        found = self._verdicts.get(cache_key)
        if found is None:
            from carwars_desktop.library.summary import summarize_design

            try:
                design = self.ruleset.design_from_json(vehicle.design)
                found = summarize_design(self.ruleset.id, VEHICLE, design,
                                         self.ruleset.house_options(values)).problems
            except (ValueError, TypeError, KeyError):
                found = ()  # (a design the engine cannot read never entered play)
            self._verdicts[cache_key] = found
        return found

    def illegal_lines(self, key: str) -> tuple[str, ...]:
        """:meth:`design_problems` in words, one line each: ``Killer Kart is illegal under
        this session's house rules: The driver has 2 computers; one per person (MCW-D22)…``"""
        name = self.vehicle(key).name
        return tuple(f"{name} is illegal under this session's house rules: {p.message}"
                     for p in self.design_problems(key))

    def sheet(self, key: str) -> RecordSheet:
        try:
            return self._sheets[key]
        except KeyError:
            raise GameError(f"no vehicle {key!r} in this game") from None

    def vehicle(self, key: str) -> VehicleInPlay:
        for vehicle in self.vehicles:
            if vehicle.key == key:
                return vehicle
        raise GameError(f"no vehicle {key!r} in this game")

    def last_active_seq(self) -> int:
        """The number of the last event in force (0: none)."""
        if self._last_active is None:
            last = self.store.last_active()
            self._last_active = 0 if last is None else last.seq
        return self._last_active

    def can_undo(self) -> bool:
        return self.last_active_seq() > 0

    def can_redo(self) -> bool:
        if self._redoable is None:
            self._redoable = self.store.first_undone() is not None
        return self._redoable

    def events_this_phase(self, after: int = 0) -> tuple[Event, ...]:
        """The events in force recorded in the clock's current phase (oldest first), those
        numbered above ``after`` only. Undone events are skipped; a store that cannot be
        read back gives none."""
        count = getattr(self.store, "count", None)
        page = getattr(self.store, "page", None)
        if count is None or page is None:
            return ()
        found: list[Event] = []
        end = int(count(True))
        while end > 0:
            start = max(0, end - 32)
            for stored in reversed(page(start, end - start)):
                event = stored.event
                if stored.seq <= after:
                    return tuple(reversed(found))
                if stored.undone:
                    continue
                if event.turn != self.clock.turn or event.phase != self.clock.phase_name:
                    return tuple(reversed(found))
                found.append(event)
            end = start
        return tuple(reversed(found))

    def done_this_phase(self) -> tuple[Done, ...]:
        """The results in force applied in the clock's current phase (oldest first), each
        with its vehicles by name: what the rules' Table checks read (Battlecars §2.9).
        Undone events are skipped; a store that cannot be read back gives none."""
        names = {v.key: v.name for v in self.vehicles}
        found: list[Done] = []
        for event in reversed(self.events_this_phase()):
            if not event.procedure_id:
                continue
            shots = event.inputs.get("batch")
            if isinstance(shots, list):  # a fire batch: each of its shots, last first
                for shot in reversed(shots):
                    found.append(Done(event.procedure_id,
                                      {str(i): names.get(str(k), str(k))
                                       for i, k in dict(shot.get("bindings", {})).items()},
                                      dict(shot.get("inputs", {}))))
                continue
            found.append(Done(event.procedure_id,
                              {i: names.get(k, k) for i, k in event.bindings.items()},
                              dict(event.inputs)))
        return tuple(reversed(found))

    def _names(self, bindings: Mapping[str, str]) -> dict[str, str]:
        names = {v.key: v.name for v in self.vehicles}
        return {i: names[k] for i, k in bindings.items() if k in names}

    def table_defaults(self, procedure_id: str,
                       bindings: Mapping[str, str]) -> Mapping[str, Any]:
        """The inputs the rules set by the moment of play (``bindings``: each sheet input
        preset → its vehicle key), e.g. Battlecars return fire (§2.9 step 2)."""
        vehicles = {i: (self.vehicle(k).name, self.sheet(k)) for i, k in bindings.items()
                    if k in self._sheets}
        return self.ruleset.play().table_defaults(procedure_id, vehicles, self.clock)

    def due_rolls(self) -> tuple[DueRoll, ...]:
        """The rolls the rules call for now that nobody has made (AUTOpower §2.8)."""
        return self.ruleset.play().due_rolls(self.vehicles_view())

    def table_problems(self, procedure_id: str, bindings: Mapping[str, str],
                       inputs: Mapping[str, Any],
                       earlier: Sequence[tuple[str, Mapping[str, str], Mapping[str, Any]]] = ()
                       ) -> tuple[str, ...]:
        """Why the rules refuse this roll at this moment of play (empty: allowed);
        ``earlier``: rolls not applied yet that come before it (a fire batch's shots, as
        procedure id, bindings and other inputs)."""
        rules = self.ruleset.play()
        if rules.table_problems is no_table_problems:
            return ()
        pending = tuple(Done(p, self._names(b), dict(i)) for p, b, i in earlier)
        return rules.table_problems(procedure_id, self._names(bindings), inputs, self.clock,
                                    self.done_this_phase() + pending)

    # --- changing ------------------------------------------------------
    def record(self, kind: EventKind, summary: str, new_sheets: Mapping[str, RecordSheet],
               steps: Sequence[str] = (), clock: Clock | None = None,
               procedure_id: str | None = None, inputs: Mapping[str, Any] | None = None,
               dice: Sequence[Mapping[str, Any]] = (),
               bindings: Mapping[str, str] | None = None, ends_batch: bool = False,
               roll: RollRecord | None = None,
               rolls: Sequence[Mapping[str, Any]] = (),
               dealers: Mapping[str, Sequence[str]] | None = None) -> Changes:
        """Commit an event that replaces some sheets (and maybe the clock), then apply it;
        ``ends_batch``: it resolves the declared fire batch (:attr:`Event.ends_batch`);
        ``roll``: the result it applies, for the roll log (:meth:`EventStore.append`);
        ``dealers``: who dealt each vehicle's damage, when the bindings do not say it
        (:attr:`Event.dealers`)."""
        for key in new_sheets:
            self.sheet(key)
        if clock is not None:
            clock, new_sheets, steps = self._clock_moved(clock, new_sheets, steps)
        updates = tuple(SheetUpdate(key, self._sheets[key].to_json(), sheet.to_json())
                        for key, sheet in new_sheets.items())
        event = Event(kind=kind, summary=summary, steps=tuple(steps), updates=updates,
                      clock_before=self.clock.to_json() if clock else None,
                      clock_after=clock.to_json() if clock else None,
                      procedure_id=procedure_id, inputs=dict(inputs or {}), dice=tuple(dice),
                      bindings=dict(bindings or {}), turn=self.clock.turn,
                      phase=self.clock.phase_name, ends_batch=ends_batch,
                      rolls=tuple(dict(r) for r in rolls),
                      dealers={key: tuple(keys) for key, keys in (dealers or {}).items()})
        new_clock = clock or self.clock
        stored = self.store.append(event, {u.vehicle: u.after for u in updates},
                                   new_clock.to_json(), roll=roll)
        self._sheets.update(new_sheets)
        self.clock = new_clock
        self._last_active, self._redoable = stored.seq, False
        return Changes(frozenset(new_sheets), clock is not None, stored)

    def vehicles_view(self, new_sheets: Mapping[str, RecordSheet] | None = None
                      ) -> dict[str, tuple[str, RecordSheet]]:
        """Key → (name, sheet) in seating order, with ``new_sheets`` in place."""
        sheets = {**self._sheets, **(new_sheets or {})}
        return {v.key: (v.name, sheets[v.key]) for v in self.vehicles}

    def _clock_moved(self, clock: Clock, new_sheets: Mapping[str, RecordSheet],
                     steps: Sequence[str]
                     ) -> tuple[Clock, Mapping[str, RecordSheet], Sequence[str]]:
        """The clock carries the durations on; moving forward, it ends those whose time is
        up (the ruleset's :attr:`~carwars_desktop.rules.play.PlayRules.clock_moved`)."""
        going = clock if clock.durations is not None else clock.with_durations(
            self.clock.kept())
        if (going.turn, going.phase) <= (self.clock.turn, self.clock.phase):
            return going, new_sheets, steps
        moved = self.ruleset.play().clock_moved(self.clock, going,
                                                self.vehicles_view(new_sheets))
        return (going.with_durations(moved.durations), {**new_sheets, **moved.sheets},
                [*steps, *moved.steps])

    def apply_resolution(self, resolution: Resolution, bindings: Mapping[str, str],
                         parts: Sequence[tuple[Resolution, Mapping[str, str]]] = (),
                         ends_batch: bool = False, roll: RollRecord | None = None,
                         rolls: Sequence[Mapping[str, Any]] = (),
                         dealers: Mapping[str, Sequence[str]] | None = None) -> Changes:
        """Apply a Resolver result: ``bindings`` maps each sheet input to a vehicle key.

        The one place a result becomes sheet changes and durations, whatever path it came
        by (a dialog, the Resolver, the quick line, the fire batch). A combined result (the
        fire batch) names its ``parts``, each roll with its own bindings: what each of them
        starts (a smoke cloud) lasts as it would fired alone; ``ends_batch``: it is the
        declared fire batch, whose declaration the store forgets with the event; ``roll``:
        what the roll log keeps of it, written with the event (:meth:`EventStore.append`);
        ``rolls``: its rolls with their exact odds, kept with the event (:attr:`Event.rolls`);
        ``dealers``: who dealt each vehicle's damage (the fire batch's firers,
        :attr:`Event.dealers`).
        """
        new_sheets: dict[str, RecordSheet] = {}
        bound = [bindings[e.input_name] for e in resolution.effects if e.input_name in bindings]
        if len(set(bound)) < len(bound):
            raise GameError("two inputs of this result are the same vehicle: its effects "
                            "would overwrite each other")
        for effect in resolution.effects:
            if effect.input_name not in bindings:
                raise GameError(f"the result changes {effect.input_name!r}, "
                                "which is not a vehicle in play")
            new_sheets[bindings[effect.input_name]] = effect.sheet
        steps = [str(step) for step in resolution.steps]
        for effect in resolution.effects:
            name = self.vehicle(bindings[effect.input_name]).name
            steps.append(effect.summary if effect.summary.startswith(f"{name}:")
                         else f"{name}: {effect.summary}")
        summary = resolution.refusal.text() if resolution.refusal else resolution.outcome
        named = [self.vehicle(bindings[e.input_name]).name for e in resolution.effects]
        if named and not any(name in summary for name in named):
            summary = f"{', '.join(dict.fromkeys(named))}: {summary}"
        vehicles = self.vehicles_view(new_sheets)
        durations_from = self.ruleset.play().durations_from
        started = tuple(duration for rolled, bound in ((resolution, bindings), *parts)
                        for duration in durations_from(rolled, bound, self.clock, vehicles))
        clock = None
        if started:
            clock = self.clock.with_durations((*self.clock.kept(), *started))
            steps += [f"{d.label}: {d.left(clock)} ({d.rule})" for d in started]
        return self.record(EventKind.RESOLUTION, summary, new_sheets, steps, clock=clock,
                           procedure_id=resolution.procedure_id,
                           inputs={k: v for k, v in resolution.inputs.items()
                                   if k not in bindings},
                           dice=[d.to_json() for d in resolution.dice],
                           bindings={name: key for name, key in bindings.items()
                                     if name in resolution.inputs}, ends_batch=ends_batch,
                           roll=roll, rolls=rolls, dealers=dealers)

    def mark(self, key: str, sheet: RecordSheet, summary: str,
             steps: Sequence[str] = ()) -> Changes:
        """The GM changed a sheet by hand (an event like any other)."""
        return self.record(EventKind.MARK, summary, {key: sheet}, steps)

    def change_settings(self, settings: Mapping[str, Any], summary: str,
                        steps: Sequence[str] = ()) -> Changes:
        """Replace the session's settings (an event: undo puts the old ones back)."""

        after = json.loads(json.dumps(dict(settings)))  # a JSON object, copied
        event = Event(kind=EventKind.SETTINGS, summary=summary, steps=tuple(steps),
                      turn=self.clock.turn, phase=self.clock.phase_name,
                      settings_before=dict(self.settings), settings_after=after)
        stored = self.store.append(event, {}, self.clock.to_json(), after)
        self.settings = after
        self._last_active, self._redoable = stored.seq, False
        return Changes(event=stored, settings=True)

    def set_clock(self, clock: Clock, summary: str,
                  new_sheets: Mapping[str, RecordSheet] | None = None,
                  steps: Sequence[str] = ()) -> Changes:
        """Move the clock (with any per-turn resets of sheets)."""
        return self.record(EventKind.CLOCK, summary, new_sheets or {}, steps, clock=clock)

    def undo(self) -> Changes:
        last = self.store.last_active()
        if last is None:
            raise GameError("nothing to undo")
        return self._restore(last, undo=True)

    def redo(self) -> Changes:
        first = self.store.first_undone()
        if first is None:
            raise GameError("nothing to redo")
        return self._restore(first, undo=False)

    def _restore(self, stored: StoredEvent, undo: bool) -> Changes:
        self.rewinds += 1
        event = stored.event
        sheets = {u.vehicle: self.ruleset.sheet_from_json(u.before if undo else u.after)
                  for u in event.updates}
        clock_json = event.clock_before if undo else event.clock_after
        clock = Clock.from_json(clock_json) if clock_json is not None else self.clock
        sheets_json = {key: sheet.to_json() for key, sheet in sheets.items()}
        settings = None
        if event.settings_after is not None:
            settings = dict(event.settings_before or {}) if undo else dict(event.settings_after)
        if undo:
            self.store.mark_undone(stored.seq, sheets_json, clock.to_json(), settings)
        else:
            self.store.mark_redone(stored.seq, sheets_json, clock.to_json(), settings)
        self._sheets.update(sheets)
        self.clock = clock
        if settings is not None:
            self.settings = settings
        if undo:
            self._last_active, self._redoable = None, True
        else:
            self._last_active, self._redoable = stored.seq, None
        return Changes(frozenset(sheets), clock_json is not None, stored, undone=undo,
                       settings=settings is not None)
