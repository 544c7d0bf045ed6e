#!/usr/bin/env bash
# Makes this machine ready for the lab: docker and debootstrap installed, dockerd answering, the lab host
# images built (Debian 12 and Debian 13), the old Redis builds fetched with Maven; and ansible-core and ansible
# installed for the integration tests that compare fleetfix's inventory reading with Ansible's (ansible: the
# collections, whose test inventories are InventoryCorpusParityIT's corpus). Safe to run again: each step is
# skipped when already done. Fails (non-zero) with a message naming what is wrong when Docker cannot be made to
# work: the lab's tests never skip.
#
# dockerd is started, when not running, with --iptables=false --bridge=none: lab containers use the host
# network only (each lab host on its own loopback address), nothing is routed off the machine.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dockerd_log="${FLEETFIX_DOCKERD_LOG:-/var/log/fleetfix-dockerd.log}"

log() { echo "prepare: $*" >&2; }
die() { echo "prepare: error: $*" >&2; exit 1; }

# One preparation at a time on this machine: CI starts one early, beside the build, and the build's own run waits
# for it here, then finds every step done (apt and image builds must not run twice at once).
lock="${FLEETFIX_PREPARE_LOCK:-${TMPDIR:-/tmp}/fleetfix-prepare.lock}"
if command -v flock >/dev/null; then
  exec 9>>"$lock" || die "cannot open the lock file $lock"
  if ! flock -n 9; then
    log "another preparation is running; waiting for it (lock $lock)"
    flock 9
  fi
fi

as_root() {
  if [[ "$(id -u)" == 0 ]]; then
    "$@"
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    sudo -n "$@"
  else
    die "need root to run: $* (run this script as root or with passwordless sudo)"
  fi
}

