#!/usr/bin/env bash
# Build the Linux bundle, its .tar.gz and the .deb, and check them (without installing):
#   packaging/build_linux.sh
# Needs .venv (made by `./dev test`, or here from python3 when missing). Installs what it
# needs when missing: PyInstaller into .venv; Debian's dpkg-dev, lintian,
# desktop-file-utils, binutils, patchelf and the libraries in linux/depends.txt. Writes:
#   dist/carwars-desktop/                                 the PyInstaller one-dir bundle
#   dist/carwars-desktop-VERSION-linux-ARCH.tar.gz        the bundle, .desktop file and icon
#   dist/carwars-desktop_VERSION-1_ARCH.deb               /opt/carwars-desktop, menu entry…
# Build variables: DEB_MAINTAINER="Name <address>" (the .deb's Maintainer field; default: DEBFULLNAME
# and DEBEMAIL when set, else "Carwars Desktop maintainers <maintainers@carwars-desktop.org>").
# Checks: the bundle's system libraries are all declared in Depends
# (packaging/linux/check_depends.py), desktop-file-validate, lintian with no errors.
# packaging/check_linux.sh then runs the programs (bundle, tarball, installed .deb).
set -euo pipefail
cd "$(dirname "$0")/.."

PYINSTALLER_REQUIREMENT="pyinstaller>=6.10,<7"
BUILD_PACKAGES="dpkg-dev lintian desktop-file-utils binutils patchelf"
# The .deb's Maintainer: DEB_MAINTAINER="Name <address>", else DEBFULLNAME/DEBEMAIL, else the
# project's default (packaging/linux/maintainer.sh; docs/packaging.md).
MAINTAINER=$(packaging/linux/maintainer.sh)

step() { echo "== $*"; }

install_tools() {
  local missing="" sudo="" p
  # Qt's system libraries too: make_icons renders with Qt, and check_depends finds each
  # library the bundle links in the system's linker cache.
  for p in $BUILD_PACKAGES $(grep -v '^#' packaging/linux/depends.txt); do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
  done
  if [ -n "$missing" ]; then
    [ "$(id -u)" = 0 ] || sudo="sudo"
    echo "Installing build tools:$missing"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
      $missing >/dev/null
  fi
  if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
    pip_install -e .
  fi
  .venv/bin/python -c "import PyInstaller" 2>/dev/null || pip_install "$PYINSTALLER_REQUIREMENT"
  .venv/bin/python -c "import carwars_desktop, PyInstaller"
}

# pip's notes about this machine's extra package folders are noise; its failures are not.
pip_install() {
  .venv/bin/python -m pip install -q --disable-pip-version-check "$@" 2>&1 \
    | { grep -v "is ignored: it is neither a file nor a directory" || true; }
}

build_bundle() {
  step "icons"
  .venv/bin/python packaging/make_icons.py build/icons >/dev/null
  step "PyInstaller bundle"
  rm -rf dist/carwars-desktop
  .venv/bin/python -m PyInstaller --noconfirm --log-level WARN --distpath dist \
    --workpath build/pyinstaller packaging/carwars-desktop.spec
  python3 packaging/linux/drop_build_runpaths.py dist/carwars-desktop
  step "system libraries the bundle links, against packaging/linux/depends.txt"
  python3 packaging/linux/check_depends.py dist/carwars-desktop packaging/linux/depends.txt
}

build_tarball() {
  step "tar.gz"
  local name="carwars-desktop-$VERSION" stage="build/linux/tar"
  rm -rf "$stage"; mkdir -p "$stage/$name"
  cp -a dist/carwars-desktop/. "$stage/$name/"
  cp packaging/linux/carwars-desktop.desktop "$stage/$name/"
  cp build/icons/carwars-desktop-256.png "$stage/$name/carwars-desktop.png"
  cp packaging/linux/install-desktop-entry.sh "$stage/$name/"
  cp packaging/THIRD-PARTY-NOTICES.txt "$stage/$name/"
  TARBALL="dist/$name-linux-$(uname -m).tar.gz"
  tar -C "$stage" --owner=0 --group=0 --numeric-owner --sort=name -czf "$TARBALL" "$name"
  echo "$TARBALL"
}

