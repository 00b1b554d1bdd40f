"""Where the phones' page listens, and who may read it: addresses, the link's token, the
wrong-token rate limit. Plain Python (sockets only): no server is started here.

The page listens on one address the GM chose, by default the address of the
interface that holds the default route (the table's Wi-Fi or LAN). A public address
(a laptop plugged straight into the internet) is offered only once the GM has said
so. The link carries a random token of 128 bits or more (:mod:`secrets`), compared
in constant time; a wrong token gets a 404, and an address that keeps guessing is
refused for a while (:class:`GuessLimit`).
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
import socket
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

DEFAULT_PORT = 8791
TOKEN_BYTES = 24
"""192 bits of randomness (``secrets.token_urlsafe``), 32 URL-safe characters."""
LOOPBACK = "127.0.0.1"


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_matches(given: str, token: str) -> bool:
    """Constant-time comparison (the time taken tells nothing about the token)."""
    return hmac.compare_digest(given.encode("utf-8", "replace"), token.encode("utf-8"))


def is_public(address: str) -> bool:
    """True for an address reachable from the internet (not private, loopback,
    link-local nor shared carrier-grade NAT)."""
    ip = ipaddress.ip_address(address)
    return not (ip.is_private or ip.is_loopback or ip.is_link_local
                or ip in ipaddress.ip_network("100.64.0.0/10"))


@dataclass(frozen=True)
class Interface:
    """One address the page may listen on."""

    address: str
    label: str
    default: bool = False

    @property
    def public(self) -> bool:
        return is_public(self.address)


def default_route_address() -> str | None:
    """The local address the system would use to reach the outside (the interface with
    the default route), or None without one. A UDP socket is *connected*, which sends
    nothing and listens on nothing: the system only picks the route."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere real
        address = str(probe.getsockname()[0])
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("0.") else address


def host_addresses() -> list[str]:
    """The IPv4 addresses the host name resolves to (other interfaces, if any)."""
    try:
        found = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return []
    return sorted({str(item[4][0]) for item in found})


def interfaces(default_route: Callable[[], str | None] = default_route_address,
               others: Callable[[], Iterable[str]] = host_addresses,
               allow_public: bool = False) -> list[Interface]:
    """The addresses to offer, the default-route one first (and the default); public
    ones only with ``allow_public``; this computer only (loopback) always last."""
    chosen: list[Interface] = []
    seen = {LOOPBACK}
    default = default_route()
    for address in ([default] if default else []) + list(others()):
        if address in seen or address.startswith("127."):
            continue
        seen.add(address)
        if is_public(address) and not allow_public:
            continue
        word = "public address: anyone on the internet could reach it" if is_public(address) \
            else "the table's network" if address == default else "another network"
        chosen.append(Interface(address, f"{address} ({word})", address == default))
    if not any(i.default for i in chosen) and chosen:
        chosen[0] = Interface(chosen[0].address, chosen[0].label, True)
    chosen.append(Interface(LOOPBACK, f"{LOOPBACK} (this computer only)", not chosen))
    return chosen


class GuessLimit:
    """Wrong-token requests per client address: past ``limit`` within ``window`` seconds
    that address is refused (429) until its oldest guess is ``window`` old."""

    def __init__(self, limit: int = 10, window: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self._clock = clock
        self._guesses: dict[str, list[float]] = {}

    def _recent(self, who: str) -> list[float]:
        now = self._clock()
        kept = [t for t in self._guesses.get(who, []) if now - t < self.window]
        if kept:
            self._guesses[who] = kept
        else:
            self._guesses.pop(who, None)
        return kept

    def blocked(self, who: str) -> bool:
        return len(self._recent(who)) >= self.limit

    def wrong(self, who: str) -> None:
        """Count one wrong guess (bounded: at most ``limit`` kept per address, and at
        most 4,096 addresses, the oldest forgotten first)."""
        kept = self._recent(who)[-(self.limit - 1):] if self.limit > 1 else []
        kept.append(self._clock())
        self._guesses[who] = kept
        if len(self._guesses) > 4096:
            self._guesses.pop(next(iter(self._guesses)))
