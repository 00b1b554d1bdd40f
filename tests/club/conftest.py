"""A private PostgreSQL server on loopback with password sign-in, which a test may stop and restart.

Unlike tests/postgres_server.sh (trust sign-in, shared by the storage tests) this one asks for
passwords (scram-sha-256) so wrong passwords are refused, listens on a free port of 127.0.0.1,
and has no TLS, so ``sslmode=require`` is refused. The superuser is ``postgres`` with
:data:`ADMIN_PASSWORD`; :meth:`ClubServer.add_club` creates a least-privilege role and its
database the way docs/club-server.md tells a club admin to.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import keyring
import pytest
from keyring.backend import KeyringBackend

from carwars_desktop.storage.club import ClubConnection

from .certificates import Authority, make_authority, write_server_certificate

ADMIN_PASSWORD = "admin-Secret-7731"
CLUB_PASSWORD = "Tr1cky-p@ss/word%42"
"""Characters a URL must quote, so a leak in quoted form is caught too."""


DOC = Path(__file__).resolve().parents[2] / "docs" / "club-server.md"


def club_admin_sql() -> str:
    """The first SQL block of docs/club-server.md: what a club admin runs."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index("```sql\n") + len("```sql\n")
    return text[start:text.index("```", start)]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class ClubServer:
    def __init__(self, bin_dir: Path, authority: Authority | None = None) -> None:
        """With ``authority``: TLS on, with a server certificate it signed (for 127.0.0.1)."""
        self.bin = bin_dir
        self.folder = Path(tempfile.mkdtemp(prefix="carwars-club-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self._root = os.geteuid() == 0
        if self._root:
            shutil.chown(self.folder, "postgres")
        self._tls = ""
        if authority is not None:
            crt, key = write_server_certificate(authority, self.folder)
            if self._root:
                shutil.chown(crt, "postgres")
                shutil.chown(key, "postgres")
            self._tls = f" -c ssl=on -c ssl_cert_file={crt} -c ssl_key_file={key}"
        pwfile = self.folder / "pw"
        pwfile.write_text(ADMIN_PASSWORD + "\n")
        if self._root:
            shutil.chown(pwfile, "postgres")
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth-local=trust",
                  "--auth-host=scram-sha-256", f"--pwfile={pwfile}", "--encoding=UTF8",
                  "--locale=C")
        self.start()

    def _run(self, program: str, *args: str, stdin: str | None = None) -> str:
        command = [str(self.bin / program), *args]
        if self._root:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120,
                              input=stdin)
        if done.returncode:
            raise RuntimeError(f"{program} failed: {done.stdout}{done.stderr}")
        return done.stdout

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "server.log"), "-w",
                  "-t", "60", "start", "-o",
                  f"-c listen_addresses=127.0.0.1 -c port={self.port} "
                  f"-c unix_socket_directories={self.folder} -c fsync=off{self._tls}")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-w", "-t", "60", "stop", "-m", "fast")

    def running(self) -> bool:
        command = [str(self.bin / "pg_ctl"), "-D", str(self.data), "status"]
        if self._root:
            command = ["runuser", "-u", "postgres", "--", *command]
        return subprocess.run(command, capture_output=True, timeout=60).returncode == 0

    def start_if_stopped(self) -> None:
        if not self.running():
            self.start()

    def sql(self, statement: str, database: str = "postgres") -> str:
        """Run SQL as the superuser over the Unix socket (trust), return psql's output."""
        return self._run("psql", "-h", str(self.folder), "-p", str(self.port), "-U", "postgres",
                         "-d", database, "-v", "ON_ERROR_STOP=1", "-tAc", statement)

    def add_club(self, database: str, role: str, password: str) -> None:
        """The database and its least-privilege role, by the SQL of docs/club-server.md."""
        script = (club_admin_sql().replace("carwars_gm", role)
                  .replace("carwars_club", database)
                  .replace("'change-me-to-a-long-password'",
                           "'" + password.replace("'", "''") + "'"))
        self._run("psql", "-h", str(self.folder), "-p", str(self.port), "-U", "postgres",
                  "-d", "postgres", "-v", "ON_ERROR_STOP=1", "-q", "-f", "-", stdin=script)

    def pg_dump(self, database: str, role: str, password: str, target: Path) -> None:
        """The backup command of docs/club-server.md, as the club's role."""
        done = subprocess.run(
            [str(self.bin / "pg_dump"), "--host=127.0.0.1", f"--port={self.port}",
             f"--username={role}", "--format=custom", f"--file={target}", database],
            capture_output=True, text=True, timeout=120,
            env={**os.environ, "PGPASSWORD": password})
        if done.returncode:
            raise RuntimeError(f"pg_dump failed: {done.stderr}")

    def destroy(self) -> None:
        with contextlib.suppress(RuntimeError):
            self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


