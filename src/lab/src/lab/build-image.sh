#!/usr/bin/env bash
# Builds a fleetfix lab host image from Debian packages: debootstrap (minbase) + docker import.
# No registry is pulled from. The tag is a hash of this file, which holds every input of the images, so a
# second run with an unchanged script is a no-op.
#
#   bash build-image.sh [SUITE]              build when missing; print the tag on stdout (progress on stderr)
#   bash build-image.sh [SUITE] --print-tag  print the tag only
#
# SUITE is bookworm (default: Debian 12, Redis 7.0; image fleetfix-lab) or trixie (Debian 13, Redis 8.0 and
# Valkey 8.1; image fleetfix-lab-trixie).
# The Debian mirror is read from this machine's apt sources; FLEETFIX_LAB_MIRROR overrides it.
# Needs root (debootstrap), debootstrap and a working docker.
set -euo pipefail

self="${BASH_SOURCE[0]}"
hash="$(sha256sum <"$self" | cut -c1-12)"
suite=bookworm
print_tag=false
for arg in "$@"; do
  case "$arg" in
    --print-tag) print_tag=true ;;
    bookworm | trixie) suite="$arg" ;;
    *) echo "build-image: error: unknown argument '$arg' (expected bookworm, trixie or --print-tag)" >&2; exit 2 ;;
  esac
done
# dbus: without a system bus, `systemctl is-active` as a non-root user fails, where it works on a real host.
base=openssh-server,sudo,procps,iproute2,systemd,systemd-sysv,dbus
case "$suite" in
  bookworm)
    tag="fleetfix-lab:$hash"
    packages="$base,redis-server,redis-tools"
    ;;
  trixie)
    tag="fleetfix-lab-trixie:$hash"
    # Both servers are installed, neither enabled: the lab enables the one a host runs at its first boot.
    packages="$base,redis-server,redis-tools,valkey-server,valkey-tools"
    ;;
esac

log() { echo "build-image: $*" >&2; }
die() { echo "build-image: error: $*" >&2; exit 1; }

if [[ "$print_tag" == true ]]; then
  echo "$tag"
  exit 0
fi

# The first Debian archive URI in the apt sources (deb822 .sources files, then sources.list), skipping
# security archives: the suite is bootstrapped from it whatever release the machine runs.
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
# (proc is mounted in the root only while packages install; errexit would stop the trap at a failed umount)
trap 'umount "$work/root/proc" 2>/dev/null || true; rm -rf "$work"' EXIT
root="$work/root"
started=$SECONDS

log "debootstrap $suite from $mirror (about a minute)"
debootstrap --variant=minbase --include="$packages" "$suite" "$root" "$mirror" >"$work/debootstrap.log" 2>&1 || {
  tail -n 30 "$work/debootstrap.log" >&2
  die "debootstrap failed (log above)"
}

# Debian 12's supervisor and tuned, for hosts set up the way operators do (LabOperatorShape), its podman (with
# crun), for a host whose Redis runs in a Podman container (LabPodmanRedis), and its docker-compose (v1), for a Redis
# run as a compose service (LabComposeRedis: it talks to the docker socket a host with dockerCli gets); installed with
# apt in the chroot, as polkitd (tuned's) does not configure inside debootstrap. None runs unless a host enables it.
if [[ "$suite" == bookworm ]]; then
  mount -t proc proc "$root/proc"
  printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
  chmod 0755 "$root/usr/sbin/policy-rc.d"
  extras_ok=true
  { chroot "$root" apt-get update -qq &&
    chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends supervisor tuned podman crun docker-compose; } \
    >"$work/extras.log" 2>&1 || extras_ok=false
  rm -f "$root/usr/sbin/policy-rc.d"
  umount "$root/proc"
  if [[ "$extras_ok" != true ]]; then
    tail -n 30 "$work/extras.log" >&2
    die "installing supervisor, tuned, podman and docker-compose failed (log above)"
  fi
  chroot "$root" systemctl disable supervisor.service tuned.service >/dev/null 2>&1
  # Debian enables these with the package; a lab host without a Podman container would only pay for them at boot
  # (the auto-update timer would also reach for a registry; the two services, wanted by default.target, ran three
  # podman processes at every boot of every lab host: 2 % of the test suite's CPU). LabPodmanRedis enables
  # podman-restart where it is used.
  chroot "$root" systemctl disable podman-restart.service podman.socket podman-auto-update.timer \
    podman-auto-update.service podman.service >/dev/null 2>&1
  # The lab host's own root is an overlay, and overlayfs cannot stack on it: Podman stores images and containers
  # with vfs (plain copies, so the lab's Redis image is kept small).
  cat >"$root/etc/containers/storage.conf" <<'CONF'
