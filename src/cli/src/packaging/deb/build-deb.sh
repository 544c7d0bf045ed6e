#!/usr/bin/env bash
# Builds fleetfix_VERSION_all.deb from the release bundle (fleetfix-VERSION.tar.gz), with plain dpkg-deb.
#
# Why dpkg-deb and not jpackage: fleetfix is a jar, the same on every architecture, and Debian already ships the
# Java it needs. jpackage would bundle a private runtime (tens of MB, one package per architecture, security
# updates only through us); a package of architecture 'all' that depends on Debian's Java runtime stays small and
# is patched by the distribution.
#
# The package is made as debhelper would make it, by hand: a DEP-5 copyright listing every bundled library and its
# licence (copyright.py, from Maven's dependency list), a changelog, md5sums, conffiles, and the maintainer scripts
# in debian/. 'lintian --pedantic' on the result reports nothing (and needs no overrides).
#
# Usage: build-deb.sh BUNDLE.tar.gz BUNDLED-LIBRARIES.txt OUTDIR
#   (run by 'mvn package'; needs dpkg-deb, gzip, tar and python3; BUNDLED-LIBRARIES.txt is 'mvn dependency:list'
#   output with absolute paths, which the pom writes)
set -euo pipefail

die() { echo "build-deb: error: $*" >&2; exit 1; }
[[ $# -eq 3 ]] || die "usage: build-deb.sh BUNDLE.tar.gz BUNDLED-LIBRARIES.txt OUTDIR"
bundle="$1"
libraries="$2"
outdir="$3"
here="$(cd "$(dirname "$0")" && pwd)"
[[ -f "$bundle" ]] || die "no bundle at $bundle (run 'mvn package')"
[[ -f "$libraries" ]] || die "no library list at $libraries (run 'mvn package')"
command -v dpkg-deb >/dev/null || die "dpkg-deb is missing (Debian: apt install dpkg)"
command -v python3 >/dev/null || die "python3 is missing (Debian: apt install python3)"
maintainer="fleetfix developers <maintainers@fleetfix.dev>"

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
  "$root/usr/share/bash-completion/completions" "$doc/examples" "$root/usr/lib/systemd/system" "$root/etc/fleetfix"
install -m 0755 "$src/bin/fleetfix" "$share/bin/fleetfix"
install -m 0644 "$src/lib/fleetfix.jar" "$share/lib/fleetfix.jar"
ln -s ../share/fleetfix/bin/fleetfix "$root/usr/bin/fleetfix"
# bash sources completion files: a hashbang there is dead text (lintian: bash-completion-with-hashbang)
sed '1{/^#!/d}' "$src/completion/fleetfix" >"$root/usr/share/bash-completion/completions/fleetfix"
chmod 0644 "$root/usr/share/bash-completion/completions/fleetfix"
# The audit timer, installed disabled (docs/audit.md says how to enable it), and the alert rules as an example.
install -m 0644 "$src/share/contrib/systemd/fleetfix-audit.service" "$src/share/contrib/systemd/fleetfix-audit.timer" \
  "$root/usr/lib/systemd/system/"
install -d "$doc/examples/prometheus"
install -m 0644 "$src/share/contrib/prometheus/fleetfix.rules.yml" "$doc/examples/prometheus/"
# The timer's inventory: a conffile, all comments (the audit refuses it until hosts are added, exit 2).
{
  echo "# The inventory fleetfix-audit.timer audits (systemctl enable --now fleetfix-audit.timer)."
  echo "# Uncomment and edit; the fleetfix user's SSH key is in /var/lib/fleetfix/.ssh. See docs/audit.md."
  echo "#"
  sed -e 's/^\([^#]\)/# \1/' -e 's/^$/#/' "$src/share/inventory.example.yaml"
} >"$root/etc/fleetfix/inventory.yaml"
chmod 0644 "$root/etc/fleetfix/inventory.yaml"
for page in "$src"/man/man1/*.1; do
  gzip -9n -c "$page" >"$root/usr/share/man/man1/$(basename "$page").gz"
done
for page in "$src"/man/man5/*.5; do
  gzip -9n -c "$page" >"$root/usr/share/man/man5/$(basename "$page").gz"
done
chmod 0644 "$root"/usr/share/man/man1/*.gz "$root"/usr/share/man/man5/*.gz
python3 "$here/copyright.py" fleetfix usr/share/fleetfix/lib/fleetfix.jar "$libraries" >"$doc/copyright" || die "cannot write the copyright file"
chmod 0644 "$doc/copyright"
# A native package's changelog: one entry per build, dated by SOURCE_DATE_EPOCH when set (reproducible builds).
changelog_date="$(date -R -u ${SOURCE_DATE_EPOCH:+-d @$SOURCE_DATE_EPOCH})"
gzip -9n -c "$src/README.md" >"$doc/README.md.gz"
# The manual the README links to, uncompressed so that its relative links still resolve.
cp -r "$src/docs" "$doc/docs"
cp -r "$src/share/playbooks" "$doc/examples/playbooks"
install -m 0644 "$src/share/inventory.example.yaml" "$doc/examples/inventory.example.yaml"
cat <<CHANGELOG | gzip -9n >"$doc/changelog.gz"
fleetfix ($version) unstable; urgency=medium

  * fleetfix $upstream: see the project's release notes.

 -- $maintainer  $changelog_date
CHANGELOG
find "$root" -type d -exec chmod 0755 {} +

installed_kb="$(du -sk --exclude=DEBIAN "$root" | cut -f1)"
install -d "$root/DEBIAN"
(cd "$root" && find . -path ./DEBIAN -prune -o -path ./etc -prune -o -type f -printf '%P\0' | sort -z \
  | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
(cd "$root" && find etc -type f -printf '/%p\n') >"$root/DEBIAN/conffiles"
install -m 0755 "$here/debian/postinst" "$here/debian/prerm" "$here/debian/postrm" "$root/DEBIAN/"
chmod 0644 "$root/DEBIAN/md5sums" "$root/DEBIAN/conffiles"
cat >"$root/DEBIAN/control" <<CONTROL
Package: fleetfix
Version: $version
Architecture: all
Maintainer: $maintainer
Installed-Size: $installed_kb
Depends: default-jre-headless (>= 2:1.17) | java17-runtime-headless, adduser
Suggests: prometheus-node-exporter
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
