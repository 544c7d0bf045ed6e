#!/usr/bin/env bash
# Builds fleetfix-lab_VERSION_all.deb, the lab plug-in ('fleetfix lab'), from its bundle (fleetfix-lab-VERSION.tar.gz).
#
# The package puts lib/plugins/fleetfix-lab.jar under fleetfix's install directory, where bin/fleetfix finds it. It
# depends on the fleetfix package of the same version (the plug-in runs inside it) and recommends Docker, which the
# lab drives; the operator's package itself carries no Docker client.
#
# Made as fleetfix's package is (src/cli/src/packaging/deb/build-deb.sh): DEP-5 copyright with the bundled
# libraries (Testcontainers and its dependencies) from Maven's dependency list, changelog, md5sums; lintian-clean.
#
# Usage: build-deb.sh BUNDLE.tar.gz BUNDLED-LIBRARIES.txt COPYRIGHT.PY OUTDIR
#   (run by 'mvn package'; needs dpkg-deb, gzip, tar and python3)
set -euo pipefail

die() { echo "build-deb (lab): error: $*" >&2; exit 1; }
[[ $# -eq 4 ]] || die "usage: build-deb.sh BUNDLE.tar.gz BUNDLED-LIBRARIES.txt COPYRIGHT.PY OUTDIR"
bundle="$1"
libraries="$2"
copyright="$3"
outdir="$4"
[[ -f "$bundle" ]] || die "no bundle at $bundle (run 'mvn package')"
[[ -f "$libraries" ]] || die "no library list at $libraries (run 'mvn package')"
command -v dpkg-deb >/dev/null || die "dpkg-deb is missing (Debian: apt install dpkg)"
command -v python3 >/dev/null || die "python3 is missing (Debian: apt install python3)"
maintainer="fleetfix developers <maintainers@fleetfix.dev>"

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
python3 "$copyright" fleetfix-lab usr/share/fleetfix/lib/plugins/fleetfix-lab.jar "$libraries" \
  >"$root/usr/share/doc/fleetfix-lab/copyright" || die "cannot write the copyright file"
chmod 0644 "$root/usr/share/doc/fleetfix-lab/copyright"
cat <<CHANGELOG | gzip -9n >"$root/usr/share/doc/fleetfix-lab/changelog.gz"
fleetfix-lab ($version) unstable; urgency=medium

  * fleetfix-lab $upstream: see the project's release notes.

 -- $maintainer  $(date -R -u ${SOURCE_DATE_EPOCH:+-d @$SOURCE_DATE_EPOCH})
CHANGELOG
find "$root" -type d -exec chmod 0755 {} +

installed_kb="$(du -sk "$root" | cut -f1)"
install -d "$root/DEBIAN"
(cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum) \
  >"$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/md5sums"
cat >"$root/DEBIAN/control" <<CONTROL
Package: fleetfix-lab
Version: $version
Architecture: all
Maintainer: $maintainer
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
