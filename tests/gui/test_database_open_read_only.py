"""A database that cannot be written: the GM may browse it read-only, and every write
then says why it failed instead of raising."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from carwars_desktop.storage import open_database

_BROWSE = textwrap.dedent("""
    import sys
    from carwars_desktop.gui.database_open import Choice, open_with_recovery
    from carwars_desktop.storage.errors import WriteFailedError
    asked = []
    def ask(error):
        asked.append(type(error).__name__)
        return Choice.BROWSE_READ_ONLY, ""
    database = open_with_recovery(sys.argv[1], ask)
    print(asked, database.read_only, database.library.count() > 0)
    try:
        database.library.install_catalog()
        database.game_sessions.create("autopower", "Tonight", "", [], {})
    except WriteFailedError as error:
        print("refused:", error.reason)
    database.close()
""")


@pytest.fixture
def read_only_file(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "share"
    folder.mkdir()
    path = folder / "carwars.sqlite3"
    with open_database(str(path)) as database:
        database.library.install_catalog()
    path.chmod(0o444)
    folder.chmod(0o555)
    try:
        yield path
    finally:
        folder.chmod(0o755)
        path.chmod(0o644)


def test_a_read_only_file_can_be_browsed_and_says_why_writes_fail(read_only_file: Path) -> None:
    command = [sys.executable, "-c", _BROWSE, str(read_only_file)]
    if os.geteuid() == 0:  # root writes any file: run without the capabilities for it
        command = ["setpriv", "--inh-caps=-all",
                   "--bounding-set=-dac_override,-dac_read_search,-fowner", *command]
    before = sorted(p.name for p in read_only_file.parent.iterdir())
    result = subprocess.run(command, capture_output=True, text=True, timeout=120,
                            env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "['ReadOnlyDatabaseError'] True True"
    assert lines[1] == "refused: the database is read-only: changes cannot be saved"
    assert "opened read-only: changes cannot be saved" in result.stderr
    assert "Traceback" not in result.stderr
    assert sorted(p.name for p in read_only_file.parent.iterdir()) == before
