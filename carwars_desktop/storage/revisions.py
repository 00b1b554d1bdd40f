"""The shipped schema revisions, read from ``database/versions`` without importing Alembic.

Opening a database that is already at head (nearly every start) then costs a file
listing and one ``SELECT`` instead of Alembic's import (a third of a second). Each
script declares ``revision = "…"`` and ``down_revision = "…"`` (or ``None``, or a
tuple for a merge) at the top level, exactly what Alembic itself reads;
``tests/storage/test_migrations.py`` checks that both readings agree.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from carwars_desktop.resources import database_dir
from carwars_desktop.storage.errors import MigrationHeadsError


@dataclass(frozen=True)
class ShippedRevisions:
    """Every revision id the scripts declare, and the one they lead to."""

    known: frozenset[str]
    head: str


Declared = tuple[str, tuple[str, ...]] | None

_read: dict[Path, tuple[str, Declared]] = {}
"""What each script declared, with the text it was read from."""


def _declared(path: Path) -> Declared:
    """(revision, down revisions) of one script, or None if it declares no revision.

    Alembic's scripts declare them above their functions: the text before the first
    ``def`` is read first (the start-up path reads every script; the functions are most
    of the text), the whole script only when the declaration is not there. A script whose
    text is the same as when it was last read is not parsed again: every database opened
    and every first screen reads the shipped revisions, and parsing cost milliseconds."""
    text = path.read_text(encoding="utf-8")
    known = _read.get(path)
    if known is not None and known[0] == text:
        return known[1]
    found = _parse_declared(text, path)
    _read[path] = (text, found)
    return found


def _parse_declared(text: str, path: Path) -> Declared:
    if "\ndef " in text:
        try:
            found = _assigned(ast.parse(text[:text.find("\ndef ")], str(path)))
        except SyntaxError:  # cut in the middle of a statement: the whole script is read
            found = None
        if found is not None:
            return found
    return _assigned(ast.parse(text, str(path)))  # a broken script says so, as before


def _assigned(tree: ast.Module) -> Declared:
    values: dict[str, Any] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        else:
            continue
        if isinstance(target, ast.Name) and target.id in ("revision", "down_revision"):
            values[target.id] = ast.literal_eval(value)
    revision = values.get("revision")
    if not isinstance(revision, str):
        return None
    down = values.get("down_revision")
    downs = (down,) if isinstance(down, str) else tuple(str(d) for d in down or ())
    return revision, downs


def shipped_revisions(script_location: Path | None = None) -> ShippedRevisions:
    """The revisions under ``<script_location>/versions``; raise unless there is one head."""
    versions = (script_location or database_dir()) / "versions"
    declared = [found for path in sorted(versions.glob("*.py"))
                if (found := _declared(path)) is not None]
    known = frozenset(revision for revision, _ in declared)
    parents = {down for _, downs in declared for down in downs}
    heads = sorted(known - parents)
    if len(heads) != 1:
        raise MigrationHeadsError(
            "This installation of Carwars Desktop is damaged: its database migrations have "
            f"{len(heads)} heads ({', '.join(heads) or 'none'}) instead of one."
        )
    return ShippedRevisions(known, heads[0])


def head_revision(script_location: Path | None = None) -> str:
    """The one head revision of the shipped migrations (see :func:`shipped_revisions`)."""
    return shipped_revisions(script_location).head
