#!/usr/bin/env bash
# What a fleetfix rolling restart adds per host over Redis's own restart time. Run as root on a Debian 12 machine
# of the lab's kind:
#
#   bench/restart-overhead.sh                       # 10 hosts, 3 rounds
#   HOSTS=5 ROUNDS=2 bench/restart-overhead.sh
#
# Starts a lab fleet of HOSTS hosts (private lab home, removed on exit), then per round, alternating:
#   redis      on each host in turn, over one ssh per host, timed on the host itself: from `systemctl restart` of
#              the host's Redis unit until PING answers PONG and INFO says loading:0 (polled every 10 ms);
#   fleetfix   ./fleetfix apply of a playbook with serial 1 and only restart_redis (always: true) and wait_healthy
#              (gates ping and loading_done, poll 100 ms), over all hosts: the whole process is timed, JVM start,
#              SSH connects and the per-host batches included.
# Per-host overhead = fleetfix's time / HOSTS - the median Redis restart. Target: <= 10 % or <= 0.5 s per host
# beyond Redis's restart and the gate's poll interval. Prints the figures and the load average; writes them to
# target/bench/.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
HOSTS="${HOSTS:-10}"
ROUNDS="${ROUNDS:-3}"
POLL_MS=100

log() { echo "bench: $*" >&2; }
die() { echo "bench: error: $*" >&2; exit 1; }
[[ "$HOSTS" =~ ^[1-9][0-9]*$ ]] || die "HOSTS must be a positive integer, not '$HOSTS'"
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive integer, not '$ROUNDS'"

bash "$repo/src/lab/src/lab/prepare.sh"
if ! command -v python3 >/dev/null; then
  apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 >&2
fi
fleetfix="$repo/fleetfix"
"$fleetfix" --version >&2 || die "building fleetfix failed"

