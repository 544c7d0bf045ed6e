#!/usr/bin/env bash
# Builds fleetfix-lab_VERSION_all.deb, the lab plug-in ('fleetfix lab'), from its bundle (fleetfix-lab-VERSION.tar.gz).
#
# The package puts lib/plugins/fleetfix-lab.jar under fleetfix's install directory, where bin/fleetfix finds it. It
# depends on the fleetfix package of the same version (the plug-in runs inside it) and recommends Docker, which the
# lab drives; the operator's package itself carries no Docker client.
#
# Usage: build-deb.sh BUNDLE.tar.gz LICENSE OUTDIR    (run by 'mvn package'; needs dpkg-deb, gzip and tar)
set -euo pipefail

die() { echo "build-deb (lab): error: $*" >&2; exit 1; }
[[ $# -eq 3 ]] || die "usage: build-deb.sh BUNDLE.tar.gz LICENSE OUTDIR"
bundle="$1"
license="$2"
outdir="$3"
[[ -f "$bundle" ]] || die "no bundle at $bundle (run 'mvn package')"
command -v dpkg-deb >/dev/null || die "dpkg-deb is missing (Debian: apt install dpkg)"

name="$(basename "$bundle" .tar.gz)" # fleetfix-lab-0.1.0-SNAPSHOT
upstream="${name#fleetfix-lab-}"
# Debian orders '~' before anything, so 0.1.0~SNAPSHOT comes before the release 0.1.0.
version="${upstream//-/\~}"
[[ "$version" =~ ^[0-9][A-Za-z0-9.+~]*$ ]] || die "cannot make a Debian version of '$upstream'"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tar -C "$work" -xzf "$bundle"
jar="$work/fleetfix-$upstream/lib/plugins/fleetfix-lab.jar"
[[ -f "$jar" ]] || die "$bundle has no fleetfix-$upstream/lib/plugins/fleetfix-lab.jar"

root="$work/root"
install -d "$root/usr/share/fleetfix/lib/plugins" "$root/usr/share/doc/fleetfix-lab"
install -m 0644 "$jar" "$root/usr/share/fleetfix/lib/plugins/fleetfix-lab.jar"
install -m 0644 "$license" "$root/usr/share/doc/fleetfix-lab/copyright"
find "$root" -type d -exec chmod 0755 {} +

installed_kb="$(du -sk "$root" | cut -f1)"
install -d "$root/DEBIAN"
cat >"$root/DEBIAN/control" <<CONTROL
Package: fleetfix-lab
Version: $version
Architecture: all
Maintainer: fleetfix developers <fleetfix@localhost>
Installed-Size: $installed_kb
Depends: fleetfix (= $version)
Recommends: docker.io
Section: admin
Priority: optional
Description: disposable Redis fleets in Docker for rehearsing fleetfix playbooks
 The lab plug-in adds 'fleetfix lab': real Redis hosts (systemd, sshd,
 redis-server of any era) in local Docker containers, each on its own
 loopback address, to rehearse a playbook before running it on production.
CONTROL

deb="$outdir/fleetfix-lab_${version}_all.deb"
dpkg-deb --root-owner-group -Zgzip --build "$root" "$deb" >/dev/null
echo "build-deb (lab): $deb ($(du -h "$deb" | cut -f1))" >&2
