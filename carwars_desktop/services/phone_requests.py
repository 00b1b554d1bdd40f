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
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from carwars_desktop.dice import DiceError, EnteredDice
from carwars_desktop.procedures import (
    DiceNeed,
    InputError,
    Odds,
    Procedure,
    Resolution,
    SheetChange,
    odds_text,
)
from carwars_desktop.rules import RecordSheet, find_procedure
from carwars_desktop.rules.autopower.errors import OptionsFormatError
from carwars_desktop.rules.autopower.options import Options
from carwars_desktop.rules.autopower.sheet import new_sheet
from carwars_desktop.rules.autopower.tables import ap
from carwars_desktop.rules.builtin import AUTOPOWER, BATTLECARS, MINI_CAR_WARS
from carwars_desktop.rules.play import TurnError
from carwars_desktop.services.table import (
    PendingResolution,
    ResolutionPart,
    ResolveError,
    TableService,
    compact_dice,
)
from carwars_desktop.session import Changes as GameChanges
from carwars_desktop.session import Game, StaleSessionError
from carwars_desktop.storage.errors import DatabaseError

if TYPE_CHECKING:  # (aiohttp stays off the start-up path)
    from carwars_desktop.services.phone_server import PhoneMessage
    from carwars_desktop.storage.game_sessions import StoredPhoneRequest

AUTO_SPEEDS = "phones_auto_speeds"
"""The session setting: the phones' secret speeds are accepted as they arrive."""
KEYS_KEPT = 512
"""Idempotency keys remembered (per desk)."""
SHOWN_TO_PHONE = 5
"""A seat's latest requests its phone shows with what became of them."""


REVEALED = "revealed"
"""The kind of the kept row that says which turn's secret speeds were revealed last."""


@runtime_checkable
class PhoneStore(Protocol):
    """Where a session's phones' requests are kept (the session's events in the database:
    ``storage.SessionEvents``): each call one committed transaction."""

    def phone_requests(self) -> Sequence[StoredPhoneRequest]: ...

    def keep_phone_requests(self, requests: Sequence[StoredPhoneRequest]) -> None: ...

    def forget_phone_requests(self) -> None: ...


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

    def kept(self) -> tuple[Any, ...]:
        """What is kept of it (a change of any of these is written)."""
        return (self.number, self.token, self.kind, self.turn, self.phase,
                sorted(self.values.items()), self.summary, self.odds, self.state.value,
                self.reason)

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
    """A ruleset's secret speeds: its speed procedure, the speeds legal for a sheet, the
    rule that sets each speed once, at the start of the turn (cited when a speed comes too
    late), and whether a sheet has moved this turn (None: nobody moves in the speeds'
    own phase)."""

    procedure: str
    choices: Callable[[RecordSheet, Mapping[str, Any]], list[SpeedChoice]]
    once: Callable[[], str]
    moved: Callable[[RecordSheet], bool] | None = None
    entered_at_turn_end: Callable[[RecordSheet], bool] | None = None
    """Whether the Clock's end of turn entered a new speed on the sheet (Mini Car Wars
    §2.3: the form "Turn N begins: new speeds"): that is the turn's speed, set already."""


def _mini_once() -> str:
    from carwars_desktop.rules.mini_car_wars.cite import mcw

    return (f"this turn's speeds are set already: a vehicle changes speed once, at the "
            f"start of the turn, by +10 at most ({mcw('§2.2', '§2.3')})")


def _mini_entered(sheet: RecordSheet) -> bool:
    """Its speed differs from the one it ended the last turn at (each turn starts on every
    sheet at the speed entered for it: ``MiniSheet.started_turn``)."""
    from carwars_desktop.rules.mini_car_wars.sheet import MiniSheet

    return isinstance(sheet, MiniSheet) and sheet.speed != sheet.previous_speed


def _mini_moved(sheet: RecordSheet) -> bool:
    """It has taken a move phase this turn (moved, or lost one to a skid)."""
    from carwars_desktop.rules.mini_car_wars.sheet import MiniSheet

    return isinstance(sheet, MiniSheet) and sheet.phases_used > 0


def _battlecars_once() -> str:
    from carwars_desktop.rules.battlecars.cite import bc

    return (f"this round's speeds are set already: every speed is set once, at the start "
            f"of the round ({bc('§2.2 step 1')})")


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


SHOTS = {MINI_CAR_WARS.id: "mini.fire", BATTLECARS.id: "battlecars.fire"}
"""The rulesets whose phones may declare a shot (its fire procedure): in Mini Car Wars
the phase's fire is simultaneous, and an accepted shot joins the phase's fire batch; in
Battlecars an accepted shot is fired with the dice its player typed (§2.9: in the car's
own Turn, or return fire — one round, only at the attacker, BC-D26 — outside it)."""
BATTLECARS_SHOT = ("mount", "area", "bearing", "points_between", "smoke")
"""What a Battlecars phone declares of its shot besides the target (the fire
procedure's own inputs; its mode, own Turn or return fire, is the moment of play's)."""

