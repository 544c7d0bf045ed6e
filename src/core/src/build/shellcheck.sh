#!/usr/bin/env bash
# The build's check of the shell scripts fleetfix sends to hosts: every src/*/src/main/resources/**/*.sh passes
# Debian's shellcheck, each in the shell its own directive names (shell=sh). Fails the build on any report, and
# when the tool is missing: nothing is skipped.
# Usage: shellcheck.sh SRC_DIR (the directory that holds the modules)
set -euo pipefail
src=$(cd "${1:?usage: shellcheck.sh SRC_DIR}" && pwd)
# As the lab's preparation installs Docker, a root build on Debian installs the checker (waiting for another apt)
if ! command -v shellcheck >/dev/null 2>&1 && [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null 2>&1; then
  echo "shellcheck is missing: installing Debian's shellcheck package" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 shellcheck >/dev/null 2>&1 ||
    { apt-get update -qq -o DPkg::Lock::Timeout=600 >/dev/null 2>&1 &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 shellcheck >/dev/null 2>&1; } ||
    true
fi
if ! command -v shellcheck >/dev/null 2>&1; then
  echo "shellcheck is missing: install shellcheck (Debian: apt-get install shellcheck; the lab's prepare.sh does)" \
    "to build fleetfix; it checks the scripts fleetfix sends to hosts" >&2
  exit 1
fi
mapfile -t scripts < <(find "$src" -path '*/src/main/resources/*' -name '*.sh' -type f | sort)
if ((${#scripts[@]} == 0)); then
  echo "shellcheck: no script found under $src/*/src/main/resources" >&2
  exit 1
fi
if ! shellcheck --format=gcc "${scripts[@]}" >&2; then
  echo "shellcheck reported the scripts above (${#scripts[@]} checked): fix them, or disable a check where it" \
    "stands with the reason (# shellcheck disable=SCnnnn # why)" >&2
  exit 1
fi
echo "shellcheck: ${#scripts[@]} script(s) clean"
