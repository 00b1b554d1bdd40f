"""A ruleset is a value: everything one rule system is, in one place.

Its design kinds (how to read, start, summarize and describe each), its
record-sheet type, its clock (phases and the word for a turn), the Table's play
rules, its decisions (options) type, procedures, reference tables and catalog.
Callers never branch on a ruleset's id: they ask its :class:`Ruleset` (python-chess
variants override hooks on one ``Board`` type the same way).

A ruleset's id and title are written once, in its :class:`RulesetEntry` (what is known of
it without importing it); its ``Ruleset``, design kinds, procedures and play rules take
them from there. ``Ruleset`` and ``DesignKind`` are generic in the ruleset's design, sheet
and options types, so mypy checks every hook a ruleset gives against the others.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeAlias, TypeVar

from carwars_desktop.procedures import Procedure
from carwars_desktop.procedures.citation import check_citation
from carwars_desktop.rules.clock import Clock

if TYPE_CHECKING:
    from carwars_desktop.rules.kernel.decisions import DecisionSet
    from carwars_desktop.rules.play import PlayRules



def play_from(module: str) -> Callable[[], PlayRules]:
    """A :class:`Ruleset`'s ``play``: the ``RULES`` of its play module ``module`` (such as
    ``carwars_desktop.rules.battlecars.play``), imported only when first asked for — the
    play modules import the ruleset's procedures, which import the ruleset's package."""

    def play() -> PlayRules:
        rules: PlayRules = importlib.import_module(module).RULES
        return rules

    return play


VEHICLE = "vehicle"
"""The design kind every ruleset has; others (AUTOpower's ``deck``) are the ruleset's own."""


@dataclass(frozen=True)
class Problem:
    """One defect of a design: a readable reason, its rule, and the field at fault."""

    code: str
    message: str
    rule: str
    field: str = ""

    def __post_init__(self) -> None:
        check_citation(f"problem {self.code}", self.rule)

    def __str__(self) -> str:
        return f"{self.message} [{self.rule}]"

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message, "rule": self.rule,
                "field": self.field}


class Design(Protocol):
    """A vehicle design of some ruleset (what the Workshop edits and the library keeps)."""

    @property
    def name(self) -> str: ...

    def to_json(self) -> dict[str, Any]: ...

    def problems(self) -> tuple[Problem, ...]: ...


class RecordSheet(Protocol):
    """The live state of one vehicle in play."""

    @property
    def name(self) -> str: ...

    def to_json(self) -> dict[str, Any]: ...


class DesignDataError(ValueError):
    """Design JSON that the ruleset's engine refuses (the message says why)."""


class UnknownKindError(LookupError):
    """No ruleset keeps designs of that kind."""


@dataclass(frozen=True)
class RulesetEntry:
    """What is known of a ruleset without importing it: the one place of its id and title.

    A ruleset package is found through the ``carwars_desktop.rulesets`` entry-point group:
    each entry point is named by the ruleset's id and names its ``RulesetEntry`` (in a
    module that imports nothing heavy, so menus at start-up cost nothing).

    Args:
        id: the registry id (``mini_car_wars``), stored in sessions and designs.
        title: the game's name, for menus at start-up.
        module: the package exporting ``RULESET`` (a :class:`Ruleset`).
        procedure_prefix: the first part of its procedure ids (``mini`` in ``mini.fire``).
        screens: the module exporting its screens (``UI``, a ``RulesetUI`` of the GUI);
            ``""``: it has none, and the app refuses to open its designs or sessions.
    """

    id: str
    title: str
    module: str
    procedure_prefix: str
    screens: str = ""


D = TypeVar("D")
OptionsT = TypeVar("OptionsT")
"""The options type of a ruleset's house rules (its decisions)."""
DesignT = TypeVar("DesignT", bound="Design")
SheetT = TypeVar("SheetT", bound="RecordSheet")

Purchase = Callable[[Sequence[D], str | None, int, int | None], tuple["Problem", ...]]
"""(designs, scenario key or ``None``, side, budget or ``None``) → every problem."""
HousePurchase = Callable[[Sequence[D], str | None, int, int | None, OptionsT],
                         tuple["Problem", ...]]
"""``Purchase`` under an options value of the ruleset's house rules."""
JsonObject: TypeAlias = Mapping[str, object]
"""A design's or sheet's JSON form, as read (its values are the engine's to check)."""


@dataclass(frozen=True)
class DesignFigures:
    """What the library lists of a design besides its problems.

    ``cost`` and ``class_value`` are the numbers it sorts by (their text comes from
    :attr:`DesignKind.cost_text` / :attr:`DesignKind.class_text`); ``warnings`` never
    make a design illegal.
    """

    cost: int | None = None
    class_value: int | None = None
    warnings: tuple[Problem, ...] = ()


def no_figures(design: object) -> DesignFigures:
    return DesignFigures()


def dash(value: int | None) -> str:
    return "—"


@dataclass(frozen=True)
class DesignKind(Generic[D, OptionsT]):
    """One kind of design of one ruleset (what the Library lists and the Workshop edits).

    ``D`` is the engine's type of this kind, ``OptionsT`` the ruleset's options type.

    Args:
        ruleset: the ruleset's entry (its id, ``autopower``, and title, ``AUTOpower``).
        kind: ``vehicle`` or the ruleset's own (``deck``).
        title: what the players call it (``Car``, ``Card``, ``Deck``).
        default_name: the name of a new one (``New car``).
        design_type: the engine's type of this kind.
        reader: the engine's JSON reader (raises ``ValueError`` & co on bad data).
        new: a fresh design called ``name`` (deliberately incomplete where the player
            must choose: the validation lists what is missing).
        figures: cost, class and warnings for the library.
        cost_text / class_text: the library's words for those numbers.
        purchase: checks a player's purchase of several designs, for a scenario (one of
            ``scenarios``, or ``None``) and side, against a budget (``None``: the
            scenario's own): every problem at once, each design's own included.
        scenarios: scenario key → name, for ``purchase``.
        house_problems: the design's problems under an options value of the ruleset's
            house rules (MCW-D22, AP-D2); ``None``: house rules change nothing here.
        house_purchase: ``purchase`` under an options value (MCW-D26, the budget).
        entry_problems: the problems that keep the design out of a session under an
            options value (``None``: the rules refuse none at the Table; a Battlecars
            card's own problems are refused by its sheet, AUTOpower refuses a car above
            the duel's division, §2.2 step 1 and AP-D2).
    """

    ruleset: RulesetEntry
    kind: str
    title: str
    default_name: str
    design_type: type[D]
    reader: Callable[[JsonObject], D]
    new: Callable[[str], D]
    figures: Callable[[D], DesignFigures] = no_figures
    cost_text: Callable[[int | None], str] = dash
    class_text: Callable[[int | None], str] = dash
    purchase: Purchase[D] | None = None
    scenarios: Mapping[str, str] = field(default_factory=dict)
    house_problems: Callable[[D, OptionsT], tuple[Problem, ...]] | None = None
    house_purchase: HousePurchase[D, OptionsT] | None = None
    entry_problems: Callable[[D, OptionsT], tuple[Problem, ...]] | None = None

    @property
    def ruleset_id(self) -> str:
        return self.ruleset.id

    @property
    def ruleset_title(self) -> str:
        return self.ruleset.title

    def refused_entry(self, design: object, options: OptionsT) -> tuple[Problem, ...]:
        """Why ``design`` may not enter a session played under ``options`` (``()``: it
        may); the design's other problems are shown, not refused."""
        if self.entry_problems is None:
            return ()
        return self.entry_problems(self.own(design), options)

    def problems_under(self, design: object, options: OptionsT | None) -> tuple[Problem, ...]:
        """``design``'s problems under the house rules ``options`` (its own otherwise)."""
        own = self.own(design)
        if self.house_problems is None or options is None:
            return tuple(own.problems())  # type: ignore[attr-defined]
        return self.house_problems(own, options)

    def purchase_under(self, designs: Sequence[object], scenario: str | None, side: int,
                       budget: int | None, options: OptionsT | None) -> tuple[Problem, ...]:
        """The purchase check under the house rules ``options``."""
        own = [self.own(design) for design in designs]
        if self.house_purchase is not None and options is not None:
            return self.house_purchase(own, scenario, side, budget, options)
        if self.purchase is None:
            return ()
        return self.purchase(own, scenario, side, budget)

    def load(self, data: JsonObject) -> D:
        """The design the engine reads from ``data``; refused with :class:`DesignDataError`."""
        try:
            return self.reader(data)
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as error:
            raise DesignDataError(f"not a valid {self.ruleset_title} {self.title.lower()}: "
                                  f"{error}") from error

    def own(self, design: object) -> D:
        """``design`` as this kind's type; a design of another kind is a :class:`TypeError`."""
        if not isinstance(design, self.design_type):
            raise TypeError(f"expected a {self.ruleset_title} {self.title.lower()} "
                            f"({self.design_type.__name__}), got {type(design).__name__}")
        return design

    def describe(self, design: object) -> DesignFigures:
        return self.figures(self.own(design))


@dataclass(frozen=True)
class ReferenceTable:
    """A rules table for browsing (the data itself lives once, in the ruleset's tables module)."""

    id: str
    title: str
    rule: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    note: str = ""

    def __post_init__(self) -> None:
        check_citation(f"table {self.id}", self.rule)


@dataclass(frozen=True)
class Ruleset(Generic[DesignT, SheetT, OptionsT]):
    """One rule system, as python-chess keeps a variant.

    Generic in its vehicle design type ``DesignT``, record-sheet type ``SheetT`` and
    options type ``OptionsT``: a ruleset's hooks are checked against each other.

    Args:
        entry: its entry (the one place of its id and title: :attr:`id`, :attr:`title`).
        dice: the dice it uses, for display (``d6``).
        digest: the digest file it implements (``mini-car-wars.md``).
        procedures: every declared procedure.
        tables: the reference tables, for browsing.
        catalog: the vehicles the rules ship, by name (stock list, samples).
        kinds: its kinds of design, vehicles first.
        sheet_type: the engine's record-sheet type.
        sheet_from_json: load a sheet's JSON form.
        sheet_for_design: a fresh record sheet for a vehicle design (it enters play).
        phases: the phases of one turn (round) with these vehicles in play, in order.
        play: the Table's play rules (a function, so the engine's play modules load
            only when a session of this ruleset opens).
        turn_word: what a turn is called (``round`` in Battlecars).
        options_type: the type of its decisions (the digest's ``…-Dn`` switches).
        decisions: its house rules declared once (each decision of ``options_type``,
            its pre-game questions too); ``None`` when it has none.
        house_sheet: ``sheet_for_design`` under an options value (MCW-D15 shots, D19
            links, D28 turret); ``None``: house rules change no fresh sheet.
    """

    entry: RulesetEntry
    dice: str
    digest: str
    procedures: tuple[Procedure, ...]
    tables: tuple[ReferenceTable, ...]
    catalog: Callable[[], Mapping[str, DesignT]]
    kinds: tuple[DesignKind[DesignT, OptionsT], *tuple[DesignKind[Any, OptionsT], ...]]
    sheet_type: type[SheetT]
    sheet_from_json: Callable[[JsonObject], SheetT]
    sheet_for_design: Callable[[DesignT], SheetT]
    phases: Callable[[Sequence[str]], tuple[str, ...]]
    play: Callable[[], PlayRules]
    turn_word: str = "turn"
    options_type: type[OptionsT] | None = None
    decisions: DecisionSet[OptionsT] | None = None
    house_sheet: Callable[[DesignT, OptionsT], SheetT] | None = None
    victory: str | None = None
    """The id of its procedure that says who won from the sheets as they end (the battle
    report's victory check); ``None``: the rules have none."""

    @property
    def id(self) -> str:
        return self.entry.id

    @property
    def title(self) -> str:
        return self.entry.title

    def sheet_under(self, design: object, options: OptionsT | None) -> SheetT:
        """A fresh record sheet for ``design`` (a vehicle design of this ruleset) under the
        house rules ``options`` (``None``: the digest's defaults)."""
        own = self.vehicle.own(design)
        if self.house_sheet is None or options is None:
            return self.sheet_for_design(own)
        return self.house_sheet(own, options)

    def __post_init__(self) -> None:
        if not self.kinds or self.kinds[0].kind != VEHICLE:
            raise ValueError(f"ruleset {self.id!r}: its first design kind must be {VEHICLE!r}")
        for kind in self.kinds:
            if kind.ruleset != self.entry:
                raise ValueError(f"ruleset {self.id!r}: its {kind.kind!r} kind belongs to "
                                 f"{kind.ruleset.id!r}")

    @property
    def vehicle(self) -> DesignKind[DesignT, OptionsT]:
        return self.kinds[0]

    def kind(self, kind: str = VEHICLE) -> DesignKind[Any, OptionsT]:
        """Its kind ``kind``; :class:`UnknownKindError` when it has none."""
        for design_kind in self.kinds:
            if design_kind.kind == kind:
                return design_kind
        known = ", ".join(k.kind for k in self.kinds)
        raise UnknownKindError(f"{self.title} has no design kind {kind!r} (known: {known})")

    def design_from_json(self, data: JsonObject) -> DesignT:
        """A vehicle design read from JSON (the engine's own errors on bad data)."""
        return self.vehicle.reader(data)

    def house_options(self, values: Mapping[str, object] | None = None) -> OptionsT | None:
        """Its options value for house-rule ``values`` (the digest's defaults: ``None``)."""
        if self.decisions is None:
            return None if self.options_type is None else self.options_type()
        return self.decisions.options(values or {})

    def start_clock(self, vehicle_names: Sequence[str]) -> Clock:
        """Turn 1, the first phase, with these vehicles in play."""
        return Clock(1, 0, self.phases(vehicle_names), self.turn_word)

    def own_sheet(self, sheet: object) -> SheetT:
        """``sheet`` checked to be this ruleset's sheet type (a clear :class:`TypeError`)."""
        if not isinstance(sheet, self.sheet_type):
            raise TypeError(f"expected a {self.title} sheet ({self.sheet_type.__name__}), "
                            f"got {type(sheet).__name__}")
        return sheet


AnyRuleset: TypeAlias = "Ruleset[Any, Any, Any]"
"""A ruleset whose types the caller does not know (what the registry hands out by id)."""
