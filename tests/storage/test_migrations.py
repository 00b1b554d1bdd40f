"""Alembic driven from code: one head, a clean upgrade, models that match the scripts."""

from __future__ import annotations

import logging
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect

from carwars_desktop.resources import database_dir
from carwars_desktop.storage import MigrationHeadsError, open_database, single_head
from carwars_desktop.storage.migrations import known_revisions, script_directory
from carwars_desktop.storage.models import Base
from carwars_desktop.storage.revisions import head_revision, shipped_revisions


def test_the_shipped_migrations_have_exactly_one_head() -> None:
    script = script_directory()
    assert len(script.get_heads()) == 1
    assert single_head(script) == script.get_heads()[0]
    assert "0001" in known_revisions(script)


def test_two_heads_are_refused(tmp_path: Path) -> None:
    scripts = tmp_path / "database"
    shutil.copytree(database_dir(), scripts, ignore=shutil.ignore_patterns("__pycache__"))
    head = single_head()
    (scripts / "versions" / "9999_branch_a.py").write_text(
        f'revision = "9999a"\ndown_revision = "{head}"\n'
        "def upgrade() -> None: ...\ndef downgrade() -> None: ...\n",
        encoding="utf-8",
    )
    (scripts / "versions" / "9999_branch_b.py").write_text(
        f'revision = "9999b"\ndown_revision = "{head}"\n'
        "def upgrade() -> None: ...\ndef downgrade() -> None: ...\n",
        encoding="utf-8",
    )
    with pytest.raises(MigrationHeadsError, match=r"2 heads \(9999a, 9999b\)"):
        single_head(script_directory(scripts))


def test_an_empty_file_is_migrated_to_head(
    sqlite_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sqlite_path.touch()
    handlers_before = list(logging.getLogger().handlers)
    alembic_level_before = logging.getLogger("alembic").level
    with open_database(str(sqlite_path)) as database:
        assert database.schema_revision() == single_head()
        tables = set(inspect(database.engine).get_table_names())
    assert {"alembic_version", "dice_rolls"} <= tables
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", "")
    assert logging.getLogger().handlers == handlers_before
    assert logging.getLogger("alembic").level == alembic_level_before


def test_a_new_database_is_migrated_to_head_and_reopens(database_url: str) -> None:
    with open_database(database_url) as database:
        assert database.schema_revision() == single_head()
    with open_database(database_url) as database:
        assert database.schema_revision() == single_head()


def test_the_models_match_the_migrations(database_url: str) -> None:
    """Autogenerate finds nothing to do: the scripts build exactly the ORM's tables."""
    with open_database(database_url) as database, database.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        differences = compare_metadata(context, Base.metadata)
    assert differences == []


def test_the_head_read_without_alembic_agrees_with_alembic() -> None:
    script = script_directory()
    shipped = shipped_revisions()
    assert shipped.head == head_revision() == single_head(script)
    assert shipped.known == known_revisions(script)


def test_two_heads_are_refused_without_alembic_too(tmp_path: Path) -> None:
    scripts = tmp_path / "database"
    shutil.copytree(database_dir(), scripts, ignore=shutil.ignore_patterns("__pycache__"))
    head = head_revision()
    for branch in ("a", "b"):
        (scripts / "versions" / f"9999_branch_{branch}.py").write_text(
            f'revision: str = "9999{branch}"\ndown_revision = ("{head}",)\n', encoding="utf-8")
    with pytest.raises(MigrationHeadsError, match=r"2 heads \(9999a, 9999b\)"):
        shipped_revisions(scripts)
    assert script_directory(scripts).get_heads() != [head]


def test_a_database_at_head_opens_without_importing_alembic(sqlite_path: Path) -> None:
    with open_database(str(sqlite_path)) as database:
        assert database.schema_revision() == single_head()
    program = (
        "import sys\n"
        "from carwars_desktop.storage import open_database\n"
        f"with open_database({str(sqlite_path)!r}) as database:\n"
        "    database.library.count()\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'alembic'))\n"
    )
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "[]"


def test_a_revision_declared_below_a_function_is_found_and_a_broken_one_refused(
        tmp_path: Path) -> None:
    """The head is read from the text above each script's first function; a script that
    declares its revision further down is read whole, and one that cannot be read says so."""
    scripts = tmp_path / "database"
    shutil.copytree(database_dir(), scripts, ignore=shutil.ignore_patterns("__pycache__"))
    head = head_revision()
    late = scripts / "versions" / "9999_late.py"
    late.write_text(f'"""Late."""\ndef upgrade() -> None:\n    pass\n\n\nrevision = "9999"\n'
                    f'down_revision = "{head}"\n', encoding="utf-8")
    assert shipped_revisions(scripts).head == "9999"
    late.write_text(f'revision = "9999"\ndown_revision = ("{head}"\n\ndef upgrade() -> None:\n'
                    "    pass\n", encoding="utf-8")
    with pytest.raises(SyntaxError):
        shipped_revisions(scripts)


def test_a_script_changed_after_it_was_read_is_read_again(tmp_path: Path) -> None:
    """Each script's declaration is read once while it is unchanged (every database opened
    reads them): one rewritten in place, to the same length, is read anew."""
    scripts = tmp_path / "database"
    shutil.copytree(database_dir(), scripts, ignore=shutil.ignore_patterns("__pycache__"))
    head = head_revision()
    late = scripts / "versions" / "9999_late.py"
    late.write_text(f'revision = "9999"\ndown_revision = "{head}"\n', encoding="utf-8")
    assert shipped_revisions(scripts).head == "9999"
    assert shipped_revisions(scripts).head == "9999"  # (from what was read)
    late.write_text(f'revision = "9998"\ndown_revision = "{head}"\n', encoding="utf-8")
    assert shipped_revisions(scripts).head == "9998"
    late.unlink()
    assert shipped_revisions(scripts).head == head
