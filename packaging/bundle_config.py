"""What goes into the PyInstaller bundle: shared by the app's spec and the bare-window spec.

Plain Python with no PyInstaller import, so tests can check it. The spec files
load it by path (the folder is not a package: ``packaging`` is also the name of
a PyPI library).

The app uses QtCore, QtGui, QtWidgets, QtPrintSupport and QtSvg, and pyqtgraph
imports QtOpenGL, QtOpenGLWidgets and QtTest. Everything else in the
PySide6-Essentials wheel (QML and Quick, Designer, virtual keyboard, Wayland,
PDF, SQL drivers…) is left out, as are the Qt plugins only those need.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
APP_NAME = "carwars-desktop"
DISPLAY_NAME = "Carwars Desktop"
BUNDLE_IDENTIFIER = "org.carwars.desktop"

# The folders the app loads at run time, shipped where carwars_desktop.resources looks first.
DATA_FOLDERS = ("ui", "resources", "database")
BUNDLED_PREFIX = "carwars_desktop/_bundled"

# The registries that import a module per ruleset by name (importlib.import_module): the
# rules registry (each ruleset's package), the GUI registry (each ruleset's screens) and
# the rulesets' play_from (each ruleset's play module).
REGISTRIES = ("carwars_desktop/rules/registry.py", "carwars_desktop/gui/rulesets.py",
              "carwars_desktop/rules/ruleset.py")

# Qt for Python modules the app and pyqtgraph import.
QT_MODULES_USED = (
    "QtCore", "QtGui", "QtWidgets", "QtPrintSupport", "QtSvg",
    "QtOpenGL", "QtOpenGLWidgets", "QtTest",
)

# Every other Qt module of PySide6 (Essentials and Addons), never bundled.
QT_MODULES_EXCLUDED = (
    "Qt3DAnimation", "Qt3DCore", "Qt3DExtras", "Qt3DInput", "Qt3DLogic", "Qt3DRender",
    "QtAxContainer", "QtBluetooth", "QtCanvasPainter", "QtCharts", "QtConcurrent",
    "QtDataVisualization", "QtDBus", "QtDesigner", "QtGraphs", "QtGraphsWidgets", "QtHelp",
    "QtHttpServer", "QtLocation", "QtMultimedia", "QtMultimediaWidgets", "QtNetwork",
    "QtNetworkAuth", "QtNfc", "QtPdf", "QtPdfWidgets", "QtPositioning", "QtQml", "QtQuick",
    "QtQuick3D", "QtQuickControls2", "QtQuickTest", "QtQuickWidgets", "QtRemoteObjects",
    "QtScxml", "QtSensors", "QtSerialBus", "QtSerialPort", "QtSpatialAudio", "QtSql",
    "QtStateMachine", "QtSvgWidgets", "QtTextToSpeech", "QtUiTools", "QtWebChannel",
    "QtWebEngineCore", "QtWebEngineQuick", "QtWebEngineWidgets", "QtWebSockets", "QtWebView",
    "QtXml",
)

# Python packages nothing in the app needs; some are optional imports of its dependencies.
PYTHON_EXCLUDED = (
    "tkinter", "_tkinter", "readline", "curses", "pydoc_data",
    "PyQt5", "PyQt6", "PySide2", "matplotlib", "IPython", "jupyter_rfb", "OpenGL",
    "scipy", "pandas", "h5py", "cupy", "numba", "pytest", "hypothesis",
    # Database drivers the app does not use: it reaches PostgreSQL through psycopg 3 and its
    # binary wheel (bundled, see BUNDLED_DISTRIBUTIONS), never through these.
    "psycopg_c", "psycopg2", "pymysql", "MySQLdb", "pysqlite2",
    "pyqtgraph.examples", "pyqtgraph.jupyter", "pyqtgraph.opengl",
)

# Qt shared libraries the excluded modules and plugins bring, matched in any OS's naming
# (libQt6Quick.so.6, Qt6Quick.dll, QtQuick.framework/…).
_UNUSED_QT_LIBRARIES = (
    "Qml", "Quick", "Lottie", "Labs", "Designer", "Help", "UiTools", "Sql", "Xml",
    "Pdf", "VirtualKeyboard", "Wayland", "Wl", "EglFS", "EglFs", "Network", "Concurrent",
    "ShaderTools", "SvgWidgets", "WebEngine", "Multimedia", "3D", "Charts", "Graphs",
)
_UNUSED_QT_LIBRARY = re.compile(
    r"(^|/)(lib)?Qt6?(" + "|".join(_UNUSED_QT_LIBRARIES) + r")[^/]*$")

# Qt plugin folders kept whole, and single plugins kept from the folders trimmed by name.
# The platforms: xcb for X11 and XWayland, offscreen/minimal for headless runs, and
# windows/cocoa on their systems. Wayland's plugin needs libraries the .deb does not declare;
# under a Wayland session Qt then uses XWayland.
_KEPT_PLUGIN_FOLDERS = ("iconengines", "printsupport", "styles", "xcbglintegrations")
_KEPT_PLUGINS = {
    "platforms": ("qxcb", "qoffscreen", "qminimal", "qwindows", "qcocoa", "qdirect2d"),
    "platforminputcontexts": ("composeplatforminputcontextplugin",
                              "ibusplatforminputcontextplugin"),
    "platformthemes": ("qxdgdesktopportal",),
    # Qt's own image formats; the qtimageformats add-on (tiff, webp…) and PDF are left out.
    "imageformats": ("qsvg", "qico", "qjpeg", "qgif"),
}
# PySide6/Qt/plugins/… on Linux and macOS, PySide6/plugins/… on Windows.
_PLUGIN = re.compile(r"(^|/)PySide6/(Qt6?/)?plugins/(?P<folder>[^/]+)/(?P<file>[^/]+)$")
# The app's texts are English and it installs no QTranslator: Qt's own translations stay out.
_QT_TRANSLATIONS = re.compile(r"(^|/)PySide6/(Qt6?/)?translations/")
_PLUGIN_STEM = re.compile(r"^(lib)?(?P<stem>.+?)(\.so|\.dll|\.dylib)$")

# Linux: the bundle carries Python, the wheels' libraries (Qt, NumPy's OpenBLAS) and the
# system libraries the interpreter links (OpenSSL, SQLite, libffi, zstd — Qt links it too). The rest
# of the desktop stack (X11/xcb, OpenGL/EGL, fontconfig, FreeType, D-Bus, GLib, CUPS,
# libstdc++) must match the system's drivers and settings: it comes from the system and the
# .deb declares it (packaging/linux/depends.txt; build_linux.sh checks the list is complete).
_SYSTEM_LIBRARY_FOLDERS = ("/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/")
_INTERPRETER_LIBRARY = re.compile(
    r"^lib(python3[^/]*|ssl|crypto|sqlite3|ffi|bz2|lzma|z|zstd|uuid|expat|mpdec|gdbm|gdbm_compat"
    r"|nsl|tirpc|readline|ncursesw?|tinfo|panelw?|formw?|menuw?|b2)\.so[.0-9]*$")


# Every bundled distribution whose metadata (and so license text, version and entry points)
# ships with it; the spec copies them all. psycopg and keyring find parts of themselves by it.
BUNDLED_DISTRIBUTIONS = (
    "PySide6_Essentials", "shiboken6", "SQLAlchemy", "alembic", "Mako", "MarkupSafe",
    "pyqtgraph", "numpy", "platformdirs", "typing_extensions",
    "psycopg", "psycopg-binary", "keyring", "jaraco.classes", "jaraco.functools",
    "jaraco.context", "segno",
    # The players' phones page (Share to players' devices): aiohttp and what it needs.
    "aiohttp", "aiohappyeyeballs", "aiosignal", "attrs", "frozenlist", "multidict",
    "propcache", "yarl", "idna",
)
LINUX_DISTRIBUTIONS = ("SecretStorage", "jeepney", "cryptography")
"""keyring's Secret Service backend and what it needs (Linux only)."""


