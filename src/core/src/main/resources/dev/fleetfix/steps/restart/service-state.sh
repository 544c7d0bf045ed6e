# shellcheck shell=sh
# fleetfix: prints the service's state in systemd's words (active, inactive, failed), or nothing when it cannot be
# told (ServiceRestart): systemd's ActiveState, else the SysV script's status by the LSB exit codes (0 running, 1 and 2
# dead with a pid or lock file left, 3 not running; 4 or anything else unknown). The caller prepends, quoted: service.
: "${service:=}"
sysv="/etc/init.d/$service"
pid1="$(cat /proc/1/comm 2>/dev/null)"
if [ "$pid1" = systemd ] && command -v systemctl >/dev/null 2>&1; then
  systemctl show -p ActiveState --value "$service" 2>/dev/null
elif [ -x "$sysv" ]; then
  "$sysv" status >/dev/null 2>&1
  case $? in 0) echo active ;; 1 | 2) echo failed ;; 3) echo inactive ;; esac
fi
