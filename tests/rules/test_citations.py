"""Every rule citation in the rulesets is a :class:`Citation`, built by the ruleset's citer.

Two checks: no plain citation string is left in the source (an AST walk: a string that
reads as a citation must be an argument of a citer), and the procedure framework refuses
a plain string where a citation belongs (so a citation assembled at run time is one too).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from carwars_desktop.procedures import Citation, Modifier, Refusal, Step
from carwars_desktop.rules.autopower.tables import ap, rule
from carwars_desktop.rules.battlecars.cite import bc
from carwars_desktop.rules.mini_car_wars.cite import mcw
from carwars_desktop.rules.ruleset import Problem, ReferenceTable

PACKAGE = Path(__file__).resolve().parents[2] / "carwars_desktop"
CITES = re.compile(r"(Mini Car Wars|Battlecars|AUTOpower) §|^(BC|AP|MCW)-D\d+( \(alternative\))?$")
"""A citation's text: a digest section of a ruleset, or a decision id standing alone."""
CITERS = {"bc", "mcw", "ap", "rule", "_rule", "more", "Citation", "Citer"}
LOOKUPS = {"input"}
"""Calls that look a decision up by its id (``DECISIONS.input("MCW-D13")``): an id, not a
citation."""


def _plain_citations(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    allowed: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            allowed.add(id(node.value))  # a docstring
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(
                node.func, "id", "")
            if name in CITERS or name in LOOKUPS:
                for arg in node.args:
                    allowed.update(id(n) for n in ast.walk(arg))
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and id(node) not in allowed and CITES.search(node.value)):
            found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: {node.value!r}")
    return found


def test_no_plain_citation_string_remains() -> None:
    found = [line for path in sorted(PACKAGE.rglob("*.py")) for line in _plain_citations(path)]
    assert found == []


def test_citers_write_each_rulesets_text() -> None:
    assert mcw("§2.4", "MCW-D1") == "Mini Car Wars §2.4 MCW-D1"
    assert bc("§2.3 step 4", "BC-D44") == "Battlecars §2.3 step 4 · BC-D44"
    assert bc("", "BC-D6", "BC-D40") == "BC-D6 · BC-D40"
    assert rule("2.6", "2.7", "AP-D9") == "AUTOpower §2.6, 2.7, AP-D9"
    assert ap("§1.3") == rule("1.3") == "AUTOpower §1.3"
    fire = bc("§2.11")
    narrowed = fire.more("step 6", "BC-D4")
    assert (narrowed, narrowed.ruleset, narrowed.section, narrowed.decisions) == (
        "Battlecars §2.11 step 6 · BC-D4", "Battlecars", "§2.11 step 6", ("BC-D4",))
    assert bc("§2.18").more("· §2.16") == "Battlecars §2.18 · §2.16"
    assert mcw("§3.2").more("", "MCW-D11") == "Mini Car Wars §3.2 MCW-D11"


@pytest.mark.parametrize("build", [
    lambda text: Step("x", text),
    lambda text: Modifier("x", 1, text),
    lambda text: Refusal("x", text),
    lambda text: Problem("x", "x", text),
    lambda text: ReferenceTable("x", "x", text, ("a",), ()),
])
def test_a_plain_string_is_refused_where_a_citation_belongs(build: object) -> None:
    assert callable(build)
    with pytest.raises(TypeError, match="plain string"):
        build("Battlecars §2.5")
    assert isinstance(build(bc("§2.5")).rule, Citation)
    assert build("").rule == ""
