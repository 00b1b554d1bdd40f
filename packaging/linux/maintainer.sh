#!/usr/bin/env bash
# Print the .deb's Maintainer field (also the changelog.Debian signature), "Name <address>":
#   DEB_MAINTAINER="Name <address>"   taken as it is (a release build sets the project's own);
#   else DEBFULLNAME and DEBEMAIL     the variables Debian's own tools (dch) read;
#   else the default below.
# Exits 2 with a message when the result does not read "Name <address>".
set -euo pipefail
DEFAULT_MAINTAINER="Carwars Desktop maintainers <maintainers@carwars-desktop.org>"
maintainer="${DEB_MAINTAINER:-}"
if [ -z "$maintainer" ] && [ -n "${DEBFULLNAME:-}" ] && [ -n "${DEBEMAIL:-}" ]; then
  maintainer="$DEBFULLNAME <$DEBEMAIL>"
fi
maintainer="${maintainer:-$DEFAULT_MAINTAINER}"
if ! [[ "$maintainer" =~ ^[^\<\>]*[^\<\>\ ]\ \<[^\<\>@\ ]+@[^\<\>@\ ]+\>$ ]]; then
  echo "the .deb maintainer must read 'Name <address>', not '$maintainer' (DEB_MAINTAINER)" >&2
  exit 2
fi
printf '%s\n' "$maintainer"
