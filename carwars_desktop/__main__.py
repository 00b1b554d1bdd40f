"""`python -m carwars_desktop` starts the app (or the `resolve` command line)."""

import sys

from carwars_desktop.app import main

sys.exit(main())