missing=()
# Some machines ship only the docker client: the daemon is what the lab needs.
command -v dockerd >/dev/null || missing+=(docker.io)
command -v debootstrap >/dev/null || missing+=(debootstrap)
command -v ssh >/dev/null && command -v ssh-keygen >/dev/null || missing+=(openssh-client)
command -v redis-cli >/dev/null || missing+=(redis-tools)
command -v redis-server >/dev/null || missing+=(redis-server)
# The audit's OpenMetrics output is checked with the official Prometheus client's parsers (Debian's python3).
/usr/bin/python3 -c 'import prometheus_client' 2>/dev/null || missing+=(python3-prometheus-client)
# AlertRulesIT validates contrib/prometheus/fleetfix.rules.yml with Debian's promtool (package prometheus).
command -v promtool >/dev/null || missing+=(prometheus)
# AnsibleInventoryIT runs the real ansible-inventory and ansible on the inventory fixtures: Debian 12's ansible-core
# (2.14) is the Ansible their golden files were made with.
# InventoryParityIT and InventoryCorpusParity compare fleetfix with its ansible-inventory and ansible-playbook.
command -v ansible-inventory >/dev/null && command -v ansible >/dev/null || missing+=(ansible-core)
# InventoryCorpusParityIT reads the test inventories the collections of Debian 12's 'ansible' (7.7.0) ship, beside
# ansible-core: a corpus of public inventories with its origin and licence in the package, never copied into the project.
dpkg-query -W -f='${Status}' ansible 2>/dev/null | grep -q 'install ok installed' || missing+=(ansible)
# The build checks the shell scripts fleetfix sends to hosts with Debian's shellcheck (src/core's validate phase).
command -v shellcheck >/dev/null || missing+=(shellcheck)
if ((${#missing[@]} > 0)); then
  log "installing ${missing[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 || die "apt-get update failed"
  # Keep the packages' own service starts (dockerd with its default bridge and iptables) out of the way: this
  # script starts dockerd itself, with the flags the lab needs.
  policy=/usr/sbin/policy-rc.d
  own_policy=false
  if [[ ! -e "$policy" ]]; then
    as_root sh -c "printf '#!/bin/sh\\nexit 101\\n' >$policy && chmod 0755 $policy"
    own_policy=true
  fi
  installed=true
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2 \
    || installed=false
  if [[ "$own_policy" == true ]]; then
    as_root rm -f "$policy"
  fi
  [[ "$installed" == true ]] || die "apt-get install ${missing[*]} failed"
fi
command -v docker >/dev/null || die "docker is still not on PATH after installing docker.io"

if ! docker info >/dev/null 2>&1; then
  command -v dockerd >/dev/null || die "docker does not answer and there is no dockerd to start"
  log "dockerd is not answering; starting it (log: $dockerd_log)"
  as_root mkdir -p "$(dirname "$dockerd_log")"
  # containerd comes with docker.io; dockerd starts its own when none is running.
  # (without the lock's descriptor: dockerd outlives this script, and would hold the lock as long as it runs)
  as_root nohup dockerd --iptables=false --bridge=none >>"$dockerd_log" 2>&1 </dev/null 9>&- &
  for _ in $(seq 1 60); do
    docker info >/dev/null 2>&1 && break
    sleep 1
  done
  if ! docker info >/dev/null 2>&1; then
    tail -n 20 "$dockerd_log" >&2 || true
    die "dockerd did not answer within 60 s (last lines of $dockerd_log above)"
  fi
  log "dockerd is up"
fi

# Every lab host runs systemd, journald, logind and dbus, each holding inotify instances: past a dozen hosts the
# kernel's default of 128 per user runs out and hosts stall at boot (path units fail, nothing starts).
min_instances=8192
if (($(cat /proc/sys/fs/inotify/max_user_instances) < min_instances)); then
  log "raising fs.inotify.max_user_instances to $min_instances for the lab hosts' systemd"
  as_root sysctl -q -w fs.inotify.max_user_instances=$min_instances \
    || die "cannot raise fs.inotify.max_user_instances; lab hosts would stall at boot"
fi

# Both images at once: debootstrap spends most of its time fetching and unpacking, not computing.
images="$(mktemp -d "${TMPDIR:-/tmp}/fleetfix-prepare.XXXXXX")"
for suite in bookworm trixie; do
  bash "$here/build-image.sh" "$suite" >"$images/$suite.tag" 2>"$images/$suite.log" &
  echo $! >"$images/$suite.pid"
done
for suite in bookworm trixie; do
  if wait "$(cat "$images/$suite.pid")"; then
    cat "$images/$suite.log" >&2
    log "lab image $(cat "$images/$suite.tag") ready"
  else
    cat "$images/$suite.log" >&2
    failed="$suite"
  fi
done
rm -rf "$images"
[[ -z "${failed:-}" ]] || die "building the lab image ($failed) failed (its output above)"

# The eras preset's Redis 2.8 and 6.2 (and the 6.0 of the hand-over tests) are real x86-64 builds inside Maven Central jars; the lab extracts them
# from the local Maven repository (LabRedisBuild), where Maven puts them.
repo="${FLEETFIX_LAB_MAVEN_REPO:-$HOME/.m2/repository}"
for artifact in it.ozimov:embedded-redis:0.7.3 org.signal:embedded-redis:0.8.1 com.github.codemonstur:embedded-redis:1.4.3; do
  IFS=: read -r group id version <<<"$artifact"
  jar="$repo/${group//.//}/$id/$version/$id-$version.jar"
  if [[ ! -f "$jar" ]]; then
    command -v mvn >/dev/null || die "mvn is needed to fetch $artifact (the lab's old Redis builds)"
    log "fetching $artifact with Maven"
    mvn -B -q -Dmaven.repo.local="$repo" org.apache.maven.plugins:maven-dependency-plugin:3.8.1:get \
      -Dartifact="$artifact" -Dtransitive=false >&2 || die "mvn could not fetch $artifact"
  fi
  log "old Redis build from $artifact ready"
done
