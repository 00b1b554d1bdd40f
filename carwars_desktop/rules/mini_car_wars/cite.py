"""Mini Car Wars' rule citations: ``mcw("§2.4", "MCW-D1")`` → ``Mini Car Wars §2.4 MCW-D1``."""

from carwars_desktop.rules.builtin import MINI_CAR_WARS
from carwars_desktop.rules.kernel.citation import Citer

mcw = Citer(MINI_CAR_WARS.title, separator=" ")
