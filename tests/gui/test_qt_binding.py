"""The Qt binding itself: a regression guard for the PySide6 version pinned in pyproject.

PySide6 6.12.0 drops a reference to a Python bool on every ``QComboBox.addItem``;
after a few thousand items (a long evening of Resolver forms) the interpreter
aborts at exit with "bool_dealloc: deallocating True or False".
"""

from __future__ import annotations

import os
import subprocess
import sys

SCRIPT = """
from PySide6.QtWidgets import QApplication, QComboBox
app = QApplication([])
box = QComboBox()
for n in range(5000):
    box.addItem(f"item {n}", f"data {n}")
print("clean exit")
"""


def test_many_combo_items_then_a_clean_exit() -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    result = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "clean exit"
