"""The benchmark's baseline: a bare PySide6 QMainWindow, bundled the way the app is.

With CARWARS_TRACE_STARTUP set it prints ``carwars-startup window-idle <epoch>`` on
stderr at the first turn of the event loop after show, as the app does, and exits.
"""

import os
import sys
import time

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMainWindow


def main() -> int:
    app = QApplication(sys.argv)
    window = QMainWindow()
    window.resize(1280, 800)
    window.show()

    def idle() -> None:
        if os.environ.get("CARWARS_TRACE_STARTUP"):
            print(f"carwars-startup window-idle {time.time():.6f}", file=sys.stderr, flush=True)
        app.quit()

    QTimer.singleShot(0, idle)
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