[storage]
driver = "vfs"
runroot = "/run/containers/storage"
graphroot = "/var/lib/containers/storage"
CONF
fi

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
# 0.0.0.0:22) that every lab host would fight over: none starts before the first-boot setup ran, and no Redis
# unit is enabled in the image: the setup enables the ones this host runs (LAB_SERVICES).
mkdir -p "$root/etc/systemd/system/ssh.service.d"
cat >"$root/etc/systemd/system/ssh.service.d/10-fleetfix-lab.conf" <<'CONF'
[Unit]
After=fleetfix-lab-setup.service
ConditionPathExists=/var/lib/fleetfix-lab/configured
CONF
# Debian's units sandbox Redis and Valkey with namespaces and filters a container cannot set up (status
# 217/USER); the template units (several instances per host) alike.
redis_units=(redis-server.service redis-server@.service)
if [[ "$suite" == trixie ]]; then
  redis_units+=(valkey-server.service valkey-server@.service)
fi
for unit in "${redis_units[@]}"; do
  mkdir -p "$root/etc/systemd/system/$unit.d"
  cat >"$root/etc/systemd/system/$unit.d/10-fleetfix-lab.conf" <<'CONF'
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
  if [[ "$unit" != *@* ]]; then
    chroot "$root" systemctl disable "$unit" >/dev/null 2>&1
  fi
done
for conf in "$root/etc/redis/redis.conf" "$root/etc/valkey/valkey.conf"; do
  [[ -f "$conf" ]] && sed -i 's/^bind .*/# bind: set per lab host at first boot/' "$conf"
done

cat >"$root/usr/local/sbin/fleetfix-lab-setup" <<'SETUP'
#!/bin/bash
# First boot of a lab host: applies what the lab wrote for this host into /etc/fleetfix-lab (read-only mount):
#   host.env           LAB_ADDRESS, LAB_SSH_PORT; LAB_REDIS_CONF (the distribution's config file), LAB_SERVICES
#                      (units enabled and started), LAB_REDIS_CONF_REPLACE=yes (an old build: the lab's file
#                      replaces the distribution's, whose directives it would refuse)
#   redis.conf         directives merged into LAB_REDIS_CONF
#   instances/NAME.conf  directives of instance NAME, merged into a copy of LAB_REDIS_CONF next to it
#                      (redis-NAME.conf, what Debian's template unit redis-server@NAME reads)
#   files/             copied over / (a Redis build, unit drop-ins, /etc/default/grub)
set -euo pipefail
conf=/etc/fleetfix-lab
. "$conf/host.env"
redis_conf="${LAB_REDIS_CONF:-/etc/redis/redis.conf}"

install -m 0600 -o root -g root "$conf/ssh_host_ed25519_key" /etc/ssh/ssh_host_ed25519_key
install -m 0644 -o root -g root "$conf/ssh_host_ed25519_key.pub" /etc/ssh/ssh_host_ed25519_key.pub
printf 'ListenAddress %s:%s\nHostKey /etc/ssh/ssh_host_ed25519_key\n' "$LAB_ADDRESS" "$LAB_SSH_PORT" \
  >/etc/ssh/sshd_config.d/00-fleetfix-lab-host.conf

home="$(getent passwd fleetfix | cut -d: -f6)"
install -d -m 0700 -o fleetfix -g fleetfix "$home/.ssh"
install -m 0600 -o fleetfix -g fleetfix "$conf/authorized_keys" "$home/.ssh/authorized_keys"

if [[ -d "$conf/files" ]]; then
  cp -r --no-preserve=ownership "$conf/files/." /
fi
# How an operator set the host up (LabOperatorShape): Redis from source with a SysV script, a supervisord
# program, a tuned profile. It makes the config file the directives below are merged into.
if [[ -f "$conf/shape.sh" ]]; then
  bash "$conf/shape.sh"
fi

