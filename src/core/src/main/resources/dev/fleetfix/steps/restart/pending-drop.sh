# shellcheck shell=sh
# fleetfix: removes the hand-over from the host's pending-restart record, keeping what else it says (PendingRestart).
# The caller prepends, quoted: record, its path.
: "${record:=}"
[ -e "$record" ] || exit 0
grep -v '^handover=' "$record" > "$record.tmp"
[ $? -le 1 ] && mv -f "$record.tmp" "$record"
