# shellcheck shell=sh
# fleetfix: journals a hand-over in the host's pending-restart record before it is made (PendingRestart), in place of
# any journalled before. The caller prepends, quoted: record (its path) and line (the handover= line).
: "${record:=}" "${line:=}"
grep -v '^handover=' "$record" > "$record.tmp" 2>/dev/null
printf '%s\n' "$line" >> "$record.tmp" && mv -f "$record.tmp" "$record"
