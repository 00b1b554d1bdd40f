"""``carwars-desktop design``: check, list, export and import designs from the command line.

    carwars-desktop design check FILE|NAME [--ruleset ID] [--kind KIND]
                                 [--scenario KEY [--side N]] [--budget DOLLARS] [--json]
                                 [--rules PROFILE|@file.json] [--option DECISION=VALUE …]
    carwars-desktop design list [--ruleset ID] [--json]
    carwars-desktop design export NAME [--ruleset ID] [--kind KIND] [-o FILE]
    carwars-desktop design import FILE

``FILE`` is a design exchange file (``*.carwars.json``, docs/design-format.md);
``NAME`` is a design of the library the app uses (``--db URL`` / ``$CARWARS_DB``,
else the default file), or of the rules' catalog. Every number comes from the
engines, as in the Library: cost, class (size, top speed, division), legality
with every problem and its rule, and a purchase checked against a scenario or a
budget. Exit status: 0 done (every design legal), 2 bad input (unknown name,
malformed file, unusable database), 3 refused by the rules (a design or the
purchase has problems: they are all listed).
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from carwars_desktop.cli_support import OneLineParser, refuse, run_command
from carwars_desktop.house_cli import ruleset_house
from carwars_desktop.library import (
    DesignSummary,
    ExchangedDesign,
    ExchangeError,
    UniqueNames,
    UnknownKindError,
    design_kind,
    dumps_designs,
    make_exchanged,
    read_designs,
    summarize_design,
)
from carwars_desktop.procedures import InputError
from carwars_desktop.rules import (
    VEHICLE,
    Design,
    DesignDataError,
    Problem,
    UnknownRulesetError,
    find_ruleset,
    ruleset_ids,
)
from carwars_desktop.storage import Database, DatabaseError, open_database, resolve_url
from carwars_desktop.storage.library import ImportChoice

OK, BAD_INPUT, REFUSED = 0, 2, 3
MAX_FILE_BYTES = 64 * 1024 * 1024


class UsageError(ValueError):
    """Bad input (exit status 2)."""


@dataclass(frozen=True)
class Found:
    """One design to check: where it came from, and the engine's object."""

    ruleset_id: str
    kind: str
    design: Design
    source: str


def _parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="carwars-desktop design",
                                     description="Check, list, export and import designs. Exit "
                                     "status: 0 done and legal, 2 bad input, 3 refused by the "
                                     "rules (problems listed). See docs/command-line.md.")
    parser.add_argument("--db", metavar="URL", default=None,
                        help="the library's database (default: $CARWARS_DB, else the app's)")
    commands = parser.add_subparsers(dest="command", required=True)
    # --db also after the subcommand (``design check Courier --db URL``); before it, as the
    # synopsis shows, it is the parser's own
    database = OneLineParser(add_help=False)
    database.add_argument("--db", metavar="URL", default=argparse.SUPPRESS,
                          help="the library's database (default: $CARWARS_DB, else the app's)")

    check = commands.add_parser("check", parents=[database],
                                help="cost, class, legality and every problem")
    check.add_argument("source", help="an exchange file, or a design's name")
    _selectors(check)
    check.add_argument("--scenario", help="check the purchase for this scenario "
                       "(Mini Car Wars: road-duel, pack-attack)")
    check.add_argument("--side", type=int, default=None,
                       help="with --scenario: the side bought for (0 first, 1 second)")
    check.add_argument("--budget", type=int, default=None,
                       help="the budget the purchase must fit (dollars)")
    check.add_argument("--rules", metavar="PROFILE", default=None,
                       help="house rules: a saved profile's name, or @file.json")
    check.add_argument("--option", action="append", default=[], metavar="DECISION=VALUE",
                       help="one house rule, e.g. MCW-D22=off (after --rules)")
    check.add_argument("--json", action="store_true", help="print JSON")

    listing = commands.add_parser("list", parents=[database], help="every design of the library")
    listing.add_argument("--ruleset", help="only this ruleset's designs")
    listing.add_argument("--json", action="store_true", help="print JSON")

    export = commands.add_parser("export", parents=[database],
                                 help="write a design as an exchange file")
    export.add_argument("name", help="the design's name in the library")
    _selectors(export)
    export.add_argument("-o", "--output", help="file to write (default: standard output)")

    imported = commands.add_parser("import", parents=[database],
                                   help="add an exchange file's designs")
    imported.add_argument("file", help="the exchange file")
    return parser


def _selectors(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ruleset", help="the design's ruleset, when a name is ambiguous")
    parser.add_argument("--kind", help="the design's kind (vehicle, deck…), when ambiguous")


# --- finding designs ---------------------------------------------------------------------

def _read_file(path: Path) -> tuple[ExchangedDesign, ...]:
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise UsageError(f"{path}: larger than {MAX_FILE_BYTES // (1024 * 1024)} MB")
        return read_designs(path.read_bytes())
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror}") from None
    except ExchangeError as error:
        raise UsageError(f"{path}: {error}") from None


