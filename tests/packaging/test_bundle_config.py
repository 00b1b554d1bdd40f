"""What the PyInstaller spec bundles and leaves out (packaging/bundle_config.py, the spec)."""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path
from types import ModuleType

from carwars_desktop.rules.builtin import BUILT_IN
from carwars_desktop.rules.registry import ENTRY_POINT_GROUP, RULESET_IDS

REPO = Path(__file__).resolve().parents[2]
PACKAGING = REPO / "packaging"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"carwars_{name}", PACKAGING / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


config = load("bundle_config")


def test_every_data_file_goes_where_resources_looks_first() -> None:
    shipped = {(Path(source).resolve(), destination)
               for source, destination in config.data_files()}
    expected = set()
    for folder in ("ui", "resources", "database"):
        for path in (REPO / folder).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                parent = path.parent.relative_to(REPO / folder).as_posix()
                destination = f"carwars_desktop/_bundled/{folder}" + (
                    "" if parent == "." else f"/{parent}")
                expected.add((path.resolve(), destination))
    assert shipped == expected
    destinations = {(Path(source).name, destination) for source, destination in shipped}
    assert ("env.py", "carwars_desktop/_bundled/database") in destinations
    assert ("carwars.svg", "carwars_desktop/_bundled/resources/icons") in destinations
    assert any(name.startswith("0001_") and destination.endswith("database/versions")
               for name, destination in destinations)


def test_data_files_skip_caches_and_missing_folders(tmp_path: Path) -> None:
    (tmp_path / "database" / "versions" / "__pycache__").mkdir(parents=True)
    (tmp_path / "database" / "versions" / "__pycache__" / "x.cpython-311.pyc").write_bytes(b"")
    (tmp_path / "database" / "versions" / "0001_a.py").write_text("")
    assert config.data_files(tmp_path) == [
        (str(tmp_path / "database" / "versions" / "0001_a.py"),
         "carwars_desktop/_bundled/database/versions")]


def test_hidden_imports_name_what_is_imported_by_name() -> None:
    hidden = config.hidden_imports(config.ruleset_modules())
    for ruleset_id in RULESET_IDS:
        assert f"carwars_desktop.rules.{ruleset_id}" in hidden
        assert f"carwars_desktop.gui.plugins.{ruleset_id}" in hidden
    for module in ("sqlalchemy.dialects.sqlite", "alembic.op", "alembic.context",
                   "carwars_desktop.storage.models", "PySide6.QtPrintSupport", "PySide6.QtSvg"):
        assert module in hidden


def test_the_rulesets_entry_points_are_hidden_imports_and_ship_with_the_metadata() -> None:
    # importlib.metadata loads them by name: PyInstaller must be told, and the app's
    # dist-info (its entry_points.txt) must ship for the registry to read them.
    import tomllib

    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    points = project["entry-points"][ENTRY_POINT_GROUP]
    assert list(points) == list(RULESET_IDS)
    assert config.ENTRY_POINT_GROUP == ENTRY_POINT_GROUP
    hidden = set(config.hidden_imports(config.ruleset_modules()))
    for name, value in points.items():
        module, _, attribute = value.partition(":")
        assert module in hidden
        entry = getattr(importlib.import_module(module), attribute)
        assert entry.id == name and entry in BUILT_IN
        assert entry.module in hidden and entry.screens in hidden
    spec = (PACKAGING / "carwars-desktop.spec").read_text(encoding="utf-8")
    assert 'copy_metadata("carwars-desktop")' in spec


def test_every_module_imported_by_a_computed_name_is_a_hidden_import() -> None:
    # import_module(...) only in the two registries, and every module they name is hidden
    calls = [(source.relative_to(REPO).as_posix(), line)
             for source in (REPO / "carwars_desktop").rglob("*.py")
             for line in source.read_text(encoding="utf-8").splitlines()
             if "import_module(" in line]
    assert {source for source, _ in calls} == set(config.REGISTRIES)
    hidden = set(config.hidden_imports(config.ruleset_modules()))
    for module in config.ruleset_modules():
        assert module in hidden
        importlib.import_module(module)
    assert not [source for source in (REPO / "carwars_desktop").rglob("*.py")
                if "__import__(" in source.read_text(encoding="utf-8")]


