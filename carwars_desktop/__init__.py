"""Carwars Desktop: a game master's companion for three car-combat board games."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("carwars-desktop")
except PackageNotFoundError:  # a checkout that was never installed
    __version__ = "0.0.0+checkout"

__all__ = ["__version__"]