ROLLS = {AUTOPOWER.id: {"attack": "autopower.attack", "control": "autopower.control"}}
"""AUTOpower's rolls a phone may ask for, by request kind: an attack with the Fighting
cards the player plays (§2.6) and a control roll after damage with the IQ cards played
(§2.8). The session does not track the hand's faces (only its size), so the player
types the values of the cards played ("3, 6"); the procedure checks them and the hand's
size. Accepted by the GM, it is rolled with the dice typed on the phone, one event."""

VEHICLES_RULE = ap("§2.2 step 1")
"""Where AUTOpower has the vehicles chosen, secretly, before anything is played."""
VEHICLE_CHOICE = (AUTOPOWER.id,)
"""The rulesets whose vehicles are chosen on the phones, secretly, and revealed together
when every player has chosen (AUTOpower §2.2 step 1: a character card that fits the
division), before anything is played."""

MISSIONS = {BATTLECARS.id: "battlecars.mission"}
"""The rulesets whose phones may roll a secret mission (Battlecars' Mission Accomplished,
§2.19, §3.10: each player secretly rolls 1d8 on their car's mission plot and keeps it
hidden until it is done): its mission procedure."""
MISSION_CARS = 4
"""Mission Accomplished's cars are numbered 1–4, in the session's order."""
UNPHASED = ("mission", "mission_done")
"""Request kinds tied to no turn or phase: a mission is kept all game."""

