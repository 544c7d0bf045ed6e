# shellcheck shell=sh
# fleetfix: listening=N, the sockets listening on Redis's port at its address or a wildcard one (SnapshotReader).
# Sockets of other addresses are other instances (several per host, or containers sharing the network). The caller
# prepends, quoted: ip (empty when Redis's address is a name: every listener on the port counts) and port.
: "${ip:=}" "${port:=}"
echo "listening=$(ss -ltnH 2>/dev/null | awk -v a="$ip" -v p="$port" '{ l = $4; sub(/%[^:]*/, "", l); n = split(l, x, ":"); if (x[n] != p) next;
  h = substr(l, 1, length(l) - length(p) - 1); gsub(/^\[|\]$/, "", h);
  if (a == "" || h == a || h == "0.0.0.0" || h == "*" || h == "::" || h == "::ffff:" a) c++ }
  END { print c + 0 }')"
