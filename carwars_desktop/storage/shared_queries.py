"""The reads the first screen and the repositories both run, written once.

The first screen (:mod:`.first_screen`) reads with the standard ``sqlite3`` before
SQLAlchemy has loaded; the repositories (:class:`.game_sessions.GameSessions`,
:class:`.library.Library`) read the same rows once the database is open. Both run these
statements (named parameters, which ``sqlite3`` and SQLAlchemy's ``text()`` both take),
so which session is "the last running one", the order of its vehicles and which designs
the Library lists cannot differ between them.

No SQLAlchemy here.
"""

from __future__ import annotations

from carwars_desktop.storage.entries import ENTRY_COLUMNS
from carwars_desktop.storage.session_records import VEHICLE_COLUMNS

LAST_RUNNING_ID = ("SELECT id FROM game_sessions WHERE status = :status "
                   "ORDER BY updated_at DESC, id DESC LIMIT 1")
"""The id of the session start-up resumes: the running one played last (``:status``)."""

SESSION_VEHICLES = (f"SELECT {', '.join(VEHICLE_COLUMNS)} FROM session_vehicles "
                    "WHERE session_id = :session_id ORDER BY position")
"""A session's vehicles in seating order, as :func:`.session_records.loaded_session` reads
them (``:session_id``)."""

LISTED_DESIGNS = "deleted_at IS NULL"
"""The designs the Library lists (the others are in its bin)."""

DESIGNS_ORDER = "id"
"""The order of the Library's list as read (the view sorts it)."""

LEGACY_DRAFT = "legacy"
"""The owner of a draft kept before drafts were per copy (revision 0010): every copy's,
until one copy edits, saves or discards it."""

LISTED_ENTRIES = (f"SELECT {', '.join(ENTRY_COLUMNS)}, EXISTS (SELECT 1 FROM design_drafts "
                  "WHERE design_id = designs.id AND owner IN (:owner, "
                  f"'{LEGACY_DRAFT}')) FROM designs "
                  f"WHERE {LISTED_DESIGNS} ORDER BY {DESIGNS_ORDER}")
"""The Library's list: :data:`.entries.ENTRY_COLUMNS`, then whether unsaved work of this
copy (``:owner``, or a legacy draft) waits; as :meth:`.library.Library.entries` builds it."""