def bundled_distributions(platform: str = sys.platform) -> tuple[str, ...]:
    return BUNDLED_DISTRIBUTIONS + (LINUX_DISTRIBUTIONS if platform == "linux" else ())


def data_files(repo: Path = REPO) -> list[tuple[str, str]]:
    """(source file, destination folder) for every file of the data folders.

    Listed file by file so a folder holding nothing yet (git keeps no empty folders)
    costs nothing, and caches never ship.
    """
    files: list[tuple[str, str]] = []
    for folder in DATA_FOLDERS:
        root = repo / folder
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*")):
            if not path.is_file() or "__pycache__" in path.parts or path.suffix == ".pyc":
                continue
            destination = Path(BUNDLED_PREFIX) / folder / path.parent.relative_to(root)
            files.append((str(path), destination.as_posix()))
    return files


def excluded_modules() -> list[str]:
    """Module names for PyInstaller's ``excludes``."""
    return [f"PySide6.{name}" for name in QT_MODULES_EXCLUDED] + list(PYTHON_EXCLUDED)


def hidden_imports(ruleset_modules: Iterable[str]) -> list[str]:
    """Modules imported by name at run time, which PyInstaller cannot see.

    ``ruleset_modules``: the modules the registries import by name (every built-in
    ruleset's package and UI module, :func:`ruleset_modules`).
    """
    return [
        *ruleset_modules,
        # The Alembic scripts under database/ are loaded from files: their imports.
        "alembic", "alembic.op", "alembic.context", "alembic.runtime.migration",
        "alembic.ddl.sqlite", "alembic.ddl.postgresql",
        "carwars_desktop.storage.engine", "carwars_desktop.storage.models",
        # SQLAlchemy finds dialects by URL scheme.
        "sqlalchemy.dialects.sqlite", "sqlalchemy.dialects.sqlite.pysqlite",
        "sqlalchemy.dialects.postgresql", "sqlalchemy.dialects.postgresql.psycopg",
        # A club's database: psycopg loads its C implementation (psycopg_binary) by name, and
        # keyring its backends by entry point (the metadata comes with BUNDLED_DISTRIBUTIONS).
        "psycopg", "psycopg_binary", "psycopg_binary.pq", "psycopg_binary._psycopg",
        "keyring.backends.SecretService", "keyring.backends.Windows", "keyring.backends.macOS",
        "keyring.backends.chainer", "keyring.backends.fail", "keyring.backends.null",
        # The phones page's server, imported only when sharing starts (its C parts too).
        "carwars_desktop.services.phone_server", "aiohttp", "aiohttp.web",
        "aiohttp._http_parser", "aiohttp._http_writer", "aiohttp._websocket.mask",
        "aiohttp._websocket.reader_c", "multidict._multidict", "yarl._quoting_c",
        "propcache._helpers_c", "frozenlist._frozenlist",
        # Printing and SVG icons, also when no module imported them yet.
        "PySide6.QtPrintSupport", "PySide6.QtSvg",
    ]