def _shown(name: str) -> str:
    """A name as a message quotes it: a pasted design code is cut to its first words."""
    return repr(name if len(name) <= 60 else f"{name[:57]}…")


def _is_file(source: str) -> bool:
    """Whether ``source`` names a file (a name too long for one, such as a pasted design
    code, is a design's name)."""
    try:
        return Path(source).is_file()
    except (OSError, ValueError):
        return False


def _loaded(item: ExchangedDesign, source: str) -> Found:
    try:
        design = design_kind(item.ruleset_id, item.kind).load(item.data)
    except (DesignDataError, UnknownKindError) as error:
        raise UsageError(f"{source}: {error}") from None
    return Found(item.ruleset_id, item.kind, design, source)


CATALOG_PREFIX = "catalog:"
CLOSEST = 5
"""How many names a "no design called …" message offers at most."""


@dataclass(frozen=True)
class _Match:
    """A design a name reaches: how to write it unambiguously, and the design."""

    how: str
    found: Found
    record_id: int | None = None
    """The library row (``None``: a catalog design read from the rules, no database)."""


def _wanted(name: str) -> tuple[bool, str]:
    """Whether ``name`` asks for the catalog (``catalog:NAME``), and the name folded."""
    catalog_only = name.casefold().startswith(CATALOG_PREFIX)
    return catalog_only, (name[len(CATALOG_PREFIX):] if catalog_only else name).strip().casefold()

def _matches(name: str, ruleset: str | None, kind: str | None,
             database: Database | None) -> list[_Match]:
    """Every design called ``name`` in the library (``catalog:Courier``: only the rules'
    catalog design), else in the rules' catalog."""
    catalog_only, wanted = _wanted(name)
    matches: list[_Match] = []
    if database is not None:
        for record in database.library.all(ruleset, kind=kind):
            if record.name.casefold() != wanted or (catalog_only and not record.is_catalog):
                continue
            item = ExchangedDesign(record.ruleset_id, record.kind, record.name,
                                   record.current, ())
            how = f"{CATALOG_PREFIX}{record.name}" if record.is_catalog else \
                f"{record.name} (library design #{record.id})"
            matches.append(_Match(how, _loaded(item, f"library design #{record.id}"),
                                  record.id))
    if not matches:
        for ruleset_id, catalog_name, design in _catalog(ruleset, kind):
            if catalog_name.casefold() == wanted:
                matches.append(_Match(f"{CATALOG_PREFIX}{catalog_name}",
                                      Found(ruleset_id, VEHICLE, design, "the rules' catalog")))
    return matches


def _catalog(ruleset: str | None, kind: str | None) -> list[tuple[str, str, Design]]:
    if kind not in (None, VEHICLE):
        return []
    return [(ruleset_id, catalog_name, design)
            for ruleset_id in ((ruleset,) if ruleset else ruleset_ids())
            for catalog_name, design in find_ruleset(ruleset_id).catalog().items()]


def _closest(name: str, ruleset: str | None, kind: str | None,
             database: Database | None) -> list[str]:
    """The names nearest ``name``, each written as it reaches its design (``catalog:`` or
    the library id added only where designs share the name)."""

    catalog_only, wanted = _wanted(name)
    designs: dict[str, list[tuple[str, int | None]]] = {}  # folded → (name, id or None)
    if database is not None:
        for record in database.library.all(ruleset, kind=kind):
            if record.is_catalog or not catalog_only:
                designs.setdefault(record.name.casefold(), []).append(
                    (record.name, None if record.is_catalog else record.id))
    else:
        for _, catalog_name, _design in _catalog(ruleset, kind):
            designs.setdefault(catalog_name.casefold(), []).append((catalog_name, None))
    near = difflib.get_close_matches(wanted, list(designs), n=CLOSEST, cutoff=0.5)
    if not near:  # a part of a name ("cour" for Courier) is a candidate too
        near = [n for n in sorted(designs) if wanted and wanted in n][:CLOSEST]
    written: list[str] = []
    for folded in near:
        shared = designs[folded]
        for design_name, design_id in shared:
            if design_id is None and (catalog_only or len(shared) > 1):
                written.append(f"{CATALOG_PREFIX}{design_name}")
            elif design_id is not None and len(shared) > 1:
                written.append(f"{design_name} (library design #{design_id})")
            else:
                written.append(design_name)
    return written[:CLOSEST]


