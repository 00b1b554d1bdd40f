#!/usr/bin/env bash
# Wrap the macOS app in a compressed disk image, with a link to /Applications to drag it to:
#   packaging/macos/make_dmg.sh ["dist/Carwars Desktop.app"] [OUT.dmg]
# The app comes from the PyInstaller spec on macOS (its BUNDLE step):
#   python packaging/make_icons.py build/icons
#   python -m PyInstaller --noconfirm --distpath dist --workpath build/pyinstaller packaging/carwars-desktop.spec
# Default output: dist/carwars-desktop-VERSION-macos-ARCH.dmg. Needs macOS (hdiutil).
set -euo pipefail
cd "$(dirname "$0")/../.."

APP="${1:-dist/Carwars Desktop.app}"
[ -d "$APP" ] || { echo "no app bundle at $APP: build it with the spec first" >&2; exit 1; }
VERSION=$(/usr/libexec/PlistBuddy -c "Print :CFBundleShortVersionString" "$APP/Contents/Info.plist")
DMG="${2:-dist/carwars-desktop-$VERSION-macos-$(uname -m).dmg}"

STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
ditto "$APP" "$STAGE/$(basename "$APP")"
ln -s /Applications "$STAGE/Applications"
cp packaging/THIRD-PARTY-NOTICES.txt "$STAGE/"
rm -f "$DMG"
hdiutil create -volname "Carwars Desktop $VERSION" -srcfolder "$STAGE" -fs HFS+ \
  -format UDZO -imagekey zlib-level=9 -ov "$DMG"
echo "$DMG"
