#!/usr/bin/env bash
# The lab calibration of the before/after verdict (issue 43, item 3), with the shipped design (the benchmark step's
# defaults: 4 rounds of 3 s a side, 8 batches), in one run. Run as root on a Debian machine of the lab's kind (the
# lab needs Docker), on a quiet machine:
#
#   bench/verdict-sensitivity.sh                                   # 3 hosts: 102 A/A, 30 quota, 30 tail comparisons
#   HOSTS=1 AA_REPEATS=1 EFFECT_REPEATS=1 bench/verdict-sensitivity.sh                      # a smoke run, 3 comparisons
#
# Starts a lab fleet of HOSTS hosts (private lab home, removed on exit) and runs, one host at a time (--forks 1, so
# no two benchmarks share this machine's CPU), each case as one `fleetfix apply` over every host:
#   A/A    benchmark before, `sleep 1`, benchmark after: nothing changes (AA_REPEATS applies; HOSTS × AA_REPEATS pairs)
#   quota  benchmark before, `systemctl set-property --runtime redis-server CPUQuota=10%`, benchmark after, lifted
#   tail   benchmark before, then a second client on the host runs a Lua busy loop of TAIL_BLOCK_US microseconds
#          (EVAL with TIME, no DEBUG needed) every TAIL_PERIOD seconds, benchmark after, loop stopped. The period
#          must put a block in every 300 ms window (the batches' medians of windows see only what most windows see),
#          and block / period must stay well under 1 % so that p99 and the median are not moved: 1.5 ms every 0.3 s
#          holds Redis 0.5 % of the time
# (quota and tail EFFECT_REPEATS applies each). Prints the table of issue 43: A/A false calls (improved or regressed)
# with their one-sided 95 % Clopper–Pearson bound, A/A no change detected, quota called regressed, tail called
# regressed on p99.9 (and on it with the median no change detected), with each comparison's rps, p50, p99 and p99.9;
# writes the same to target/bench/. The designs before batches cannot run any more (fleetfix refuses 3 rounds, and
# their rule is gone): BatchDesignSimulationTest compares them with the shipped one on simulated windows.
#
# Time: about 32 s a comparison (two sides of 13 s, the warm-up, the playbook's own steps), so the defaults take
# about 90 minutes; the smoke run about 3 minutes after the lab is up.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
HOSTS="${HOSTS:-3}"
AA_REPEATS="${AA_REPEATS:-34}"
EFFECT_REPEATS="${EFFECT_REPEATS:-10}"
TAIL_BLOCK_US="${TAIL_BLOCK_US:-1500}"
TAIL_PERIOD="${TAIL_PERIOD:-0.3}"
REDIS_PORT="${REDIS_PORT:-6379}"

log() { echo "bench: $*" >&2; }
die() { echo "bench: error: $*" >&2; exit 1; }
for v in HOSTS AA_REPEATS EFFECT_REPEATS TAIL_BLOCK_US REDIS_PORT; do
  [[ "${!v}" =~ ^[1-9][0-9]*$ ]] || die "$v must be a positive integer, not '${!v}'"
done
[[ "$TAIL_PERIOD" =~ ^[0-9]*\.?[0-9]+$ ]] || die "TAIL_PERIOD must be seconds like 0.3, not '$TAIL_PERIOD'"

bash "$repo/src/lab/src/lab/prepare.sh"
command -v python3 >/dev/null || die "python3 is needed for the table"
fleetfix="$repo/fleetfix"
"$fleetfix" --version >&2 || die "building fleetfix failed"

