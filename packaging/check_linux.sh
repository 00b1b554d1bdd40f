#!/usr/bin/env bash
# Run what packaging/build_linux.sh built, as a user would, offscreen:
#   packaging/check_linux.sh
# - the bundle: --smoke (start, open the database, build every workspace: exit 0, nothing
#   unexpected on stderr, the default database made in a throwaway XDG_DATA_HOME), then
#   --self-check (the same, then the phones page served on loopback), --version from the package metadata, every ruleset's
#   procedures through `resolve` (they are imported by name at run time);
# - the .tar.gz unpacked elsewhere: --smoke and --self-check, and its .desktop file valid;
# - the .deb: installed with dpkg -i (its Depends are installed first when missing), the menu
#   entry and icons in place, /usr/bin/carwars-desktop --smoke and --self-check, then removed with dpkg -r.
# - the bundle and a club's database: a throwaway PostgreSQL on loopback (tests/postgres_server.sh),
#   the bundle's --smoke against it through the bundled psycopg binary driver (PSYCOPG_IMPL=binary:
#   the system's libpq cannot stand in), and the schema it created there.
# The offscreen platform plugin's "This plugin does not support propagateSizeHints()" is
# its own notice, not the app's: exactly that line is allowed on stderr.
set -euo pipefail
cd "$(dirname "$0")/.."