ENTRY_POINT_GROUP = "carwars_desktop.rulesets"
"""The installed rulesets' entry-point group (carwars_desktop.rules.registry reads it)."""


def entry_point_modules(repo: Path = REPO) -> list[str]:
    """The modules the app's own ruleset entry points name (``pyproject.toml``): loaded by
    ``importlib.metadata`` at run time, so PyInstaller must be told of them."""
    import tomllib

    project = tomllib.loads((repo / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    points = project.get("entry-points", {}).get(ENTRY_POINT_GROUP, {})
    return sorted({value.partition(":")[0].strip() for value in points.values()})


def ruleset_modules() -> list[str]:
    """The built-in rulesets' packages and screens, as their entries name them (the
    registries import them by name), their play modules (``Ruleset.play`` imports each by
    name when first asked: ``rules/ruleset.py``'s ``play_from``), and the modules their
    entry points name."""
    from carwars_desktop.rules.builtin import BUILT_IN

    return [*entry_point_modules(), *(entry.module for entry in BUILT_IN),
            *(f"{entry.module}.play" for entry in BUILT_IN),
            *(entry.screens for entry in BUILT_IN)]


def keep_file(destination: str, source: str = "", linux: bool = sys.platform == "linux") -> bool:
    """Whether a file PyInstaller collected (its path inside the bundle, its origin) ships."""
    name = destination.replace("\\", "/")
    if linux and "/" not in name and is_system_library(source):
        return _INTERPRETER_LIBRARY.match(Path(source).name) is not None
    plugin = _PLUGIN.search(name)
    if plugin is not None:
        return _keep_plugin(plugin["folder"], plugin["file"])
    if _QT_TRANSLATIONS.search(name):
        return False
    return _UNUSED_QT_LIBRARY.search(name) is None


def is_system_library(source: str) -> bool:
    """A shared library from the Linux system's folders.

    PyInstaller puts such libraries at the top of the bundle; the modules of a system
    Python (/usr/lib/python3.11/lib-dynload/…) go to a folder of their own and stay.
    """
    return source.startswith(_SYSTEM_LIBRARY_FOLDERS) and ".so" in Path(source).name


def _keep_plugin(folder: str, file_name: str) -> bool:
    if folder in _KEPT_PLUGIN_FOLDERS:
        return True
    kept = _KEPT_PLUGINS.get(folder)
    if kept is None:
        return False
    stem = _PLUGIN_STEM.match(file_name)
    # Debug builds on Windows end in "d" (qsvgd.dll): never shipped.
    return stem is not None and stem["stem"] in kept


def filter_toc(entries: Iterable[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """A PyInstaller TOC (destination, source, kind) without the files left out."""
    return [entry for entry in entries if keep_file(entry[0], entry[1] or "")]
