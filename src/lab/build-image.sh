#!/usr/bin/env bash
# Builds the fleetfix lab host image from Debian packages: debootstrap (bookworm, minbase) + docker import.
# No registry is pulled from. The tag is a hash of this file, which holds every input of the image, so a
# second run with an unchanged script is a no-op.
#
#   bash build-image.sh              build when missing; print the tag on stdout (progress goes to stderr)
#   bash build-image.sh --print-tag  print the tag only
#
# The Debian mirror is read from this machine's apt sources; FLEETFIX_LAB_MIRROR overrides it.
# Needs root (debootstrap), debootstrap and a working docker.
set -euo pipefail

self="${BASH_SOURCE[0]}"
tag="fleetfix-lab:$(sha256sum <"$self" | cut -c1-12)"
suite=bookworm
# dbus: without a system bus, `systemctl is-active` as a non-root user fails, where it works on a real host.
packages=openssh-server,redis-server,redis-tools,sudo,procps,iproute2,systemd,systemd-sysv,dbus

log() { echo "build-image: $*" >&2; }
die() { echo "build-image: error: $*" >&2; exit 1; }

if [[ "${1:-}" == "--print-tag" ]]; then
  echo "$tag"
  exit 0
fi

# The first Debian archive URI in the apt sources (deb822 .sources files, then sources.list), skipping
# security archives: bookworm is bootstrapped from it whatever release the machine runs.
debian_mirror() {
  if [[ -n "${FLEETFIX_LAB_MIRROR:-}" ]]; then
    echo "$FLEETFIX_LAB_MIRROR"
    return
  fi
  local f uri
  for f in /etc/apt/sources.list.d/*.sources; do
    [[ -f "$f" ]] || continue
    uri="$(awk 'BEGIN { RS = ""; FS = "\n" }
      {
        types = ""; uris = ""; suites = ""
        for (i = 1; i <= NF; i++) {
          line = $i
          if (line ~ /^Types:/)  { sub(/^Types:[ \t]*/, "", line);  types = line }
          if (line ~ /^URIs:/)   { sub(/^URIs:[ \t]*/, "", line);   uris = line }
          if (line ~ /^Suites:/) { sub(/^Suites:[ \t]*/, "", line); suites = line }
        }
        if (types ~ /(^| )deb( |$)/ && uris != "" && suites !~ /-security/ && uris !~ /security/) {
          split(uris, u, " "); print u[1]; exit
        }
      }' "$f")"
    if [[ -n "$uri" ]]; then
      echo "$uri"
      return
    fi
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [[ -f "$f" ]] || continue
    uri="$(awk '$1 == "deb" {
        i = 2
        if ($i ~ /^\[/) { while (i < NF && $i !~ /\]$/) i++; i++ }
        if ($(i + 1) !~ /-security/ && $i !~ /security/) { print $i; exit }
      }' "$f")"
    if [[ -n "$uri" ]]; then
      echo "$uri"
      return
    fi
  done
  return 1
}

command -v docker >/dev/null || die "docker is not installed (run src/lab/prepare.sh)"
docker info >/dev/null 2>&1 || die "docker does not answer (run src/lab/prepare.sh)"
if docker image inspect "$tag" >/dev/null 2>&1; then
  log "$tag already built"
  echo "$tag"
  exit 0
fi
[[ "$(id -u)" == 0 ]] || die "building $tag needs root (debootstrap); run: sudo bash $self"
command -v debootstrap >/dev/null || die "debootstrap is not installed (apt-get install debootstrap)"
mirror="$(debian_mirror)" || die "no Debian archive found in /etc/apt/sources.list{,.d}; set FLEETFIX_LAB_MIRROR"

work="$(mktemp -d "${TMPDIR:-/tmp}/fleetfix-lab-image.XXXXXX")"
trap 'rm -rf "$work"' EXIT
root="$work/root"
started=$SECONDS

log "debootstrap $suite from $mirror (about a minute)"
debootstrap --variant=minbase --include="$packages" "$suite" "$root" "$mirror" >"$work/debootstrap.log" 2>&1 || {
  tail -n 30 "$work/debootstrap.log" >&2
  die "debootstrap failed (log above)"
}

# Host keys are made per lab and installed at first boot; none is baked into the image.
rm -f "$root"/etc/ssh/ssh_host_*

# The login user: key only (the password field '*' refuses passwords but lets keys in), passwordless sudo.
chroot "$root" useradd --create-home --shell /bin/bash fleetfix
chroot "$root" usermod --password '*' fleetfix
echo 'fleetfix ALL=(ALL) NOPASSWD:ALL' >"$root/etc/sudoers.d/fleetfix"
chmod 0440 "$root/etc/sudoers.d/fleetfix"

# pam_loginuid cannot write /proc/self/loginuid in a container and would refuse every login.
sed -i 's/^session\s\+required\s\+pam_loginuid.so/session optional pam_loginuid.so/' "$root/etc/pam.d/sshd"

cat >"$root/etc/ssh/sshd_config.d/10-fleetfix-lab.conf" <<'CONF'
# fleetfix lab: keys only; ListenAddress and HostKey come from 00-fleetfix-lab-host.conf, written at first boot.
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin no
UseDNS no
CONF

