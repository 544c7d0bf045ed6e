# shellcheck shell=sh
# fleetfix: check mode (ServiceRestart): exits 0 when supervisord knows the program, else non-zero saying why; changes
# nothing. The caller prepends, quoted: program, and conf (empty when supervisord runs without -c).
: "${program:=}" "${conf:=}"
set -- status "$program"
[ -z "$conf" ] || set -- -c "$conf" "$@"
out=$(supervisorctl "$@" 2>&1)
case "$out" in *RUNNING*|*STOPPED*|*EXITED*|*FATAL*|*BACKOFF*|*STARTING*) exit 0;; esac
printf '%s\n' "$out" | head -c 1024 >&2; exit 1
