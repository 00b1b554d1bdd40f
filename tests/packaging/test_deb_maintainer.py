"""The .deb's Maintainer is a build variable (DEB_MAINTAINER) with a sane default."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "packaging" / "linux" / "maintainer.sh"
DEFAULT = "Carwars Desktop maintainers <maintainers@carwars-desktop.org>"


def _maintainer(**env: str) -> subprocess.CompletedProcess[str]:
    bash = shutil.which("bash")
    assert bash is not None, "the Linux packaging scripts need bash"
    clean = {k: v for k, v in os.environ.items()
             if k not in ("DEB_MAINTAINER", "DEBFULLNAME", "DEBEMAIL")}
    return subprocess.run([bash, str(SCRIPT)], env=clean | env, capture_output=True, text=True,
                          check=False)


@pytest.mark.bash
def test_default_then_debian_variables_then_deb_maintainer() -> None:
    assert _maintainer().stdout.strip() == DEFAULT
    assert _maintainer(DEBFULLNAME="Bo Example", DEBEMAIL="bo@example.org").stdout.strip() \
        == "Bo Example <bo@example.org>"
    assert _maintainer(DEBFULLNAME="Bo Example").stdout.strip() == DEFAULT
    chosen = _maintainer(DEB_MAINTAINER="Ann Example <ann@example.org>", DEBFULLNAME="Bo",
                         DEBEMAIL="bo@example.org")
    assert chosen.returncode == 0 and chosen.stdout.strip() == "Ann Example <ann@example.org>"


@pytest.mark.bash
def test_a_malformed_maintainer_stops_the_build() -> None:
    for bad in ("Ann Example", "<ann@example.org>", "Ann <ann>", "Ann <a@b> <c@d>"):
        result = _maintainer(DEB_MAINTAINER=bad)
        assert result.returncode == 2, bad
        assert "must read 'Name <address>'" in result.stderr


def test_the_build_script_and_the_docs_use_it() -> None:
    root = SCRIPT.parents[2]
    assert "packaging/linux/maintainer.sh" in (root / "packaging" / "build_linux.sh").read_text()
    assert "DEB_MAINTAINER" in (root / "docs" / "packaging.md").read_text(encoding="utf-8")
