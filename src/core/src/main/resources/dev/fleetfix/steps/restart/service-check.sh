# shellcheck shell=sh
# fleetfix: check mode (ServiceRestart): exits 0 when the restart could restart the service here (systemd knows the
# unit, or its SysV script is there), else non-zero saying why; changes nothing. The caller prepends, quoted: service.
: "${service:=}"
sysv="/etc/init.d/$service"
pid1="$(cat /proc/1/comm 2>/dev/null)"
if [ "$pid1" = systemd ] && command -v systemctl >/dev/null 2>&1; then
  systemctl cat -- "$service" >/dev/null
elif [ -x "$sysv" ]; then
  true
else
  echo "no systemd as PID 1 and no executable $sysv" >&2
  exit 1
fi
