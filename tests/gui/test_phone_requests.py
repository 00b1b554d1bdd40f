"""The phones' page refuses what it must, on loopback: hundreds of idle and half-sent
connections (under macOS's open-file limit of 256) never keep a seat out; one address
holding the common link cannot take the streams; Stop then Start revokes the links; a
forged ``Host``, a write, an oversized body and malformed bytes are each refused with one
log line on the server's standard error and no traceback.

Other addresses than 127.0.0.1 are 127.0.0.2… (loopback too: nothing leaves the machine).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest

from carwars_desktop.gui.phone_share import PhoneSharing
from carwars_desktop.rules import find_procedure, find_ruleset
from carwars_desktop.services import Services, typed_dice
from carwars_desktop.services.phone_server import (
    COMMON_PER_ADDRESS,
    MAX_CLIENTS,
    MAX_CONNECTIONS,
    RESERVED_FILES,
    SEAT_STREAMS,
    PhoneServer,
    printable,
)
from carwars_desktop.services.share_network import LOOPBACK, Interface
from carwars_desktop.session.setup import Entry, prepare
from carwars_desktop.storage import Database

WAIT = 20.0
IDLE_SOCKETS = 300
MACOS_FILES = 256


def loopback(_allow_public: bool) -> list[Interface]:
    return [Interface(LOOPBACK, f"{LOOPBACK} (this computer only)", True)]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def services(database: Database) -> Services:
    services = Services()
    services.table.database = database
    return services


@pytest.fixture
def sharing(qtbot, services: Services) -> Iterator[PhoneSharing]:  # type: ignore[no-untyped-def]
    sharing = PhoneSharing(services, choices=loopback, port=free_port())
    yield sharing
    sharing.end()


def _start(services: Services) -> None:
    ruleset = find_ruleset("mini_car_wars")
    catalog = ruleset.catalog()
    entries = [Entry(f"Player {n}", name, catalog[design].to_json())
               for n, (design, name) in enumerate(
                   zip(["Courier (b)", "Courier", "Killer Kart"],
                       ["Red Baron", "Blue Thunder", "Ambusher"], strict=True), start=1)]
    services.table.open(services.table.start("mini_car_wars", "Test night", "",
                                             prepare(ruleset, entries)))


def _fire(services: Services) -> None:
    """An event at the Table (a committed roll applied): every link gets a new snapshot."""
    table = services.table
    game = table.running()
    procedure = find_procedure("mini.fire")
    values = procedure.bind({"firer": game.sheet("v1"), "target": game.sheet("v2"),
                             "side": "L", "range": "5"})
    table.resolve(procedure, values, typed_dice("4 4 5 6 6"),
                  bindings={"firer": "v1", "target": "v2"}).apply()


def _until(condition, timeout: float = WAIT) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.02)


def _get(url: str, method: str = "GET", data: bytes | None = None) -> tuple[int, bytes]:
    request = urllib.request.Request(url, data=data, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def _split(url: str) -> tuple[str, int, str]:
    host, rest = url.removeprefix("http://").split("/", 1)
    name, port = host.split(":")
    return name, int(port), "/" + rest


def _raw(port: int, request: bytes, source: str = LOOPBACK) -> int:
    """Send ``request`` as it is; the status of the answer (0: closed without one)."""
    with socket.create_connection((LOOPBACK, port), timeout=10,
                                  source_address=(source, 0)) as sock:
        sock.sendall(request)
        answer = b""
        with contextlib.suppress(ConnectionError):
            while b"\r\n" not in answer:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                answer += chunk
    parts = answer.split(b" ", 2)
    return int(parts[1]) if len(parts) > 1 and parts[0].startswith(b"HTTP/") else 0


class Stream:
    """An event stream read as a phone would (http.client: one connection)."""

    def __init__(self, url: str, source: str = LOOPBACK) -> None:
        name, port, path = _split(url)
        self.connection = http.client.HTTPConnection(name, port, timeout=WAIT,
                                                     source_address=(source, 0))
        self.connection.request("GET", path + "/events")
        self.response = self.connection.getresponse()
        self.status = self.response.status

    def next_snapshot(self) -> dict[str, object]:
        for raw in self.response:
            line = raw.decode("utf-8").strip()
            if line.startswith("data: "):
                return dict(json.loads(line.removeprefix("data: ")))
        raise AssertionError("the stream ended")

    def close(self) -> None:
        self.connection.close()


def _stream_status(url: str, source: str = LOOPBACK) -> tuple[int, socket.socket]:
    """Open ``url``'s event stream from ``source``; its status and the socket (kept open)."""
    _name, port, path = _split(url)
    sock = socket.create_connection((LOOPBACK, port), timeout=10, source_address=(source, 0))
    sock.sendall(f"GET {path}/events HTTP/1.1\r\nHost: {LOOPBACK}:{port}\r\n\r\n".encode())
    answer = b""
    while b"\r\n" not in answer:
        chunk = sock.recv(4096)
        assert chunk, "closed without an answer"
        answer += chunk
    return int(answer.split(b" ", 2)[1]), sock