# With host networking, Redis and sshd must never fall back to their default listeners (127.0.0.1:6379,
# 0.0.0.0:22) that every lab host would fight over: neither starts before the first-boot setup ran.
mkdir -p "$root/etc/systemd/system/ssh.service.d" "$root/etc/systemd/system/redis-server.service.d"
cat >"$root/etc/systemd/system/ssh.service.d/10-fleetfix-lab.conf" <<'CONF'
[Unit]
After=fleetfix-lab-setup.service
ConditionPathExists=/var/lib/fleetfix-lab/configured
CONF
# Debian's unit sandboxes Redis with namespaces and filters a container cannot set up (status 217/USER).
cat >"$root/etc/systemd/system/redis-server.service.d/10-fleetfix-lab.conf" <<'CONF'
[Unit]
After=fleetfix-lab-setup.service
ConditionPathExists=/var/lib/fleetfix-lab/configured

[Service]
PrivateUsers=no
PrivateTmp=no
PrivateDevices=no
ProtectHome=no
ProtectSystem=no
ProtectHostname=no
ProtectClock=no
ProtectKernelModules=no
ProtectKernelTunables=no
ProtectKernelLogs=no
ProtectControlGroups=no
NoNewPrivileges=no
MemoryDenyWriteExecute=no
RestrictRealtime=no
RestrictNamespaces=no
RestrictSUIDSGID=no
LockPersonality=no
RestrictAddressFamilies=
CapabilityBoundingSet=
SystemCallFilter=
SystemCallArchitectures=
ReadWritePaths=
ReadWriteDirectories=
ReadOnlyPaths=
CONF
sed -i 's/^bind .*/# bind: set per lab host at first boot/' "$root/etc/redis/redis.conf"

cat >"$root/usr/local/sbin/fleetfix-lab-setup" <<'SETUP'
#!/bin/bash
# First boot of a lab host: applies what the lab wrote for this host into /etc/fleetfix-lab (read-only mount).
set -euo pipefail
conf=/etc/fleetfix-lab
. "$conf/host.env"

install -m 0600 -o root -g root "$conf/ssh_host_ed25519_key" /etc/ssh/ssh_host_ed25519_key
install -m 0644 -o root -g root "$conf/ssh_host_ed25519_key.pub" /etc/ssh/ssh_host_ed25519_key.pub
printf 'ListenAddress %s:%s\nHostKey /etc/ssh/ssh_host_ed25519_key\n' "$LAB_ADDRESS" "$LAB_SSH_PORT" \
  >/etc/ssh/sshd_config.d/00-fleetfix-lab-host.conf

home="$(getent passwd fleetfix | cut -d: -f6)"
install -d -m 0700 -o fleetfix -g fleetfix "$home/.ssh"
install -m 0600 -o fleetfix -g fleetfix "$conf/authorized_keys" "$home/.ssh/authorized_keys"

# Each directive of the lab's redis.conf replaces the same directive in Debian's file, in place of an edit by hand.
while read -r key _; do
  [[ -z "$key" || "$key" == \#* ]] && continue
  sed -i "/^${key}[[:space:]]/d" /etc/redis/redis.conf
done <"$conf/redis.conf"
cat "$conf/redis.conf" >>/etc/redis/redis.conf

mkdir -p /var/lib/fleetfix-lab
touch /var/lib/fleetfix-lab/configured
SETUP
chmod 0755 "$root/usr/local/sbin/fleetfix-lab-setup"

cat >"$root/etc/systemd/system/fleetfix-lab-setup.service" <<'UNIT'
[Unit]
Description=fleetfix lab: configure this host at first boot
ConditionPathExists=/etc/fleetfix-lab/host.env
ConditionPathExists=!/var/lib/fleetfix-lab/configured
Before=ssh.service redis-server.service

[Service]
Type=oneshot
ExecStart=/usr/local/sbin/fleetfix-lab-setup
RemainAfterExit=yes

[Install]
WantedBy=multi-user.target
UNIT

mkdir -p "$root/etc/systemd/journald.conf.d"
cat >"$root/etc/systemd/journald.conf.d/10-fleetfix-lab.conf" <<'CONF'
[Journal]
Storage=volatile
RuntimeMaxUse=16M
CONF

chroot "$root" systemctl enable fleetfix-lab-setup.service >/dev/null 2>&1
# Timers that would reach for the network or the disk, and consoles a container does not have.
chroot "$root" systemctl mask \
  apt-daily.timer apt-daily-upgrade.timer dpkg-db-backup.timer e2scrub_all.timer e2scrub_reap.service \
  fstrim.timer getty@tty1.service console-getty.service systemd-firstboot.service >/dev/null 2>&1

rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/var/log/*.log

log "importing as $tag"
tar -C "$root" --numeric-owner -c . |
  docker import \
    -c 'CMD ["/lib/systemd/systemd"]' \
    -c 'ENV container=docker' \
    -c "LABEL dev.fleetfix.lab.image=$tag" \
    - "$tag" >/dev/null
log "built $tag in $((SECONDS - started)) s"
echo "$tag"
