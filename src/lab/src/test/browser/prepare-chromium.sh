#!/bin/sh
# Installs Debian's chromium for HtmlReportBrowserIT when it is missing. Run as root before the ITs.
set -eu
# the lab's preparation (src/lab/src/lab/prepare.sh) may be running apt beside this: wait for it
lock="${FLEETFIX_PREPARE_LOCK:-${TMPDIR:-/tmp}/fleetfix-prepare.lock}"
if command -v flock >/dev/null 2>&1; then
    exec 9>>"$lock"
    flock 9
fi
if command -v chromium >/dev/null 2>&1; then
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends chromium
command -v chromium