SPEEDS: dict[str, SpeedRules] = {
    MINI_CAR_WARS.id: SpeedRules("mini.speed", _mini_choices, _mini_once, _mini_moved,
                                 _mini_entered),
    # (Battlecars' speeds have a phase of their own, before any car's Turn: no car moves
    # in it, and the Clock's own reveal moves the clock on.)
    BATTLECARS.id: SpeedRules("battlecars.speed", _battlecars_choices, _battlecars_once),
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
    problem: str = ""
    """Why the last request could not be kept (the database refused it), or empty."""
    _kept: dict[tuple[str, str], tuple[Any, ...]] = field(default_factory=dict)
    """What the store holds of each request (by seat and key)."""
    _kept_session: int | None = None
    """The session whose requests were read from the store (:meth:`restore`)."""
    _set_seen: tuple[tuple[Any, ...], int, bool] | None = None
    """What :meth:`_speed_event_this_phase` read of the phase: (where, the last event read,
    whether a speed event was found)."""

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
        its first phase, not revealed yet, and the turn's speeds still to be set
        (:meth:`speeds_set`)."""
        game = self._game()
        if game is None or self.speed_rules() is None or game.clock.phase != 0:
            return False
        if self.revealed is not None:
            session, turn, event = self.revealed
            if ((session, turn) == (self.table.session_id or 0, game.clock.turn)
                    and game.last_active_seq() >= event):
                return False
        return not self.speeds_set()

    def speeds_set(self) -> str:
        """Why this turn's speeds are no longer to be chosen, in the rules' words ("" when
        they still are): an event in force of the turn's first phase set a speed (the
        speed procedure at the Clock, the S key, a reveal), or a vehicle has moved this
        turn (its sheet says so). Read from the session's own events and sheets."""
        game, rules = self._game(), self.speed_rules()
        if game is None or rules is None:
            return ""
        sheets = [game.sheet(v.key) for v in game.vehicles]
        moved, entered = rules.moved, rules.entered_at_turn_end
        done = (moved is not None and any(moved(sheet) for sheet in sheets)) or (
            entered is not None and game.clock.turn > 1  # (turn 1: the scenario's speeds)
            and any(entered(sheet) for sheet in sheets)) or (
            game.clock.phase == 0 and self._speed_event_this_phase(game, rules.procedure))
        return rules.once() if done else ""

    def _speed_event_this_phase(self, game: Game, procedure: str) -> bool:
        """An event in force of the clock's phase set a speed with ``procedure`` (a refused
        speed, logged, set nothing). Each event is read once: what was read of the phase is
        kept until the history is rewound (an undo, a redo) or the phase changes."""
        where = (id(game), self.table.session_id, game.clock.turn, game.clock.phase,
                 game.rewinds)
        last = game.last_active_seq()
        seen = self._set_seen
        if seen is None or seen[0] != where or seen[1] > last:
            seen = (where, 0, False)
        if not seen[2] and seen[1] < last:
            found = any(e.procedure_id == procedure and e.updates
                        for e in game.events_this_phase(after=seen[1]))
            seen = (where, last, found)
        self._set_seen = seen
        return seen[2]

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

    # --- kept in the database --------------------------------------------------------------
    def _store(self) -> PhoneStore | None:
        game = self._game()
        store = game.store if game is not None else None
        return store if isinstance(store, PhoneStore) else None

    def keep(self) -> None:
        """Write the requests changed since the last write (and the last reveal), in one
        committed transaction; nothing without a store. Raises the storage's error when
        the write is refused (nothing kept)."""
        store = self._store()
        if store is None:
            return
        from carwars_desktop.storage.game_sessions import StoredPhoneRequest

        changed = [r for r in self.requests if self._kept.get((r.seat, r.key)) != r.kept()]
        records = [StoredPhoneRequest(r.number, r.seat, r.key, r.token, r.kind, r.turn,
                                      r.phase, dict(r.values), r.summary, r.odds,
                                      r.state.value, r.reason) for r in changed]
        revealed: tuple[Any, ...] = self.revealed or ()
        if self.revealed is not None and self._kept.get(("", "")) != revealed:
            _session, turn, event = self.revealed
            records.append(StoredPhoneRequest(0, "", "", "", REVEALED, turn, 0,
                                              {"event": event}, "", "", "accepted", ""))
        if not records:
            return
        store.keep_phone_requests(records)
        for request in changed:
            self._kept[(request.seat, request.key)] = request.kept()
        self._kept[("", "")] = revealed

    def _keep_quietly(self) -> None:
        """:meth:`keep` after the GM's own change: a refused write is said in
        :attr:`problem` (the change stands in memory, and is written with the next)."""
        try:
            self.keep()
        except write_errors() as error:
            self.problem = f"the phones' requests could not be kept: {error}"

    def restore(self) -> None:
        """The session opened for play: its phones' requests as the database keeps them
        (the queue waiting, the speeds in, the keys seen; a restart loses none of them).
        Any other session's are dropped first."""
        session = self.table.session_id
        if session is not None and session == self._kept_session:
            return
        self.requests.clear()
        self._keys.clear()
        self._kept.clear()
        self.revealed = None
        self._count = 0
        store = self._store()
        self._kept_session = session if store is not None else None
        if store is None:
            return
        for row in store.phone_requests():
            if row.kind == REVEALED:
                self.revealed = (session or 0, row.turn, _int(row.values.get("event")))
                self._kept[("", "")] = self.revealed
                continue
            request = PhoneRequest(row.number, row.seat, row.token, row.key, row.kind,
                                   row.turn, row.phase, dict(row.values), row.summary,
                                   row.odds, RequestState(row.state), row.reason)
            self.requests.append(request)
            self._keys[(row.seat, row.key)] = request
            self._kept[(row.seat, row.key)] = request.kept()
            self._count = max(self._count, row.number)

    def answered(self) -> dict[str, dict[str, dict[str, Any]]]:
        """Seat → idempotency key → the answer a retry of it gets (the phones' server is
        told these when it starts: a retry after a restart is answered "again")."""
        found: dict[str, dict[str, dict[str, Any]]] = {}
        for request in self.requests[-KEYS_KEPT:]:
            found.setdefault(request.seat, {})[request.key] = {
                "key": request.key, "state": "received"}
        return found

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
        try:
            self.keep()  # committed before its phone is told it was received
        except write_errors() as error:  # not kept: not received (a retry may come again)
            self.requests.remove(request)
            del self._keys[(message.seat, message.key)]
            self.problem = f"a phone's request could not be kept: {error}"
            return None
        return request

    def _refusal(self, request: PhoneRequest) -> str:
        """Why ``request`` cannot be queued ("" when it can); its summary and odds set."""
        game = self._game()
        if game is None:
            return "no game is running at the table"
        clock = game.clock
        if request.kind in UNPHASED:
            return self._mission_refusal(request, game)
        if (request.turn, request.phase) != (clock.turn, clock.phase):
            return (f"that was for {clock.word} {request.turn}, "
                    f"{_phase_name(clock.phases, request.phase)}; the table is at "
                    f"{clock.word} {clock.turn}, {clock.phase_name}")
        if request.kind == "vehicle":
            return self._vehicle_refusal(request, game)
        if request.kind in ROLLS.get(game.ruleset.id, {}):
            return self._roll_refusal(request, game)
        if request.kind == "shot":
            return self._shot_refusal(request, game)
        if request.kind == "dice":
            return self._dice_refusal(request)
        if request.kind != "speed":
            return f"a phone cannot send {request.kind or 'that'}"
        return self._speed_refusal(request, game)

    def _speed_refusal(self, request: PhoneRequest, game: Game) -> str:
        if not self.speeds_open():
            return self.speeds_set() or "no secret speed is being chosen now"
        resolution = self._speed_resolution(request, game)
        if isinstance(resolution, str):
            return resolution
        if resolution.refusal is not None:
            return resolution.refusal.text()
        choice = next((c for c in self.speed_choices(request.seat)
                       if all(request.values.get(k) == v for k, v in c.values.items())), None)
        name = _seat_name(request, game)
        return self._secret_choice(
            request, f"secret speed for {name}: {choice.label if choice else '?'}",
            "allowed by the rules")

    def _secret_choice(self, request: PhoneRequest, summary: str, odds: str) -> str:
        """A seat's secret choice (a speed, a vehicle card) is allowed: it is described, and
        it replaces the seat's earlier choice of its kind, which is refused; no refusal."""
        request.summary = summary
        request.odds = odds
        for other in self.requests:
            if (other is not request and other.seat == request.seat
                    and other.kind == request.kind
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
        if game.ruleset.id == BATTLECARS.id:
            return self._battlecars_options(seat, game)
        from carwars_desktop.rules.mini_car_wars.procedures.common import SIDE_KEYS

        sheet: Any = game.sheet(seat)
        weapons = [{"value": str(n), "label": f"{n}: {w.label}"}
                   for n, w in enumerate(sheet.weapons, start=1) if w.status == "ready"]
        targets = [{"value": v.key, "label": v.name} for v in game.vehicles if v.key != seat]
        return {"weapons": weapons, "targets": targets, "sides": list(SIDE_KEYS)}

    def _battlecars_options(self, seat: str, game: Game) -> dict[str, Any] | None:
        """A Battlecars car's shot: its pods and turret (with their rounds), the other
        cars, the areas and bearings the fire procedure takes; None in the speeds phase
        (no car's Turn: nobody fires)."""
        from carwars_desktop.rules.battlecars.play.return_fire import turn_of
        from carwars_desktop.rules.battlecars.sheet import CarSheet
        from carwars_desktop.rules.battlecars.terms import BLOCKS, Bearing

        sheet = game.sheet(seat)
        if turn_of(game.clock) is None or not isinstance(sheet, CarSheet):
            return None
        mounts = [{"value": m.name, "label": f"{m.name} (" + (", ".join(
            w.value for w in sheet.load(m.name)) or "empty") + ")"} for m in sheet.mounts()
            if sheet.load(m.name)]
        targets = [{"value": v.key, "label": v.name} for v in game.vehicles if v.key != seat]
        mode = game.table_defaults(SHOTS[BATTLECARS.id], {"firer": seat}).get("mode", "")
        return {"fields": BATTLECARS.id, "mounts": mounts, "targets": targets,
                "areas": [b.value for b in BLOCKS], "bearings": [b.value for b in Bearing],
                "mode": mode}

    def _battlecars_raw(self, request: PhoneRequest, game: Game) -> dict[str, Any] | str:
        values = request.values
        options = self.shot_options(request.seat) or {}
        if str(values.get("mount")) not in {m["value"] for m in options.get("mounts", [])}:
            return "that pod or turret holds nothing to fire"
        if values.get("area") not in options.get("areas", []):
            return "choose the armour block aimed at"
        if values.get("bearing", "ahead") not in options.get("bearings", []):
            return "choose your bearing from the target"
        between = values.get("points_between", 0)
        if isinstance(between, str):
            between = int(between) if between.strip().isdigit() else -1
        if not isinstance(between, int) or not 0 <= between <= 40:
            return "points between: a whole number, 0 to 40"
        return {"firer": game.sheet(request.seat), "target": game.sheet(str(values["target"])),
                "mount": str(values["mount"]), "mode": str(options.get("mode", "")),
                "area": str(values["area"]), "bearing": str(values.get("bearing", "ahead")),
                "points_between": between, "smoke": values.get("smoke") is True}

    def _shot_raw(self, request: PhoneRequest, game: Game) -> dict[str, Any] | str:
        values = request.values
        target = values.get("target")
        if not isinstance(target, str) or target == request.seat or target not in {
                v.key for v in game.vehicles}:
            return "choose another vehicle as the target"
        if game.ruleset.id == BATTLECARS.id:
            return self._battlecars_raw(request, game)
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
        checked = _table_odds(game, procedure, bindings, raw)
        if isinstance(checked, str):
            return checked
        names = {v.key: v.name for v in game.vehicles}
        if game.ruleset.id == BATTLECARS.id:
            request.values["mode"] = raw["mode"]
            request.summary = (
                f"{names[request.seat]} fires {raw['mount']} at {names[bindings['target']]} "
                f"({raw['area']}, {raw['bearing']}, {raw['points_between']} points between"
                + (", smoke" if raw["smoke"] else "") + f"; {raw['mode']})")
            return _show_odds(request, *checked)
        weapon = next(w["label"] for w in (self.shot_options(request.seat) or {})["weapons"]
                      if w["value"] == raw["weapon"])
        request.summary = (f"{names[request.seat]} fires {weapon} at "
                           f"{names[bindings['target']]} ({raw['side']} side, range "
                           f"{raw['range']})")
        return _show_odds(request, *checked)

    def _dice_refusal(self, request: PhoneRequest) -> str:
        shot = self._shot_of(request)
        if shot is None:
            return "no shot of yours waits for these dice"
        typed = str(request.values.get("dice", ""))
        try:
            compact_dice(typed)
        except (ResolveError, ValueError) as error:
            return f"not dice: {error}"
        if shot.values.get("fired"):
            return "that shot was fired already"
        shot.values["dice"] = typed
        request.summary = f"dice {typed} for {shot.summary}"
        if shot.state is RequestState.ACCEPTED and self._rolled_here(shot):
            why = self._fire(shot, None)  # the GM accepted it: fired with these dice
            if why:
                shot.values["dice"] = ""
                return f"the dice do not fit: {why}"
            shot.reason = ""
        request.state = RequestState.ACCEPTED  # dice only go with a shot the GM accepts
        if shot.state is RequestState.ACCEPTED and self.on_dice is not None and \
                not self._rolled_here(shot):
            self.on_dice(shot)
        return ""

    def _rolled_here(self, request: PhoneRequest) -> bool:
        """A request the GM accepts and its phone's dice then resolve (no fire batch): a
        Battlecars shot, an AUTOpower attack or control roll."""
        ruleset = game_ruleset(self._game())
        return (request.kind == "shot" and ruleset == BATTLECARS.id) or \
            request.kind in ROLLS.get(ruleset, {})

    def _fire(self, request: PhoneRequest, initiator: object) -> str:
        """A Battlecars shot the GM accepted, fired with the dice its player typed: one
        ordinary event (undoable), logged "from Bob's phone"; why not, or ""."""


        game = self._game()
        if game is None:
            return "no game is running at the table"
        if request.kind == "shot":
            raw = self._shot_raw(request, game)
            if isinstance(raw, str):
                return raw
            procedure = find_procedure(self.shot_procedure())
            bindings = {"firer": request.seat, "target": str(request.values["target"])}
        else:
            found = self._roll_raw(request, game)
            if isinstance(found, str):
                return found
            procedure, raw, bindings = find_procedure(found[0]), found[1], found[2]
        try:
            faces = compact_dice(str(request.values.get("dice", "")))
            pending = self.table.resolve(procedure, raw, EnteredDice(faces),
                                         bindings=bindings, initiator=initiator)
        except (ResolveError, InputError, DiceError, ValueError) as error:
            return str(error)
        pending.resolution = replace(
            pending.resolution, outcome=f"{pending.resolution.outcome} "
                                        f"(from {self.player_of(request.seat)}'s phone)")
        try:
            pending.apply(initiator=initiator)
        except (ResolveError, ValueError) as error:
            pending.discard(initiator)
            return str(error)
        request.values["fired"] = True
        return ""

    def _shot_of(self, request: PhoneRequest) -> PhoneRequest | None:
        key = request.values.get("shot")
        return next((r for r in self.requests if r.seat == request.seat and r.key == key
                     and r.kind in ("shot", "attack", "control")
                     and r.state in (RequestState.WAITING,
                                                          RequestState.ACCEPTED)
                     and (r.turn, r.phase) == (request.turn, request.phase)), None)

    def shot_declaration(self, request: PhoneRequest) -> tuple[dict[str, Any], dict[str, str],
                                                               str, str]:
        """A shot as the fire batch takes it: the form's values, the vehicles, the dice
        typed, and its label ("… from Bob's phone")."""
        game = self._game()
        kept = BATTLECARS_SHOT + ("mode",) if game_ruleset(game) == BATTLECARS.id else (
            "weapon", "side", "range")
        values = {k: v for k, v in request.values.items() if k in kept}
        bindings = {"firer": request.seat, "target": str(request.values["target"])}
        return (values, bindings, str(request.values.get("dice", "")),
                f"from {self.player_of(request.seat)}'s phone")

    # --- AUTOpower's vehicle choice ---------------------------------------------------------
    def vehicles_open(self) -> bool:
        """The vehicles may be chosen on the phones: AUTOpower, nothing played yet."""
        game = self._game()
        return (game is not None and game.ruleset.id in VEHICLE_CHOICE
                and (game.clock.turn, game.clock.phase) == (1, 0) and not game.can_undo())

    def vehicle_choices(self) -> dict[str, Any]:
        """The character cards that fit the duel's division (AP-D2 as the session has it),
        by name."""

        game = self._game()
        if game is None:
            return {}
        try:
            options = Options.from_json(dict(game.house))
        except (OptionsFormatError, ValueError, TypeError):
            options = Options()
        cards = game.ruleset.catalog()
        return {name: card for name, card in cards.items()
                if not card.problems(options.division, options.ap_d2_division_is_upper_limit)}

    def _vehicles(self) -> list[PhoneRequest]:
        return [r for r in self.requests if r.kind == "vehicle" and r.state is RequestState.IN]

    def _vehicle_refusal(self, request: PhoneRequest, game: Game) -> str:
        if not self.vehicles_open():
            return f"the vehicles are chosen before anything is played ({VEHICLES_RULE})"
        card = request.values.get("card")
        if card not in self.vehicle_choices():
            return "that card does not fit the duel's division"
        return self._secret_choice(
            request, f"a secret vehicle card for {_seat_name(request, game)}",
            "fits the division")

    def _reveal_vehicles(self, initiator: object) -> None:
        """Every player has chosen: the cards revealed together as one event, each seat's
        sheet the new card's (AUTOpower §2.2 step 1)."""

        game = self._game()
        chosen = self._vehicles()
        if game is None or {r.seat for r in chosen} != {v.key for v in game.vehicles}:
            return
        cards = self.vehicle_choices()
        names = {v.key: v.name for v in game.vehicles}
        sheets: dict[str, RecordSheet] = {r.seat: new_sheet(cards[str(r.values["card"])])
                                          for r in chosen}
        shown = "; ".join(f"{names[r.seat]}: {r.values['card']}" for r in chosen)
        senders = [f"{self.player_of(r.seat)}'s" for r in chosen]
        self.table.set_clock(game.clock, f"Vehicles revealed: {shown} (from "
                             f"{', '.join(senders)} phones)", sheets, initiator=initiator)
        for request in chosen:
            request.state = RequestState.ACCEPTED

    # --- AUTOpower's attacks and control rolls ----------------------------------------------
    def roll_options(self, seat: str) -> dict[str, Any] | None:
        """What an AUTOpower seat's phone may ask for: an attack (its targets) and, with
        the Control variant, a control roll; None for another ruleset."""
        game = self._game()
        if game is None or seat not in {v.key for v in game.vehicles} or \
                game.ruleset.id not in ROLLS:
            return None
        sheet: Any = game.sheet(seat)
        return {"targets": [{"value": v.key, "label": v.name} for v in game.vehicles
                            if v.key != seat],
                "hand": int(getattr(sheet, "hand_size", 0)), "tracked": False,
                "kinds": [kind for kind, procedure in ROLLS[game.ruleset.id].items()
                          if find_procedure(procedure).offered(game.house)]}

    def _roll_raw(self, request: PhoneRequest, game: Game
                  ) -> tuple[str, dict[str, Any], dict[str, str]] | str:
        """(procedure, its inputs, its vehicles) of an AUTOpower roll; why not."""
        values = request.values
        procedure = ROLLS[game.ruleset.id][request.kind]
        not_offered = find_procedure(procedure).not_offered(game.house,
                                                            "this session's house rules")
        if not_offered:  # a variant's roll (§2.8) asked for with the variant off
            return not_offered
        iq = str(values.get("iq_cards", ""))
        if request.kind == "control":  # after damage taken: the sheet says how much
            from carwars_desktop.rules.autopower.play import car_sheet

            damage = car_sheet(game.sheet(request.seat)).control_due
            if damage is None:
                return "no control roll is due for your car (§2.8: after damage from a hit)"
            return (procedure, {"vehicle": game.sheet(request.seat), "damage": damage,
                                "iq_cards": iq}, {"vehicle": request.seat})
        name = _seat_name(request, game)
        now, _, step = game.clock.phase_name.rpartition(": ")
        if (now, step) != (name, "combat"):
            return (f"only the active player attacks, in their combat phase (AP-D4); the "
                    f"table is at {game.clock.phase_name}")
        target = values.get("target")
        if not isinstance(target, str) or target == request.seat or target not in {
                v.key for v in game.vehicles}:
            return "choose another vehicle as the target"
        return (procedure, {"firer": game.sheet(request.seat), "target": game.sheet(target),
                            "cards": str(values.get("cards", "")), "iq_cards": iq},
                {"firer": request.seat, "target": target})

    def _roll_refusal(self, request: PhoneRequest, game: Game) -> str:
        raw = self._roll_raw(request, game)
        if isinstance(raw, str):
            return raw
        procedure_id, inputs, bindings = raw
        checked = _table_odds(game, find_procedure(procedure_id), bindings, inputs)
        if isinstance(checked, str):
            return checked
        names = {v.key: v.name for v in game.vehicles}
        iq = f", IQ cards {inputs['iq_cards']}" if inputs["iq_cards"] else ""
        request.summary = (
            f"{names[request.seat]} attacks {names[bindings['target']]} with Fighting cards "
            f"{inputs['cards']}{iq}" if request.kind == "attack" else
            f"{names[request.seat]}'s control roll after {inputs['damage']} damage{iq}")
        return _show_odds(request, *checked)

    # --- the secret mission (Battlecars, Mission Accomplished) ------------------------------
    def mission_car(self, seat: str) -> int:
        """The car number of ``seat`` in Mission Accomplished (1–4, the session's order),
        0 when its phone rolls no mission (another ruleset, a fifth car)."""
        game = self._game()
        if game is None or game.ruleset.id not in MISSIONS:
            return 0
        keys = [v.key for v in game.vehicles]
        number = keys.index(seat) + 1 if seat in keys else 0
        return number if number <= MISSION_CARS else 0

    def mission_of(self, seat: str, besides: PhoneRequest | None = None
                   ) -> PhoneRequest | None:
        """The seat's secret mission (other than ``besides``): accepted (in, hidden;
        accepted once done), or waiting for the GM."""
        return next((r for r in reversed(self.requests) if r.seat == seat
                     and r.kind == "mission" and r is not besides
                     and r.state is not RequestState.REFUSED), None)

    def missions_done(self) -> list[dict[str, str]]:
        """The missions declared done and accepted (the only ones anybody else sees)."""
        return [{"player": self.player_of(r.seat), "goal": str(r.values.get("goal", ""))}
                for r in self.requests if r.kind == "mission"
                and r.state is RequestState.ACCEPTED]

    def _mission_refusal(self, request: PhoneRequest, game: Game) -> str:
        car = self.mission_car(request.seat)
        if not car:
            return ("no secret mission here: Mission Accomplished is Battlecars', for cars "
                    f"1–{MISSION_CARS}")
        mission = self.mission_of(request.seat, request)
        name = _seat_name(request, game)
        if request.kind == "mission_done":
            if mission is None or mission.state is not RequestState.IN:
                return "you have no secret mission in to declare done"
            if any(r is not request and r.seat == request.seat and r.kind == "mission_done"
                   and r.state is RequestState.WAITING for r in self.requests):
                return "your mission is declared done already: the GM is checking it"
            request.summary = (f"{name}'s mission accomplished: "
                               f"{mission.values.get('goal', '?')}")
            request.odds = "the GM checks it (BC-D33: only kills this car caused count)"
            return ""
        if mission is not None:
            return "your secret mission is rolled already"
        try:
            faces = compact_dice(str(request.values.get("dice", "")))
        except (ResolveError, ValueError) as error:
            return f"not a die: {error}"
        procedure = find_procedure(MISSIONS[game.ruleset.id])
        if len(faces) != 1:
            return "the mission roll is one d8: type its face, 1 to 8"
        try:
            resolution = procedure.resolve({"car": car}, EnteredDice(faces), game.house)
        except (InputError, ValueError) as error:
            return f"not a mission roll: {error}"
        from carwars_desktop.rules.battlecars.options import options_from
        from carwars_desktop.rules.battlecars.scenarios import mission_for

        plot = mission_for(car, faces[0], options_from(procedure.bind({"car": car},
                                                                      dict(game.house))))
        request.values["goal"] = resolution.outcome
        request.values["face"] = faces[0]
        request.values["story"] = plot.story
        request.summary = f"secret mission for {name} (car {car})"
        request.odds = f"car {car} rolled {faces[0]} on 1d8"
        return ""

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
            self._keep_quietly()
            return
        if request.kind == "vehicle":
            request.state = RequestState.IN
            self._reveal_vehicles(initiator)
            self._keep_quietly()
            return
        if request.kind in UNPHASED:
            self._accept_mission(request, initiator)
            self._keep_quietly()
            return
        if self._rolled_here(request):
            request.state = RequestState.ACCEPTED  # fired with its player's dice
            if request.values.get("dice"):
                why = self._fire(request, initiator)
                if why:
                    request.values["dice"] = ""
                    request.reason = f"the dice did not fit: {why}; type them again"
            self._keep_quietly()
            return
        if request.kind == "shot":
            why = self.declare(request) if self.declare is not None else \
                "no fire batch at the table"
            if why:
                self._refused(request, why)
            else:
                request.state = RequestState.ACCEPTED
            self._keep_quietly()
            return
        request.state = RequestState.IN
        if self.speeds_in()[0] == self.speeds_in()[1]:
            self.reveal(initiator)
        self._keep_quietly()

    def _accept_mission(self, request: PhoneRequest, initiator: object) -> None:
        """A mission roll is in, kept hidden (the log says only that it was rolled); one
        declared done reveals it, in the log and to everybody, as one ordinary event."""
        who = self.player_of(request.seat)
        if request.kind == "mission":
            request.state = RequestState.IN
            self.table.note(f"{who}'s secret mission is rolled (kept hidden until it is "
                            f"done; from {who}'s phone)", initiator=initiator)
            return
        mission = self.mission_of(request.seat)
        assert mission is not None
        mission.state = RequestState.ACCEPTED
        request.state = RequestState.ACCEPTED
        self.table.note(f"{request.summary} (from {who}'s phone)",
                        [str(mission.values.get("story", ""))], initiator=initiator)

    def edited(self, request: PhoneRequest) -> tuple[str, dict[str, Any], str]:
        """The GM opens ``request`` in the normal dialog: it leaves the queue (the dialog's
        result is the event); the procedure, its presets (vehicles as keys) and a note."""
        request.state = RequestState.ACCEPTED
        request.reason = "edited by the GM"
        self._keep_quietly()
        note = f"from {self.player_of(request.seat)}'s phone"
        if request.kind == "shot":
            values, bindings, _dice, _label = self.shot_declaration(request)
            return self.shot_procedure(), {**bindings, **values}, note
        game = self._game()
        if request.kind in UNPHASED and game is not None:
            return MISSIONS.get(game.ruleset.id, ""), {
                "car": self.mission_car(request.seat)}, note
        rules = self.speed_rules()
        procedure = rules.procedure if rules is not None else ""
        presets = {"vehicle": request.seat, **{k: v for k, v in request.values.items()
                                                if k in ("speed", "reverse", "direction")}}
        return procedure, presets, note

    def refuse(self, request: PhoneRequest, reason: str) -> None:
        """Refuse ``request`` with ``reason`` (its phone shows it)."""
        if request.state in (RequestState.WAITING, RequestState.IN):
            self._refused(request, reason or "refused by the GM")
            self._keep_quietly()

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
        closed = not self.speeds_open()  # (a speed set at the Clock, a move: too late)
        passed = [r for r in self.requests if r.state in (RequestState.WAITING,
                                                         RequestState.IN)
                  and r.kind not in UNPHASED
                  and ((r.turn, r.phase) != now or (r.kind == "speed" and closed))]
        for request in passed:
            self._refused(request, self._refusal(request) or "its moment has passed")
        self._keep_quietly()
        return bool(passed)

    def revoke(self, tokens: Sequence[str] | None = None,
               reason: str = "this link was revoked") -> None:
        """The links of ``tokens`` (None: every link) were revoked, or the session ended:
        their requests not accepted yet are refused, saying ``reason``."""
        for request in self.requests:
            held = request.kind == "mission" and request.state is RequestState.IN
            if (tokens is None or request.token in tokens) and not held and request.state in (
                    RequestState.WAITING, RequestState.IN):
                self._refused(request, reason)
        self._keep_quietly()

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
        if game is not None and self.vehicles_open():  # AUTOpower's vehicle cards
            chosen = {r.seat for r in self._vehicles()}
            return [self.player_of(v.key) for v in game.vehicles if v.key not in chosen]
        if game is None or not self.speeds_open():
            return []
        done = {r.seat for r in self._speeds()}
        return [self.player_of(v.key) for v in game.vehicles if v.key not in done]

    def reveal(self, initiator: object = None) -> PendingResolution | None:
        """Apply the speeds in as ONE event (undoable): each vehicle's speed procedure on
        its own sheet, logged "from Bob's, Di's phones"; None when none is in."""
        game = self._game()
        speeds = self._speeds()
        if game is None or not speeds:
            return None
        if not self.speeds_open():  # too late: never applied on top of the turn's speeds
            for request in speeds:
                self._refused(request, self._refusal(request) or "its moment has passed")
            self._keep_quietly()
            return None
        self._revealing = True
        try:
            if game.ruleset.id == BATTLECARS.id:
                self._reveal_round(game, speeds, initiator)
                return None
            return self._reveal_each(game, speeds, initiator)
        finally:
            self._revealing = False
            self._keep_quietly()

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
        if car := self.mission_car(seat):  # its own mission only, never another seat's
            mission = self.mission_of(seat)
            done = next((r for r in reversed(self.requests) if r.seat == seat
                         and r.kind == "mission_done"
                         and r.state is not RequestState.REFUSED), None)
            state["mission"] = {"car": car} if mission is None else {
                "car": car, "goal": mission.values.get("goal", ""),
                "story": mission.values.get("story", ""), "face": mission.values.get("face"),
                "state": ("done" if mission.state is RequestState.ACCEPTED else
                          "declared" if done is not None else mission.state.value)}
        if self.vehicles_open():
            mine_card = next((r for r in reversed(self.requests) if r.seat == seat
                              and r.kind == "vehicle" and r.state in (RequestState.WAITING,
                                                                      RequestState.IN)), None)
            state["vehicles"] = [{"label": n, "values": {"card": n}}
                                 for n in self.vehicle_choices()]
            state["vehicle_sent"] = "" if mine_card is None else str(mine_card.values["card"])
        if self.speeds_open():
            mine = next((r for r in reversed(self.requests) if r.seat == seat
                         and r.kind == "speed" and r.turn == game.clock.turn
                         and r.state in (RequestState.WAITING, RequestState.IN)), None)
            state["speeds"] = [c.to_json() for c in self.speed_choices(seat)]
            state["speed_sent"] = mine.summary if mine is not None else ""
        elif (options := self.shot_options(seat)) is not None or (
                rolls := self.roll_options(seat)) is not None:
            if options is not None:
                state["shot"] = options
            else:
                state["rolls"] = rolls
            state["shots"] = [
                {"key": r.key, "summary": r.summary, "odds": r.odds, "state": r.state.value,
                 "dice_needed": r.values.get("dice_needed", ""),
                 "dice": r.values.get("dice", ""), "fired": bool(r.values.get("fired")),
                 "reason": r.reason}
                for r in self.requests if r.seat == seat
                and r.kind in ("shot", "attack", "control")
                and (r.turn, r.phase) == (game.clock.turn, game.clock.phase)
                and r.state in (RequestState.WAITING, RequestState.ACCEPTED)]
        return state

    def forget(self) -> None:
        """The session closed (or another opened): nothing of its requests stays here (the
        database keeps them, as they were, for the next time it is played)."""
        self.requests.clear()
        self._keys.clear()
        self._kept.clear()
        self._kept_session = None
        self.revealed = None
        self._count = 0


def game_ruleset(game: Game | None) -> str:
    return "" if game is None else game.ruleset.id


def write_errors() -> tuple[type[BaseException], ...]:
    """What a refused write of the phones' requests (or of the sharing kept for a
    session) raises: nothing was kept."""
    return (DatabaseError, StaleSessionError, ValueError, LookupError)


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


__all__ = ["AUTO_SPEEDS", "MISSIONS", "ROLLS", "SHOTS", "SPEEDS", "VEHICLE_CHOICE", "PhoneDesk",
           "PhoneRequest", "PhoneStore", "RequestState", "SpeedChoice", "SpeedRules"]


def _seat_name(request: PhoneRequest, game: Game) -> str:
    """The name of the vehicle whose seat sent ``request``."""
    return next(v.name for v in game.vehicles if v.key == request.seat)


def _table_odds(game: Game, procedure: Procedure, bindings: Mapping[str, str],
                inputs: Mapping[str, Any]) -> tuple[Odds, tuple[DiceNeed, ...]] | str:
    """The odds of a roll a phone asks for and the dice it needs, or why the table
    refuses it (its inputs, or the game as it stands)."""
    refused = game.table_problems(procedure.id, bindings,
                                  {k: v for k, v in inputs.items() if k not in bindings})
    if refused:
        return "; ".join(refused)
    try:
        return procedure.odds(inputs, game.house), procedure.dice_needed(inputs, game.house)
    except (InputError, ValueError) as error:
        return str(error)


def _show_odds(request: PhoneRequest, odds: Odds, needs: Sequence[DiceNeed]) -> str:
    """The GM sees an allowed roll's target and chance and the dice it needs; no refusal."""
    p = odds.p_success()
    request.odds = " · ".join(part for part in (
        f"need {odds.need}+" if odds.need is not None else "",
        "" if p is None else odds_text(p)) if part)
    request.values["dice_needed"] = " → ".join(str(n) for n in needs) or "no dice"
    return ""
