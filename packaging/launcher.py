"""The bundled program's entry script: the same ``main`` as the installed ``carwars-desktop``.

``multiprocessing.freeze_support()`` first: the phones' page server runs in a process
started with the ``spawn`` method, which in a bundle re-runs this program with
multiprocessing's own arguments; there it runs that process, never the app.
"""

import multiprocessing
import sys

from carwars_desktop.app import main

if __name__ == "__main__":
    multiprocessing.freeze_support()
    sys.exit(main())
