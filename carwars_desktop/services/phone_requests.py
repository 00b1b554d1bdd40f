"""The players' phones' requests and the GM's queue of them (issue 33 §1–§2).

A seat link may send a request (:class:`~carwars_desktop.services.phone_server.PhoneMessage`,
checked and passed on by the phones' server); :meth:`PhoneDesk.receive` checks it
against the game — the seat's own vehicle, the turn and phase it names, the rules — and
either refuses it at once with a reason (the phone shows it) or puts it in the GM's queue
(:meth:`PhoneDesk.waiting`) with what it would do and its odds. Nothing a phone sends
changes the game until the GM accepts it: :meth:`PhoneDesk.accept` (Enter at the Table),
:meth:`PhoneDesk.refuse` (Delete, with a reason).

Secret speeds (Mini Car Wars §2.3, Battlecars §2.3: every speed chosen secretly, then
revealed together): an accepted speed is *in* but not applied; the Table shows
"3 of 4 speeds in" without the values (:meth:`PhoneDesk.speeds_in`), the players'
display "waiting for: Bob, Di" (:meth:`PhoneDesk.waiting_for`); when the last one is in
(or the GM reveals, :meth:`PhoneDesk.reveal`) they are applied together as ONE ordinary
event (undoable), logged "from Bob's, Di's phones". With :attr:`PhoneDesk.auto_speeds`
a speed the rules allow is in as soon as it arrives.

Each request carries an idempotency key: a request whose key was seen (the phone sent it
again after a lost connection) is not queued twice. Revoking a link (New link, Stop
sharing, the session ending: :meth:`PhoneDesk.revoke`) refuses its queued requests.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

from carwars_desktop.dice import EnteredDice
from carwars_desktop.procedures import InputError, Resolution, SheetChange, odds_text
from carwars_desktop.rules import RecordSheet, find_procedure
from carwars_desktop.rules.builtin import BATTLECARS, MINI_CAR_WARS
from carwars_desktop.services.table import (
    PendingResolution,
    ResolutionPart,
    ResolveError,
    TableService,
    compact_dice,
)
from carwars_desktop.session import Changes as GameChanges
from carwars_desktop.session import Game

if TYPE_CHECKING:  # (aiohttp stays off the start-up path)
    from carwars_desktop.services.phone_server import PhoneMessage

AUTO_SPEEDS = "phones_auto_speeds"
"""The session setting: the phones' secret speeds are accepted as they arrive."""
KEYS_KEPT = 512
"""Idempotency keys remembered (per desk)."""
SHOWN_TO_PHONE = 5
"""A seat's latest requests its phone shows with what became of them."""


class RequestState(Enum):
    WAITING = "waiting"
    IN = "in"
    """A secret speed accepted, held until the reveal."""
    ACCEPTED = "accepted"
    REFUSED = "refused"


@dataclass
class PhoneRequest:
    """One request of a phone: its seat, the link's token, its idempotency key, what it
    asks (``kind``, ``values``), the turn and phase it is for, and what the GM sees of it
    (``summary``, ``odds``)."""

    number: int
    seat: str
    token: str
    key: str
    kind: str
    turn: int
    phase: int
    values: dict[str, Any]
    summary: str = ""
    odds: str = ""
    state: RequestState = RequestState.WAITING
    reason: str = ""

    def to_phone(self) -> dict[str, Any]:
        """What its own phone is told of it (its own values: it sent them)."""
        return {"key": self.key, "kind": self.kind, "summary": self.summary,
                "state": self.state.value, "reason": self.reason}


@dataclass(frozen=True)
class SpeedChoice:
    """One speed the rules allow a vehicle this turn: its label and the speed procedure's
    inputs for it."""

    label: str
    values: Mapping[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "values": dict(self.values)}


@dataclass(frozen=True)
class SpeedRules:
    """A ruleset's secret speeds: its speed procedure and the speeds legal for a sheet."""

    procedure: str
    choices: Callable[[RecordSheet, Mapping[str, Any]], list[SpeedChoice]]