EXPECTED_NOISE="This plugin does not support propagateSizeHints()"
SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
VERSION=$(.venv/bin/python -c "import carwars_desktop; print(carwars_desktop.__version__)")
ARCH=$(dpkg --print-architecture)
TARBALL="dist/carwars-desktop-$VERSION-linux-$(uname -m).tar.gz"
DEB="dist/carwars-desktop_$VERSION-1_$ARCH.deb"
WORK=$(mktemp -d)
PG_DIR="/tmp/carwars-pg-bundle-$$"
PG_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cleanup() {
  CARWARS_PG_DIR="$PG_DIR" CARWARS_PG_PORT="$PG_PORT" tests/postgres_server.sh stop \
    >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT
passed=0
failed=0

pass() { passed=$((passed + 1)); echo "PASS $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; }

# smoke NAME PROGRAM [FLAG]: start PROGRAM FLAG (default --smoke; or --self-check) offscreen
# with its own data and config folders.
smoke() {
  local name=$1 program=$2 flag=${3:---smoke} home status unexpected
  home=$(mktemp -d "$WORK/home.XXXX")
  set +e
  env -u CARWARS_DB QT_QPA_PLATFORM=offscreen XDG_DATA_HOME="$home/data" \
    XDG_CONFIG_HOME="$home/config" timeout 120 "$program" "$flag" >"$home/stdout" 2>"$home/stderr"
  status=$?
  set -e
  unexpected=$(grep -v -x -F "$EXPECTED_NOISE" "$home/stderr" || true)
  if [ "$status" = 0 ] && [ -z "$unexpected" ] \
      && [ -s "$home/data/carwars-desktop/carwars.sqlite3" ]; then
    pass "$name: $program $flag"
  else
    fail "$name: $program $flag exited $status"
    [ -z "$unexpected" ] || printf 'unexpected stderr:\n%s\n' "$unexpected"
    [ -s "$home/data/carwars-desktop/carwars.sqlite3" ] || echo "no database was created"
  fi
}

check_bundle() {
  local program=dist/carwars-desktop/carwars-desktop reported counts
  smoke bundle "$program"
  smoke bundle "$program" --self-check
  reported=$("$program" --version 2>&1 || true)
  if [ "$reported" = "carwars-desktop $VERSION" ]; then
    pass "bundle: --version says $VERSION (package metadata is bundled)"
  else
    fail "bundle: --version said '$reported', not 'carwars-desktop $VERSION'"
  fi
  counts=$("$program" resolve --list --json | python3 -c '
import collections, json, sys
print(" ".join(f"{r}={n}" for r, n in sorted(collections.Counter(
    p["ruleset"] for p in json.load(sys.stdin)).items())))')
  if [[ $counts == *autopower=* && $counts == *battlecars=* && $counts == *mini_car_wars=* ]]
  then pass "bundle: resolve --list has every ruleset ($counts)"
  else fail "bundle: resolve --list lacks a ruleset ($counts)"
  fi
  if "$program" resolve dice.roll --set expression=2d6 --set target=8 --dice 5,4 \
        | grep -q "success"; then
    pass "bundle: resolve dice.roll 2d6 vs 8 with 5 4 succeeds"
  else
    fail "bundle: resolve dice.roll did not work"
  fi
}

check_club_database() {
  local program=dist/carwars-desktop/carwars-desktop url home status unexpected tables
  if ! url=$(CARWARS_PG_DIR="$PG_DIR" CARWARS_PG_PORT="$PG_PORT" tests/postgres_server.sh start); then
    fail "bundle: no throwaway PostgreSQL server could be started for the club check"
    return
  fi
  home=$(mktemp -d "$WORK/home.XXXX")
  set +e
  env -u CARWARS_DB QT_QPA_PLATFORM=offscreen PSYCOPG_IMPL=binary XDG_DATA_HOME="$home/data" \
    XDG_CONFIG_HOME="$home/config" timeout 120 "$program" --db "$url" --smoke \
    >"$home/stdout" 2>"$home/stderr"
  status=$?
  set -e
  unexpected=$(grep -v -x -F "$EXPECTED_NOISE" "$home/stderr" || true)
  tables=$(CARWARS_PG_DIR="$PG_DIR" .venv/bin/python - "$url" <<'PY' 2>&1 || true
import sys
from sqlalchemy import create_engine, inspect
engine = create_engine(sys.argv[1])
with engine.connect() as connection:
    print(" ".join(sorted(inspect(connection).get_table_names())))
PY
)
  if [ "$status" = 0 ] && [ -z "$unexpected" ] && [[ " $tables " == *" alembic_version "* ]] \
      && [[ " $tables " == *" game_sessions "* ]]; then
    pass "bundle: --db postgresql+psycopg://…@127.0.0.1 --smoke through the bundled psycopg binary"
  else
    fail "bundle: the club database check exited $status (tables: $tables)"
    [ -z "$unexpected" ] || printf 'unexpected stderr:\n%s\n' "$unexpected"
  fi
}

check_tarball() {
  tar -C "$WORK" -xzf "$TARBALL"
  local unpacked="$WORK/carwars-desktop-$VERSION"
  smoke tarball "$unpacked/carwars-desktop"
  smoke tarball "$unpacked/carwars-desktop" --self-check
  if desktop-file-validate "$unpacked/carwars-desktop.desktop" \
      && [ -s "$unpacked/carwars-desktop.png" ] && [ -x "$unpacked/install-desktop-entry.sh" ]; then
    pass "tarball: valid .desktop file, icon and install-desktop-entry.sh"
  else
    fail "tarball: .desktop file, icon or install-desktop-entry.sh missing or invalid"
  fi
}

# The system libraries the programs need: the .deb's Depends, installed when missing.
install_depends() {
  local missing="" p
  for p in $(dpkg-deb -f "$DEB" Depends | tr -d ','); do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
  done
  if [ -n "$missing" ]; then
    echo "Installing the .deb's dependencies:$missing"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
      $missing >/dev/null
  fi
}

check_deb() {
  if $SUDO dpkg -i "$DEB" >"$WORK/dpkg-install.log" 2>&1; then
    pass "deb: dpkg -i $DEB"
  else
    fail "deb: dpkg -i $DEB"; cat "$WORK/dpkg-install.log"; return
  fi
  if [ -x /opt/carwars-desktop/carwars-desktop ] && [ -L /usr/bin/carwars-desktop ] \
      && [ -f /usr/share/applications/carwars-desktop.desktop ] \
      && [ -f /usr/share/icons/hicolor/256x256/apps/carwars-desktop.png ] \
      && [ -f /usr/share/icons/hicolor/scalable/apps/carwars-desktop.svg ] \
      && [ -f /usr/share/doc/carwars-desktop/copyright ]; then
    pass "deb: /opt/carwars-desktop, /usr/bin link, menu entry, icons and copyright installed"
  else
    fail "deb: an installed file is missing"
  fi
  smoke deb /usr/bin/carwars-desktop
  smoke deb /usr/bin/carwars-desktop --self-check
  if $SUDO dpkg -r carwars-desktop >"$WORK/dpkg-remove.log" 2>&1 \
      && ! grep "warning" "$WORK/dpkg-remove.log" | grep -v -q "directory '/opt' not empty" \
      && [ ! -e /opt/carwars-desktop ] \
      && [ ! -e /usr/bin/carwars-desktop ]; then
    pass "deb: dpkg -r removes every file it installed"
  else
    fail "deb: dpkg -r"; cat "$WORK/dpkg-remove.log"
  fi
}

install_depends
check_bundle
check_club_database
check_tarball
check_deb
echo "packaging: $passed passed, $failed failed"
[ "$failed" = 0 ]