# --- fixtures -------------------------------------------------------------------------------
@pytest.fixture(scope="session")
def club_server(postgres_bin_dir: Path) -> Iterator[ClubServer]:
    """One private server for the whole run (the offline tests stop and start it); its
    tests are marked postgres_server (tests/conftest.py)."""
    server = ClubServer(postgres_bin_dir)
    yield server
    server.destroy()


@contextlib.contextmanager
def new_club(server: ClubServer, **tls: Any) -> Iterator[ClubConnection]:
    suffix = uuid.uuid4().hex[:10]
    database, role = f"club_{suffix}", f"gm_{suffix}"
    server.add_club(database, role, CLUB_PASSWORD)
    yield ClubConnection("127.0.0.1", database, role, server.port, **tls)
    server.start_if_stopped()
    server.sql(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
    server.sql(f"DROP ROLE IF EXISTS {role}")


@pytest.fixture
def club(club_server: ClubServer) -> Iterator[ClubConnection]:
    """A new club database with its own least-privilege role (password :data:`CLUB_PASSWORD`)."""
    with new_club(club_server, require_tls=False) as connection:
        yield connection


def fill_connect_dialog(dialog: Any, club: ClubConnection, password: str,
                        tls: bool = True) -> None:
    """Type ``club``'s address and ``password`` into a connect window (a ``ConnectDialog``),
    and its TLS choice unless ``tls`` is False (the window's default is then kept)."""
    dialog.host_edit.setText(club.host)
    dialog.port_box.setValue(club.port)
    dialog.database_edit.setText(club.database)
    dialog.user_edit.setText(club.user)
    dialog.password_edit.setText(password)
    if tls:
        dialog.tls_box.setChecked(club.require_tls)


@pytest.fixture(scope="session")
def club_authority() -> Authority:
    """The club's throwaway CA (what docs/club-server.md has the organiser make)."""
    return make_authority("Carwars test club CA")


@pytest.fixture(scope="session")
def tls_club_server(postgres_bin_dir: Path,
                    club_authority: Authority) -> Iterator[ClubServer]:
    """A second private server, with TLS on and a certificate signed by the club's CA."""
    server = ClubServer(postgres_bin_dir, club_authority)
    yield server
    server.destroy()


@pytest.fixture
def ca_file(club_authority: Authority, tmp_path: Path) -> Path:
    """The CA file the organiser hands each GM."""
    return club_authority.write(tmp_path / "club-ca.crt")


@pytest.fixture
def tls_club(tls_club_server: ClubServer, ca_file: Path) -> Iterator[ClubConnection]:
    """A club database on the TLS server, verified against the club's CA file."""
    with new_club(tls_club_server, ca_file=str(ca_file)) as connection:
        yield connection


class FakeKeyring(KeyringBackend):
    """A keyring in memory, standing in for Secret Service / Credential Manager / Keychain."""

    priority = 10  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.passwords: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.passwords.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.passwords[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self.passwords.pop((service, username), None)


@pytest.fixture
def fake_keyring() -> Iterator[FakeKeyring]:
    previous = keyring.get_keyring()
    fake = FakeKeyring()
    keyring.set_keyring(fake)
    yield fake
    keyring.set_keyring(previous)


@pytest.fixture
def no_keyring() -> Iterator[None]:
    from keyring.backends import fail

    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    yield
    keyring.set_keyring(previous)


@pytest.fixture
def club_password() -> str:
    return CLUB_PASSWORD


@pytest.fixture(autouse=True)
def _collect_dropped_connections() -> Iterator[None]:
    """Collect, inside the club tests, the psycopg connections a stopped server left behind.

    These tests kill the throwaway server under open connections on purpose; psycopg then
    warns when such a connection is garbage-collected, which otherwise happens at a random
    later point of the test run (and fails an unrelated test). Collected here, the warning
    is expected and ignored; any other warning still fails the test.
    """
    yield
    import gc
    import warnings

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r".*psycopg.*was deleted while still open",
                                category=ResourceWarning)
        gc.collect()