build_deb() {
  step ".deb"
  local stage="build/linux/deb" arch version="$VERSION-1" size depends
  arch=$(dpkg --print-architecture)
  rm -rf "$stage"
  mkdir -p "$stage/DEBIAN" "$stage/opt" "$stage/usr/bin" "$stage/usr/share/applications" \
    "$stage/usr/share/doc/carwars-desktop" "$stage/usr/share/man/man1" \
    "$stage/usr/share/lintian/overrides" "$stage/usr/share/icons/hicolor/scalable/apps"
  cp -a dist/carwars-desktop "$stage/opt/carwars-desktop"
  ln -s /opt/carwars-desktop/carwars-desktop "$stage/usr/bin/carwars-desktop"
  cp packaging/linux/carwars-desktop.desktop "$stage/usr/share/applications/"
  for size in 16 22 24 32 48 64 128 256 512; do
    mkdir -p "$stage/usr/share/icons/hicolor/${size}x${size}/apps"
    cp "build/icons/carwars-desktop-$size.png" \
      "$stage/usr/share/icons/hicolor/${size}x${size}/apps/carwars-desktop.png"
  done
  cp resources/icons/carwars.svg "$stage/usr/share/icons/hicolor/scalable/apps/carwars-desktop.svg"
  cp packaging/linux/copyright "$stage/usr/share/doc/carwars-desktop/copyright"
  local date
  date=$(git log -1 --format=%aD 2>/dev/null || date -R)
  printf '%s\n' "carwars-desktop ($version) unstable; urgency=medium" "" \
    "  * Release $VERSION of Carwars Desktop, bundled with PyInstaller." "" \
    " -- $MAINTAINER  $date" | gzip -9n > "$stage/usr/share/doc/carwars-desktop/changelog.Debian.gz"
  gzip -9n < packaging/linux/carwars-desktop.1 > "$stage/usr/share/man/man1/carwars-desktop.1.gz"
  cp packaging/linux/lintian-overrides "$stage/usr/share/lintian/overrides/carwars-desktop"
  # dpkg-deb takes modes as they are: 0755 folders and programs, 0644 everything else.
  find "$stage" -type d -exec chmod 0755 {} +
  find "$stage" -type f -exec chmod 0644 {} +
  chmod 0755 "$stage/opt/carwars-desktop/carwars-desktop"
  size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
  depends=$(grep -v '^#' packaging/linux/depends.txt | sed '/^$/d' | paste -sd, | sed 's/,/, /g')
  sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" \
    -e "s/@DEPENDS@/$depends/" -e "s/@MAINTAINER@/$(printf '%s' "$MAINTAINER" | sed 's/[&/\]/\\&/g')/" \
    packaging/linux/control.in > "$stage/DEBIAN/control"
  (cd "$stage" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z \
    | xargs -0 md5sum > DEBIAN/md5sums)
  chmod 0644 "$stage/DEBIAN/control" "$stage/DEBIAN/md5sums"
  DEB="dist/carwars-desktop_${version}_$arch.deb"
  dpkg-deb --root-owner-group -Zxz -z6 --build "$stage" "$DEB" >/dev/null
  echo "$DEB"
}

check_files() {
  step "desktop-file-validate"
  desktop-file-validate packaging/linux/carwars-desktop.desktop && echo "valid"
  step "lintian"
  lintian --fail-on error --display-level ">=warning" --tag-display-limit 0 "$DEB"
  echo "lintian: no errors"
}

install_tools
VERSION=$(.venv/bin/python -c "import carwars_desktop; print(carwars_desktop.__version__)")
echo "carwars-desktop $VERSION"
build_bundle
build_tarball
build_deb
check_files
du -sh dist/carwars-desktop "$TARBALL" "$DEB"
