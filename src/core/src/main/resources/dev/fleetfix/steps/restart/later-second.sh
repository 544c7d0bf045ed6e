# shellcheck shell=sh
# fleetfix: before a restart, waits, when the host's pending-restart record was written in this second, for the next
# one (ServiceRestart): the record's time is whole seconds. The caller prepends, quoted: record, the record's path.
: "${record:=}"
since=$(sed -n 's/^since=//p' "$record" 2>/dev/null | head -n 1)
case "$since" in
  '' | *[!0-9]*) ;;
  *)
    n=0
    while [ "$(date +%s)" -le "$since" ] && [ $n -lt 25 ]; do
      sleep 0.1 2>/dev/null || sleep 1
      n=$((n + 1))
    done
    ;;
esac
