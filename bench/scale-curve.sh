#!/usr/bin/env bash
# The control node's cost of an audit, from 20 to 500 hosts: fleetfix at several --forks, ansible-playbook doing
# the same work (default settings, and with ControlPersist off), and N parallel OpenSSH clients (the floor).
# Runs on the scale lab (fleetfix lab up --preset scale): sshd-only hosts, so the hosts' logins are as cheap as
# they get and the control node's own cost shows. Run as root (the lab needs Docker) on a Debian machine:
#
#   bench/scale-curve.sh                                   # N = 20 100 250 500, one round
#   N_LIST="20 100" FORKS="10 50" ROUNDS=3 bench/scale-curve.sh
#   FLEETFIX=/other/checkout/fleetfix N_LIST=500 bench/scale-curve.sh   # another build's launcher
#   BASELINE=/before/checkout/fleetfix N_LIST=500 FORKS=100 bench/scale-curve.sh   # a before/after in one lab
#
# Every tool does the same work per host: one SSH login, the audit's facts script with sudo, Redis INFO server.
#   fleetfix-fF       fleetfix audit -i INV --forks F (whole process: JVM start included; asks Redis from here)
#   baseline-fF       the same with BASELINE's launcher (another build), beside it on the same lab, when set
#   ansible-fK        ansible-playbook --forks K: a `script` task (the facts script, become) and a `raw` task
#                     (redis-cli info server; raw, not command: the lab hosts have no Python, and raw is cheaper).
#                     Default SSH settings: ControlMaster auto, ControlPersist 60 s, in a fresh ControlPath dir
#   ansible-fK-again  the same, right after it, with the same ControlPath dir: a repeat run within a minute,
#                     reusing the master connections the first one left (what an operator gets)
#   ansible-fK-nocp   ControlMaster and ControlPersist off: every task logs in anew
#   ssh-xN            N ssh processes at once, each `sudo sh -s < facts.sh; redis-cli info server` (the floor)
# ansible-playbook runs only when installed (Debian: apt-get install ansible); otherwise its rows say so.
#
# Each run is measured by bench/proctree.py: wall time, CPU (user+sys of the whole process tree, as
# /usr/bin/time -v), peak summed RSS, threads, open files and processes of the tree, sampled from /proc.
# Prints a table and writes it, a TSV and an SVG chart to target/bench/.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
N_LIST="${N_LIST:-20 100 250 500}"
FORKS="${FORKS:-10 50 100}"
ANSIBLE_FORKS="${ANSIBLE_FORKS:-50}"
ANSIBLE_MAX_N="${ANSIBLE_MAX_N:-100000}" # ansible-playbook runs only up to this N (it takes minutes at 500)
ROUNDS="${ROUNDS:-1}"

log() { echo "bench: $*" >&2; }
die() { echo "bench: error: $*" >&2; exit 1; }
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive integer, not '$ROUNDS'"
for n in $N_LIST $FORKS $ANSIBLE_FORKS $ANSIBLE_MAX_N; do [[ "$n" =~ ^[1-9][0-9]*$ ]] || die "'$n' is not a positive integer"; done
command -v python3 >/dev/null || die "python3 is needed (apt-get install python3)"
command -v ssh >/dev/null || die "ssh is needed (apt-get install openssh-client)"
if command -v ansible-playbook >/dev/null; then
  ansible_version="$(ansible-playbook --version 2>/dev/null | sed -n 1p)"
else
  ansible_version="ansible-playbook not installed (Debian: apt-get install ansible)"
  log "$ansible_version: its rows will say 'not installed'"
fi

fleetfix="${FLEETFIX:-$repo/fleetfix}" # FLEETFIX=/other/checkout/fleetfix measures another build
"$fleetfix" --version >&2 || die "building fleetfix failed"
baseline="${BASELINE:-}"
[[ -z "$baseline" ]] || "$baseline" --version >&2 || die "BASELINE: $baseline --version failed"
measure="$repo/bench/proctree.py"
facts="$repo/src/core/src/main/resources/dev/fleetfix/checks/facts.sh"