def test_unused_qt_modules_are_excluded_and_used_ones_are_not() -> None:
    excluded = set(config.excluded_modules())
    for module in ("QtQml", "QtQuick", "QtWebEngineCore", "Qt3DCore", "QtMultimedia",
                   "QtNetwork", "QtPdf"):
        assert f"PySide6.{module}" in excluded
    for module in config.QT_MODULES_USED:
        assert f"PySide6.{module}" not in excluded


def test_qt_libraries_and_plugins_kept_or_left_out() -> None:
    kept = [
        "PySide6/Qt/lib/libQt6Core.so.6", "PySide6/Qt/lib/libQt6Widgets.so.6",
        "PySide6/Qt/lib/libQt6PrintSupport.so.6", "PySide6/Qt/lib/libQt6Svg.so.6",
        "PySide6/Qt/lib/libQt6OpenGL.so.6", "PySide6/Qt6Gui.dll", "PySide6/QtSvg.abi3.so",
        "PySide6/Qt/plugins/platforms/libqxcb.so", "PySide6/Qt/plugins/platforms/libqoffscreen.so",
        "PySide6/plugins/platforms/qwindows.dll", "PySide6/Qt/plugins/platforms/libqcocoa.dylib",
        "PySide6/Qt/plugins/imageformats/libqsvg.so",
        "PySide6/Qt/plugins/iconengines/libqsvgicon.so",
        "PySide6/Qt/plugins/printsupport/libcupsprintersupport.so",
        "PySide6/plugins/styles/qmodernwindowsstyle.dll",
        "PySide6/Qt/plugins/xcbglintegrations/libqxcb-glx-integration.so",
    ]
    left_out = [
        "PySide6/Qt/lib/libQt6Quick.so.6", "PySide6/Qt/lib/libQt6Qml.so.6", "PySide6/Qt6Qml.dll",
        "PySide6/Qt/lib/QtQuick.framework/Versions/A/QtQuick", "PySide6/Qt/lib/libQt6Pdf.so.6",
        "PySide6/Qt/lib/libQt6VirtualKeyboard.so.6", "PySide6/Qt/lib/libQt6WaylandClient.so.6",
        "PySide6/Qt/lib/libQt6Network.so.6", "PySide6/QtQml.abi3.so",
        "PySide6/Qt/plugins/platforms/libqwayland.so", "PySide6/Qt/plugins/platforms/libqeglfs.so",
        "PySide6/Qt/plugins/platforminputcontexts/libqtvirtualkeyboardplugin.so",
        "PySide6/Qt/plugins/platformthemes/libqgtk3.so",
        "PySide6/Qt/plugins/imageformats/libqpdf.so",
        "PySide6/Qt/plugins/designer/libqwebengineview.so",
        "PySide6/Qt/plugins/sqldrivers/libqsqlite.so",
        "PySide6/Qt/plugins/qmltooling/libqmldbg_tcp.so", "PySide6/Qt/translations/qt_de.qm",
    ]
    assert [name for name in kept if not config.keep_file(name)] == []
    assert [name for name in left_out if config.keep_file(name)] == []


def test_linux_system_libraries_come_from_the_system_except_the_interpreters() -> None:
    system = "/usr/lib/x86_64-linux-gnu/"
    for name in ("libX11.so.6", "libfontconfig.so.1", "libstdc++.so.6", "libglib-2.0.so.0",
                 "libcups.so.2", "libxkbcommon.so.0"):
        assert not config.keep_file(name, system + name, linux=True)
        assert config.keep_file(name, system + name, linux=False)
    for name in ("libssl.so.3", "libcrypto.so.3", "libsqlite3.so.0", "libffi.so.8",
                 "libpython3.11.so.1.0", "libz.so.1"):
        assert config.keep_file(name, system + name, linux=True)
    # A system Python's own modules, and the wheels' libraries, always ship.
    assert config.keep_file("python3.11/lib-dynload/_ssl.cpython-311-x86_64-linux-gnu.so",
                            "/usr/lib/python3.11/lib-dynload/_ssl.cpython-311-x86_64-linux-gnu.so",
                            linux=True)
    assert config.keep_file("numpy.libs/libscipy_openblas64_.so",
                            "/work/.venv/lib/python3.11/site-packages/numpy.libs/"
                            "libscipy_openblas64_.so", linux=True)


