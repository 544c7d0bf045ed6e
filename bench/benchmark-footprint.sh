#!/bin/sh
# What one benchmark key adds to used_memory: SET of random keys under a run prefix at several value
# sizes, INCR counters, and LPUSH entries, on a throw-away redis-server on a Unix socket (no TCP).
# The figures behind bench/Footprint's per-key arithmetic; see bench/results/benchmark-footprint.txt.
set -eu
dir=$(mktemp -d)
trap 'redis-cli -s "$dir/r.sock" shutdown nosave >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
redis-server --port 0 --unixsocket "$dir/r.sock" --save '' --appendonly no --daemonize yes \
    --pidfile "$dir/r.pid" --dir "$dir" --maxmemory 2gb --maxmemory-policy noeviction >/dev/null
cli() { redis-cli -s "$dir/r.sock" "$@"; }
until cli ping >/dev/null 2>&1; do sleep 0.1; done
used() { cli info memory | sed -n 's/^used_memory:\([0-9]*\).*/\1/p'; }
prefix=fleetfix:bench:r3f9a1c07
echo "$(redis-server --version)"
echo "what            keys    bytes/key (or /push)"
for d in 3 64 512 2048 8192; do
    cli flushall >/dev/null; before=$(used)
    redis-benchmark -s "$dir/r.sock" -n 400000 -r 100000 -P 16 -q SET "$prefix:str:__rand_int__" \
        "$(head -c "$d" /dev/zero | tr '\0' x)" >/dev/null
    keys=$(cli dbsize); echo "SET -d $d $(printf '%10s' "$keys") $(( ($(used) - before) / keys ))"
done
cli flushall >/dev/null; before=$(used)
redis-benchmark -s "$dir/r.sock" -n 400000 -r 100000 -P 16 -q INCR "$prefix:ctr:__rand_int__" >/dev/null
keys=$(cli dbsize); echo "INCR     $(printf '%10s' "$keys") $(( ($(used) - before) / keys ))"
cli flushall >/dev/null; before=$(used)
redis-benchmark -s "$dir/r.sock" -n 200000 -r 1000 -P 16 -q LPUSH "$prefix:list:__rand_int__" \
    "$(head -c 64 /dev/zero | tr '\0' x)" >/dev/null
keys=$(cli dbsize); echo "LPUSH -d 64 $(printf '%6s' "$keys") $(( ($(used) - before) / 200000 )) per push"
