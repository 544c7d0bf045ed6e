# shellcheck shell=sh
# fleetfix: writes the host's pending-restart record (PendingRestart): since= now, then the reason= and run= lines,
# keeping a journalled handover= line. The caller prepends, quoted: record (its path), dir (its directory), reason and
# run (each one line, with its key), and unless_pending (yes: leave a record that is there, its older since covers
# this Redis too).
: "${record:=}" "${dir:=}" "${reason:=}" "${run:=}" "${unless_pending:=}"
if [ "$unless_pending" = yes ] && [ -e "$record" ]; then
  exit 0
fi
mkdir -p "$dir" && chmod 0700 "$dir" && {
  printf 'since=%s\n' "$(date +%s)"
  printf '%s\n' "$reason" "$run"
  { grep '^handover=' "$record" 2>/dev/null || true; }
} > "$record.tmp" && mv -f "$record.tmp" "$record"
