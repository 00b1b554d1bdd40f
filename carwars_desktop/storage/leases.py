"""Session leases: who plays a running session, and whether that copy still does.

The rules live here, without SQLAlchemy, because they are asked twice: by
:mod:`~carwars_desktop.storage.game_sessions` on every take and write, and by
:mod:`~carwars_desktop.storage.first_screen` before SQLAlchemy has loaded (a running
game is shown at start-up only when the normal opening would resume it). Both read the
same five columns of ``game_sessions`` and decide here, so they cannot disagree.
``game_sessions``'s module notes say what a lease is and when an own one is resumed.
"""

from __future__ import annotations

import getpass
import os
import secrets
import socket
import sys
from dataclasses import dataclass
from datetime import datetime, timedelta

from carwars_desktop.storage.installation import installation_id

TEXT_MAX = 200
"""The longest session, scenario, player, vehicle, holder or host name (the columns' size)."""

LEASE_TIMEOUT = timedelta(seconds=90)
"""A lease not renewed for this long is abandoned (its copy crashed): it may be taken."""


@dataclass(frozen=True)
class LeaseInfo:
    """Who plays a session: the user, the machine, since when, last heard of when."""

    holder: str
    host: str
    since: datetime
    renewed_at: datetime

    def describe(self) -> str:
        """``open on LAPTOP-2 since 20:14`` (local time)."""
        since = self.since.astimezone().strftime("%H:%M")
        who = f" by {self.holder}" if self.holder else ""
        return f"open on {self.host or 'another computer'}{who} since {since}"


@dataclass(frozen=True)
class Lease:
    """This copy's right to write a session (give it to ``GameSessions.events``)."""

    session_id: int
    token: str
    holder: str
    host: str


def this_holder() -> tuple[str, str]:
    """(user, machine) of this copy of the app, as a lease records them."""
    try:
        user = getpass.getuser()
    except (OSError, KeyError):  # no login name (a service account, a container)
        user = ""
    return user[:TEXT_MAX], socket.gethostname()[:TEXT_MAX]


live_tokens: set[str] = set()
"""The leases this process holds now (taken, not yet let go): a token of this process
that is not here was let go, even if the release could not be written."""


def _process_started(pid: int) -> str:
    """When the process ``pid`` of this machine started, as a short mark (Linux: its start
    time in clock ticks since boot, from ``/proc``), or "" when it cannot be told."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            fields = stat.read().rpartition(")")[2].split()
        return _base36(int(fields[19]))  # field 22, starttime (proc(5))
    except (OSError, IndexError, ValueError):
        return ""


def _base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    text = ""
    while True:
        number, digit = divmod(number, 36)
        text = digits[digit] + text
        if not number:
            return text


def new_token() -> str:
    """Unique; naming this installation and this process — its id and, where the system
    tells it, when it started, so that after a reboot another process that got the same
    id is not taken for it (at most 64 characters)."""
    started = _process_started(os.getpid())
    return (f"{installation_id()}.{secrets.token_hex(8)}-{os.getpid()}"
            + (f"-{started}" if started else ""))


def _process_runs(pid: int, started: str = "") -> bool:
    """Whether the process ``pid`` of this machine runs (and, given ``started``, is the
    one that started then); True when it cannot be told."""
    if sys.platform == "win32":
        # os.kill(pid, 0) would send CTRL_C_EVENT there: an own lease lapses instead.
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # it runs, under another user
        pass
    if started:
        now = _process_started(pid)
        if now and now != started:  # the id was given to another process since
            return False
    return True


def holder_gone(token: str | None, host: str | None) -> bool:
    """The lease ``token`` taken on ``host`` is this installation's own (same id, same
    machine) and the copy that took it no longer plays the session: its process has
    ended, or it is this process and it let the lease go."""
    if not token or host != socket.gethostname()[:TEXT_MAX]:
        return False
    owner, _, rest = token.partition(".")
    parts = rest.split("-")  # random, process id[, when it started]
    if owner != installation_id() or len(parts) not in (2, 3) or not parts[1].isdigit():
        return False
    pid = int(parts[1])
    started = parts[2] if len(parts) == 3 else ""
    if pid == os.getpid() and started in ("", _process_started(pid)):
        return token not in live_tokens
    return not _process_runs(pid, started)


def lease_info(token: str | None, holder: str | None, host: str | None,
               since: datetime | None, renewed_at: datetime | None,
               now: datetime) -> LeaseInfo | None:
    """The lease these columns hold, or None when there is none or it was abandoned
    (not renewed for :data:`LEASE_TIMEOUT`, or an own lease whose copy is gone)."""
    if token is None or since is None or renewed_at is None:
        return None
    if renewed_at < now - LEASE_TIMEOUT or holder_gone(token, host):
        return None
    return LeaseInfo(holder or "", host or "", since, renewed_at)
