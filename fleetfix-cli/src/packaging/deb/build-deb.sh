#!/usr/bin/env bash
# Builds fleetfix_VERSION_all.deb from the release bundle (fleetfix-VERSION.tar.gz), with plain dpkg-deb.
#
# Why dpkg-deb and not jpackage: fleetfix is a jar, the same on every architecture, and Debian already ships the
# Java it needs. jpackage would bundle a private runtime (tens of MB, one package per architecture, security
# updates only through us); a package of architecture 'all' that depends on Debian's Java runtime stays small and
# is patched by the distribution.
#
# Usage: build-deb.sh BUNDLE.tar.gz OUTDIR    (run by 'mvn package'; needs dpkg-deb, gzip and tar)
set -euo pipefail

die() { echo "build-deb: error: $*" >&2; exit 1; }
[[ $# -eq 2 ]] || die "usage: build-deb.sh BUNDLE.tar.gz OUTDIR"
bundle="$1"
outdir="$2"
[[ -f "$bundle" ]] || die "no bundle at $bundle (run 'mvn package')"
command -v dpkg-deb >/dev/null || die "dpkg-deb is missing (Debian: apt install dpkg)"

name="$(basename "$bundle" .tar.gz)" # fleetfix-0.1.0-SNAPSHOT
upstream="${name#fleetfix-}"
# Debian orders '~' before anything, so 0.1.0~SNAPSHOT comes before the release 0.1.0.
version="${upstream//-/\~}"
[[ "$version" =~ ^[0-9][A-Za-z0-9.+~]*$ ]] || die "cannot make a Debian version of '$upstream'"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tar -C "$work" -xzf "$bundle"
src="$work/$name"
[[ -f "$src/lib/fleetfix.jar" ]] || die "$bundle has no $name/lib/fleetfix.jar"

root="$work/root"
share="$root/usr/share/fleetfix"
doc="$root/usr/share/doc/fleetfix"
install -d "$share/bin" "$share/lib" "$root/usr/bin" "$root/usr/share/man/man1" "$root/usr/share/man/man5" \
  "$root/usr/share/bash-completion/completions" "$doc/examples"
install -m 0755 "$src/bin/fleetfix" "$share/bin/fleetfix"
install -m 0644 "$src/lib/fleetfix.jar" "$share/lib/fleetfix.jar"
ln -s ../share/fleetfix/bin/fleetfix "$root/usr/bin/fleetfix"
install -m 0644 "$src/completion/fleetfix" "$root/usr/share/bash-completion/completions/fleetfix"
for page in "$src"/man/man1/*.1; do
  gzip -9n -c "$page" >"$root/usr/share/man/man1/$(basename "$page").gz"
done
for page in "$src"/man/man5/*.5; do
  gzip -9n -c "$page" >"$root/usr/share/man/man5/$(basename "$page").gz"
done
chmod 0644 "$root"/usr/share/man/man1/*.gz "$root"/usr/share/man/man5/*.gz
install -m 0644 "$src/LICENSE" "$doc/copyright"
gzip -9n -c "$src/README.md" >"$doc/README.md.gz"
# The manual the README links to, uncompressed so that its relative links still resolve.
cp -r "$src/docs" "$doc/docs"
cp -r "$src/share/playbooks" "$doc/examples/playbooks"
install -m 0644 "$src/share/inventory.example.yaml" "$doc/examples/inventory.example.yaml"
find "$root" -type d -exec chmod 0755 {} +

installed_kb="$(du -sk --exclude=DEBIAN "$root" | cut -f1)"
install -d "$root/DEBIAN"
cat >"$root/DEBIAN/control" <<CONTROL
Package: fleetfix
Version: $version
Architecture: all
Maintainer: fleetfix developers <fleetfix@localhost>
Installed-Size: $installed_kb
Depends: default-jre-headless (>= 2:1.17) | java17-runtime-headless
Recommends: bash-completion, man-db
Section: admin
Priority: optional
Description: remediates fleets of Redis hosts over SSH
 fleetfix audits Transparent Huge Pages and the kernel settings Redis cares
 about on every host of an inventory, sets THP to never and persists it, and
 restarts Redis host by host behind health gates, with failover and
 before/after benchmarks. It reads Ansible inventories.
CONTROL

deb="$outdir/fleetfix_${version}_all.deb"
dpkg-deb --root-owner-group -Zgzip --build "$root" "$deb" >/dev/null
echo "build-deb: $deb ($(du -h "$deb" | cut -f1))" >&2
