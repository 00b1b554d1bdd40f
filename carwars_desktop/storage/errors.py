"""The ways a database can be refused, each with a message a GM can act on.

Every refusal happens before the app writes anything: the message says so.
"""

from __future__ import annotations


class DatabaseError(Exception):
    """The database cannot be used; the message says why, in a GM's words."""


class NotADatabaseError(DatabaseError):
    """The file is not an SQLite database, or is another program's database."""


class CorruptDatabaseError(DatabaseError):
    """The file is an SQLite database that is truncated or damaged."""


class NewerSchemaError(DatabaseError):
    """The database was written by a newer Carwars Desktop than this one."""

    def __init__(self, message: str, found: str, known_head: str) -> None:
        super().__init__(message)
        self.found = found
        self.known_head = known_head


class MigrationHeadsError(DatabaseError):
    """The shipped migrations do not form one line (a packaging mistake)."""


class DamagedDatabaseError(CorruptDatabaseError):
    """A Carwars database with a table, a column or its schema stamp missing."""

    def __init__(self, message: str, what: str = "") -> None:
        super().__init__(message)
        self.what = what
        """What is missing ("table sessions is missing"), for a message of the caller's."""


class ReadOnlyDatabaseError(DatabaseError):
    """The file or its folder cannot be written: it can only be browsed read-only."""


class LockedDatabaseError(DatabaseError):
    """Another program holds a lock on the database."""


class WriteFailedError(DatabaseError):
    """The database refused a write (read-only, locked, full…); nothing was changed.

    ``reason`` is the cause in a GM's words ("the database is read-only"), the message
    says what was not saved. The GUI shows it in a banner with Retry.
    """

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason
