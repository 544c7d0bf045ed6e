#!/bin/sh
# Installs Debian's chromium for HtmlReportBrowserIT when it is missing. Run as root before the ITs.
set -eu
if command -v chromium >/dev/null 2>&1; then
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends chromium
command -v chromium
