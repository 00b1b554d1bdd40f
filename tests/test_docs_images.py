"""Every picture the user guide shows is made by one of the docs' generators (so each can
be made anew from the real app): named whole in a generator, or by the prefix of the
names one builds (``f"players-display-{name}.png"``); ``…-dark.png`` is the dark run of
``make_screenshots.py --dark`` (its light name in that generator)."""

from __future__ import annotations

import re
from pathlib import Path

DOCS = Path(__file__).resolve().parent.parent / "docs"
GENERATORS = ("make_screenshots.py", "make_player_display_screenshots.py",
              "make_print_pages.py")


def _referenced() -> list[str]:
    guide = (DOCS / "user-guide.md").read_text(encoding="utf-8")
    return sorted(set(re.findall(r"\]\(images/([^)\s]+)\)", guide)))


def test_every_picture_of_the_user_guide_has_a_generator() -> None:
    sources = {name: (DOCS / name).read_text(encoding="utf-8") for name in GENERATORS}
    whole = {found for text in sources.values()
             for found in re.findall(r"[\w.-]+\.(?:png|pdf)", text)}
    prefixes = {found for text in sources.values()
                for found in re.findall(r"f\"([a-z][\w-]*-)\{", text)}
    referenced = _referenced()
    assert "share-qr.png" in referenced and "phones-page.png" in referenced
    dark_run = set(re.findall(r"[\w.-]+\.png", sources["make_screenshots.py"]))

    def made(name: str) -> bool:
        light = name.replace("-dark.png", ".png")
        return (name in whole or any(name.startswith(p) for p in prefixes)
                or (name.endswith("-dark.png") and light in dark_run))

    orphans = [name for name in referenced if not made(name)]
    assert orphans == []


def test_every_picture_of_the_user_guide_exists() -> None:
    assert [name for name in _referenced() if not (DOCS / "images" / name).is_file()] == []