# Each directive of a lab file replaces the same directive in the target, in place of an edit by hand.
merge() {
  local directives="$1" target="$2" key
  while read -r key _; do
    [[ -z "$key" || "$key" == \#* ]] && continue
    sed -i "/^${key}[[:space:]]/d" "$target"
  done <"$directives"
  cat "$directives" >>"$target"
}
pristine="$(mktemp)"
cp "$redis_conf" "$pristine"
if [[ "${LAB_REDIS_CONF_REPLACE:-no}" == yes ]]; then
  cat "$conf/redis.conf" >"$redis_conf"
else
  merge "$conf/redis.conf" "$redis_conf"
fi
if [[ -d "$conf/instances" ]]; then
  for directives in "$conf"/instances/*.conf; do
    name="$(basename "$directives" .conf)"
    target="$(dirname "$redis_conf")/$(basename "$redis_conf" .conf)-$name.conf"
    install -m 0640 -o "$(stat -c %U "$redis_conf")" -g "$(stat -c %G "$redis_conf")" "$pristine" "$target"
    merge "$directives" "$target"
  done
fi
rm -f "$pristine"

read -r -a services <<<"${LAB_SERVICES:-redis-server}"
# Offline, systemctl enable only writes the links (and update-rc.d's): a host without systemd starts from them.
systemctl enable "${services[@]}" >/dev/null 2>&1
if [[ -d /run/systemd/system ]]; then
  # sysv-generator turns a new /etc/init.d script into a unit at the reload
  if [[ -d "$conf/files/etc/systemd" || -f "$conf/shape.sh" ]]; then
    systemctl daemon-reload
  fi
  # Queued behind this unit (After=fleetfix-lab-setup.service): they start once it has finished.
  systemctl start --no-block "${services[@]}"
fi

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

# A lab host has no boot loader: at each boot it does what a kernel does with the command line that grub
# would pass it from /etc/default/grub (the lab writes one on hosts that have grub): transparent_hugepage=
# sets the THP boot mode, and /proc/cmdline shows the line.
cat >"$root/usr/local/sbin/fleetfix-lab-kernel-cmdline" <<'CMDLINE'
#!/bin/bash
set -uo pipefail
grub=/etc/default/grub
[[ -r "$grub" ]] || exit 0
# update-grub sources the file the same way.
args="$(set +u; . "$grub" >/dev/null 2>&1; echo "$GRUB_CMDLINE_LINUX $GRUB_CMDLINE_LINUX_DEFAULT")"
mode=""
for word in $args; do
  case "$word" in
    transparent_hugepage=always | transparent_hugepage=madvise | transparent_hugepage=never)
      mode="${word#transparent_hugepage=}" ;;
  esac
done
if [[ -n "$mode" ]]; then
  for enabled in /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/redhat_transparent_hugepage/enabled; do
    [[ -w "$enabled" ]] && echo "$mode" >"$enabled"
  done
fi
mkdir -p /run/fleetfix-lab
echo "BOOT_IMAGE=/boot/vmlinuz-$(uname -r) root=/dev/sda1 ro $args" | tr -s ' ' >/run/fleetfix-lab/cmdline
mount --bind /run/fleetfix-lab/cmdline /proc/cmdline 2>/dev/null || true
CMDLINE
chmod 0755 "$root/usr/local/sbin/fleetfix-lab-kernel-cmdline"
cat >"$root/etc/systemd/system/fleetfix-lab-kernel-cmdline.service" <<'UNIT'
[Unit]
Description=fleetfix lab: the kernel command line of /etc/default/grub
DefaultDependencies=no
After=local-fs.target
Before=sysinit.target

[Service]
Type=oneshot
ExecStart=/usr/local/sbin/fleetfix-lab-kernel-cmdline
RemainAfterExit=yes

[Install]
WantedBy=sysinit.target
UNIT

# Per-host kernel parameters. Lab hosts share one kernel and, with host networking, one network namespace, so
# vm.overcommit_memory and net.core.somaxconn are made per host as THP is: at each boot a file in /run (gone at
# the next reboot, as the kernel's value is) gets the host's boot value and is bound over /proc/sys, before
# systemd-sysctl applies /etc/sysctl.d to it. The boot value is /var/lib/fleetfix-lab/sysctl-boot/NAME when the
# lab set one (a host whose kernel defaults differ), else this machine's. sysctl -w and systemd-sysctl then
# write the host's own file, and only what a sysctl.d file persists survives `lab reboot`. The listen backlog a
# socket really gets still follows the machine's net.core.somaxconn.
cat >"$root/usr/local/sbin/fleetfix-lab-sysctl" <<'SYSCTL'
#!/bin/bash
set -uo pipefail
state=/run/fleetfix-lab/sysctl
mkdir -p "$state"
for key in vm/overcommit_memory net/core/somaxconn; do
  name="${key//\//.}"
  boot="/var/lib/fleetfix-lab/sysctl-boot/$name"
  if [[ -r "$boot" ]]; then cat "$boot" >"$state/$name"; else cat "/proc/sys/$key" >"$state/$name"; fi
  mount --bind "$state/$name" "/proc/sys/$key" || echo "fleetfix-lab-sysctl: cannot bind $key" >&2
done
SYSCTL
chmod 0755 "$root/usr/local/sbin/fleetfix-lab-sysctl"
cat >"$root/etc/systemd/system/fleetfix-lab-sysctl.service" <<'UNIT'
[Unit]
Description=fleetfix lab: this host's own kernel parameters
DefaultDependencies=no
After=local-fs.target
Before=systemd-sysctl.service sysinit.target

[Service]
Type=oneshot
ExecStart=/usr/local/sbin/fleetfix-lab-sysctl
RemainAfterExit=yes

[Install]
WantedBy=sysinit.target
UNIT
# systemd-sysctl skips a container, whose /proc/sys is read-only; the host's own files are writable, and the
# others it cannot write are logged at debug level (sysctl.d(5)).
mkdir -p "$root/etc/systemd/system/systemd-sysctl.service.d"
cat >"$root/etc/systemd/system/systemd-sysctl.service.d/10-fleetfix-lab.conf" <<'CONF'
[Unit]
ConditionPathIsReadWrite=
After=fleetfix-lab-sysctl.service
CONF

# PID 1 of a lab host without systemd, in the way of SysV init: the kernel's command line, runlevel 2's
# start scripts in order, /etc/rc.local last; on SIGTERM (docker stop) the stop scripts, then exit.
cat >"$root/usr/local/sbin/sysv-init" <<'INIT'
#!/bin/bash
set -u
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
mkdir -p /run/lock /run/sshd
/usr/local/sbin/fleetfix-lab-kernel-cmdline
/usr/local/sbin/fleetfix-lab-sysctl
sysctl -q --system 2>/dev/null
if [[ -f /etc/fleetfix-lab/host.env && ! -f /var/lib/fleetfix-lab/configured ]]; then
  /usr/local/sbin/fleetfix-lab-setup
fi
for script in /etc/rc2.d/S*; do
  [[ -x "$script" ]] && "$script" start
done
if [[ -x /etc/rc.local ]]; then
  /etc/rc.local
fi
echo "sysv-init: runlevel 2 reached"

halt() {
  for script in /etc/rc0.d/K*; do
    [[ -x "$script" ]] && "$script" stop
  done
  exit 0
}
trap halt TERM INT
while :; do
  sleep 3600 &
  wait $!
done
INIT
chmod 0755 "$root/usr/local/sbin/sysv-init"

mkdir -p "$root/etc/systemd/journald.conf.d"
cat >"$root/etc/systemd/journald.conf.d/10-fleetfix-lab.conf" <<'CONF'
[Journal]
Storage=volatile
RuntimeMaxUse=16M
CONF

chroot "$root" systemctl enable fleetfix-lab-setup.service fleetfix-lab-kernel-cmdline.service \
  fleetfix-lab-sysctl.service >/dev/null 2>&1
# Timers that would reach for the network or the disk, and consoles a container does not have.
chroot "$root" systemctl mask \
  apt-daily.timer apt-daily-upgrade.timer dpkg-db-backup.timer e2scrub_all.timer e2scrub_reap.service \
  fstrim.timer getty@tty1.service console-getty.service systemd-firstboot.service >/dev/null 2>&1
# Generators for what a container has not (disks, encryption, hibernation, consoles, a kernel command line of its
# own), masked as systemd lets an administrator mask one (a link to /dev/null of the same name in /etc): each ran at
# every boot and every daemon-reload, which halves a reload's CPU (0.40 -> 0.18 s a reload measured in a lab host).
# The lab's hosts need two: sysv-generator (init scripts as units) and rc-local-generator (rc.local).
mkdir -p "$root/etc/systemd/system-generators"
for generator in "$root"/lib/systemd/system-generators/systemd-*-generator; do
  case "${generator##*/}" in
    systemd-sysv-generator | systemd-rc-local-generator | "systemd-*-generator") ;;
    *) ln -s /dev/null "$root/etc/systemd/system-generators/${generator##*/}" ;;
  esac
done

rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/cache/apt/*.bin "$root"/var/lib/apt/lists/* "$root"/var/log/*.log

log "importing as $tag"
tar -C "$root" --numeric-owner -c . |
  docker import \
    -c 'CMD ["/lib/systemd/systemd"]' \
    -c 'ENV container=docker' \
    -c "LABEL dev.fleetfix.lab.image=$tag" \
    - "$tag" >/dev/null
log "built $tag in $((SECONDS - started)) s"
echo "$tag"