work="$(mktemp -d -t fleetfix-scale.XXXXXX)"
lab_home="$work/labs"
cleanup() {
  if [[ -d "$lab_home" ]] && "$fleetfix" lab status --home "$lab_home" 2>/dev/null | grep -q '^lab '; then
    "$fleetfix" lab down --home "$lab_home" >&2 || log "lab down --home $lab_home failed; remove it by hand"
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

results="$work/runs.tsv" # tool n round wall user sys maxrss tree_rss procs threads fds
: >"$results"
loads="$work/loads.tsv"
: >"$loads"
record_load() { read -r l1 l5 l15 _ </proc/loadavg; printf '%s\t%s\t%s/%s/%s\n' "$1" "$2" "$l1" "$l5" "$l15" >>"$loads"; }

# measure LABEL N ROUND CHECK -- COMMAND...: runs COMMAND under proctree.py; CHECK (a function) validates the output
measure() {
  local label="$1" n="$2" round="$3" check="$4" rc=0
  shift 5
  "$measure" "$work/m.json" -- "$@" >"$work/out" 2>&1 || rc=$?
  ((rc == 0)) || { cat "$work/out" >&2; die "$label: the measuring wrapper failed"; }
  local ok=ok
  if ! "$check" "$n" "$work/out" "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["exit"])' "$work/m.json")"; then
    # kept, marked: on a loaded machine a host may miss its connect timeout; the table flags the row, and the whole
    # output is kept beside the table, since why the hosts were missed is in its lines
    tail -n 5 "$work/out" >&2
    mkdir -p "$repo/target/bench"
    cp "$work/out" "$repo/target/bench/scale-curve-$label-n$n-round$round-failed.txt"
    log "$label at N=$n did not reach every host: its row is marked FAILED; its output:" \
      "target/bench/scale-curve-$label-n$n-round$round-failed.txt"
    ok=FAILED
  fi
  python3 - "$work/m.json" "$label" "$n" "$round" "$ok" >>"$results" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
print("\t".join([sys.argv[2], sys.argv[3], sys.argv[4]] + [str(m[k]) for k in
      ("wall_s", "user_s", "sys_s", "maxrss_kib", "tree_rss_kib", "tree_procs", "tree_threads", "tree_fds")]
      + [sys.argv[5]]))
PY
  log "N=$n round $round: $label $(cut -f4 <(tail -n 1 "$results")) s wall, $(tail -n 1 "$results" | awk '{printf "%.2f", $5 + $6}') s CPU"
}

# 1: findings (the scale hosts read THP always); anything else, or a host unreached, voids the figure
fleetfix_ok() { [[ "$3" -le 1 ]] && grep -q "^$1 hosts: .* 0 unreachable" "$2"; }
ansible_ok() { [[ "$3" == 0 ]] && grep -q 'PLAY RECAP' "$2" && ! grep -Eq 'unreachable=[1-9]|failed=[1-9]' "$2"; }
ssh_ok() { [[ "$3" == 0 ]] && (($(grep -c '^redis_version:' "$2") == $1)); }

ssh_fleet() { # hosts.txt: N ssh at once, one login each
  local pids=() failed=0 addr port rport
  while read -r _ addr port rport; do
    ssh -n -i "$key" -p "$port" -l "$user" -o BatchMode=yes -o StrictHostKeyChecking=yes \
      -o UserKnownHostsFile="$known_hosts" -o ControlMaster=no -o ControlPath=none "$addr" \
      "sudo -n sh -c $(printf '%q' "$(cat "$facts")") >/dev/null; redis-cli -h $addr -p $rport info server" &
    pids+=("$!")
  done <"$work/hosts.txt"
  for pid in "${pids[@]}"; do wait "$pid" || failed=$((failed + 1)); done
  ((failed == 0))
}
export -f ssh_fleet

run_ansible() { # forks controlpath-dir|none
  local forks="$1" cp="$2" args=()
  if [[ "$cp" == none ]]; then
    args=(--ssh-common-args "-o UserKnownHostsFile=$known_hosts -o ControlMaster=no -o ControlPersist=no")
  else
    args=(--ssh-common-args "-o UserKnownHostsFile=$known_hosts")
  fi
  ANSIBLE_CONFIG="$work/ansible.cfg" ANSIBLE_SSH_CONTROL_PATH_DIR="${cp/#none/$work/cp-none}" \
    ANSIBLE_HOST_KEY_CHECKING=True ANSIBLE_NOCOLOR=1 ANSIBLE_LOCAL_TEMP="$work/ansible-tmp" \
    ansible-playbook -i "$inv" --forks "$forks" "${args[@]}" -e "facts_script=$facts" "$work/audit.yml"
}

# stops the ControlMaster processes a run left in DIR: found by their command line, ended by their id
stop_masters() {
  local dir="$1" p
  for p in /proc/[0-9]*; do
    if { tr '\0' ' ' <"$p/cmdline"; } 2>/dev/null | grep -q -- "$dir"; then kill "${p#/proc/}" 2>/dev/null || true; fi
  done
}

export work facts
printf '[defaults]\n' >"$work/ansible.cfg"
cat >"$work/audit.yml" <<'EOF_PLAY'
- name: what fleetfix audit reads, the Ansible way
  hosts: all
  gather_facts: false
  tasks:
    - name: the audit's facts script, as root
      script: "{{ facts_script }}"
      become: true
      changed_when: false
    - name: Redis INFO server
      raw: redis-cli -h {{ ansible_host }} -p {{ redis_port }} info server
      changed_when: false
EOF_PLAY

started="$(date -u '+%Y-%m-%d %H:%M UTC')"
for n in $N_LIST; do
  log "N=$n: starting a scale lab of $n hosts"
  "$fleetfix" lab up --preset scale --hosts "$n" --home "$lab_home" >"$work/lab-up.txt" || die "lab up failed"
  inv="$("$fleetfix" lab inventory --home "$lab_home")"
  "$fleetfix" inventory -i "$inv" --list >"$work/inv.json"
  python3 - "$work/inv.json" "$work/hosts.txt" "$work/conn.txt" <<'PY'
import json, sys
hv = json.load(open(sys.argv[1]))["_meta"]["hostvars"]
names = sorted(hv, key=lambda h: int(h.rsplit("-", 1)[-1]))
with open(sys.argv[2], "w") as out:
    for name in names:
        v = hv[name]
        out.write(f"{name} {v['ansible_host']} {v.get('ansible_port', 22)} {v.get('redis_port', 6379)}\n")
v = hv[names[0]]
with open(sys.argv[3], "w") as out:
    out.write(f"{v['ansible_user']} {v['ansible_ssh_private_key_file']} {v['known_hosts_file']}\n")
PY
  read -r user key known_hosts <"$work/conn.txt"
  export user key known_hosts inv
  (($(wc -l <"$work/hosts.txt") == n)) || die "the lab inventory holds $(wc -l <"$work/hosts.txt") hosts, not $n"

  tools=()
  for f in $FORKS; do
    ((f <= n)) || continue
    tools+=("fleetfix-f$f")
    [[ -z "$baseline" ]] || tools+=("baseline-f$f")
  done
  if command -v ansible-playbook >/dev/null && ((n <= ANSIBLE_MAX_N)); then
    for k in $ANSIBLE_FORKS; do tools+=("ansible-f$k" "ansible-f$k-nocp"); done
  fi
  tools+=("ssh-x$n")
  log "N=$n: untimed warm-up (sshd, Redis, page cache)"
  measure warm-up "$n" 0 ssh_ok -- bash -c 'ssh_fleet'
  sed -i '$d' "$results"
  record_load "$n" start
  for ((round = 1; round <= ROUNDS; round++)); do
    for ((k = 0; k < ${#tools[@]}; k++)); do
      tool="${tools[$(((k + round - 1) % ${#tools[@]}))]}"
      case "$tool" in
        fleetfix-f*) measure "$tool" "$n" "$round" fleetfix_ok -- "$fleetfix" audit -i "$inv" --forks "${tool#fleetfix-f}" ;;
        baseline-f*) measure "$tool" "$n" "$round" fleetfix_ok -- "$baseline" audit -i "$inv" --forks "${tool#baseline-f}" ;;
        ansible-f*-nocp)
          forks="${tool#ansible-f}"
          measure "$tool" "$n" "$round" ansible_ok -- bash -c "$(declare -f run_ansible); run_ansible ${forks%-nocp} none"
          ;;
        ansible-f*)
          cp="$(mktemp -d -p "$work" cp.XXXXXX)"
          measure "$tool" "$n" "$round" ansible_ok -- bash -c "$(declare -f run_ansible); run_ansible ${tool#ansible-f} $cp"
          measure "$tool-again" "$n" "$round" ansible_ok -- bash -c "$(declare -f run_ansible); run_ansible ${tool#ansible-f} $cp"
          stop_masters "$cp"
          ;;
        ssh-x*) measure "$tool" "$n" "$round" ssh_ok -- bash -c 'ssh_fleet' ;;
      esac
    done
  done
  record_load "$n" end
  "$fleetfix" lab down --home "$lab_home" >&2 || die "lab down failed"
done

mkdir -p "$repo/target/bench"
stamp="$(date -u +%Y%m%dT%H%M%SZ)"
cp "$results" "$repo/target/bench/scale-curve-$stamp.tsv"
python3 "$repo/bench/scale-report.py" "$results" "$loads" "$started" "$ROUNDS" "$(nproc)" "$ansible_version" \
  "$(java -version 2>&1 | sed -n 1p)" "$repo/target/bench/scale-curve-$stamp.svg" | tee "$repo/target/bench/scale-curve-$stamp.txt"
log "written to target/bench/scale-curve-$stamp.{txt,tsv,svg}"
