# shellcheck shell=sh
# fleetfix: prints the host's pending-restart record, bounded; exits 44 when there is none (PendingRestart). The caller
# prepends, quoted: record (its path) and max_bytes.
: "${record:=}" "${max_bytes:=4096}"
[ -e "$record" ] || exit 44
head -c "$max_bytes" "$record"
