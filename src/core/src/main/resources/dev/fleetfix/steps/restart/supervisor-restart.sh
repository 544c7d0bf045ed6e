# shellcheck shell=sh
# fleetfix: restarts supervisord's program (ServiceRestart); an answer that names an error fails it, since
# supervisorctl before 4.0 exits 0 whatever happened. The caller prepends, quoted: program, and conf (supervisord's
# config file, empty when it runs without -c).
: "${program:=}" "${conf:=}"
set -- restart "$program"
[ -z "$conf" ] || set -- -c "$conf" "$@"
out=$(supervisorctl "$@" 2>&1); rc=$?
printf '%s\n' "$out" | head -c 4096
case "$out" in *ERROR*|*'no such'*|*refused*) exit 1;; esac
exit $rc