def _closed_by_server(sock: socket.socket) -> bool:
    sock.setblocking(False)
    try:
        return sock.recv(65536) == b""
    except BlockingIOError:
        return False
    except ConnectionError:
        return True
    finally:
        sock.setblocking(True)


@contextlib.contextmanager
def _open_file_limit(soft: int) -> Iterator[None]:
    """The process's open-file limit lowered to ``soft`` (a server process started now
    inherits it: macOS's 256 on Linux)."""
    import resource  # (POSIX: the tests that use this are marked posix_rlimits)

    before = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(soft, before[1]), before[1]))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, before)


def _open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


@pytest.mark.procfs
@pytest.mark.loopback_aliases
@pytest.mark.posix_rlimits
def test_phone_request_flood_of_idle_sockets_does_not_lock_out_seats(
        qtbot, services: Services, sharing: PhoneSharing) -> None:  # type: ignore[no-untyped-def]
    sources = [f"127.0.0.{n}" for n in range(1, 10)]
    assert _open_files(os.getpid()) < MACOS_FILES - 32
    _start(services)
    with _open_file_limit(MACOS_FILES):
        sharing.start(LOOPBACK)
    server = sharing.server
    assert server is not None and server._process is not None
    pid = server._process.pid
    assert pid is not None
    seats = {key: url for key, _name, url in sharing.seats()}
    _until(lambda: _get(seats["v2"] + "/state")[0] == 200)
    cap = server.stats().connection_cap
    assert cap == min(MAX_CONNECTIONS, MACOS_FILES - RESERVED_FILES)
    # 300 connections: a third from 127.0.0.1, the rest from eight other addresses; half
    # send nothing, half the start of a request whose headers never end.
    _name, port, path = _split(seats["v2"])
    idle: list[socket.socket] = []
    most_files = 0
    for n in range(IDLE_SOCKETS):
        source = sources[0] if n < IDLE_SOCKETS // 3 else sources[1 + n % 8]
        sock = socket.create_connection((LOOPBACK, port), timeout=10, source_address=(source, 0))
        if n % 2:
            sock.sendall(f"GET {path}/state HTTP/1.1\r\nHost: {LOOPBACK}:{port}\r\nX-".encode())
        idle.append(sock)
        most_files = max(most_files, _open_files(pid))

    def accounted() -> bool:  # every connection seen: open, closed for another, or timed out
        stats = server.stats()
        return stats.connections + stats.turned_away + stats.closed_idle >= IDLE_SOCKETS
    _until(accounted)
    held = server.stats().connections
    assert held <= cap and server.stats().turned_away >= IDLE_SOCKETS - cap
    most_files = max(most_files, _open_files(pid))
    assert most_files < MACOS_FILES  # never near the limit: nothing fails to open
    # While they are open: the seat's page, its state and its stream, and the GUI's events.
    status, body = _get(seats["v2"] + "/")
    assert status == 200 and b"<script src=\"app.js\"" in body
    stream = Stream(seats["v2"])
    try:
        assert stream.status == 200
        first = stream.next_snapshot()
        assert first["seat"] == "v2"
        _fire(services)
        after = stream.next_snapshot()
        assert int(str(after["seq"])) > int(str(first["seq"]))
        # The idle ones are closed by the server (none sent its headers in time) ...
        _until(lambda: all(_closed_by_server(sock) for sock in idle), timeout=60)
        assert server.stats().closed_idle > 0
        assert server.stats().connections <= 2  # the stream, at most one more on its way out
        # ... the stream is not: it still follows the game.
        services.table.undo()
        assert int(str(stream.next_snapshot()["seq"])) > int(str(after["seq"]))
    finally:
        stream.close()
        for sock in idle:
            sock.close()


def test_phone_request_idle_keep_alive_connection_is_closed(
        qtbot, services: Services, sharing: PhoneSharing) -> None:  # type: ignore[no-untyped-def]
    _start(services)
    url = sharing.start(LOOPBACK)
    name, port, path = _split(url)
    _until(lambda: _get(url + "/state")[0] == 200)
    with socket.create_connection((name, port), timeout=10) as sock:
        sock.sendall(f"GET {path}/state HTTP/1.1\r\nHost: {name}:{port}\r\n\r\n".encode())
        answer = sock.recv(65536)
        assert answer.startswith(b"HTTP/1.1 200")  # served, and kept alive ...
        _until(lambda: _closed_by_server(sock))  # ... but not for ever


