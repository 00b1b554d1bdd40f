"""``carwars-desktop resolve``: every declared procedure on the command line.

    carwars-desktop resolve --list [--ruleset ID] [--json]
    carwars-desktop resolve ID --set NAME=VALUE … [--dice 5,4,…] [--seed N] [--json]
    carwars-desktop resolve ID --set NAME=VALUE … --odds [--json]
    carwars-desktop resolve ID … [--rules PROFILE|@file.json] [--option DECISION=VALUE …]
        [--db URL]

``--set firer.speed=50`` changes one fact of a record-sheet input (a key of its
JSON form, dotted for nested ones) after the sheet is read. ``--odds`` prints
the exact odds (modifiers, need, outcomes, expected values, chart) and throws
no dice. Dice given with ``--dice`` are used in the order the steps ask for them; any
still needed are rolled from ``--seed``, or refused when no seed is given; dice left over
are refused (the Resolver's rule), naming the extra die, and nothing is resolved.

Exit status: 0 resolved; 2 bad input (an unknown id or input, a malformed value,
dice that do not fit) with a one-line reason on stderr; 3 the rules refuse it
(a weapon that already fired, a speed out of reach, a variant procedure such as
``autopower.ram`` under house rules that leave its variant off — the message names the
``--option`` that switches it on): the refusal, with its rule, is printed like any
resolution (or on stderr when it is known before the dice).
See docs/command-line.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from carwars_desktop.cli_support import OneLineParser, run_command
from carwars_desktop.dice import DiceError, EnteredDice, SeededDice, parse_dice_values
from carwars_desktop.house_cli import house_from_args, not_offered_message, ruleset_house
from carwars_desktop.procedures import (
    House,
    InputError,
    Odds,
    Procedure,
    Resolution,
    RulesRefusal,
    SheetInput,
    percent,
)
from carwars_desktop.rules import (
    UnknownProcedureError,
    UnknownRulesetError,
    all_procedures,
    find_procedure,
)
from carwars_desktop.services.table import ResolveError, resolve_dice

EXIT_BAD_INPUT = 2
"""A malformed command line, an unknown procedure or input, a bad value or dice."""
EXIT_REFUSED = 3
"""The rules do not allow it: a :class:`~carwars_desktop.procedures.Refusal`."""


class UsageError(ValueError):
    """A malformed command line (exit status 2)."""


def _parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="carwars-desktop resolve",
        description="Resolve a rules procedure with entered or seeded dice, or print its "
                    "exact odds (--odds). Exit status: 0 resolved, 2 bad input, 3 refused by "
                    "the rules. See docs/command-line.md.",
    )
    parser.add_argument("procedure", nargs="?", help="procedure id, e.g. mini.fire")
    parser.add_argument("--list", action="store_true", help="list every procedure")
    parser.add_argument("--ruleset", help="with --list: only this ruleset's procedures")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="an input value; a sheet input takes a catalog name, inline JSON "
                        "or @file.json; NAME.KEY=VALUE changes one key of a sheet's JSON "
                        "(--set firer.speed=50)")
    parser.add_argument("--dice", default="", metavar="5,4,…", help="the dice thrown, in order")
    parser.add_argument("--seed", type=int, default=None, help="roll missing dice from this seed")
    parser.add_argument("--odds", action="store_true",
                        help="print the exact odds only, without dice")
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
    facts: list[tuple[SheetInput, str, str]] = []
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep:
            raise UsageError(f"--set {pair!r}: write NAME=VALUE")
        name, dot, key = name.strip().partition(".")
        spec = procedure.input(name)
        if dot:
            if not isinstance(spec, SheetInput):
                raise UsageError(f"--set {pair!r}: only a record-sheet input has keys "
                                 f"({spec.name} is a {spec.kind})")
            facts.append((spec, key, text))
            continue
        if spec.name in raw:
            raise UsageError(f"--set {spec.name} given twice")
        if isinstance(spec, SheetInput) and text.startswith("@"):
            raw[spec.name] = spec.load_json(_read_sheet_file(spec.name, Path(text[1:])))
        else:
            raw[spec.name] = spec.parse(text)
    for spec, key, text in facts:
        raw[spec.name] = _set_fact(spec, raw.get(spec.name), key, text)
    return procedure.bind(raw, house)


def _read_sheet_file(name: str, path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise UsageError(f"{name}: cannot read {path}: {error.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise UsageError(f"{name}: {path} is not JSON: {error}") from None
    except RecursionError:
        raise UsageError(f"{name}: {path} is nested too deeply") from None
    if not isinstance(data, dict):
        raise UsageError(f"{name}: {path} must hold a JSON object")
    return data


def _fact_value(text: str) -> Any:
    """``50`` → 50, ``true`` → True, ``"x"`` → 'x'; anything else is the text itself."""
    try:
        return json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return text


def _set_fact(spec: SheetInput, sheet: Any, key: str, text: str) -> Any:
    """The sheet with one key of its JSON form changed (``speed``, ``driver.state``)."""
    if sheet is None:
        raise UsageError(f"--set {spec.name}.{key}: give the sheet first "
                         f"(--set {spec.name}=NAME)")
    data = sheet.to_json()
    *path, last = key.split(".")
    node: Any = data
    for part in path:
        node = node.get(part) if isinstance(node, dict) else None
    if not isinstance(node, dict) or last not in node:
        keys = ", ".join(sorted(node)) if isinstance(node, dict) else "none"
        raise UsageError(f"--set {spec.name}.{key}: {spec.sheet_type.__name__} has no key "
                         f"{key!r} (keys: {keys})")
    node[last] = _fact_value(text)
    return spec.load_json(data)


def _print_list(ruleset: str | None, as_json: bool, rules: str | None = None,
                options: Sequence[str] = (), db: str | None = None) -> None:
    """Every procedure (of ``ruleset``), each marked offered or not under the house rules
    ``--rules``/``--option`` give (those need ``--ruleset``: house rules are a ruleset's)."""
    if (rules or options) and not ruleset:
        raise UsageError("--list with --rules or --option: name the ruleset too "
                         "(--ruleset autopower)")
    procedures = all_procedures(ruleset)
    # every ruleset's house rules read before the first line is printed: a refused
    # profile prints nothing
    houses = {procedure.ruleset: ruleset_house(
        procedure.ruleset, rules if procedure.ruleset == ruleset else None,
        options if procedure.ruleset == ruleset else (), db)
        for procedure in procedures if procedure.requires}

    def why_not(procedure: Procedure) -> str:
        if not procedure.requires:
            return ""
        return procedure.not_offered(houses[procedure.ruleset])

    if as_json:
        listed = []
        for procedure in procedures:
            reason = why_not(procedure)
            listed.append({**procedure.describe(), "offered": not reason,
                           "not_offered": reason or None})
        print(json.dumps(listed, indent=2, ensure_ascii=False))
        return
    for procedure in procedures:
        reason = why_not(procedure)
        print(f"{procedure.id:28} {procedure.ruleset:14} {procedure.title}"
              + (f"  [not offered: {reason}]" if reason else ""))


def _print_resolution(procedure: Procedure, values: dict[str, Any], resolution: Resolution,
                      seed: int | None, as_json: bool) -> None:
    odds = procedure.odds(values)
    if as_json:
        document = resolution.to_json()
        document["odds"] = odds.to_json()
        document["seed"] = seed
        document["unused_dice"] = []  # kept for older scripts: dice left over are refused
        print(json.dumps(document, indent=2, ensure_ascii=False))
        return
    print(f"{procedure.title}  ({procedure.id}, {procedure.rule})")
    print(f"odds: {odds.summary}")
    for step in resolution.steps:
        print(f"  {step}")
    print(f"→ {resolution.refusal.text() if resolution.refusal else resolution.outcome}")
    for effect in resolution.effects:
        print(f"  effect on {effect.input_name}: {effect.summary}")


def _fraction_json(p: Fraction) -> dict[str, Any]:
    return {"fraction": str(p), "percent": round(float(p) * 100, 2)}


def _odds_document(procedure: Procedure, values: dict[str, Any], odds: Odds) -> dict[str, Any]:
    """``--odds --json``: the procedure, its inputs, the odds and P(success) of the main roll."""
    p_success = odds.p_success()
    return {
        "procedure": procedure.id,
        "inputs": {spec.name: spec.to_json(values[spec.name]) for spec in procedure.inputs},
        "odds": odds.to_json(),
        "p_success": None if p_success is None else _fraction_json(p_success),
    }


def _odds_lines(odds: Odds) -> list[str]:
    """``--odds`` as text: modifiers, need, outcomes, expected values and the chart's bars."""
    lines = [f"odds: {odds.summary}"]
    lines += [f"  modifier {m.label} {m.value:+d}" + (f"  [{m.rule}]" if m.rule else "")
              for m in odds.modifiers]
    if odds.need is not None:
        lines.append(f"  need {odds.need}+")
    p_success = odds.p_success()
    if p_success is not None:
        lines.append(f"  P(success) {p_success} · {percent(p_success)}")
    lines += [f"  outcome {o.label}: {o.probability} · {percent(o.probability)}"
              for o in odds.outcomes]
    lines += [f"  expected {name}: {value} (≈ {float(value):.2f})"
              for name, value in odds.expected]
    if odds.chart is not None:
        lines.append(f"  chart {odds.chart.title} ({odds.chart.x_label}):")
        bars = odds.chart.distribution.probabilities()
        top = max(bars.values(), default=Fraction(1))
        for value, p in bars.items():
            mark = " ✔" if value in odds.chart.success else ""
            lines.append(f"    {value:>4} {'█' * max(1, round(20 * p / top)):<20} "
                         f"{p} · {percent(p)}{mark}")
    return lines


def _print_odds(procedure: Procedure, values: dict[str, Any], as_json: bool) -> None:
    odds = procedure.odds(values)
    if as_json:
        print(json.dumps(_odds_document(procedure, values, odds), indent=2, ensure_ascii=False))
        return
    print(f"{procedure.title}  ({procedure.id}, {procedure.rule})")
    print("\n".join(_odds_lines(odds)))


def resolve_main(argv: Sequence[str]) -> int:
    options = _parser().parse_args(list(argv))
    return run_command("carwars-desktop resolve", lambda: _resolve(options))


def _resolve(options: argparse.Namespace) -> int:
    try:
        if options.list and options.procedure:
            raise UsageError(f"--list lists every procedure: leave out {options.procedure!r} "
                             "(or --list)")
        if options.list:
            _print_list(options.ruleset, options.json, options.rules, options.option,
                        options.db)
            return 0
        if not options.procedure:
            raise UsageError("name a procedure id (see --list)")
        if options.ruleset:
            raise UsageError("--ruleset is for --list; a procedure id names its ruleset")
        procedure = find_procedure(options.procedure)
        house = house_from_args(procedure, options.rules, options.option, options.db)
        refused = not_offered_message(procedure, house)
        if refused:
            print(f"carwars-desktop resolve: {refused}", file=sys.stderr)
            return EXIT_REFUSED
        values = _parse_sets(procedure, options.set, house)
        if options.odds:
            if options.dice or options.seed is not None:
                raise UsageError("--odds throws no dice: leave out --dice and --seed")
            _print_odds(procedure, values, options.json)
            return 0
        fallback = SeededDice(options.seed) if options.seed is not None else None
        dice = EnteredDice(parse_dice_values(options.dice), fallback)
        # The Resolver's own function: dice typed but not needed are refused (naming
        # the extra die), the same in the window and here.
        resolution = resolve_dice(procedure, values, dice)
        _print_resolution(procedure, values, resolution, options.seed, options.json)
        return EXIT_REFUSED if resolution.refusal is not None else 0
    except ResolveError as error:
        print(f"carwars-desktop resolve: {error}", file=sys.stderr)
        return EXIT_REFUSED if error.refused else EXIT_BAD_INPUT
    except RulesRefusal as refused:
        print(f"carwars-desktop resolve: {refused.refusal.text()}", file=sys.stderr)
        return EXIT_REFUSED
    except (UsageError, InputError, DiceError, UnknownProcedureError,
            UnknownRulesetError) as error:
        message = error.args[0] if error.args else str(error)
        print(f"carwars-desktop resolve: {message}", file=sys.stderr)
        return EXIT_BAD_INPUT
