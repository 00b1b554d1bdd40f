"""Battlecars' rule citations: ``bc("§2.5 step 2", "BC-D42")`` → ``Battlecars §2.5 step 2 ·
BC-D42``."""

from carwars_desktop.rules.builtin import BATTLECARS
from carwars_desktop.rules.kernel.citation import Citer

bc = Citer(BATTLECARS.title)
