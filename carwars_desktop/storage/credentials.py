"""Club passwords in the operating system's keyring, never in a file of the app's.

The ``keyring`` library picks the system's store: Secret Service on Linux, Credential
Manager on Windows, the Keychain on macOS. Where there is none (a headless Linux without a
Secret Service, say) :meth:`PasswordStore.available` is False and the app asks for the
password every time it connects. ``keyring`` is imported on first use, off the start-up path.
"""

from __future__ import annotations

import contextlib
from typing import Any

from carwars_desktop.storage.club import scrub

SERVICE = "carwars-desktop club database"


class PasswordNotKeptError(Exception):
    """The keyring exists but refused to keep a password; ``str()`` says why."""


class PasswordStore:
    """Get, keep and forget the password of a club connection, by its key (user@host:port/db)."""

    def __init__(self, service: str = SERVICE) -> None:
        self.service = service

    @staticmethod
    def _backend() -> Any | None:
        try:
            import keyring
            from keyring.backends import fail
        except ImportError:
            return None
        backend = keyring.get_keyring()
        if isinstance(backend, fail.Keyring):
            return None
        try:
            from keyring.backends import null

            if isinstance(backend, null.Keyring):
                return None
        except ImportError:
            pass
        if getattr(backend, "backends", None) == []:  # a chainer with nothing in it
            return None
        return backend

    def available(self) -> bool:
        """Whether a keyring exists here (otherwise: ask every time)."""
        return self._backend() is not None

    def keyring_title(self) -> str | None:
        """The keyring as a GM knows it ("the macOS Keychain"), or None: no keyring here."""
        backend = self._backend()
        if backend is None:
            return None
        module = type(backend).__module__.rsplit(".", 1)[-1]
        known = {"macOS": "the macOS Keychain", "Windows": "the Windows Credential Manager",
                 "SecretService": "the desktop's Secret Service keyring (GNOME Keyring, "
                                  "KWallet)",
                 "kwallet": "KWallet", "libsecret": "the desktop's keyring (libsecret)"}
        return known.get(module, f"the system keyring ({getattr(backend, 'name', module)})")

    def backend_name(self) -> str:
        backend = self._backend()
        return "none" if backend is None else type(backend).__name__

    def get(self, key: str) -> str | None:
        """The kept password, or None: none kept, or the keyring would not give it."""
        backend = self._backend()
        if backend is None:
            return None
        try:
            value = backend.get_password(self.service, key)
        except Exception:  # noqa: BLE001 (locked, refused, its D-Bus gone since start-up…)
            return None
        return None if value is None else str(value)

    def set(self, key: str, password: str) -> bool:
        """Keep ``password``; False when there is no keyring here.

        Raises:
            PasswordNotKeptError: there is a keyring, and it refused (locked, no
                collection, its service gone): the caller tells the GM at once.
        """
        backend = self._backend()
        if backend is None:
            return False
        try:
            backend.set_password(self.service, key, password)
        except Exception as error:  # any backend's own errors, not only KeyringError
            reason = str(error).strip() or type(error).__name__
            raise PasswordNotKeptError(scrub(reason, password)) from None
        return True

    def delete(self, key: str) -> None:
        backend = self._backend()
        if backend is None:
            return
        with contextlib.suppress(Exception):  # nothing kept, or the keyring refused: fine
            backend.delete_password(self.service, key)
