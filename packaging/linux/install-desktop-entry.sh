#!/bin/sh
# Add Carwars Desktop to your desktop's application menu, from where this folder is.
#   ./install-desktop-entry.sh            (for you alone; nothing outside your home changes)
# Moving the folder later? Run it again from the new place.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
data="${XDG_DATA_HOME:-$HOME/.local/share}"
mkdir -p "$data/applications" "$data/icons/hicolor/256x256/apps"
cp "$here/carwars-desktop.png" "$data/icons/hicolor/256x256/apps/carwars-desktop.png"
sed -e "s|^Exec=.*|Exec=\"$here/carwars-desktop\"|" -e "s|^TryExec=.*|TryExec=$here/carwars-desktop|" \
  "$here/carwars-desktop.desktop" > "$data/applications/carwars-desktop.desktop"
echo "Added to the menu: $data/applications/carwars-desktop.desktop"
