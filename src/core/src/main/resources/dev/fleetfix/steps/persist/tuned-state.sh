# shellcheck shell=sh
# fleetfix: tuned's state (TunedThp reads it), nothing when tuned is not installed. The caller prepends, quoted:
# active_profile, the file that names tuned's active profile.
: "${active_profile:=}"
[ -d /etc/tuned ] || command -v tuned >/dev/null 2>&1 || exit 0
echo installed
echo "enabled=$(systemctl is-enabled tuned.service 2>/dev/null)"
echo "active=$(systemctl is-active tuned.service 2>/dev/null)"
command -v tuned-adm >/dev/null 2>&1 && echo adm=yes
printf 'profile='; head -c 512 "$active_profile" 2>/dev/null | head -n 1; echo
