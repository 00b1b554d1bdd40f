"""Carwars Desktop: a game master's companion for three car-combat board games."""

from __future__ import annotations

__all__ = ["__version__"]


def __getattr__(name: str) -> str:
    # The version is read from the installed metadata on first use: importing
    # importlib.metadata costs tens of milliseconds that start-up need not pay.
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("carwars-desktop")
        except PackageNotFoundError:  # a checkout that was never installed
            return "0.0.0+checkout"
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
