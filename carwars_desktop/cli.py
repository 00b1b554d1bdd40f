"""``carwars-desktop resolve``: every declared procedure on the command line.

    carwars-desktop resolve --list [--ruleset ID] [--json]
    carwars-desktop resolve ID --set NAME=VALUE … [--dice 5,4,…] [--seed N] [--json]
        [--rules PROFILE|@file.json] [--option DECISION=VALUE …] [--db URL]

Dice given with ``--dice`` are used in the order the steps ask for them; any
still needed are rolled from ``--seed``, or refused when no seed is given.

Exit status: 0 resolved; 2 bad input (an unknown id or input, a malformed value,
dice that do not fit) with a one-line reason on stderr; 3 the rules refuse it
(a weapon that already fired, a speed out of reach): the refusal, with its rule,
is printed like any resolution (or on stderr when it is known before the dice).
See docs/command-line.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from carwars_desktop.dice import DiceError, EnteredDice, SeededDice, parse_dice_values
from carwars_desktop.house_cli import house_from_args
from carwars_desktop.procedures import (
    House,
    InputError,
    Procedure,
    Resolution,
    RulesRefusal,
    SheetInput,
)
from carwars_desktop.rules import (
    UnknownProcedureError,
    UnknownRulesetError,
    all_procedures,
    find_procedure,
)

EXIT_BAD_INPUT = 2
"""A malformed command line, an unknown procedure or input, a bad value or dice."""
EXIT_REFUSED = 3
"""The rules do not allow it: a :class:`~carwars_desktop.procedures.Refusal`."""


class UsageError(ValueError):
    """A malformed command line (exit status 2)."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="carwars-desktop resolve",
        description="Resolve a rules procedure with entered or seeded dice.",
    )
    parser.add_argument("procedure", nargs="?", help="procedure id, e.g. mini.fire")
    parser.add_argument("--list", action="store_true", help="list every procedure")
    parser.add_argument("--ruleset", help="with --list: only this ruleset's procedures")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="an input value; a sheet input takes a catalog name, inline JSON "
                        "or @file.json")
    parser.add_argument("--dice", default="", metavar="5,4,…", help="the dice thrown, in order")
    parser.add_argument("--seed", type=int, default=None, help="roll missing dice from this seed")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--rules", metavar="PROFILE", default=None,
                        help="house rules: a saved profile's name, or @file.json")
    parser.add_argument("--option", action="append", default=[], metavar="DECISION=VALUE",
                        help="one house rule, e.g. MCW-D13=off (after --rules)")
    parser.add_argument("--db", metavar="URL", default=None,
                        help="with --rules NAME: the database holding the profile")
    return parser


def _parse_sets(procedure: Procedure, pairs: Sequence[str],
                house: House | None = None) -> dict[str, Any]:
    raw: dict[str, Any] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep:
            raise UsageError(f"--set {pair!r}: write NAME=VALUE")
        spec = procedure.input(name.strip())
        if spec.name in raw:
            raise UsageError(f"--set {spec.name} given twice")
        if isinstance(spec, SheetInput) and text.startswith("@"):
            path = Path(text[1:])
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except OSError as error:
                raise UsageError(f"{spec.name}: cannot read {path}: {error.strerror}") from None
            except (json.JSONDecodeError, UnicodeDecodeError) as error:
                raise UsageError(f"{spec.name}: {path} is not JSON: {error}") from None
            except RecursionError:
                raise UsageError(f"{spec.name}: {path} is nested too deeply") from None
            if not isinstance(data, dict):
                raise UsageError(f"{spec.name}: {path} must hold a JSON object")
            raw[spec.name] = spec.load_json(data)
        else:
            raw[spec.name] = spec.parse(text)
    return procedure.bind(raw, house)


def _print_list(ruleset: str | None, as_json: bool) -> None:
    procedures = all_procedures(ruleset)
    if as_json:
        print(json.dumps([p.describe() for p in procedures], indent=2, ensure_ascii=False))
        return
    for procedure in procedures:
        print(f"{procedure.id:28} {procedure.ruleset:14} {procedure.title}")


def _print_resolution(procedure: Procedure, values: dict[str, Any], resolution: Resolution,
                      unused: Sequence[int], seed: int | None, as_json: bool) -> None:
    odds = procedure.odds(values)
    if as_json:
        document = resolution.to_json()
        document["odds"] = odds.to_json()
        document["seed"] = seed
        document["unused_dice"] = list(unused)
        print(json.dumps(document, indent=2, ensure_ascii=False))
        return
    print(f"{procedure.title}  ({procedure.id}, {procedure.rule})")
    print(f"odds: {odds.summary}")
    for step in resolution.steps:
        print(f"  {step}")
    print(f"→ {resolution.refusal.text() if resolution.refusal else resolution.outcome}")
    for effect in resolution.effects:
        print(f"  effect on {effect.input_name}: {effect.summary}")
    if unused:
        print(f"note: dice not used: {', '.join(map(str, unused))}")


def resolve_main(argv: Sequence[str]) -> int:
    options = _parser().parse_args(list(argv))
    try:
        if options.list:
            _print_list(options.ruleset, options.json)
            return 0
        if not options.procedure:
            raise UsageError("name a procedure id (see --list)")
        procedure = find_procedure(options.procedure)
        house = house_from_args(procedure, options.rules, options.option, options.db)
        values = _parse_sets(procedure, options.set, house)
        fallback = SeededDice(options.seed) if options.seed is not None else None
        dice = EnteredDice(parse_dice_values(options.dice), fallback)
        resolution = procedure.resolve(values, dice)
        _print_resolution(procedure, values, resolution, dice.unused(),
                          options.seed, options.json)
        return EXIT_REFUSED if resolution.refusal is not None else 0
    except RulesRefusal as refused:
        print(f"carwars-desktop resolve: {refused.refusal.text()}", file=sys.stderr)
        return EXIT_REFUSED
    except (UsageError, InputError, DiceError, UnknownProcedureError,
            UnknownRulesetError) as error:
        message = error.args[0] if error.args else str(error)
        print(f"carwars-desktop resolve: {message}", file=sys.stderr)
        return EXIT_BAD_INPUT
