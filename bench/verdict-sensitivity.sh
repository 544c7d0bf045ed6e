#!/usr/bin/env bash
# How mild a real regression the before/after verdict still calls, beside an A/A pair in the same run. Run as root
# on a Debian machine of the lab's kind (the lab needs Docker):
#
#   bench/verdict-sensitivity.sh                         # quotas 80 50 30 20 10 %, 7 rounds a side, 2 repeats
#   QUOTAS="50 30" ROUNDS=9 REPEATS=1 bench/verdict-sensitivity.sh
#
# Fewer than 7 rounds a side cannot call a change, and fleetfix refuses the playbook (docs/benchmarks-and-verdicts.md,
# the design check).
#
# Starts a one-host lab fleet (private lab home, removed on exit). For each repeat and each case, in turn:
#   none   an A/A pair: benchmark before, `sleep 1`, benchmark after (nothing changes; the anchor: no change detected)
#   Q %    benchmark before, then `systemctl set-property --runtime redis-server CPUQuota=Q%`, benchmark after,
#          then the quota is lifted again
# Each case is one `fleetfix apply` (builtin engine, plain profile, ROUNDS rounds of 1.2 s a side, no control host,
# so the verdict needs a change of at least 20 %). Prints a table: case, verdict, and rps and p99 as
# "before → after change [95 % interval]" from report.json, with the load average it ran under; writes the same to
# target/bench/.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
QUOTAS="${QUOTAS:-80 50 30 20 10}"
ROUNDS="${ROUNDS:-7}"
REPEATS="${REPEATS:-2}"

log() { echo "bench: $*" >&2; }
die() { echo "bench: error: $*" >&2; exit 1; }
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive integer, not '$ROUNDS'"
[[ "$REPEATS" =~ ^[1-9][0-9]*$ ]] || die "REPEATS must be a positive integer, not '$REPEATS'"
for q in $QUOTAS; do
  [[ "$q" =~ ^[1-9][0-9]?$ ]] || die "each of QUOTAS must be a percentage from 1 to 99, not '$q'"
done

bash "$repo/src/lab/src/lab/prepare.sh"
command -v python3 >/dev/null || die "python3 is needed for the table"
fleetfix="$repo/fleetfix"
"$fleetfix" --version >&2 || die "building fleetfix failed"

work="$(mktemp -d -t fleetfix-sensitivity.XXXXXX)"
home="$work/lab"
inv=""
cleanup() {
  if [[ -n "$inv" ]]; then
    "$fleetfix" apply "$work/lift.yaml" -i "$inv" --no-color >/dev/null 2>&1 || log "lifting the CPU quota failed"
  fi
  if [[ -d "$home" ]]; then "$fleetfix" lab down --home "$home" >&2 || log "lab down --home $home failed"; fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log "starting a one-host lab fleet"
"$fleetfix" lab up --hosts 1 --home "$home" >&2 || die "lab up --hosts 1 failed"
inv="$("$fleetfix" lab inventory --home "$home")"

bench="profile: plain, duration: 1200ms, warmup: 200ms, rounds: $ROUNDS, connections: 4, keyspace: 20000, value_size: 32"
cat >"$work/lift.yaml" <<EOF
- name: lift the CPU quota (bench)
  hosts: all
  steps:
    - command: {cmd: "systemctl set-property --runtime redis-server CPUQuota=", changed_when: false}
EOF
playbook() { # $1: the step between the two sides
  cat <<EOF
- name: verdict sensitivity (bench)
  hosts: all
  steps:
    - name: benchmark before
      benchmark: {name: s, phase: before, $bench}
    - $1
    - name: benchmark after
      benchmark: {name: s, phase: after, $bench}
    - command: {cmd: "systemctl set-property --runtime redis-server CPUQuota=", changed_when: false}
EOF
}

: >"$work/cases.txt"
read -r l1 l5 l15 _ </proc/loadavg
load_start="$l1/$l5/$l15"
for ((r = 1; r <= REPEATS; r++)); do
  for q in none $QUOTAS; do
    if [[ "$q" == none ]]; then
      playbook "command: {cmd: sleep 1, changed_when: false}" >"$work/case.yaml"
    else
      playbook "command: \"systemctl set-property --runtime redis-server CPUQuota=$q%\"" >"$work/case.yaml"
    fi
    out="$work/report-$r-$q"
    "$fleetfix" apply "$work/case.yaml" -i "$inv" --no-color --report "$out" >"$work/apply.out" 2>&1 \
      || { cat "$work/apply.out" >&2; die "fleetfix apply (case $q) failed"; }
    echo "$r $q $out/report.json" >>"$work/cases.txt"
    log "repeat $r/$REPEATS, CPUQuota $q: done"
  done
done
read -r l1 l5 l15 _ </proc/loadavg
load_end="$l1/$l5/$l15"

mkdir -p "$repo/target/bench"
report="$repo/target/bench/verdict-sensitivity-$(date -u +%Y%m%dT%H%M%SZ).txt"
python3 - "$work/cases.txt" "$ROUNDS" "$load_start" "$load_end" "$(nproc)" <<'EOF' | tee "$report"
import json, sys
cases, rounds, load_start, load_end, cores = sys.argv[1:6]

def pct(x):
    return f"{(x - 1) * 100:+.0f} %".replace("-", "−")

def figure(m):
    if m is None:
        return "–"
    digits = 0 if m["metric"] == "rps" else 2
    return (f"{m['before_sample_median']:,.{digits}f} → {m['after_sample_median']:,.{digits}f} {pct(m['ratio'])}"
            f" [{pct(m['low'])}, {pct(m['high'])}]")

print(f"before/after verdict against a CPU quota on the lab host's Redis, {rounds} rounds of 1.2 s a side,"
      f" no control host; {cores} cores,")
print(f"load average (1/5/15 min) at start {load_start}, at end {load_end}")
print()
print(f"{'repeat':<7} {'CPUQuota':<9} {'verdict':<13} {'rps':<44} p99 ms")
called = {}
for line in open(cases):
    r, q, path = line.split()
    c = json.load(open(path))["benchmarks"]["comparisons"][0]
    by = {m["metric"]: m for m in c["metrics"]}
    case = "none" if q == "none" else q + " %"
    called.setdefault(case, []).append(c["verdict"])
    print(f"{r:<7} {case:<9} {c['verdict']:<13} {figure(by.get('rps')):<44} {figure(by.get('p99'))}")
print()
for case, verdicts in called.items():
    want = "no_change_detected" if case == "none" else "regressed"
    hits = sum(v == want for v in verdicts)
    print(f"{case:<9} {want}: {hits} of {len(verdicts)}")
EOF