def _mini_choices(sheet: RecordSheet, _house: Mapping[str, Any]) -> list[SpeedChoice]:
    from carwars_desktop.rules.mini_car_wars.movement import sheet_velocities
    from carwars_desktop.rules.mini_car_wars.sheet import MiniSheet

    assert isinstance(sheet, MiniSheet)
    return [SpeedChoice(v.text, {"speed": v.mph, "reverse": v.reverse})
            for v in sheet_velocities(sheet)]


def _battlecars_choices(sheet: RecordSheet, house: Mapping[str, Any]) -> list[SpeedChoice]:
    from carwars_desktop.rules.battlecars.movement import speed_range
    from carwars_desktop.rules.battlecars.options import options_from
    from carwars_desktop.rules.battlecars.sheet import CarSheet
    from carwars_desktop.rules.battlecars.terms import Direction, Surface

    assert isinstance(sheet, CarSheet)
    options = options_from(find_procedure("battlecars.speed").bind(
        {"vehicle": sheet, "speed": sheet.speed}, dict(house)))
    found = []
    for direction in Direction:
        limits = speed_range(sheet, direction, Surface.ROAD, options)
        if limits.refusal is not None:
            continue
        for speed in range(limits.low, limits.high + 1):
            word = "" if direction is Direction.FORWARD else " reverse"
            found.append(SpeedChoice(f"{speed}{word}",
                                     {"speed": speed, "direction": direction.value}))
    return found


SHOTS = {MINI_CAR_WARS.id: "mini.fire"}
"""The rulesets whose phones may declare a shot (its fire procedure): in Mini Car Wars
the phase's fire is simultaneous, and an accepted shot joins the phase's fire batch."""

SPEEDS: dict[str, SpeedRules] = {
    MINI_CAR_WARS.id: SpeedRules("mini.speed", _mini_choices),
    BATTLECARS.id: SpeedRules("battlecars.speed", _battlecars_choices),
}
"""The rulesets whose speeds are chosen secretly and revealed together."""


