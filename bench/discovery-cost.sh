#!/usr/bin/env bash
# What the service-discovery script costs on a busy host, the old way against the new one, in one run. The old
# script found a listener's processes with `ss -ltnp`, which reads every descriptor of every process of the host
# whatever the filter; the new one asks ss for the socket's inode (-e) and reads the descriptors of the likely
# holders only. Runs in a throwaway Docker container (as root, or as a user who may run docker):
#
#   bench/discovery-cost.sh                         # 3000 extra sleeping processes, 15 rounds
#   PROCS=6000 ROUNDS=30 bench/discovery-cost.sh
#   OLD_REF=<commit> bench/discovery-cost.sh        # the old script from another commit (default: d5a650a)
#   IMAGE=<image> bench/discovery-cost.sh           # default: the newest fleetfix-lab image (redis-server, ss)
#
# In the container: a redis-server on 127.0.0.1:6379 and one on 127.0.0.2:6380, PROCS sleeping processes with ten
# open descriptors each (a daemon's usual few), then per round, alternating, each script (as ServiceDiscovery sends
# it) timed on its own, in two cases: "info", the audit's (the host's port 6379 with INFO's pid), and "named" (the
# port 6380, which INFO did not describe). Prints the median and quartiles of each, the ratios old / new, and
# whether both scripts named the same processes for every listener.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PROCS="${PROCS:-3000}"
ROUNDS="${ROUNDS:-15}"
OLD_REF="${OLD_REF:-d5a650a}"
script_path=src/core/src/main/resources/dev/fleetfix/checks/discovery.sh

log() { echo "bench: $*" >&2; }
die() { echo "bench: error: $*" >&2; exit 1; }
[[ "$PROCS" =~ ^[0-9]+$ ]] || die "PROCS must be a number, not '$PROCS'"
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive integer, not '$ROUNDS'"
command -v docker >/dev/null || die "docker is needed"
IMAGE="${IMAGE:-$(docker images --format '{{.Repository}}:{{.Tag}}' 'fleetfix-lab' | head -n 1)}"
[[ -n "$IMAGE" ]] || die "no fleetfix-lab image: build the lab (fleetfix lab up) or name an IMAGE with redis-server and ss"

work="$(mktemp -d -t fleetfix-discovery.XXXXXX)"
trap 'rm -rf "$work"' EXIT
git -C "$repo" show "$OLD_REF:$script_path" >"$work/old.sh" || die "no $script_path at $OLD_REF"
cp "$repo/$script_path" "$work/new.sh"

cat >"$work/inside.sh" <<'EOF_INSIDE'
set -eu
procs=$1 rounds=$2
redis-server --bind 127.0.0.1 --port 6379 --daemonize yes --save '' --logfile /tmp/r1.log
redis-server --bind 127.0.0.2 --port 6380 --daemonize yes --save '' --logfile /tmp/r2.log
i=0
while [ "$i" -lt "$procs" ]; do
  sleep 100000 3</dev/null 4</dev/null 5</dev/null 6</dev/null 7</dev/null 8</dev/null 9</dev/null &
  i=$((i + 1))
done
sleep 1
pid=$(redis-cli -p 6379 info server | sed -n 's/^process_id:\([0-9]*\).*/\1/p')
echo "processes: $(ls -d /proc/[0-9]* | wc -l)"
# info: the audit's case (the host's port, INFO's pid); named: a port INFO did not describe
for s in old new; do
  { echo "fx_conf='' fx_ports=6379 fx_info_port=6379 fx_info_pid=$pid fx_info_exe=/usr/bin/redis-server"
    cat "/bench/$s.sh"; } >"/tmp/$s-info.sh"
  { echo "fx_conf='' fx_ports=6380 fx_info_port='' fx_info_pid='' fx_info_exe=''"; cat "/bench/$s.sh"; } >"/tmp/$s-named.sh"
  for c in info named; do
    sh "/tmp/$s-$c.sh" | grep -E '^(port|listen|proc\.inode|pid)=' | sed 's/ *$//' >"/tmp/$s-$c.who"
  done
done
for c in info named; do
  if cmp -s "/tmp/old-$c.who" "/tmp/new-$c.who"; then echo "$c: the same processes found: yes"; else
    echo "$c: the same processes found: NO"; diff "/tmp/old-$c.who" "/tmp/new-$c.who" | head -n 20; fi
done
r=0
while [ "$r" -lt "$rounds" ]; do
  for c in info named; do
    for s in old new; do
      a=$(date +%s%N); sh "/tmp/$s-$c.sh" >/dev/null; b=$(date +%s%N)
      echo "time $s-$c $(((b - a) / 1000))"
    done
  done
  r=$((r + 1))
done
EOF_INSIDE

log "image $IMAGE, $PROCS extra processes, $ROUNDS rounds, old script from $OLD_REF"
docker run --rm --network none -v "$work:/bench:ro" --entrypoint sh "$IMAGE" /bench/inside.sh "$PROCS" "$ROUNDS" \
  >"$work/out.txt"
grep -v '^time ' "$work/out.txt"
python3 - "$work/out.txt" <<'PY'
import statistics, sys
t = {k: [] for k in ("old-info", "new-info", "old-named", "new-named")}
for line in open(sys.argv[1]):
    w = line.split()
    if w and w[0] == "time":
        t[w[1]].append(int(w[2]) / 1000)
def q(v):
    v = sorted(v); n = len(v)
    return v[n // 4], statistics.median(v), v[(3 * n) // 4]
for c in ("info", "named"):
    for k in ("old", "new"):
        lo, med, hi = q(t[f"{k}-{c}"])
        print(f"{c:5} {k}: median {med:7.1f} ms (quartiles {lo:.1f}-{hi:.1f}), {len(t[f'{k}-{c}'])} runs")
    print(f"{c:5} old / new: {statistics.median(t[f'old-{c}']) / statistics.median(t[f'new-{c}']):.1f}x")
PY
