"""Remove the RUNPATH entries that name the build machine's folders from a bundle's ELF files.

    python3 packaging/linux/drop_build_runpaths.py BUNDLE_DIR

An interpreter built outside the system's prefix (pyenv, a custom build) links its
modules with RUNPATH set to its own lib/ folder, which PyInstaller copies as it is: on
the user's machine that path means nothing, or worse, something else. Entries relative
to the file ($ORIGIN…) are what the bundle needs and stay. Uses Debian's patchelf;
nothing else in the files changes (nothing is stripped).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

_RUNPATH = re.compile(r"\((?:RUNPATH|RPATH)\)\s+Library (?:runpath|rpath): \[(?P<path>[^\]]*)\]")


def runpath(path: Path) -> str | None:
    output = subprocess.run(["readelf", "-d", "--wide", str(path)], capture_output=True,
                            text=True, check=True).stdout
    match = _RUNPATH.search(output)
    return match["path"] if match else None


def main() -> int:
    bundle = Path(sys.argv[1])
    changed = 0
    for path in sorted(bundle.rglob("*")):
        if not path.is_file() or path.is_symlink():
            continue
        with path.open("rb") as handle:
            if handle.read(4) != b"\x7fELF":
                continue
        current = runpath(path)
        if current is None:
            continue
        kept = [entry for entry in current.split(":") if entry.startswith("$ORIGIN")]
        if kept == current.split(":"):
            continue
        if kept:
            subprocess.run(["patchelf", "--set-rpath", ":".join(kept), str(path)], check=True)
        else:
            subprocess.run(["patchelf", "--remove-rpath", str(path)], check=True)
        changed += 1
    print(f"drop_build_runpaths: {changed} files had RUNPATH entries outside the bundle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
