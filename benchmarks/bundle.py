"""The PyInstaller bundle: its size and start-up, next to a bare PySide6 window bundled alike.

    .venv/bin/python benchmarks/bundle.py [--runs 7] [--rebuild] [--quick]

The app bundle is dist/carwars-desktop (packaging/build_linux.sh makes it; built here
from packaging/carwars-desktop.spec when missing). The baseline is
packaging/bare_window.py, a QMainWindow and nothing else, built from
packaging/bare-window.spec with the same excludes, filters and options into
build/bench/dist/bare-window (built when missing, or always with --rebuild).

Start-up is process start → main window shown and the event loop idle (the programs
print ``carwars-startup window-idle <epoch>`` with CARWARS_TRACE_STARTUP=1), offscreen:
- cold: every file of the bundle evicted from the page cache first (posix_fadvise
  DONTNEED, no root needed; the system's own libraries stay cached, as on a desktop);
- warm: straight after another run.
Both programs are measured in the same run, interleaved. Prints medians and ratios.

``--quick`` (./dev test runs it so the benchmark keeps working): one run, and nothing is
built — without both bundles it measures the same two programs unbundled
(``python -m carwars_desktop`` and ``python packaging/bare_window.py``), so every step
but PyInstaller's runs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
APP = REPO / "dist" / "carwars-desktop"
BARE = REPO / "build" / "bench" / "dist" / "bare-window"


def build(spec: Path, distpath: Path, workpath: Path) -> None:
    print(f"building {spec.name} …", flush=True)
    subprocess.run([sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN",
                    "--distpath", str(distpath), "--workpath", str(workpath), str(spec)],
                   check=True, cwd=REPO)


def bundle_files(folder: Path) -> list[Path]:
    return [path for path in folder.rglob("*") if path.is_file() and not path.is_symlink()]


def size_bytes(folder: Path) -> int:
    return sum(path.stat().st_size for path in bundle_files(folder))


def evict(folder: Path) -> None:
    """Drop the bundle's files from the page cache, so the next start reads them from disk."""
    for path in bundle_files(folder):
        descriptor = os.open(path, os.O_RDONLY)
        try:
            os.posix_fadvise(descriptor, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(descriptor)


def window_idle(command: list[str], env: dict[str, str]) -> float:
    """Seconds from process start to the program's window-idle milestone."""
    start = time.time()
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        raise RuntimeError(f"{command[0]} exited {result.returncode}: {result.stderr}")
    for line in result.stderr.splitlines():
        if line.startswith("carwars-startup window-idle "):
            return float(line.split()[2]) - start
    raise RuntimeError(f"{command[0]} printed no window-idle milestone: {result.stderr}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--rebuild", action="store_true", help="rebuild the baseline bundle")
    parser.add_argument("--quick", action="store_true",
                        help="one run; build nothing (unbundled programs if not built)")
    options = parser.parse_args()
    built = (APP / "carwars-desktop").is_file() and (BARE / "bare-window").is_file()
    if options.quick:
        options.runs = 1
    if not options.quick:
        if not (APP / "carwars-desktop").is_file():
            build(REPO / "packaging" / "carwars-desktop.spec", APP.parent,
                  REPO / "build" / "pyinstaller")
        if options.rebuild or not (BARE / "bare-window").is_file():
            build(REPO / "packaging" / "bare-window.spec", BARE.parent,
                  REPO / "build" / "bench" / "work")
        built = True

    folder = Path(tempfile.mkdtemp(prefix="carwars-bundle-bench-"))
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", CARWARS_TRACE_STARTUP="1",
               XDG_CONFIG_HOME=str(folder / "config"), XDG_DATA_HOME=str(folder / "data"))
    env.pop("CARWARS_DB", None)
    app_command = [str(APP / "carwars-desktop"), "--smoke", "--db", str(folder / "b.sqlite3")]
    bare_command = [str(BARE / "bare-window")]
    app_files, bare_files = APP, BARE
    if not built:
        print("quick run without bundles: the two programs measured unbundled")
        app_command = [sys.executable, "-m", "carwars_desktop", *app_command[1:]]
        bare_command = [sys.executable, str(REPO / "packaging" / "bare_window.py")]
        app_files, bare_files = REPO / "carwars_desktop", REPO / "packaging"
    window_idle(app_command, env)  # creates and migrates the database
    times: dict[str, list[float]] = {key: [] for key in
                                     ("app cold", "bare cold", "app warm", "bare warm")}
    for _ in range(options.runs):
        for name, command, bundle in (("app", app_command, app_files),
                                      ("bare", bare_command, bare_files)):
            evict(bundle)
            times[f"{name} cold"].append(window_idle(command, env))
            times[f"{name} warm"].append(window_idle(command, env))
    median = {key: statistics.median(values) for key, values in times.items()}

    app_size, bare_size = size_bytes(app_files), size_bytes(bare_files)
    mib = 1024 * 1024
    print(f"runs: {options.runs} each, offscreen, window shown and event loop idle")
    print(f"{'':28}{'bare QMainWindow':>18}{'Carwars Desktop':>18}{'ratio':>8}")
    print(f"{'bundle size':28}{bare_size / mib:>14.1f} MiB{app_size / mib:>14.1f} MiB"
          f"{app_size / bare_size:>8.2f}")
    print(f"{'files':28}{len(bundle_files(bare_files)):>18}{len(bundle_files(app_files)):>18}"
          f"{len(bundle_files(app_files)) / len(bundle_files(bare_files)):>8.2f}")
    for kind in ("cold", "warm"):
        bare, app = median[f"bare {kind}"], median[f"app {kind}"]
        print(f"{'start-up, ' + kind + ' (median)':28}{bare * 1000:>15.0f} ms"
              f"{app * 1000:>15.0f} ms{app / bare:>8.2f}")


if __name__ == "__main__":
    main()
