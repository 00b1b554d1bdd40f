"""The app imports its modules without PySide6 reading each one's source (start-up time)."""

from __future__ import annotations

import os
import subprocess
import sys

SCRIPT = """
import linecache, sys
from carwars_desktop.app import skip_pyside_source_scan
skipped = {skip}
if skipped:
    assert skip_pyside_source_scan()
import PySide6.QtCore
import carwars_desktop.session.history
print(any("carwars_desktop" in name for name in linecache.cache))
"""


def _source_read(skip: bool) -> str:
    done = subprocess.run([sys.executable, "-c", SCRIPT.format(skip=skip)],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_pyside_reads_no_module_source_at_start_up() -> None:
    assert _source_read(skip=False) == "True"  # what PySide6 does by itself
    assert _source_read(skip=True) == "False"
