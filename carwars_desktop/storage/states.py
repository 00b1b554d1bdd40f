"""Words the session tables store, and how often a lease is renewed.

No SQLAlchemy here: the first screen is read before it has loaded
(:mod:`carwars_desktop.storage.first_screen`, the Table's lease timer).
"""

RUNNING = "running"
FINISHED = "finished"
ACTIVE = "active"
UNDONE = "undone"
ABANDONED = "abandoned"
"""An undone event a new event followed: kept in the history, never redone."""

LEASE_RENEW_SECONDS = 20
"""How often the copy that plays a session says it is still there."""
