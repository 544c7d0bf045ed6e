# shellcheck shell=sh
# fleetfix audit: every fact in one round trip. Each section starts with a marker line
# "@@fleetfix NAME"; lines that follow belong to it. The script never fails as a whole:
# a missing file leaves its section empty. redis_pid is set by the caller (quoted), or empty.
s() { printf '\n@@fleetfix %s\n' "$1"; }
# hits STATE FILE...: "FILE<TAB>STATE<TAB>LINE" for every line mentioning transparent_hugepage. One awk reads every
# file that exists (a grep per file cost two processes a file: /usr/lib/tmpfiles.d alone holds dozens)
hits() {
  st=$1; shift
  for f in "$@"; do
    shift
    if [ -f "$f" ] && [ -r "$f" ]; then set -- "$@" "$f"; fi
  done
  [ "$#" -gt 0 ] || return 0
  awk -v st="$st" '/transparent_hugepage/ { printf "%s\t%s\t%s\n", FILENAME, st, $0 }' "$@" 2>/dev/null
}
# one1 FILE: the file's first line, read by the shell itself (a cat per file cost a process each), nothing when it
# cannot be read. Not for /proc/sys's numbers: dash and busybox read a byte at a time, and those files answer only a
# read from their start (somaxconn's 4096 read as 4); osrelease is a string, which they serve from any offset
# read1 sets $one (no subshell), one1 prints it
read1() { one=; IFS= read -r one 2>/dev/null <"$1" || [ -n "$one" ]; }
one1() { if read1 "$1"; then printf '%s\n' "$one"; fi; }
read1 /proc/sys/kernel/osrelease
kernel=$one
[ -n "$kernel" ] || kernel=$(uname -r)
s kernel; echo "$kernel"
s uid; id -u
thp=
for d in /sys/kernel/mm/transparent_hugepage /sys/kernel/mm/redhat_transparent_hugepage; do
  if [ -z "$thp" ] && [ -d "$d" ]; then thp=$d; fi
done
s thp.dir; echo "$thp"
if [ -n "$thp" ]; then
  s thp.enabled; one1 "$thp/enabled"
  s thp.defrag; one1 "$thp/defrag"
  # whether the file is the kernel's: a container may bind-mount a plain file over sysfs. statfs
  # first; busybox without stat, or an old coreutils that cannot name the type, leaves mountinfo
  # (the longest mount point that holds the file; the last of stacked mounts is the visible one)
  s thp.fs
  f=$thp/enabled
  printf 'statfs %s\n' "$(stat -f -c %T "$f" 2>/dev/null)"
  awk -v f="$f" '{ for (i = 7; i <= NF && $i != "-"; i++) ; m = $5
    if ((m == f || m == "/" || index(f, m "/") == 1) && length(m) >= best) { best = length(m); t = $(i + 1) } }
    END { print "mountinfo " t }' /proc/self/mountinfo 2>/dev/null
fi
s kconfig; grep -h '^CONFIG_TRANSPARENT_HUGEPAGE_[A-Z]*=y' "/boot/config-$kernel" 2>/dev/null
s cmdline; one1 /proc/cmdline
s grub; hits active /etc/default/grub /etc/default/grub.d/*.cfg
s systemd
# one grep over every unit file (a process per file would cost more than the rest of the script); unit paths hold
# no blanks
# shellcheck disable=SC2013
for f in $(grep -l transparent_hugepage /etc/systemd/system/*.service /run/systemd/system/*.service \
    /lib/systemd/system/*.service /usr/lib/systemd/system/*.service 2>/dev/null); do
  st=$(systemctl is-enabled "${f##*/}" 2>/dev/null) || true
  hits "${st:-unknown}" "$f"
done
s tmpfiles; hits active /etc/tmpfiles.d/*.conf /run/tmpfiles.d/*.conf /usr/lib/tmpfiles.d/*.conf
s rc.local
if [ -x /etc/rc.local ]; then hits active /etc/rc.local; else hits not-executable /etc/rc.local; fi
s sysfs; hits active /etc/sysfs.conf /etc/sysfs.d/*.conf
s tuned
# tuned_profiles DEPTH NAME...: each profile's THP lines after those of the profiles it includes (tuned applies an
# include first, so the profile's own line wins, and the last line read is the one that counts); a name is found
# where tuned looks first; includes 5 deep at most, names that are not profile names skipped
tuned_profiles() {
  # shellcheck disable=SC3043 # dash, busybox ash and bash have local: the recursion needs its own variables
  local depth p d inc
  depth=$1; shift
  for p in "$@"; do
    case "$p" in '' | *[!A-Za-z0-9._-]*) continue ;; esac
    for d in /etc/tuned/profiles /etc/tuned /usr/lib/tuned/profiles /usr/lib/tuned; do
      [ -f "$d/$p/tuned.conf" ] || continue
      if [ "$depth" -lt 5 ]; then
        inc=$(sed -n 's/^[[:space:]]*include[[:space:]]*=//p' "$d/$p/tuned.conf" | head -n 1 | tr ',' ' ')
        set -f
        # shellcheck disable=SC2086 # one word per included profile, globbing off
        tuned_profiles $((depth + 1)) $inc
        set +f
      fi
      hits "${st:-unknown}" "$d/$p/tuned.conf"
      break
    done
  done
}
if [ -r /etc/tuned/active_profile ]; then
  st=$(systemctl is-enabled tuned 2>/dev/null) || true
  set -f
  # shellcheck disable=SC2046 # one word per active profile, globbing off
  tuned_profiles 0 $(head -c 512 /etc/tuned/active_profile)
  set +f
fi
s overcommit; cat /proc/sys/vm/overcommit_memory 2>/dev/null
s somaxconn; cat /proc/sys/net/core/somaxconn 2>/dev/null
s redis.pid
if [ -n "$redis_pid" ]; then
  echo "info $redis_pid"
else
  redis_pid=$(pidof redis-server 2>/dev/null) || true
  echo "pidof $redis_pid"
  case "$redis_pid" in *" "*) redis_pid= ;; esac
fi
s smaps
if [ -n "$redis_pid" ]; then
  f=/proc/$redis_pid/smaps_rollup
  [ -e "$f" ] || f=/proc/$redis_pid/smaps
  if out=$(awk '/^AnonHugePages:/ { kb += $2; n++ } END { if (n) print kb; else print "none" }' "$f" 2>&1); then
    echo "kb $out"
  else
    echo "error $out"
  fi
fi
s end
exit 0
