"""Check that the .deb's Depends covers every system library the bundle links.

    python3 packaging/linux/check_depends.py BUNDLE_DIR [DEPENDS_FILE]

Reads the NEEDED entries of every ELF file in the bundle (``readelf -d``). A library
found in the bundle is the bundle's; any other is looked up in the system's linker
cache (``ldconfig -p``) and its Debian package found with ``dpkg -S``. Fails (exit 1)
when a library is nowhere to be found or its package is not in DEPENDS_FILE (default:
depends.txt beside this script). Prints the packages and the libraries that need them.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
_NEEDED = re.compile(r"\(NEEDED\)\s+Shared library: \[(?P<name>[^\]]+)\]")
_CACHE_LINE = re.compile(r"^\s*(?P<name>\S+) \((?P<flags>[^)]*)\) => (?P<path>\S+)$")


def read_depends(path: Path) -> set[str]:
    """Package names from a depends file: one a line, ``#`` starts a comment."""
    names = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        name = line.split("#", 1)[0].strip()
        if name:
            names.add(name)
    return names


def elf_files(bundle: Path) -> list[Path]:
    found = []
    for path in sorted(bundle.rglob("*")):
        if path.is_file() and not path.is_symlink():
            with path.open("rb") as handle:
                if handle.read(4) == b"\x7fELF":
                    found.append(path)
    return found


def needed_libraries(path: Path) -> list[str]:
    output = subprocess.run(["readelf", "-d", "--wide", str(path)], capture_output=True,
                            text=True, check=True).stdout
    return [match["name"] for match in _NEEDED.finditer(output)]


def linker_cache() -> dict[str, str]:
    """Library name → path, for this machine's architecture (x86-64 or AArch64)."""
    machine = "x86-64" if sys.maxsize > 2**32 else ""
    output = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True,
                            check=True).stdout
    cache: dict[str, str] = {}
    for line in output.splitlines():
        match = _CACHE_LINE.match(line)
        if match is None or (machine and "64" not in match["flags"]):
            continue
        cache.setdefault(match["name"], match["path"])
    return cache


def owning_package(path: str) -> str | None:
    """The Debian package that installed a file (trying the /usr-merged spelling too)."""
    resolved = str(Path(path).resolve())
    candidates = {path, resolved}
    for candidate in list(candidates):
        if candidate.startswith("/usr/lib/"):
            candidates.add(candidate[len("/usr"):])
        elif candidate.startswith("/lib/"):
            candidates.add("/usr" + candidate)
    for candidate in sorted(candidates):
        result = subprocess.run(["dpkg-query", "-S", candidate], capture_output=True, text=True)
        if result.returncode == 0:
            return result.stdout.split(":", 1)[0].split(",", 1)[0].strip()
    return None


def main() -> int:
    bundle = Path(sys.argv[1])
    depends_file = Path(sys.argv[2]) if len(sys.argv) > 2 else HERE / "depends.txt"
    declared = read_depends(depends_file)
    files = elf_files(bundle)
    inside = {path.name for path in bundle.rglob("*")}
    cache = linker_cache()
    needed_by: dict[str, set[str]] = defaultdict(set)
    problems: list[str] = []
    for path in files:
        for library in needed_libraries(path):
            if library in inside:
                continue
            location = cache.get(library)
            package = owning_package(location) if location else None
            if package is None:
                problems.append(f"{library} (needed by {path.relative_to(bundle)}) is not "
                                "installed from a Debian package")
                continue
            needed_by[package].add(library)
    for package in sorted(needed_by):
        mark = "ok" if package in declared else "MISSING from Depends"
        print(f"  {package:24} {mark:22} {', '.join(sorted(needed_by[package]))}")
        if package not in declared:
            problems.append(f"{package} is needed but not in {depends_file.name}")
    for package in sorted(declared - set(needed_by)):
        print(f"  {package:24} declared; loaded at run time, not linked")
    for problem in problems:
        print(f"check_depends: {problem}", file=sys.stderr)
    print(f"check_depends: {len(files)} ELF files, {len(needed_by)} system packages linked, "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
