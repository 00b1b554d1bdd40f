"""One way to write: a committed transaction whose database failures become
:class:`~carwars_desktop.storage.errors.WriteFailedError` with the cause in a GM's words.

A locked SQLite file waits at most the engine's short busy timeout, so a click on a
locked database fails fast (and the GM retries) instead of freezing the window.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from carwars_desktop.storage.club import is_connection_lost
from carwars_desktop.storage.errors import WriteFailedError

NOT_ANSWERING = "the club server is not answering"
"""The reason of a write lost with the club server's connection (the banner's words)."""


def is_lost_server(error: BaseException) -> bool:
    """``error`` is the club server's connection lost or refused (not a statement refused;
    never a local SQLite file's error)."""

    original = getattr(error, "orig", None)
    return type(original).__module__.startswith("psycopg") and is_connection_lost(error)


def write_failure_reason(error: BaseException) -> str:
    """The cause of a failed write, as a GM would say it (never the driver's raw text for
    a lost connection: :data:`NOT_ANSWERING`)."""
    if is_lost_server(error):
        return NOT_ANSWERING
    original = getattr(error, "orig", None)
    text = str(original if original is not None else error).strip()
    lowered = text.lower()
    if "readonly" in lowered or "read-only" in lowered or "read only" in lowered:
        return "the database is read-only: changes cannot be saved"
    if "locked" in lowered or "busy" in lowered or "lock timeout" in lowered:
        return "the database is locked by another program"
    if "disk is full" in lowered or "no space" in lowered:
        return "the disk is full"
    if "disk i/o" in lowered:
        return "the disk could not be written (input/output error)"
    first = text.splitlines()[0] if text else type(error).__name__
    return first


@contextmanager
def writing(sessions: sessionmaker[Session], what: str) -> Iterator[Session]:
    """``with writing(sessions, "the mark")``: one transaction, committed on success.

    Raises:
        WriteFailedError: the database refused it; nothing of it was kept.
    """
    try:
        with sessions.begin() as session:
            yield session
    except SQLAlchemyError as error:
        reason = write_failure_reason(error)
        raise WriteFailedError(f"{what} was not saved: {reason}.", reason) from error