work="$(mktemp -d -t fleetfix-restart.XXXXXX)"
home="$work/lab"
cleanup() {
  if [[ -d "$home" ]]; then "$fleetfix" lab down --home "$home" >&2 || log "lab down --home $home failed"; fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log "starting a lab fleet of $HOSTS hosts"
"$fleetfix" lab up --hosts "$HOSTS" --home "$home" >&2 || die "lab up --hosts $HOSTS failed"
inv="$("$fleetfix" lab inventory --home "$home")"
lab="$(dirname "$inv")"
# name address ssh-port redis-port, from the lab's inventory (one host per block of keys)
awk '
  /^        lab-[0-9]+:/ { name = $1; sub(":", "", name) }
  /ansible_host:/ { addr = $2 }
  /ansible_port:/ { port = $2 }
  /redis_port:/ { print name, addr, port, $2 }
' "$inv" >"$work/hosts.txt"
(($(wc -l <"$work/hosts.txt") == HOSTS)) || die "could not read $HOSTS hosts from $inv"
user="$(awk '/ansible_user:/ { print $2; exit }' "$inv")"

cat >"$work/restart.yaml" <<EOF
- name: rolling restart only (bench)
  hosts: all
  serial: 1
  max_fail_percentage: 0
  steps:
    - restart_redis: {always: true}
    - wait_healthy: {timeout: 60s, poll: ${POLL_MS}ms, gates: [ping, loading_done]}
EOF

now() { date +%s.%N; }
redis_round() { # one restart per host, in turn; prints milliseconds per host
  local name addr port rport ms
  while read -r name addr port rport; do
    ms="$(ssh -n -i "$lab/id_ed25519" -p "$port" -l "$user" -o BatchMode=yes -o StrictHostKeyChecking=yes \
      -o UserKnownHostsFile="$lab/known_hosts" "$addr" "sudo -n sh -c '
        s=\$(date +%s%N); systemctl restart redis-server || exit 1
        i=0
        until [ \"\$(redis-cli -h $addr -p $rport ping 2>/dev/null)\" = PONG ] \
          && redis-cli -h $addr -p $rport info persistence 2>/dev/null | grep -q \"^loading:0\"; do
          i=\$((i + 1)); [ \$i -lt 6000 ] || exit 1; sleep 0.01
        done
        echo \$(( (\$(date +%s%N) - s) / 1000000 ))'")" || die "restarting Redis on $name over ssh failed"
    echo "$ms" >>"$work/redis-ms.txt"
  done <"$work/hosts.txt"
}
fleetfix_round() { # the whole fleet, then the first host alone (the fixed cost: JVM start, planning, one connect)
  local t0 t1 rc=0 limit
  for limit in all lab-1; do
    t0="$(now)"
    "$fleetfix" apply "$work/restart.yaml" -i "$inv" --limit "$limit" --no-color >"$work/apply.out" 2>&1 || rc=$?
    t1="$(now)"
    if ((rc != 0)); then cat "$work/apply.out" >&2; die "fleetfix apply --limit $limit failed (exit $rc)"; fi
    python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.3f}')" "$t0" "$t1" \
      >>"$work/fleetfix-$limit.txt"
  done
}

: >"$work/redis-ms.txt"
: >"$work/fleetfix-all.txt"
: >"$work/fleetfix-lab-1.txt"
read -r l1 l5 l15 _ </proc/loadavg
load_start="$l1/$l5/$l15"
for ((round = 1; round <= ROUNDS; round++)); do
  if ((round % 2)); then redis_round; fleetfix_round; else fleetfix_round; redis_round; fi
  log "round $round/$ROUNDS: fleetfix $(tail -n 1 "$work/fleetfix-all.txt") s for $HOSTS hosts, $(tail -n 1 "$work/fleetfix-lab-1.txt") s for one"
done
read -r l1 l5 l15 _ </proc/loadavg
load_end="$l1/$l5/$l15"

mkdir -p "$repo/target/bench"
report="$repo/target/bench/restart-overhead-$(date -u +%Y%m%dT%H%M%SZ).txt"
python3 - "$work/redis-ms.txt" "$work/fleetfix-all.txt" "$work/fleetfix-lab-1.txt" "$HOSTS" "$ROUNDS" "$POLL_MS" "$load_start" "$load_end" \
  "$(nproc)" <<'EOF' | tee "$report"
import statistics, sys
redis_file, ff_file, one_file, hosts, rounds, poll_ms, load_start, load_end, cores = sys.argv[1:10]
hosts, poll = int(hosts), int(poll_ms) / 1000
redis = [int(x) / 1000 for x in open(redis_file).read().split()]
ff = [float(x) for x in open(ff_file).read().split()]
one = [float(x) for x in open(one_file).read().split()]
r, f, f1 = statistics.median(redis), statistics.median(ff), statistics.median(one)
per_host = f / hosts
over = per_host - r
marginal = (f - f1) / (hosts - 1) if hosts > 1 else float("nan")
print(f"rolling restart overhead, {hosts} lab hosts, serial 1, {rounds} rounds alternating; {cores} cores,")
print(f"load average (1/5/15 min) at start {load_start}, at end {load_end}")
print()
print(f"Redis restart (systemctl restart -> PONG and loading:0, on the host): median {r:.3f} s,"
      f" min-max {min(redis):.3f}-{max(redis):.3f} s over {len(redis)} restarts")
print(f"fleetfix apply restart_redis + wait_healthy, whole process: median {f:.2f} s,"
      f" min-max {min(ff):.2f}-{max(ff):.2f} s for {hosts} hosts = {per_host:.3f} s per host")
print(f"fleetfix apply on one host (--limit lab-1): median {f1:.2f} s, min-max {min(one):.2f}-{max(one):.2f} s"
      f" (JVM start, planning, one connect, one restart)")
print()
print(f"each further host costs {marginal:.3f} s = Redis's restart + {marginal - r:.3f} s"
      f" ({(marginal - r) / r * 100:.0f} % of it), of which up to {poll:.1f} s is the gate's poll interval")
print(f"amortised over {hosts} hosts (JVM start and connects spread over them): {per_host:.3f} s per host ="
      f" Redis's restart + {over:.3f} s")
beyond = marginal - r - poll
ok = beyond <= 0.5 or beyond <= 0.1 * r
print(f"{'met   ' if ok else 'MISSED'} per-host overhead beyond Redis's restart and the poll interval:"
      f" {beyond:.3f} s <= 0.5 s (or <= 10 %)")
EOF
log "written to $report"