work="$(mktemp -d -t fleetfix-sensitivity.XXXXXX)"
home="$work/lab"
inv=""
cleanup() {
  if [[ -n "$inv" ]]; then
    "$fleetfix" apply "$work/undo.yaml" -i "$inv" --no-color >/dev/null 2>&1 || log "undoing the cases failed"
  fi
  if [[ -d "$home" ]]; then "$fleetfix" lab down --home "$home" >&2 || log "lab down --home $home failed"; fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log "starting a lab fleet of $HOSTS hosts"
"$fleetfix" lab up --hosts "$HOSTS" --home "$home" >&2 || die "lab up --hosts $HOSTS failed"
inv="$("$fleetfix" lab inventory --home "$home")"

pidfile=/run/fleetfix-bench-tail.pid
lift="command: {cmd: \"systemctl set-property --runtime redis-server CPUQuota=\", changed_when: false}"
stop_tail="command: {cmd: \"if [ -f $pidfile ]; then kill -- -\$(cat $pidfile) || true; rm -f $pidfile; fi\", changed_when: false}"
# the Lua loop reads TIME until TAIL_BLOCK_US have passed; no quotes inside, so it sits in sh -c '...' as is
lua="local a=redis.call(ARGV[1]) local s=a[1]*1000000+a[2] repeat local b=redis.call(ARGV[1]) until b[1]*1000000+b[2]-s>=tonumber(ARGV[2])"
start_tail="setsid sh -c 'while :; do redis-cli -p $REDIS_PORT EVAL \"$lua\" 0 TIME $TAIL_BLOCK_US >/dev/null 2>&1; sleep $TAIL_PERIOD; done' >/dev/null 2>&1 </dev/null & echo \$! >$pidfile"

cat >"$work/undo.yaml" <<EOF
- name: undo the cases (bench)
  hosts: all
  steps:
    - $lift
    - $stop_tail
EOF
playbook() { # $1: the step between the two sides
  cat <<EOF
- name: verdict calibration (bench)
  hosts: all
  steps:
    - name: benchmark before
      benchmark: {name: s, phase: before, profile: plain}
    - $1
    - name: benchmark after
      benchmark: {name: s, phase: after, profile: plain}
    - $lift
    - $stop_tail
EOF
}
playbook "command: {cmd: sleep 1, changed_when: false}" >"$work/aa.yaml"
playbook "command: {cmd: \"systemctl set-property --runtime redis-server CPUQuota=10%\", changed_when: false}" \
  >"$work/quota.yaml"
# a block scalar: the loop's quotes and $ reach the host's shell as written
playbook "command:
        changed_when: false
        cmd: >-
          $start_tail" >"$work/tail.yaml"

: >"$work/cases.txt"
read -r l1 l5 l15 _ </proc/loadavg
load_start="$l1/$l5/$l15"
run_case() { # $1: case name, $2: repeat
  local out="$work/report-$1-$2"
  "$fleetfix" apply "$work/$1.yaml" -i "$inv" --forks 1 --no-color --report "$out" >"$work/apply.out" 2>&1 \
    || { cat "$work/apply.out" >&2; die "fleetfix apply ($1, repeat $2) failed"; }
  echo "$1 $2 $out/report.json" >>"$work/cases.txt"
  log "$1 $2: done"
}
for ((r = 1; r <= AA_REPEATS; r++)); do run_case aa "$r"; done
for ((r = 1; r <= EFFECT_REPEATS; r++)); do
  run_case quota "$r"
  run_case tail "$r"
done
read -r l1 l5 l15 _ </proc/loadavg
load_end="$l1/$l5/$l15"

mkdir -p "$repo/target/bench"
report="$repo/target/bench/verdict-calibration-$(date -u +%Y%m%dT%H%M%SZ).txt"
python3 - "$work/cases.txt" "$load_start" "$load_end" "$(nproc)" "$TAIL_BLOCK_US" "$TAIL_PERIOD" <<'EOF' | tee "$report"
import json, sys
cases, load_start, load_end, cores, block, period = sys.argv[1:7]

def upper95(x, n):
    """One-sided 95 % Clopper-Pearson upper limit: the p at which P(X <= x) = 0.05, by bisection."""
    if x >= n:
        return 1.0
    from math import comb
    cdf = lambda p: sum(comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(x + 1))
    lo, hi = 0.0, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if cdf(mid) > 0.05 else (lo, mid)
    return hi

def pct(x):
    return "–" if x is None else f"{(x - 1) * 100:+.0f} %".replace("-", "−")

def figure(m):
    if m is None:
        return "–"
    word = m["verdict"] if m.get("decisive") else "not decisive"
    return f"{pct(m.get('ratio'))} [{pct(m.get('low'))}, {pct(m.get('high'))}] {word}"

print(f"before/after verdict on the lab, shipped design (4 rounds of 3 s a side, 8 batches), one host at a time;"
      f" {cores} cores; load average (1/5/15 min) at start {load_start}, at end {load_end};"
      f" tail: a {block} us Lua loop every {period} s")
print()
print(f"{'case':<6} {'host':<8} {'verdict':<19} {'rps':<38} {'p50':<38} {'p99':<38} p99.9")
rows = []
for line in open(cases):
    case, r, path = line.split()
    for c in json.load(open(path))["benchmarks"]["comparisons"]:
        by = {m["metric"]: m for m in c["metrics"]}
        rows.append((case, c, by))
        print(f"{case:<6} {c['host']:<8} {c['verdict']:<19} {figure(by.get('rps')):<38} {figure(by.get('p50')):<38}"
              f" {figure(by.get('p99')):<38} {figure(by.get('p99.9'))}")
print()
aa = [c for case, c, _ in rows if case == "aa"]
false = sum(c["verdict"] in ("improved", "regressed") for c in aa)
same = sum(c["verdict"] == "no_change_detected" for c in aa)
quota = [c for case, c, _ in rows if case == "quota"]
tail = [by for case, _, by in rows if case == "tail"]
tail_called = sum(by.get("p99.9", {}).get("verdict") == "regressed" for by in tail)
tail_median = sum(by.get("p99.9", {}).get("verdict") == "regressed"
                  and by.get("p50", {}).get("verdict") == "no_change_detected" for by in tail)
if aa:
    print(f"A/A false calls: {false} of {len(aa)} (95 % bound {100 * upper95(false, len(aa)):.2f} %; target ≤ 1 %)")
    print(f"A/A no change detected: {same} of {len(aa)} ({100 * same / len(aa):.0f} %; target ≥ 70 %)")
if quota:
    print(f"10 % CPU quota called regressed: {sum(c['verdict'] == 'regressed' for c in quota)} of {len(quota)}"
          f" (target: all)")
if tail:
    print(f"tail called regressed on p99.9: {tail_called} of {len(tail)}; with the median no change detected:"
          f" {tail_median} of {len(tail)}")
EOF
