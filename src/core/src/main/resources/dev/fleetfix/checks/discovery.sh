# shellcheck shell=sh
# fleetfix: what runs the Redis on each port, as key=value lines that ServiceDiscovery reads. Read-only, run as root.
# The caller prepends, quoted: fx_conf (the config file INFO names, or empty), fx_ports (the ports, in order), and
# what Redis says of itself for the port fx_info_port: fx_info_pid (INFO's process_id) and fx_info_exe (its
# executable), or empty; fx_addr, the address Redis listens on (an IP, else empty). Each listener on a port is printed
# with its address ("listen=ADDR:PORT PID..."), so that ServiceDiscovery keeps only those at the host's own address; its
# processes are detailed below.
: "${fx_conf:=}" "${fx_ports:=}" "${fx_info_port:=}" "${fx_info_pid:=}" "${fx_info_exe:=}" "${fx_addr:=}"
fx_to() { if command -v timeout >/dev/null 2>&1; then timeout 10 "$@"; else "$@"; fi; }
fx_p() { tr -cd '[:print:]' | head -c 1024; }
# what the runtime says of a container, each value quoted by Go's %q (a newline in a label cannot start a line)
# shellcheck disable=SC2016 # a Go template: its $k and $v are not the shell's
fx_tpl='name={{printf "%q" .Name}}
restart={{printf "%q" .HostConfig.RestartPolicy.Name}}
{{range $k, $v := .Config.Labels}}label={{printf "%q=%q" $k $v}}
{{end}}{{range .Mounts}}mount={{printf "%q %q %q" .Type .Destination .Source}}
{{end}}'
# A container's runtime and id in a cgroup file ("docker ID" or "libpod ID"): the last /docker/ID, docker-ID.scope,
# libpod-ID.scope or libpod-payload-ID of the first line (of 32) that names one. fx_ctr for a file; the detail
# program below for each process.
# shellcheck disable=SC2016 # an awk function
fx_awk_ctr='
function container(f,   line, c, s, m, hex, found) {
  found = ""; c = 0
  while (found == "" && c < 32 && (getline line < f) > 0) {
    c++; s = substr(line, 1, 4096)
    while (match(s, /(docker|libpod)(-payload)?[-\/][0-9a-f]+/)) {
      m = substr(s, RSTART, RLENGTH)
      hex = m; sub(/^(docker|libpod)(-payload)?[-\/]/, "", hex)
      if (length(hex) >= 64) found = (m ~ /^docker/ ? "docker" : "libpod") " " substr(hex, 1, 64)
      s = substr(s, RSTART + 1)
    }
  }
  close(f)
  return found
}'
fx_ctr() { LC_ALL=C awk -v f="$1" "$fx_awk_ctr"' BEGIN { print container(f) }' 2>/dev/null; }
# One process's details, for fx_port: its command line's arguments on stdin (one a line), its pid (-v), executable
# and pid namespace (fx_exe and fx_ns in the environment); its name, cgroups, container (the last
# "docker|libpod[-payload]-ID" of the first cgroup line naming one: fx_awk_ctr), systemd unit (the last "*.service" of
# its cgroup paths) and up to 16 parents (each with its name; a conmon's unit; the first supervisord) read from
# /proc. Printable characters only, each value cut.
# shellcheck disable=SC2016 # an awk program: its $0 is awk's
fx_awk_detail=$fx_awk_ctr'
function clean(s, n) { gsub(/[^[:print:]]/, "", s); return substr(s, 1, n) }
function firstline(f,   s) { s = ""; if ((getline s < f) <= 0) s = ""; close(f); return s }
function service(f, most,   line, c, n, k, parts, u) {
  u = ""; c = 0
  while (c < most && (getline line < f) > 0) {
    c++
    if (!sub(/^[^:]*:[^:]*:/, "", line)) continue
    n = split(line, parts, "/")
    for (k = 1; k <= n; k++) if (parts[k] ~ /\.service$/) u = parts[k]
  }
  close(f)
  return u
}
{ if (NR <= 32 && $0 != "") args[++na] = clean($0, 1024) }
END {
  print "pid.comm=" clean(firstline("/proc/" pid "/comm"), 64)
  print "pid.exe=" clean(ENVIRON["fx_exe"], 1024)
  print "pid.pidns=" clean(ENVIRON["fx_ns"], 1024)
  for (k = 1; k <= na; k++) print "pid.arg=" args[k]
  f = "/proc/" pid "/cgroup"; c = 0
  while (c < 32 && (getline line < f) > 0) { c++; print "pid.cgroup=" clean(line, 4096) }
  close(f)
  ctr = container(f)
  unit = substr(service(f, 32), 1, 256)
  if (unit ~ /[^A-Za-z0-9:_.@-]/ || unit ~ /^-/) unit = ""
  p = pid; sv = ""
  for (k = 0; k < 16; k++) {
    pp = ""; f = "/proc/" p "/status"
    while ((getline line < f) > 0) if (line ~ /^PPid:/) { split(line, w, /[ \t]+/); pp = w[2]; break }
    close(f)
    if (pp == "" || pp == "0" || pp ~ /[^0-9]/) break
    p = pp
    c = clean(firstline("/proc/" p "/comm"), 64)
    print "parent=" p " " c
    if (c == "conmon") print "conmon.unit=" clean(service("/proc/" p "/cgroup", 1000000), 1024)
    if (c == "supervisord" && sv == "") sv = p
  }
  split(ctr, r, " ")
  print "fx.meta=" (unit == "" ? "-" : unit) " " (sv == "" ? "-" : sv) " " (ctr == "" ? "- -" : r[1] " " r[2])
}'
fx_self_ctr=$(fx_ctr /proc/$$/cgroup)
echo "self.container=${fx_self_ctr#* }"
echo "self.pidns=$(readlink /proc/$$/ns/pid 2>/dev/null | fx_p)"
fx_pid1=$(head -c 64 /proc/1/comm 2>/dev/null | fx_p)
echo "pid1=$fx_pid1"
echo "info.config=$fx_conf"
case "$fx_info_pid" in '' | *[!0-9]*) fx_info_pid= ;; esac
fx_has_systemctl=0; command -v systemctl >/dev/null 2>&1 && fx_has_systemctl=1
# "INODE PID" for each process that holds one of the listening sockets INODES, without walking every process (ss -p
# reads every descriptor of every process, which on a busy host costs more than all the rest). The likely holders
# first, one listing of their descriptors each: INFO's process; then, for a socket it does not hold, the processes
# named as a Redis, a Valkey or a KeyDB (every process's name read once per run); then, for a socket none of them
# holds (a proxy, a renamed server), every process's descriptors, in at most fx_walk seconds.
fx_walk=5
fx_named=''; fx_named_read=0
fx_fds() { # WANT PIDS: "INODE PID" for the sockets of WANT (" I1 I2 ") among the descriptors of PIDS
  for q in $2; do echo "pid $q"; LC_ALL=C ls -l "/proc/$q/fd" 2>/dev/null; done | awk -v want="$1" '
    $1 == "pid" && NF == 2 { p = $2; next }
    $NF ~ /^socket:\[[0-9]+\]$/ { i = substr($NF, 9, length($NF) - 9); if (index(want, " " i " ")) print i, p }'
}
fx_unclaimed() { for i in $1; do printf '%s\n' "$2" | grep -q "^$i " || echo "$i"; done; }
fx_holders() {
  [ -n "$1" ] || return 0
  want=" $(printf '%s\n' "$1" | tr '\n' ' ')"
  found=$(fx_fds "$want" "$fx_info_pid")
  rest=$(fx_unclaimed "$1" "$found")
  if [ -n "$rest" ]; then
    if [ "$fx_named_read" = 0 ]; then
      fx_named=$(grep -l -E '^(redis|valkey|keydb)' /proc/[0-9]*/comm 2>/dev/null | cut -d/ -f3 | grep -E '^[0-9]+$' | head -n 64)
      fx_named_read=1
    fi
    found=$(printf '%s\n%s\n' "$found" "$(fx_fds "$want" "$fx_named")" | grep . | sort -u | head -n 16)
    rest=$(fx_unclaimed "$1" "$found")
  fi
  [ -n "$found" ] && printf '%s\n' "$found"
  [ -n "$rest" ] || return 0
  set --
  for i in $rest; do
    [ $# -gt 0 ] && set -- "$@" -o
    set -- "$@" -lname "socket:\[$i\]"
  done
  if command -v timeout >/dev/null 2>&1; then set -- timeout "$fx_walk" find /proc/[0-9]*/fd -maxdepth 1 \( "$@" \); else set -- find /proc/[0-9]*/fd -maxdepth 1 \( "$@" \); fi
  "$@" 2>/dev/null | head -n 16 | while IFS= read -r f; do
    i=$(readlink "$f" 2>/dev/null | tr -cd 0-9)
    [ -n "$i" ] && echo "$i $(echo "$f" | cut -d/ -f3)"
  done
}
fx_port() {
  port=$1; echo "port=$port"
  pids=''; searched=0
  if command -v ss >/dev/null 2>&1; then
    # the kernel filters by port; the address (with its scope, %lo) is printed as it is, and -e names each socket's
    # inode, from which fx_holders finds the processes. Those at fx_addr or a wildcard come first, before the bounds,
    # marked "at": where hosts share one network namespace (containers, lab hosts), other addresses' sockets can
    # outnumber them.
    socks=$(fx_to ss -ltneH "sport = :$port" 2>/dev/null | head -n 4096 | awk -v p="$port" -v a="$fx_addr" '
      { l = $4; n = split(l, x, ":"); if (x[n] != p) next
        i = "-"; for (k = 5; k <= NF; k++) if ($k ~ /^ino:[0-9]+$/) i = substr($k, 5)
        h = substr(l, 1, length(l) - length(p) - 1); sub(/%.*$/, "", h); gsub(/[][]/, "", h)
        if (a == "" || h == a || h == "::ffff:" a || h == "*" || h == "0.0.0.0" || h == "::") { print l, i, "at" }
        else if (o < 4096) rest[++o] = l " " i }
      END { for (k = 1; k <= o; k++) print rest[k] }' | head -n 64)
    # only the processes of the sockets at the address, when some are: every other process detailed below costs the
    # host dozens of short processes (500 lab hosts sharing one namespace made each audit's script run 16 of them)
    inodes=$(printf '%s\n' "$socks" | awk '
      NF >= 2 && $2 != "-" && !seen[$2]++ { if ($3 == "at") at[++na] = $2; else rest[++nr] = $2 }
      $3 == "at" { marked = 1 }
      END { if (marked) for (k = 1; k <= na; k++) print at[k]; else for (k = 1; k <= nr; k++) print rest[k] }' \
      | head -n 16)
    # every socket searched named its inode: the search below is the whole search
    if [ -n "$inodes" ] && printf '%s\n' "$socks" | awk '$3 == "at" { m = 1 } { s[NR] = $3; i[NR] = $2 }
      END { for (k = 1; k <= NR; k++) if ((!m || s[k] == "at") && i[k] == "-") exit 1 }'; then searched=1; fi
    holders=$(fx_holders "$inodes")
    printf '%s\n' "$socks" | awk -v h="$(printf '%s\n' "$holders" | awk 'NF == 2 { printf "%s:%s ", $1, $2 }')" '
      BEGIN { n = split(h, a, " "); for (k = 1; k <= n; k++) { split(a[k], w, ":"); m[w[1]] = m[w[1]] " " w[2] } }
      NF >= 2 { c++; print "listen=" $1 m[$2] }
      END { print "sockets=" c + 0 }' | tr -cd '[:print:]\n'
    pids=$(printf '%s\n' "$holders" | awk 'NF == 2 { print $2 }' | sort -un | head -n 16)
  fi
  if [ -z "$pids" ] && [ "$searched" = 0 ]; then
    # no ss, or no inode from it: the listening sockets' addresses and inodes, then the processes that hold them
    hp=$(printf '%04X' "$port")
    inodes=$(cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk -v hp="$hp" '
      $4 == "0A" { n = split($2, a, ":"); if (a[n] == hp && $10 ~ /^[0-9]+$/) print "proc.listen=" $2 " " $10 }' \
      | sort -u | head -n 16)
    printf '%s\n' "$inodes" | grep '^proc.listen='
    echo "proc.sockets=$(printf '%s\n' "$inodes" | grep -c '^proc.listen=')"
    holders=$(fx_holders "$(printf '%s\n' "$inodes" | sed -n 's/^proc.listen=[^ ]* //p')")
    printf '%s\n' "$holders" | awk 'NF == 2 { print "proc.inode=" $1 " " $2 }'
    pids=$(printf '%s\n' "$holders" | awk 'NF == 2 { print $2 }' | sort -un | head -n 16)
  fi
  # what Redis says of itself: its process, detailed as well (where root cannot map a socket to its process)
  if [ "$port" = "$fx_info_port" ] && [ -n "$fx_info_pid" ]; then
    echo "info.pid=$fx_info_pid"
    echo "info.exe=$fx_info_exe"
    if ! printf '%s\n' "$pids" | tr ' ' '\n' | grep -qx "$fx_info_pid"; then pids="$pids $fx_info_pid"; fi
  fi
  for pid in $pids; do
    case "$pid" in ''|*[!0-9]*) continue;; esac
    echo "pid=$pid"
    # what /proc says of the process and of its parents, read by one awk (a process each line cost the host dozens
    # of short processes a Redis): its lines, then "fx.meta=UNIT SUPERVISORD RUNTIME ID" ("-" when none) last
    d=$(head -c 2048 "/proc/$pid/cmdline" 2>/dev/null | tr '\000' '\n' | fx_exe="$(readlink "/proc/$pid/exe" 2>/dev/null)" \
      fx_ns="$(readlink "/proc/$pid/ns/pid" 2>/dev/null)" LC_ALL=C awk -v pid="$pid" "$fx_awk_detail")
    case "$d" in
      *fx.meta=*) printf '%s' "${d%fx.meta=*}"; meta=${d##*fx.meta=} ;;
      *) printf '%s\n' "$d"; meta='- - - -' ;;
    esac
    read -r unit sv rt id <<EOF
$meta
EOF
    [ "$unit" = - ] && unit=''
    [ "$sv" = - ] && sv=''
    ctr=''; [ "$rt" != - ] && [ -n "$id" ] && ctr="$rt $id"
    if [ -n "$ctr" ] && [ "$ctr" != "$fx_self_ctr" ]; then
      # another container than the one this shell runs in (if any): ask its runtime, as root
      cli=docker; [ "${ctr% *}" = libpod ] && cli=podman
      echo "ctr.runtime=$cli"
      echo "ctr.id=${ctr#* }"
      if ! command -v "$cli" >/dev/null 2>&1; then
        echo "ctr.error=no $cli command on this host"
      elif ctr_out=$(fx_to "$cli" inspect --type container --format "$fx_tpl" "${ctr#* }" 2>&1); then
        printf '%s\n' "$ctr_out" | head -n 96 | cut -c 1-1024 | tr -cd '[:print:]\n' | grep -E '^(name|restart|label|mount)=' | sed 's/^/ctr./'
      else
        echo "ctr.error=$cli inspect failed: $(printf '%s' "$ctr_out" | head -n 2 | fx_p)"
      fi
    fi
    if [ -n "$unit" ] && [ "$fx_has_systemctl" = 1 ]; then
      echo "unit=$unit"
      fx_to systemctl show -p Id -p SourcePath -p FragmentPath -p MainPID -p ExecStart -- "$unit" 2>/dev/null \
        | LC_ALL=C awk 'NR <= 8 { gsub(/[^[:print:]]/, ""); print "unit." substr($0, 1, 1024) }'
    fi
    if [ -n "$sv" ]; then
      conf=$(head -c 4096 "/proc/$sv/cmdline" 2>/dev/null | tr '\000' '\n' | awk 'f { print; exit } $0 == "-c" || $0 == "--configuration" { f = 1 } /^--configuration=/ { sub(/^--configuration=/, ""); print; exit }' | fx_p)
      echo "supervisord=$sv"
      echo "supervisord.conf=$conf"
      if command -v supervisorctl >/dev/null 2>&1; then
        if [ -n "$conf" ]; then fx_to supervisorctl -c "$conf" status 2>&1; else fx_to supervisorctl status 2>&1; fi | head -n 200 | cut -c 1-512 | tr -cd '[:print:]\n' | sed 's/^/supervisor.status=/'
      fi
    fi
    if [ "$fx_pid1" != systemd ] || [ -z "$unit" ]; then
      # the pid files that name the process: one awk reads them all (two processes a file cost dozens where /run
      # holds many), the digits of each file's first line against the pid
      set --
      for f in /run/*.pid /run/*/*.pid /var/run/*.pid /var/run/*/*.pid; do [ -f "$f" ] && set -- "$@" "$f"; done
      # (getline, so that a file gone since the glob is skipped, where mawk would stop at it)
      [ $# -gt 0 ] && LC_ALL=C awk -v pid="$pid" 'BEGIN { for (k = 1; k < ARGC; k++) { v = ""
        if ((getline v < ARGV[k]) > 0) { v = substr(v, 1, 32); gsub(/[^0-9]/, "", v); if (v == pid) print ARGV[k] }
        close(ARGV[k]) } }' "$@" 2>/dev/null | head -n 8 | while IFS= read -r f; do
        echo "pidfile=$(printf '%s' "$f" | fx_p)"
        b=${f##*/}
        grep -l -F -e "$b" /etc/init.d/* /etc/rc.d/init.d/* 2>/dev/null | head -n 8 | sed 's/^/initd.pidfile=/'
      done
      cf=$fx_conf
      [ -z "$cf" ] && cf=$(head -c 2048 "/proc/$pid/cmdline" 2>/dev/null | tr '\000' '\n' | grep '^/.*\.conf$' | head -n 1)
      if [ -n "$cf" ]; then
        grep -l -F -e "$cf" /etc/init.d/* /etc/rc.d/init.d/* 2>/dev/null | head -n 8 | sed 's/^/initd.config=/'
      fi
    fi
  done
}
for fx_one in $fx_ports; do
  case "$fx_one" in '' | *[!0-9]*) continue ;; esac
  fx_port "$fx_one"
done
echo end=1