def _by_name(name: str, ruleset: str | None, kind: str | None,
             database: Database | None) -> _Match:
    """The design called ``name`` in the library (``catalog:Courier``: the rules' catalog
    design), else in the rules' catalog. A name no design has is refused with the closest
    names; a name several designs share is refused with each of them listed."""
    matches = _matches(name, ruleset, kind, database)
    if not matches:
        closest = _closest(name, ruleset, kind, database)
        raise UsageError(f"no design called {_shown(name)}"
                         + (f" in {ruleset}" if ruleset else "")
                         + (f"; the closest: {', '.join(closest)}" if closest else ""))
    if len({(m.found.ruleset_id, m.found.kind) for m in matches}) > 1:
        where = ", ".join(sorted({f"{m.found.ruleset_id}/{m.found.kind}" for m in matches}))
        listed = "; ".join(f"{m.how} ({m.found.ruleset_id}/{m.found.kind})" for m in matches)
        raise UsageError(f"{_shown(name)} names designs of {where}: {listed}; add --ruleset "
                         "(and --kind)")
    if len(matches) > 1:
        listed = "; ".join(m.how for m in matches)
        raise UsageError(f"{_shown(name)} names {len(matches)} designs: {listed}; rename one "
                         f"in the Library, or write {CATALOG_PREFIX}NAME for the catalog's")
    return matches[0]


def _designs(source: str, ruleset: str | None, kind: str | None,
             database: Database | None) -> list[Found]:
    path = Path(source)
    if _is_file(source):
        found = [_loaded(item, f"{path} #{n}")
                 for n, item in enumerate(_read_file(path), start=1)]
        return [f for f in found if (ruleset is None or f.ruleset_id == ruleset)
                and (kind is None or f.kind == kind)]
    return [_by_name(source, ruleset, kind, database).found]


# --- check -------------------------------------------------------------------------------

def _problem_json(problem: Problem) -> dict[str, str]:
    return problem.to_json()


def _summary_json(found: Found, summary: DesignSummary) -> dict[str, Any]:
    return {
        "ruleset": found.ruleset_id,
        "ruleset_title": find_ruleset(found.ruleset_id).title,
        "kind": found.kind,
        "name": summary.name,
        "source": found.source,
        "cost": summary.cost,
        "cost_text": summary.cost_text,
        "class": summary.class_value,
        "class_text": summary.class_text,
        "legal": summary.legal,
        "problems": [_problem_json(p) for p in summary.problems],
        "warnings": [_problem_json(p) for p in summary.warnings],
    }


def _house(found: Sequence[Found], rules: str | None, options: Sequence[str],
           db: str | None) -> Any:
    """The ruleset's options value of ``--rules``/``--option`` (``None``: the digest's
    defaults), as ``resolve`` reads them."""
    if not rules and not options:
        return None

    rulesets = {f.ruleset_id for f in found}
    if len(rulesets) != 1:
        raise UsageError("--rules and --option are a ruleset's: check one ruleset's designs")
    ruleset = find_ruleset(rulesets.pop())
    try:
        return ruleset.house_options(ruleset_house(ruleset.id, rules, options, db))
    except InputError as error:
        raise UsageError(str(error.args[0] if error.args else error)) from None


def _purchase(found: Sequence[Found], scenario: str | None, side: int,
              budget: int | None, house: Any = None) -> tuple[Problem, ...] | None:
    """The purchase check of every design together, or ``None`` when none was asked."""
    if scenario is None and budget is None:
        return None
    kinds = {(f.ruleset_id, f.kind) for f in found}
    if len(kinds) != 1:
        raise UsageError("a purchase is checked for designs of one ruleset and kind")
    ruleset_id, kind = kinds.pop()
    design_kind_ = design_kind(ruleset_id, kind)
    if design_kind_.purchase is None:
        raise UsageError(f"{design_kind_.ruleset_title} {design_kind_.title.lower()}s have "
                         "no purchase rules (no --scenario or --budget)")
    key = None
    if scenario is not None:
        key = scenario.strip().lower().replace("-", "_").replace(" ", "_")
        if key not in design_kind_.scenarios:
            known = ", ".join(k.replace("_", "-") for k in design_kind_.scenarios)
            raise UsageError(f"{design_kind_.ruleset_title} has no scenario {scenario!r} "
                             f"(known: {known})")
    if budget is not None and budget < 0:
        raise UsageError(f"--budget {budget}: a budget is at least 0")
    try:
        return design_kind_.purchase_under([f.design for f in found], key, side, budget, house)
    except ValueError as error:
        raise UsageError(str(error)) from None