@pytest.mark.loopback_aliases
def test_phone_request_common_link_streams_from_one_address_refused_while_seats_stream(
        qtbot, services: Services, sharing: PhoneSharing) -> None:  # type: ignore[no-untyped-def]
    sources = [f"127.0.0.{n}" for n in range(1, 10)]
    _start(services)
    common = sharing.start(LOOPBACK)
    seats = {key: url for key, _name, url in sharing.seats()}
    _until(lambda: _get(common + "/state")[0] == 200)
    held: list[socket.socket] = []
    try:
        # One address (the TV's link in one hand) asks 40 streams: 4 served, 36 refused.
        statuses = []
        for _ in range(40):
            status, sock = _stream_status(common)
            statuses.append(status)
            held.append(sock)
        assert statuses == [200] * COMMON_PER_ADDRESS + [429] * (40 - COMMON_PER_ADDRESS)
        # Eight more addresses, 6 each: the common link's 16 in all, then 503.
        more = []
        for source in sources[1:]:
            for _ in range(6):
                status, sock = _stream_status(common, source)
                more.append(status)
                held.append(sock)
        assert more.count(200) == MAX_CLIENTS - COMMON_PER_ADDRESS
        assert set(more) == {200, 429, 503} and 503 in more
        served = sharing.server.stats().clients if sharing.server else 0
        assert served == MAX_CLIENTS
        # Every seat still streams, from the very address that took the common link.
        for key, url in seats.items():
            stream = Stream(url)
            assert stream.status == 200 and stream.next_snapshot()["seat"] == key
            stream.close()
        # A seat's own streams: its next one replaces its oldest (a reloaded page).
        own = [Stream(seats["v1"]) for _ in range(SEAT_STREAMS + 1)]
        assert all(stream.status == 200 for stream in own)
        assert own[-1].next_snapshot()["seat"] == "v1"
        _fire(services)
        with pytest.raises((ConnectionError, AssertionError, http.client.HTTPException)):
            own[0].next_snapshot()  # closed, its first snapshot read or not
            own[0].next_snapshot()
        assert own[-1].next_snapshot()["seat"] == "v1"
        for stream in own:
            stream.close()
    finally:
        for sock in held:
            sock.close()


def test_phone_request_revoked_token_refused(
        qtbot, services: Services, sharing: PhoneSharing) -> None:  # type: ignore[no-untyped-def]
    _start(services)
    old_common = sharing.start(LOOPBACK)
    old_seats = [url for _key, _name, url in sharing.seats()]
    assert _get(old_common + "/state")[0] == 200
    assert all(_get(url + "/state")[0] == 200 for url in old_seats)
    sharing.stop()
    new_common = sharing.start(LOOPBACK)  # the same session, the same address and port
    new_seats = [url for _key, _name, url in sharing.seats()]
    assert _split(new_common)[:2] == _split(old_common)[:2]
    assert new_common != old_common and not set(new_seats) & set(old_seats)
    for url in (old_common, *old_seats):
        assert _get(url + "/state")[0] == 404
        assert _get(url + "/")[0] == 404
    assert _get(new_common + "/state")[0] == 200
    assert all(_get(url + "/state")[0] == 200 for url in new_seats)


def _log_lines(capfd, count: int, word: str) -> list[str]:  # type: ignore[no-untyped-def]
    """The server's log lines holding ``word``, once ``count`` of them are out."""
    lines: list[str] = []
    seen = ""
    deadline = time.monotonic() + WAIT
    while len([line for line in lines if word in line]) < count:
        assert time.monotonic() < deadline, seen
        time.sleep(0.05)
        seen += capfd.readouterr().err
        lines = seen.splitlines()
    return [line for line in lines if "carwars phones:" in line]


def test_phone_request_forged_host_refused(
        qtbot, services: Services, sharing: PhoneSharing, capfd) -> None:  # type: ignore[no-untyped-def]
    _start(services)
    url = sharing.start(LOOPBACK)
    _name, port, path = _split(url)
    _until(lambda: _get(url + "/state")[0] == 200)
    capfd.readouterr()
    token = path.split("/")[2]

    def ask(*hosts: str) -> int:
        head = "".join(f"Host: {host}\r\n" for host in hosts)
        return _raw(port, f"GET {path}/state HTTP/1.1\r\n{head}Connection: close\r\n\r\n"
                          .encode())
    forged = [f"evil.example:{port}", f"localhost:{port}", f"127.0.0.1:{port + 1}",
              "127.0.0.1", f"127.0.0.2:{port}", f"[::1]:{port}", "127.0.0.1:80x", "",
              f"attacker.example:{port}\r\nX-Other: 1"]
    assert [ask(host) for host in forged] == [421] * len(forged)
    assert ask(f"127.0.0.1:{port}", f"127.0.0.1:{port}") == 400  # two Host headers
    assert _raw(port, f"GET {path}/state HTTP/1.0\r\n\r\n".encode()) == 400  # none at all
    assert ask(f"127.0.0.1:{port}") == 200
    refused = len(forged) + 2
    lines = _log_lines(capfd, refused, ": 4")
    assert len([line for line in lines if ": 421 " in line]) == len(forged)
    assert len([line for line in lines if ": 400 " in line]) == 2
    assert any("evil.example" in line for line in lines)
    text = "\n".join(lines)
    assert token not in text and "Traceback" not in text


