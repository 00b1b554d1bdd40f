"""Export and import through the Library: round trip, refused files, name clashes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from carwars_desktop.gui.workshop import LibraryWorkspace
from carwars_desktop.gui.workshop.exchange_actions import Clash
from carwars_desktop.library import FORMAT, VERSION, ExchangedDesign, read_designs
from carwars_desktop.rules.mini_car_wars import MiniDesign


def _mine(library: LibraryWorkspace) -> list[tuple[str, str]]:
    return sorted((e.ruleset_id, e.name) for e in library.library.entries() if not e.is_catalog)


def _courier_file(path: Path, *names: str, version: int = VERSION) -> Path:
    designs = [{"ruleset": "mini_car_wars", "kind": "vehicle", "tags": ["imported"],
                "design": MiniDesign.stock_design("courier", "b", name=name).to_json()}
               for name in names]
    path.write_text(json.dumps({"format": FORMAT, "version": version, "designs": designs}))
    return path


def test_export_then_import_gives_equal_designs(library: LibraryWorkspace,
                                                tmp_path: Path) -> None:
    library.ruleset_box.setCurrentIndex(0)  # all rulesets
    library.view.selectAll()
    exported = library.export_selected(str(tmp_path / "all.carwars.json"))
    assert exported is not None
    designs = read_designs(Path(exported).read_bytes())
    assert len(designs) == library.model.rowCount()
    library.library.purge()
    for entry in library.library.entries():
        if entry.is_catalog:
            library.library.set_tags(entry.id, ["shipped"])
    assert library.import_designs(exported) == len(designs)
    imported = library.library.exported(library.selected_ids())
    catalog = {(e.ruleset_id, e.kind, e.name) for e in library.library.entries()
               if e.is_catalog}

    def named(design: ExchangedDesign) -> tuple[object, ...]:  # a catalog name is taken
        name = f"{design.name} (2)" if (design.ruleset_id, design.kind,
                                        design.name) in catalog else design.name
        data = dict(design.data)
        if "name" in data:
            data["name"] = name
        return design.ruleset_id, design.kind, name, data
    assert [(d.ruleset_id, d.kind, d.name, dict(d.data)) for d in imported] == [
        named(d) for d in designs]
    assert "Imported" in library.message.text()


BAD_FILES = {
    "malformed": (b"{not json", "not valid JSON"),
    "hostile": (b'{"format": "carwars-desktop/designs", "version": 1, "designs": '
                + b"[" * 200 + b"]" * 200 + b"}", "nests"),
    "newer": (None, "newer Carwars Desktop"),
    "bad design": (json.dumps({"format": FORMAT, "version": 1, "designs": [
        {"ruleset": "mini_car_wars", "kind": "vehicle", "design": {"name": "Tank"}}]})
        .encode(), "not a valid Mini Car Wars vehicle"),
    "binary": (bytes(range(256)), "not UTF-8"),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_a_refused_file_writes_nothing_and_says_why(library: LibraryWorkspace, tmp_path: Path,
                                                    case: str) -> None:
    content, reason = BAD_FILES[case]
    path = tmp_path / "bad.carwars.json"
    if content is None:
        _courier_file(path, "From the future", version=VERSION + 1)
    else:
        path.write_bytes(content)
    before = library.library.entries()
    assert library.import_designs(str(path)) == 0
    assert library.library.entries() == before
    (warning,) = library.warnings  # type: ignore[attr-defined]
    assert reason in warning and "Nothing was changed" in warning


def test_a_missing_file_is_refused(library: LibraryWorkspace, tmp_path: Path) -> None:
    assert library.import_designs(str(tmp_path / "gone.json")) == 0
    assert "cannot be read" in library.warnings[0]  # type: ignore[attr-defined]


def _answers(*answers: tuple[Clash, bool]):  # type: ignore[no-untyped-def]
    asked: list[str] = []
    queue = list(answers)

    def ask(_parent: object, design: ExchangedDesign, remaining: int) -> tuple[Clash, bool]:
        asked.append(f"{design.name}/{remaining}")
        return queue.pop(0)

    return ask, asked


def test_a_name_clash_asks(library: LibraryWorkspace, tmp_path: Path) -> None:
    path = _courier_file(tmp_path / "night.carwars.json", "Night", "Day")
    assert library.import_designs(str(path)) == 2
    assert _mine(library) == [("mini_car_wars", "Day"), ("mini_car_wars", "Night")]

    ask, asked = _answers((Clash.CANCEL, False))
    library.ask_clash = ask
    assert library.import_designs(str(path)) == 0
    assert asked == ["Night/1"] and len(_mine(library)) == 2

    ask, asked = _answers((Clash.KEEP_BOTH, False), (Clash.SKIP, False))
    library.ask_clash = ask
    assert library.import_designs(str(path)) == 1
    assert asked == ["Night/1", "Day/0"]
    assert _mine(library) == [("mini_car_wars", "Day"), ("mini_car_wars", "Night"),
                              ("mini_car_wars", "Night (2)")]

    ask, asked = _answers((Clash.REPLACE, True))
    library.ask_clash = ask
    night = library.library.own_names("mini_car_wars")["Night"]
    assert library.import_designs(str(path)) == 2
    assert asked == ["Night/1"]  # "the same for the other clashes"
    assert len(_mine(library)) == 3
    assert library.library.get(night).revision == 2


def test_export_of_the_open_design(library: LibraryWorkspace, tmp_path: Path) -> None:
    library.ruleset_box.setCurrentIndex(library.ruleset_box.findData("autopower"))
    library.select_ids([library.model.entry(0).id])
    written = library.export_selected(str(tmp_path / "one.carwars.json"))
    assert written is not None
    (design,) = read_designs(Path(written).read_text())
    assert design.ruleset_id == "autopower"
    assert not list(tmp_path.glob("*.part"))


def test_an_import_named_as_a_catalog_design_takes_a_free_name(
        library: LibraryWorkspace, tmp_path: Path) -> None:
    """As on the command line: the rules' Courier keeps its name, reachable by it."""
    assert "Courier" in {e.name for e in library.library.entries() if e.is_catalog}
    ask, asked = _answers()
    library.ask_clash = ask
    assert library.import_designs(str(_courier_file(tmp_path / "c.carwars.json", "Courier",
                                                    "Courier"))) == 2
    assert asked == []  # the GM's own names clash, the catalog's are just taken
    assert _mine(library) == [("mini_car_wars", "Courier (2)"),
                              ("mini_car_wars", "Courier (3)")]
