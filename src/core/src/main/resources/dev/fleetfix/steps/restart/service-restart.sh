# shellcheck shell=sh
# fleetfix: restarts a Redis service on the init system the host runs (ServiceRestart): systemd when it is PID 1 and
# systemctl exists, else the SysV script, else the service command. The caller prepends, quoted: service, its name.
: "${service:=}"
sysv="/etc/init.d/$service"
if [ "$(cat /proc/1/comm 2>/dev/null)" = systemd ] && command -v systemctl >/dev/null 2>&1; then
  systemctl restart "$service"
elif [ -x "$sysv" ]; then
  "$sysv" restart
elif command -v service >/dev/null 2>&1; then
  service "$service" restart
else
  echo "no systemd, no $sysv and no service command: cannot restart $service" >&2
  exit 1
fi
