"""The bundled program's entry script: the same ``main`` as the installed ``carwars-desktop``."""

import sys

from carwars_desktop.app import main

if __name__ == "__main__":
    sys.exit(main())
