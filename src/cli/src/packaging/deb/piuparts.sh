#!/usr/bin/env bash
# Runs piuparts (Debian's install / remove / purge tester) on fleetfix's .deb in a fresh Debian 12 chroot, with the
# audit timer enabled by hand after the install (piuparts/post_install_enable_timer): the removal and the purge must
# leave nothing behind and fail nothing. Needs root and Debian's piuparts package; the Debian mirror is the one this
# machine's apt sources name.
#
#   bash src/cli/src/packaging/deb/piuparts.sh [src/cli/target/fleetfix_*_all.deb]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
built=("$here"/../../../target/fleetfix_*_all.deb)
deb="${1:-${built[0]}}"
[[ -f "$deb" ]] || { echo "piuparts.sh: no package; run 'mvn -B package' first" >&2; exit 2; }
command -v piuparts >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq piuparts >/dev/null
mirror="$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n 1)"
[[ -n "$mirror" ]] || mirror="$(awk '$1 == "deb" { print $2; exit }' /etc/apt/sources.list 2>/dev/null)"
[[ -n "$mirror" ]] || { echo "piuparts.sh: no Debian mirror in this machine's apt sources" >&2; exit 2; }
exec piuparts --no-upgrade-test --distribution bookworm --mirror "$mirror main" \
  --scriptsdir "$here/piuparts" "$deb"
