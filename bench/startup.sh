#!/usr/bin/env bash
# Start-up cost of short commands: `fleetfix --version` and `fleetfix inventory --list -i inventory.example.yaml`,
# user+sys CPU and wall of the whole process (launcher and JVM), ROUNDS rounds. With BASELINE naming another
# build's launcher, both run in each round in alternating order, so load on a shared machine hits both alike:
#
#   bench/startup.sh
#   BASELINE=/other/checkout/fleetfix ROUNDS=5 bench/startup.sh
#
# Prints min and median per build and command; writes the same to target/bench/.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROUNDS="${ROUNDS:-5}"
BASELINE="${BASELINE:-}"
die() { echo "bench: error: $*" >&2; exit 1; }
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive integer, not '$ROUNDS'"
[[ -x /usr/bin/time ]] || die "/usr/bin/time is needed (apt-get install time)"

builds=("this=$repo/fleetfix")
[[ -n "$BASELINE" ]] && builds+=("baseline=$BASELINE")
work="$(mktemp -d -t fleetfix-startup.XXXXXX)"
trap 'rm -rf "$work"' EXIT
for b in "${builds[@]}"; do "${b#*=}" --version >/dev/null || die "${b#*=} does not run"; done # builds, archives

commands=("--version" "inventory --list -i $repo/inventory.example.yaml")
: >"$work/runs.tsv"
for ((round = 1; round <= ROUNDS; round++)); do
  for ((k = 0; k < ${#builds[@]}; k++)); do
    b="${builds[$(((k + round) % ${#builds[@]}))]}"
    for c in "${commands[@]}"; do
      # shellcheck disable=SC2086 # the command's words
      /usr/bin/time -f '%e %U %S' -o "$work/t" "${b#*=}" $c >/dev/null
      read -r wall user sys <"$work/t"
      printf '%s\t%s\t%s\t%s\n' "${b%%=*}" "${c%% -i *}" "$wall" "$(python3 -c "print(round($user + $sys, 2))")" >>"$work/runs.tsv"
    done
  done
done
mkdir -p "$repo/target/bench"
report="$repo/target/bench/startup-$(date -u +%Y%m%dT%H%M%SZ).txt"
python3 - "$work/runs.tsv" "$ROUNDS" "$(nproc)" "$(java -version 2>&1 | head -n 1)" "$(cut -d' ' -f1-3 /proc/loadavg)" <<'PY' | tee "$report"
import statistics, sys
from collections import defaultdict
runs, rounds, cores, java, load = sys.argv[1:6]
wall, cpu = defaultdict(list), defaultdict(list)
for line in open(runs):
    build, command, w, c = line.rstrip("\n").split("\t")
    wall[(build, command)].append(float(w))
    cpu[(build, command)].append(float(c))
print(f"fleetfix start-up, {rounds} rounds, builds alternating; {cores} cores, {java}; load at end {load}")
print(f"{'build':<10}{'command':<18}{'CPU min':>9}{'CPU median':>12}{'wall min':>10}{'wall median':>13}")
for key in wall:
    print(f"{key[0]:<10}{key[1]:<18}{min(cpu[key]):>9.2f}{statistics.median(cpu[key]):>12.2f}"
          f"{min(wall[key]):>10.2f}{statistics.median(wall[key]):>13.2f}")
PY
echo "bench: written to $report" >&2
