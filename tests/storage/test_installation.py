"""This installation's holder id: made once, kept, and the same at every start."""

from __future__ import annotations

import re
from pathlib import Path

from carwars_desktop.storage import installation
from carwars_desktop.storage.installation import installation_id


def _fresh(path: Path) -> str:
    installation._known.pop(path, None)  # a new start of the app: nothing remembered
    return installation_id(path)


def test_the_id_is_made_once_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "data" / "installation-id"
    first = _fresh(path)
    assert re.fullmatch(r"[0-9a-f]{24}", first)
    assert path.read_text(encoding="ascii").strip() == first
    assert _fresh(path) == first == installation_id(path)
    assert _fresh(tmp_path / "elsewhere" / "installation-id") != first


def test_a_damaged_id_file_is_replaced(tmp_path: Path) -> None:
    path = tmp_path / "installation-id"
    path.write_text("not an id\n", encoding="ascii")
    made = _fresh(path)
    assert re.fullmatch(r"[0-9a-f]{24}", made)
    assert path.read_text(encoding="ascii").strip() == made == _fresh(path)
    assert [p.name for p in tmp_path.iterdir()] == ["installation-id"]


def test_a_folder_that_cannot_be_made_gives_an_id_for_this_process(tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("a file where the data folder would go", encoding="utf-8")
    path = blocker / "installation-id"
    made = _fresh(path)
    assert re.fullmatch(r"[0-9a-f]{24}", made)
    assert installation_id(path) == made and blocker.is_file()
