# shellcheck shell=sh
# fleetfix: the facts the steps decide on (ShellFacts reads the key=value lines). The caller prepends, quoted:
# thp_dirs, the kernel's THP directories in the order they are tried.
: "${thp_dirs:=}"
# shellcheck disable=SC2086 # one word per directory
for d in $thp_dirs; do
  if [ -d "$d" ]; then echo "thp.path=$d"; echo "thp.enabled=$(cat "$d/enabled" 2>/dev/null)";
    echo "thp.defrag=$(cat "$d/defrag" 2>/dev/null)"; break; fi
done
# PID 1 and systemctl, not only /run/systemd/system: a container may carry the directory from its image while
# something else runs as PID 1
pid1=$(cat /proc/1/comm 2>/dev/null); echo "init.pid1=$pid1"
if [ "$pid1" = systemd ] && command -v systemctl >/dev/null 2>&1; then echo init=systemd;
elif [ -d /etc/init.d ]; then echo init=sysv; else echo init=other; fi
# shellcheck disable=SC1091 # the host's own file, read where it runs
( . /etc/os-release 2>/dev/null; echo "os.id=$ID"; echo "os.id_like=$ID_LIKE"; echo "os.version_id=$VERSION_ID" )
echo "kernel=$(uname -r)"
for t in update-grub grub2-mkconfig grubby; do
  if command -v $t >/dev/null 2>&1; then echo "grub.tool=$t"; break; fi
done
true
