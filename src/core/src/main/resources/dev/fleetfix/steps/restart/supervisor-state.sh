# shellcheck shell=sh
# fleetfix: supervisord's program state in systemd's words (ServiceRestart). The caller prepends, quoted: program, and
# conf (empty when supervisord runs without -c).
: "${program:=}" "${conf:=}"
set -- status "$program"
[ -z "$conf" ] || set -- -c "$conf" "$@"
supervisorctl "$@" 2>/dev/null | head -n 1 |
  awk '{ s = $2 } END { if (s == "RUNNING" || s == "STARTING") print "active"; else if (s == "STOPPED" || s == "EXITED") print "inactive"; else if (s == "FATAL" || s == "BACKOFF") print "failed" }'
