# shellcheck shell=sh
# fleetfix: removes the host's pending-restart record once every Redis of the machine started after it (the other
# instances of a machine share it); else prints why it was kept (PendingRestart). The caller prepends, quoted: record,
# its path.
: "${record:=}"
[ -e "$record" ] || exit 0
since=$(sed -n 's/^since=//p' "$record" | head -n 1)
now=$(date +%s)
for e in $(ps -C redis-server,valkey-server -o etimes= 2>/dev/null); do
  [ "$((now - e))" -gt "${since:-0}" ] 2>/dev/null || {
    echo "a Redis of this machine started $e s ago, before the change"
    exit 0
  }
done
rm -f "$record"