def test_filter_toc_keeps_pyinstaller_entries_whole() -> None:
    entries = [("PySide6/Qt/lib/libQt6Gui.so.6", "/venv/PySide6/Qt/lib/libQt6Gui.so.6", "BINARY"),
               ("PySide6/Qt/lib/libQt6Quick.so.6", "/venv/x", "BINARY")]
    assert config.filter_toc(entries) == entries[:1]


def test_spec_uses_the_shared_choices_and_neither_strips_nor_compresses() -> None:
    spec = (PACKAGING / "carwars-desktop.spec").read_text(encoding="utf-8")
    for needed in ("config.data_files()", "config.hidden_imports(config.ruleset_modules())",
                   "config.excluded_modules()", "config.filter_toc(a.binaries)",
                   'copy_metadata("carwars-desktop")', "COLLECT(", "BUNDLE(",
                   "THIRD-PARTY-NOTICES.txt"):
        assert needed in spec
    for spec_name in ("carwars-desktop.spec", "bare-window.spec"):
        text = (PACKAGING / spec_name).read_text(encoding="utf-8")
        assert "strip=True" not in text and "upx=True" not in text
        assert text.count("strip=False") == text.count("upx=False") >= 2
    assert "onefile" not in spec


def test_deb_depends_on_the_libraries_qt_needs() -> None:
    check = load("linux/check_depends")
    declared = check.read_depends(PACKAGING / "linux" / "depends.txt")
    for package in ("libegl1", "libgl1", "libxkbcommon0", "libxkbcommon-x11-0", "libfontconfig1",
                    "libdbus-1-3", "libxcb-cursor0", "libxcb-icccm4", "libxcb-keysyms1",
                    "libxcb-image0", "libxcb-render-util0", "libxcb-randr0", "libxcb-shape0",
                    "libxcb-xfixes0", "libxcb-xkb1", "libx11-xcb1", "libc6"):
        assert package in declared
    assert not any(name.startswith("#") or " " in name for name in declared)


def test_desktop_entry_starts_the_linked_program_with_its_icon() -> None:
    entry = (PACKAGING / "linux" / "carwars-desktop.desktop").read_text(encoding="utf-8")
    lines = set(entry.splitlines())
    assert "[Desktop Entry]" in lines
    assert {"Type=Application", "Exec=carwars-desktop", "Icon=carwars-desktop",
            "Terminal=false"} <= lines
    assert any(line.startswith("Categories=") and "Game;" in line for line in lines)


def test_the_club_driver_and_keyring_ship_with_their_metadata() -> None:
    excluded = config.excluded_modules()
    for module in ("psycopg", "psycopg_binary", "keyring"):
        assert module not in excluded
    hidden = config.hidden_imports(config.ruleset_modules())
    for module in ("psycopg", "psycopg_binary", "sqlalchemy.dialects.postgresql.psycopg",
                   "keyring.backends.SecretService", "keyring.backends.Windows",
                   "keyring.backends.macOS"):
        assert module in hidden
    for platform in ("linux", "win32", "darwin"):
        shipped = config.bundled_distributions(platform)
        assert "psycopg" in shipped and "psycopg-binary" in shipped and "keyring" in shipped
    assert "SecretStorage" in config.bundled_distributions("linux")
    assert "SecretStorage" not in config.bundled_distributions("win32")
    spec = (config.REPO / "packaging" / "carwars-desktop.spec").read_text()
    assert "config.bundled_distributions()" in spec


def test_the_club_driver_is_a_dependency_of_the_app_not_an_extra() -> None:
    import tomllib

    project = tomllib.loads((config.REPO / "pyproject.toml").read_text())["project"]
    assert any(d.startswith("psycopg[binary]") for d in project["dependencies"])
    assert any(d.startswith("keyring") for d in project["dependencies"])
    assert not any(d.startswith("psycopg") for extra in project["optional-dependencies"].values()
                   for d in extra)