@dataclass
class PhoneDesk:
    """The GM's queue of the phones' requests for the Table's open session."""

    table: TableService
    requests: list[PhoneRequest] = field(default_factory=list)
    revealed: tuple[int, int, int] | None = None
    """(session, turn, the reveal's event) of the secret speeds revealed last: while that
    event stands (not undone) the turn's choice is closed."""
    declare: Callable[[PhoneRequest], str] | None = None
    """Puts an accepted shot in the phase's fire batch (the Table's); why not, or ""."""
    on_dice: Callable[[PhoneRequest], None] | None = None
    """The dice of a shot in the batch arrived (the Table puts them with it)."""
    _keys: dict[tuple[str, str], PhoneRequest] = field(default_factory=dict)
    _revealing: bool = False
    """A reveal is being applied (its own clock move expires nothing)."""
    _count: int = 0

    # --- what the game is at ---------------------------------------------------------------
    @property
    def auto_speeds(self) -> bool:
        """Accept a secret speed the rules allow as soon as it arrives: the session's
        setting (:data:`AUTO_SPEEDS`, changed by :meth:`set_auto_speeds`)."""
        game = self._game()
        return bool(game is not None and game.settings.get(AUTO_SPEEDS, False))

    def set_auto_speeds(self, on: bool, initiator: object = None) -> None:
        """Switch :attr:`auto_speeds` (a settings event, undone like any other); the
        speeds waiting are accepted when it goes on."""
        game = self._game()
        if game is None or self.auto_speeds == on:
            return
        self.table.change_settings(
            {**game.settings, AUTO_SPEEDS: on},
            "Phones: secret speeds accepted " + ("automatically" if on else "by the GM"),
            initiator=initiator)
        if on:
            for request in self.waiting():
                if request.kind == "speed":
                    self.accept(request, initiator)

    def _game(self) -> Game | None:
        game = self.table.game
        return None if game is None or self.table.read_only else game

    def speed_rules(self) -> SpeedRules | None:
        game = self._game()
        return None if game is None else SPEEDS.get(game.ruleset.id)

    def speeds_open(self) -> bool:
        """The secret speeds of this turn may be chosen: a ruleset that keeps them secret,
        its first phase, and not revealed yet."""
        game = self._game()
        if game is None or self.speed_rules() is None or game.clock.phase != 0:
            return False
        if self.revealed is None:
            return True
        session, turn, event = self.revealed
        return ((session, turn) != (self.table.session_id or 0, game.clock.turn)
                or game.last_active_seq() < event)

    def speed_choices(self, seat: str) -> list[SpeedChoice]:
        rules, game = self.speed_rules(), self._game()
        if rules is None or game is None or seat not in {v.key for v in game.vehicles}:
            return []
        return rules.choices(game.sheet(seat), game.house)

    def player_of(self, seat: str) -> str:
        game = self._game()
        vehicle = next((v for v in game.vehicles if v.key == seat), None) if game else None
        if vehicle is None:
            return seat
        return vehicle.player or vehicle.name

    # --- receiving -----------------------------------------------------------------------
    def receive(self, message: PhoneMessage) -> PhoneRequest | None:
        """Take a request the server passed on: refused at once with its reason, queued
        for the GM, or (a secret speed with :attr:`auto_speeds`) in; None for a retry of
        a request already received (its key seen)."""
        if (message.seat, message.key) in self._keys:
            return None
        body = message.body
        self._count += 1
        request = PhoneRequest(self._count, message.seat, message.token, message.key,
                               str(body.get("kind", ""))[:20], _int(body.get("turn")),
                               _int(body.get("phase")), _values(body.get("values")))
        self._keys[(message.seat, message.key)] = request
        if len(self._keys) > KEYS_KEPT:
            del self._keys[next(iter(self._keys))]
        self.requests.append(request)
        why = self._refusal(request)
        if why:
            self._refused(request, why)
        elif request.kind == "speed" and self.auto_speeds:
            self.accept(request)
        return request

    def _refusal(self, request: PhoneRequest) -> str:
        """Why ``request`` cannot be queued ("" when it can); its summary and odds set."""
        game = self._game()
        if game is None:
            return "no game is running at the table"
        clock = game.clock
        if (request.turn, request.phase) != (clock.turn, clock.phase):
            return (f"that was for {clock.word} {request.turn}, "
                    f"{_phase_name(clock.phases, request.phase)}; the table is at "
                    f"{clock.word} {clock.turn}, {clock.phase_name}")
        if request.kind == "shot":
            return self._shot_refusal(request, game)
        if request.kind == "dice":
            return self._dice_refusal(request)
        if request.kind != "speed":
            return f"a phone cannot send {request.kind or 'that'}"
        return self._speed_refusal(request, game)

    def _speed_refusal(self, request: PhoneRequest, game: Game) -> str:
        if not self.speeds_open():
            return "no secret speed is being chosen now"
        resolution = self._speed_resolution(request, game)
        if isinstance(resolution, str):
            return resolution
        if resolution.refusal is not None:
            return resolution.refusal.text()
        choice = next((c for c in self.speed_choices(request.seat)
                       if all(request.values.get(k) == v for k, v in c.values.items())), None)
        name = next(v.name for v in game.vehicles if v.key == request.seat)
        request.summary = f"secret speed for {name}: {choice.label if choice else '?'}"
        request.odds = "allowed by the rules"
        for other in self.requests:  # a new choice replaces the seat's earlier one
            if (other is not request and other.seat == request.seat and other.kind == "speed"
                    and other.state in (RequestState.WAITING, RequestState.IN)):
                self._refused(other, "replaced by a newer choice")
        return ""

    def _speed_resolution(self, request: PhoneRequest, game: Game) -> Resolution | str:
        rules = self.speed_rules()
        assert rules is not None
        procedure = find_procedure(rules.procedure)
        if request.seat not in {v.key for v in game.vehicles}:
            return "your vehicle is not in this game"
        wanted: dict[str, Any] = {k: request.values[k] for k in ("speed", "reverse", "direction")
                                  if k in request.values}
        if "speed" not in wanted:
            return "no speed chosen"
        try:
            return procedure.resolve({"vehicle": game.sheet(request.seat), **wanted},
                                     EnteredDice([]), game.house)
        except (InputError, ValueError) as error:
            return f"not a speed the rules take: {error}"

    # --- declared shots and their dice -------------------------------------------------------
    def shot_procedure(self) -> str:
        game = self._game()
        return "" if game is None else SHOTS.get(game.ruleset.id, "")

    def shot_options(self, seat: str) -> dict[str, Any] | None:
        """What seat ``seat``'s phone may declare: its weapons that can still fire, the
        other vehicles, the sides (None: its ruleset takes no shot from a phone)."""
        game = self._game()
        if game is None or not self.shot_procedure() or seat not in {v.key for v in
                                                                    game.vehicles}:
            return None
        from carwars_desktop.rules.mini_car_wars.procedures.common import SIDE_KEYS

        sheet: Any = game.sheet(seat)
        weapons = [{"value": str(n), "label": f"{n}: {w.label}"}
                   for n, w in enumerate(sheet.weapons, start=1) if w.status == "ready"]
        targets = [{"value": v.key, "label": v.name} for v in game.vehicles if v.key != seat]
        return {"weapons": weapons, "targets": targets, "sides": list(SIDE_KEYS)}

    def _shot_raw(self, request: PhoneRequest, game: Game) -> dict[str, Any] | str:
        values = request.values
        target = values.get("target")
        if not isinstance(target, str) or target == request.seat or target not in {
                v.key for v in game.vehicles}:
            return "choose another vehicle as the target"
        options = self.shot_options(request.seat) or {}
        if str(values.get("weapon")) not in {w["value"] for w in options.get("weapons", [])}:
            return "that weapon cannot fire now (destroyed, spent or fired this turn)"
        return {"firer": game.sheet(request.seat), "target": game.sheet(target),
                "weapon": str(values["weapon"]), "side": str(values.get("side", "")),
                "range": str(values.get("range", "")), "hold_damage": True}

    def _shot_refusal(self, request: PhoneRequest, game: Game) -> str:
        raw = self._shot_raw(request, game)
        if isinstance(raw, str):
            return raw
        procedure = find_procedure(self.shot_procedure())
        bindings = {"firer": request.seat, "target": str(request.values["target"])}
        kept = {k: v for k, v in raw.items() if k not in bindings}
        refused = game.table_problems(procedure.id, bindings, kept)
        if refused:
            return "; ".join(refused)
        try:
            odds = procedure.odds(raw, game.house)
            needs = procedure.dice_needed(raw, game.house)
        except (InputError, ValueError) as error:
            return str(error)
        p = odds.p_success()
        names = {v.key: v.name for v in game.vehicles}
        weapon = next(w["label"] for w in (self.shot_options(request.seat) or {})["weapons"]
                      if w["value"] == raw["weapon"])
        request.summary = (f"{names[request.seat]} fires {weapon} at "
                           f"{names[bindings['target']]} ({raw['side']} side, range "
                           f"{raw['range']})")
        request.odds = " · ".join(part for part in (
            f"need {odds.need}+" if odds.need is not None else "",
            "" if p is None else odds_text(p)) if part)
        request.values["dice_needed"] = " → ".join(str(n) for n in needs) or "no dice"
        return ""

    def _dice_refusal(self, request: PhoneRequest) -> str:
        shot = self._shot_of(request)
        if shot is None:
            return "no shot of yours waits for these dice"
        typed = str(request.values.get("dice", ""))
        try:
            compact_dice(typed)
        except (ResolveError, ValueError) as error:
            return f"not dice: {error}"
        shot.values["dice"] = typed
        request.summary = f"dice {typed} for {shot.summary}"
        request.state = RequestState.ACCEPTED  # dice only go with a shot the GM accepts
        if shot.state is RequestState.ACCEPTED and self.on_dice is not None:
            self.on_dice(shot)
        return ""

    def _shot_of(self, request: PhoneRequest) -> PhoneRequest | None:
        key = request.values.get("shot")
        return next((r for r in self.requests if r.seat == request.seat and r.key == key
                     and r.kind == "shot" and r.state in (RequestState.WAITING,
                                                          RequestState.ACCEPTED)
                     and (r.turn, r.phase) == (request.turn, request.phase)), None)

    def shot_declaration(self, request: PhoneRequest) -> tuple[dict[str, Any], dict[str, str],
                                                               str, str]:
        """A shot as the fire batch takes it: the form's values, the vehicles, the dice
        typed, and its label ("… from Bob's phone")."""
        values = {k: v for k, v in request.values.items()
                  if k in ("weapon", "side", "range")}
        bindings = {"firer": request.seat, "target": str(request.values["target"])}
        return (values, bindings, str(request.values.get("dice", "")),
                f"from {self.player_of(request.seat)}'s phone")

    # --- the GM ---------------------------------------------------------------------------
    def waiting(self) -> list[PhoneRequest]:
        """The requests waiting for the GM, oldest first."""
        return [r for r in self.requests if r.state is RequestState.WAITING]

    def accept(self, request: PhoneRequest, initiator: object = None) -> None:
        """Accept ``request``: a secret speed is in (all in: revealed); checked again
        against the game as it stands (a request that no longer fits is refused)."""
        if request.state is not RequestState.WAITING:
            return
        why = self._refusal(request)
        if why:
            self._refused(request, why)
            return
        if request.kind == "shot":
            why = self.declare(request) if self.declare is not None else \
                "no fire batch at the table"
            if why:
                self._refused(request, why)
            else:
                request.state = RequestState.ACCEPTED
            return
        request.state = RequestState.IN
        if self.speeds_in()[0] == self.speeds_in()[1]:
            self.reveal(initiator)

    def edited(self, request: PhoneRequest) -> tuple[str, dict[str, Any], str]:
        """The GM opens ``request`` in the normal dialog: it leaves the queue (the dialog's
        result is the event); the procedure, its presets (vehicles as keys) and a note."""
        request.state = RequestState.ACCEPTED
        request.reason = "edited by the GM"
        note = f"from {self.player_of(request.seat)}'s phone"
        if request.kind == "shot":
            values, bindings, _dice, _label = self.shot_declaration(request)
            return self.shot_procedure(), {**bindings, **values}, note
        rules = self.speed_rules()
        procedure = rules.procedure if rules is not None else ""
        presets = {"vehicle": request.seat, **{k: v for k, v in request.values.items()
                                                if k in ("speed", "reverse", "direction")}}
        return procedure, presets, note

    def refuse(self, request: PhoneRequest, reason: str) -> None:
        """Refuse ``request`` with ``reason`` (its phone shows it)."""
        if request.state in (RequestState.WAITING, RequestState.IN):
            self._refused(request, reason or "refused by the GM")

    @staticmethod
    def _refused(request: PhoneRequest, reason: str) -> None:
        request.state = RequestState.REFUSED
        request.reason = reason

    def expire(self) -> bool:
        """The clock moved: the requests for a turn or phase that has passed are refused,
        saying so (True when one was)."""
        game = self._game()
        if game is None or self._revealing:
            return False
        now = (game.clock.turn, game.clock.phase)
        passed = [r for r in self.requests if r.state in (RequestState.WAITING,
                                                         RequestState.IN)
                  and (r.turn, r.phase) != now]
        for request in passed:
            self._refused(request, self._refusal(request) or "its moment has passed")
        return bool(passed)

    def revoke(self, tokens: Sequence[str] | None = None) -> None:
        """The links of ``tokens`` (None: every link) were revoked: their requests not
        accepted yet are refused."""
        for request in self.requests:
            if (tokens is None or request.token in tokens) and request.state in (
                    RequestState.WAITING, RequestState.IN):
                self._refused(request, "this link was revoked")

    # --- secret speeds ---------------------------------------------------------------------
    def _speeds(self) -> list[PhoneRequest]:
        game = self._game()
        if game is None:
            return []
        return [r for r in self.requests if r.kind == "speed" and r.state is RequestState.IN
                and r.turn == game.clock.turn]

    def speeds_in(self) -> tuple[int, int]:
        """(speeds in, vehicles) of this turn's secret speeds."""
        game = self._game()
        if game is None or not self.speeds_open():
            return (0, 0)
        return (len({r.seat for r in self._speeds()}), len(game.vehicles))

    def waiting_for(self) -> list[str]:
        """The players whose secret speed is not in yet (none when no choice is open)."""
        game = self._game()
        if game is None or not self.speeds_open():
            return []
        done = {r.seat for r in self._speeds()}
        return [self.player_of(v.key) for v in game.vehicles if v.key not in done]

    def reveal(self, initiator: object = None) -> PendingResolution | None:
        """Apply the speeds in as ONE event (undoable): each vehicle's speed procedure on
        its own sheet, logged "from Bob's, Di's phones"; None when none is in."""
        game = self._game()
        speeds = self._speeds()
        if game is None or not speeds or not self.speeds_open():
            return None
        self._revealing = True
        try:
            if game.ruleset.id == BATTLECARS.id:
                self._reveal_round(game, speeds, initiator)
                return None
            return self._reveal_each(game, speeds, initiator)
        finally:
            self._revealing = False

    def _reveal_each(self, game: Game, speeds: Sequence[PhoneRequest],
                     initiator: object) -> PendingResolution | None:
        """Each vehicle's speed procedure on its own sheet, combined in one event."""
        rules = self.speed_rules()
        assert rules is not None
        procedure = find_procedure(rules.procedure)
        effects: list[SheetChange] = []
        parts: list[ResolutionPart] = []
        outcomes: list[str] = []
        for request in speeds:
            resolution = self._speed_resolution(request, game)
            if isinstance(resolution, str) or resolution.refusal is not None:
                self._refused(request, resolution if isinstance(resolution, str)
                              else resolution.refusal.text())  # type: ignore[union-attr]
                continue
            outcomes.append(request.summary.removeprefix("secret speed for "))
            parts.append(ResolutionPart(resolution, None, {"vehicle": request.seat}))
            effects += [SheetChange(f"vehicle_{request.seat}", e.sheet, e.summary)
                        for e in resolution.effects]
        if not effects:
            return None
        combined = Resolution(
            procedure_id=procedure.id,
            inputs={"secret speeds": [{"seat": r.seat, **r.values} for r in speeds]},
            dice=(), steps=tuple(s for p in parts for s in p.resolution.steps),
            outcome=f"secret speeds revealed: {'; '.join(outcomes)} "
                    f"({self._senders(speeds)})",
            success=True, effects=tuple(effects), values={})
        bindings = {e.input_name: e.input_name.removeprefix("vehicle_") for e in effects}
        pending = self.table.pending(combined, bindings, None, initiator=initiator,
                                     parts=parts)
        try:
            changes = pending.apply(initiator=initiator)
        except (ResolveError, ValueError):
            pending.discard(initiator)
            raise
        self._revealed(game, speeds, changes)
        return pending

    def _revealed(self, game: Game, speeds: Sequence[PhoneRequest],
                  changes: GameChanges | None) -> None:
        for request in speeds:
            if request.state is RequestState.IN:
                request.state = RequestState.ACCEPTED
        stored = changes.event if changes is not None else None
        self.revealed = (self.table.session_id or 0, game.clock.turn,
                         stored.seq if stored is not None else game.last_active_seq())

    def _senders(self, speeds: Sequence[PhoneRequest]) -> str:
        senders = [f"{self.player_of(r.seat)}'s" for r in speeds if r.state is RequestState.IN]
        return f"from {', '.join(senders)} phone{'s' if len(senders) > 1 else ''}"

    def _reveal_round(self, game: Game, speeds: Sequence[PhoneRequest],
                      initiator: object) -> None:
        """Battlecars (§2.2–§2.3): the speeds revealed as the Clock's own reveal does — every
        car's (one without a phone's keeps its speed) checked by the engine, and the first
        car's turn begins, in one event."""
        from carwars_desktop.rules.battlecars.play import car_sheet
        from carwars_desktop.rules.battlecars.play.clock import (
            car_of,
            next_phase,
            set_speeds,
            turn_started,
        )
        from carwars_desktop.rules.play import TurnError

        names = {v.key: v.name for v in game.vehicles}
        sheets = {key: car_sheet(game.sheet(key)) for key in names}
        choices = {r.seat: (int(r.values["speed"]), str(r.values.get("direction", "forward")),
                            "road") for r in speeds}
        try:
            step = set_speeds(sheets, choices, names, game.house)
        except TurnError as error:  # a sheet changed since: those speeds go back
            for request in speeds:
                if request.seat in error.reasons:
                    self._refused(request, error.reasons[request.seat])
            return None
        out = {names[key] for key, sheet in sheets.items()
               if sheet.is_wreck() or not sheet.occupied}
        first = next_phase(game.clock, out)
        new: dict[str, RecordSheet] = dict(step.sheets)
        if first is not None:
            key = next(k for k, name in names.items() if name == car_of(first.phase_name))
            new[key] = turn_started(car_sheet(new.get(key, game.sheet(key))))
        outcomes = "; ".join(r.summary.removeprefix("secret speed for ") for r in speeds)
        changes = self.table.set_clock(
            first or game.clock, f"Round {game.clock.turn}: secret speeds revealed: "
            f"{outcomes} ({self._senders(speeds)})", new, list(step.steps), initiator)
        self._revealed(game, speeds, changes)
        return None

    # --- what each phone is told -------------------------------------------------------------
    def phone_state(self, seat: str) -> dict[str, Any]:
        """What seat ``seat``'s phone may send now and what became of its latest requests
        (no other seat's values)."""
        game = self._game()
        state: dict[str, Any] = {"requests": [r.to_phone() for r in self.requests
                                              if r.seat == seat][-SHOWN_TO_PHONE:]}
        if game is None:
            return state
        state.update(turn=game.clock.turn, phase=game.clock.phase)
        if self.speeds_open():
            mine = next((r for r in reversed(self.requests) if r.seat == seat
                         and r.kind == "speed" and r.turn == game.clock.turn
                         and r.state in (RequestState.WAITING, RequestState.IN)), None)
            state["speeds"] = [c.to_json() for c in self.speed_choices(seat)]
            state["speed_sent"] = mine.summary if mine is not None else ""
        elif (options := self.shot_options(seat)) is not None:
            state["shot"] = options
            state["shots"] = [
                {"key": r.key, "summary": r.summary, "odds": r.odds, "state": r.state.value,
                 "dice_needed": r.values.get("dice_needed", ""),
                 "dice": r.values.get("dice", "")}
                for r in self.requests if r.seat == seat and r.kind == "shot"
                and (r.turn, r.phase) == (game.clock.turn, game.clock.phase)
                and r.state in (RequestState.WAITING, RequestState.ACCEPTED)]
        return state

    def forget(self) -> None:
        """A new session: nothing of the last one's requests is kept."""
        self.revoke()
        self.requests.clear()
        self._keys.clear()
        self.revealed = None


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else -1


def _values(value: Any) -> dict[str, Any]:
    """The request's values: plain numbers, words and yes/no only."""
    if not isinstance(value, dict):
        return {}
    return {str(k)[:30]: v for k, v in value.items()
            if isinstance(v, bool | int | str) and (not isinstance(v, str) or len(v) <= 40)}


def _phase_name(phases: Sequence[str], index: int) -> str:
    return phases[index] if 0 <= index < len(phases) else f"phase {index}"


__all__ = ["AUTO_SPEEDS", "SHOTS", "SPEEDS", "PhoneDesk", "PhoneRequest", "RequestState",
           "SpeedChoice", "SpeedRules"]

