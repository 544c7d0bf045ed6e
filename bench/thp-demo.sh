#!/usr/bin/env bash
# What Transparent Huge Pages do to Redis under fork, on this machine's real kernel (issue 5, item 5).
#
# Starts a local redis-server with `disable-thp no` (Redis >= 6.2 otherwise opts its own process out
# of THP), loads ~1 GB, runs fleetfix's fork-under-load profile (SETs over random keys while BGSAVE
# forks again and again) with the kernel's THP at `always`, then at `never` after a Redis restart,
# prints both tails side by side, and puts the kernel's setting back whatever happens. It does this
# ROUNDS times, alternating always/never, so that a machine whose load drifts during the demo
# (other work on shared cores) weighs on both sides alike; the verdict needs the medians of the
# rounds to differ by more than their spread.
#
# Needs root (it writes /sys/kernel/mm/transparent_hugepage/enabled), redis-server, redis-cli, java.
# Environment: PORT (6395), KEYS (1000000), VALUE_SIZE (1000 bytes), ROUNDS (2), SECONDS_PER_RUN (25),
# WARMUP (3), CONNECTIONS (50), INTERVAL_MS (1500).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
thp=/sys/kernel/mm/transparent_hugepage/enabled
port="${PORT:-6395}"
keys="${KEYS:-1000000}"
value_size="${VALUE_SIZE:-1000}"
rounds="${ROUNDS:-2}"
seconds="${SECONDS_PER_RUN:-25}"
warmup="${WARMUP:-3}"
connections="${CONNECTIONS:-50}"
interval_ms="${INTERVAL_MS:-1500}"
prefix="fleetfix:bench:"

die() { echo "thp-demo: $*" >&2; exit 2; }

[[ $EUID -eq 0 ]] || die "run as root: it writes $thp"
[[ -w $thp ]] || die "$thp is missing or read-only (a container without its own kernel?)"
for tool in redis-server redis-cli java; do
  command -v "$tool" >/dev/null || die "$tool is not installed"
done
if redis-cli -h 127.0.0.1 -p "$port" ping >/dev/null 2>&1; then
  die "something already answers on 127.0.0.1:$port; set PORT to a free port"
fi

original="$(sed -n 's/.*\[\([a-z+]*\)\].*/\1/p' "$thp")"
work="$(mktemp -d)"
pidfile=""

cleanup() {
  if [[ -n $pidfile && -f $pidfile ]]; then
    redis-cli -h 127.0.0.1 -p "$port" shutdown nosave >/dev/null 2>&1 || kill "$(cat "$pidfile")" 2>/dev/null || true
  fi
  echo "$original" >"$thp"
  echo "kernel THP restored: $(cat "$thp")"
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

jar="$root/src/cli/target/fleetfix.jar"
"$root/fleetfix" --version >/dev/null # the launcher builds the jar when it is missing or stale

rcli() { redis-cli -h 127.0.0.1 -p "$port" "$@"; }

wait_for_save() {
  while rcli info persistence | grep -q '^rdb_bgsave_in_progress:1'; do sleep 0.1; done
}

run_with() {
  local mode=$1 round=$2 dir="$work/$1-$2"
  mkdir -p "$dir"
  echo "$mode" >"$thp"
  echo "== round $round, THP $(cat "$thp")"
  pidfile="$dir/redis.pid"
  redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$dir" \
    --rdbcompression no --disable-thp no --enable-debug-command local \
    --daemonize yes --pidfile "$pidfile" --logfile "$dir/redis.log"
  until rcli ping >/dev/null 2>&1; do sleep 0.1; done
  rcli bgsave >/dev/null # an empty save proves dir writable, so the profile needs no probe of 1 GB
  wait_for_save
  local start=$SECONDS
  # the dataset is the benchmark's own: its keys are the ones the profile's SETs overwrite at random
  rcli debug populate "$keys" "${prefix}str" "$value_size" >/dev/null
  echo "  redis $(rcli info server | sed -n 's/^redis_version:\(.*\)\r$/\1/p'), pid $(cat "$pidfile"):" \
    "$keys keys loaded in $((SECONDS - start)) s," \
    "used_memory $(rcli info memory | sed -n 's/^used_memory_human:\(.*\)\r$/\1/p')," \
    "AnonHugePages $(awk '/AnonHugePages/ {print $2 " kB"}' "/proc/$(cat "$pidfile")/smaps_rollup")"
  java ${FLEETFIX_JAVA_OPTS:-} -cp "$jar" dev.fleetfix.cli.Main thp-demo run --port "$port" --label "$mode" \
    --seconds "$seconds" --warmup "$warmup" --connections "$connections" --keyspace "$keys" \
    --value-size "$value_size" --interval-ms "$interval_ms" --out "$work/$mode-$round.result"
  rcli shutdown nosave >/dev/null 2>&1 || true
  while [[ -f $pidfile ]] && kill -0 "$(cat "$pidfile")" 2>/dev/null; do sleep 0.1; done
  pidfile=""
}

echo "thp-demo: kernel $(uname -r), $(nproc) cores (shared with whatever else runs here:" \
  "load average $(cut -d' ' -f1-3 /proc/loadavg)), THP was [$original], defrag $(cat /sys/kernel/mm/transparent_hugepage/defrag)"
echo "fork-under-load: $connections connections SET ${value_size}-byte values over $keys random keys," \
  "BGSAVE every ${interval_ms} ms after the previous one ends, ${warmup} s warm-up, ${seconds} s measured," \
  "$rounds rounds alternating always/never, Redis restarted and reloaded for each"
always_results=()
never_results=()
for round in $(seq 1 "$rounds"); do
  run_with always "$round"
  always_results+=("$work/always-$round.result")
  run_with never "$round"
  never_results+=("$work/never-$round.result")
done
echo
join() { local IFS=,; echo "$*"; }
java -cp "$jar" dev.fleetfix.cli.Main thp-demo compare "$(join "${always_results[@]}")" "$(join "${never_results[@]}")"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