def check(options: argparse.Namespace, database: Database | None) -> int:
    found = _designs(options.source, options.ruleset, options.kind, database)
    if not found:
        raise UsageError(f"{options.source}: no design of that ruleset/kind in the file")
    house = _house(found, options.rules, options.option, options.db)
    summaries = [(f, summarize_design(f.ruleset_id, f.kind, f.design, house))
                 for f in found]
    side = options.side or 0
    purchase = _purchase(found, options.scenario, side, options.budget, house)
    legal = all(s.legal for _, s in summaries) and not purchase
    if options.json:
        document: dict[str, Any] = {
            "designs": [_summary_json(f, s) for f, s in summaries], "legal": legal}
        if purchase is not None:
            document["purchase"] = {
                "scenario": options.scenario, "side": side, "budget": options.budget,
                "total": sum(s.cost or 0 for _, s in summaries),
                "problems": [_problem_json(p) for p in purchase]}
        print(json.dumps(document, indent=2, ensure_ascii=False))
    else:
        for f, summary in summaries:
            title = find_ruleset(f.ruleset_id).title
            print(f"{summary.name} — {title} {design_kind(f.ruleset_id, f.kind).title.lower()}"
                  f" ({f.source})")
            print(f"  cost {summary.cost_text} · class {summary.class_text} · "
                  f"{summary.status_text}")
            for problem in summary.problems:
                print(f"  ⚠ {problem}")
            for warning in summary.warnings:
                print(f"  note: {warning}")
        if purchase is not None:
            what = options.scenario or f"a ${options.budget:,} budget"
            print(f"purchase for {what}: " + ("✔ fits" if not purchase else
                                              f"⚠ {len(purchase)} problem(s)"))
            for problem in purchase:
                print(f"  ⚠ {problem}")
    return OK if legal else REFUSED


# --- list, export, import ----------------------------------------------------------------

def list_designs(options: argparse.Namespace, database: Database) -> int:
    if options.ruleset is not None:
        find_ruleset(options.ruleset)
    entries = database.library.entries(options.ruleset)
    if options.json:
        print(json.dumps([{
            "id": e.id, "ruleset": e.ruleset_id, "kind": e.kind, "name": e.name,
            "tags": list(e.tags), "catalog": e.is_catalog, "cost": e.cost,
            "class": e.class_value, "legal": e.legal, "problems": e.problem_count,
        } for e in entries], indent=2, ensure_ascii=False))
        return OK
    for e in entries:
        state = "✔ legal" if e.legal else f"⚠ draft · {e.problem_count}"
        print(f"{e.id:6} {e.ruleset_id:14} {e.kind:8} {e.name:40} {state}")
    return OK


def export(options: argparse.Namespace, database: Database) -> int:
    match = _by_name(options.name, options.ruleset, options.kind, database)
    if match.record_id is not None:
        exported = database.library.exported([match.record_id])
    else:  # a catalog design not in the library (its row is in the trash)
        found = match.found
        exported = [make_exchanged(found.ruleset_id, found.kind, found.design.to_json())]
    text = dumps_designs(exported)
    if options.output:
        try:
            Path(options.output).write_text(text, encoding="utf-8")
        except OSError as error:
            raise UsageError(f"cannot write {options.output}: {error.strerror}") from None
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return OK


def import_file(options: argparse.Namespace, database: Database) -> int:
    path = Path(options.file)
    items = _read_file(path)
    for n, item in enumerate(items, start=1):
        _loaded(item, f"{path} #{n}")
    taken: dict[tuple[str, str], UniqueNames] = {}
    choices = []
    for item in items:
        names = taken.setdefault((item.ruleset_id, item.kind), UniqueNames(
            database.library.taken_names(item.ruleset_id, item.kind)))  # catalog names too
        name = names.take(item.name)
        choices.append(ImportChoice(item, name=name if name != item.name else None))
    records = database.library.import_designs(choices)
    for record in records:
        print(f"added #{record.id}: {record.name} ({record.ruleset_id}/{record.kind})")
    return OK


# --- entry point -------------------------------------------------------------------------

def _open(db: str | None) -> Database:

    database = open_database(resolve_url(db, os.environ))
    database.library.install_catalog()  # as the app does at start: the same library
    return database


def _run(options: argparse.Namespace) -> int:
    database: Database | None = None
    try:
        if options.command == "check":
            if not _is_file(options.source):
                database = _open(options.db)
            return check(options, database)
        database = _open(options.db)
        commands = {"list": list_designs, "export": export, "import": import_file}
        return commands[options.command](options, database)
    except DatabaseError as error:
        raise UsageError(str(error)) from None
    finally:
        if database is not None:
            database.close()


def design_main(argv: Sequence[str]) -> int:
    options = _parser().parse_args(list(argv))
    return run_command("carwars-desktop design", lambda: _design(options))


def _design(options: argparse.Namespace) -> int:
    try:
        if getattr(options, "side", None) is not None and options.scenario is None:
            raise UsageError("--side is the side of a --scenario: give the scenario too")
        return _run(options)
    except (UsageError, UnknownRulesetError, UnknownKindError, ValueError) as error:
        message = str(error.args[0] if error.args else error)
        return refuse("carwars-desktop design", message)