def test_phone_request_write_malformed_or_oversized_is_refused_in_one_log_line(
        qtbot, services: Services, sharing: PhoneSharing, capfd) -> None:  # type: ignore[no-untyped-def]
    _start(services)
    url = sharing.start(LOOPBACK)
    seat = sharing.seats()[0][2]
    _name, port, path = _split(url)
    host = f"Host: {LOOPBACK}:{port}\r\n"
    _until(lambda: _get(url + "/state")[0] == 200)
    capfd.readouterr()
    tokens = [path.split("/")[2], _split(seat)[2].split("/")[2]]
    statuses = []
    # The common link stays read-only, and so does every seat's (for now).
    for target in (url, seat):
        for method in ("POST", "PUT", "DELETE", "PATCH"):
            statuses.append(_get(target + "/state", method, b"{}")[0])
    assert statuses == [405] * 8
    asked = [
        (f"GET {path}/state HTTP/1.1\r\n{host}Content-Length: 100000\r\n\r\n", 413),
        (f"POST {path}/state HTTP/1.1\r\n{host}Content-Length: 10000\r\n\r\n" + "x" * 10000,
         413),
        (f"GET {path}/state HTTP/1.1\r\n{host}Transfer-Encoding: chunked\r\n\r\n"
         "5\r\nhello\r\n0\r\n\r\n", 411),
        (f"GET {path}/{'a' * 10_000} HTTP/1.1\r\n{host}\r\n", 400),  # a line too long
        (f"GET {path}/state HTTP/1.1\r\n{host}X-Big: {'b' * 10_000}\r\n\r\n", 400),
        ("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 not HTTP at all\r\n\r\n", 400),
        (f"GET {path}/state HTTP/1.1\r\n{host}\x01bad: header\r\n\r\n", 400),
        (f"GET {path}/../../etc/passwd HTTP/1.1\r\n{host}\r\n", 404),
    ]
    got = [_raw(port, request.encode("latin-1")) for request, _status in asked]
    assert got == [status for _request, status in asked]
    assert _get(url + "/state")[0] == 200  # and the page goes on
    lines = _log_lines(capfd, len(statuses) + len(asked), ": 4")
    refusals = [line for line in lines if ": 4" in line]
    assert len(refusals) == len(statuses) + len(asked)  # one line each
    for status in (405, 413, 411, 400, 404):
        assert any(f": {status} " in line for line in refusals), status
    text = "\n".join(lines)
    assert "Traceback" not in text and "aiohttp" not in text
    assert not any(token in text for token in tokens)


def test_phone_request_for_the_browsers_icon_is_no_guess(
        qtbot, services: Services, sharing: PhoneSharing, capfd) -> None:  # type: ignore[no-untyped-def]
    _start(services)
    url = sharing.start(LOOPBACK)
    name, port, _path = _split(url)
    _until(lambda: _get(url + "/state")[0] == 200)
    for _ in range(15):  # more than the wrong guesses an address may make
        assert _get(f"http://{name}:{port}/favicon.ico")[0] == 204
    assert _get(url + "/state")[0] == 200
    assert _get(f"http://{name}:{port}/s/wrong/state")[0] == 404
    lines = _log_lines(capfd, 1, ": 404 ")
    assert not any("favicon" in line for line in lines)


def test_a_log_line_leaves_the_token_out_and_writes_no_line_of_its_own() -> None:
    assert printable("/s/SECRETtoken123/state") == "/s/<token>/state"
    assert "\n" not in printable("GET /x\nfake line") and "\\n" in printable("a\nb")
    assert printable("x" * 500).endswith("…") and len(printable("x" * 500)) == 121


@pytest.mark.posix_rlimits
def test_a_server_under_a_low_open_file_limit_keeps_fewer_connections(
        qtbot) -> None:  # type: ignore[no-untyped-def]
    from carwars_desktop.resources import resources_dir

    with _open_file_limit(100):
        server = PhoneServer(resources_dir() / "phones", LOOPBACK, 0)
        server.start()
    try:
        _until(lambda: server.stats().connection_cap > 0)
        assert server.stats().connection_cap == 100 - RESERVED_FILES
    finally:
        server.stop()
