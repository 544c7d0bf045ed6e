#!/usr/bin/env bash
# The tests most sensitive to the machine's speed, run with the machine kept busy, so that a test which passes only
# on a fast or quiet machine is found before it lands (issue 44). Beside the build, `stress-ng --cpu 1 --io 1` keeps
# one core and the disks busy for as long as the tests run (bounded by STRESS_TIMEOUT, and stopped when the script
# ends, however it ends). Plain bash; installs stress-ng with apt-get when it is missing (as root, or through sudo).
# Needs what `mvn -B verify` needs (Docker and the lab images for the integration tests). From the checkout's top:
#
#   bench/tests-under-load.sh                          # the default classes below, under load
#   LOAD=0 bench/tests-under-load.sh                   # the same, quiet: to tell load from a plain failure
#   ITS="AuditIT SshLoginIT" UNITS="" bench/tests-under-load.sh
#   MVN_ARGS="-o" bench/tests-under-load.sh            # extra Maven arguments (here: offline)
#
# One Maven build runs the unit classes (surefire) and the lab classes (failsafe, two side by side as in
# `mvn -B verify`); a failing class does not stop the others. Prints PASS/FAIL per class (tests, failures, errors
# from its report), the wall time and the load average, and exits 1 when any class failed or did not run.
#
# The default classes: those whose outcome once depended on speed (see the closing note of issue 44) and the CLI
# tests that read a whole command's output (audit, apply). A new test that reads stderr, counts lines or times
# something belongs here; tests take progress lines out with CliRun.stderrWithoutProgress / ProgressLines.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
UNITS="${UNITS-ProgressLinesTest LabProgressLinesTest LauncherFirstStartTest BadInputTest AnsibleFlagsTest ApplyTagsTest ForksTest LocalShellTest AnsibleFormatsTest HostAuditorTest}"
ITS="${ITS-AuditIT ApplyIT HeldConnectionsIT SshShellIT SshLoginIT JedisBenchTargetIT BenchEvictionLabIT LocalCheckIT OperatorPresetsIT VerdictLabIT}"
LOAD="${LOAD:-1}"
STRESS_TIMEOUT="${STRESS_TIMEOUT:-3h}"
MVN_ARGS="${MVN_ARGS:-}"
die() { echo "tests-under-load: error: $*" >&2; exit 2; }
say() { echo "tests-under-load: $*" >&2; }

[[ "$LOAD" == 0 || "$LOAD" == 1 ]] || die "LOAD must be 0 or 1, not '$LOAD'"
[[ "$STRESS_TIMEOUT" =~ ^[1-9][0-9]*[smh]?$ ]] || die "STRESS_TIMEOUT must read like 90m or 3h, not '$STRESS_TIMEOUT'"
for name in $UNITS $ITS; do
  [[ "$name" =~ ^[A-Z][A-Za-z0-9_]*$ ]] || die "'$name' is not a test class's simple name"
done
[[ -n "$UNITS$ITS" ]] || die "UNITS and ITS are both empty: nothing to run"
command -v mvn >/dev/null || die "mvn is needed"

if [[ "$LOAD" == 1 ]] && ! command -v stress-ng >/dev/null; then
  sudo=()
  if [[ "$(id -u)" != 0 ]]; then
    command -v sudo >/dev/null || die "stress-ng is missing, and installing it needs root or sudo"
    sudo=(sudo)
  fi
  say "installing stress-ng (apt-get)"
  ${sudo[@]+"${sudo[@]}"} apt-get install -y -q stress-ng >/dev/null 2>&1 ||
    { ${sudo[@]+"${sudo[@]}"} apt-get update -q >/dev/null &&
      ${sudo[@]+"${sudo[@]}"} apt-get install -y -q stress-ng >/dev/null; } ||
    die "apt-get could not install stress-ng"
fi

stress=""
stop_stress() {
  if [[ -n "$stress" ]]; then
    # its own process group (setsid): the workers it forked go with it
    kill -TERM -- "-$stress" 2>/dev/null || kill -TERM "$stress" 2>/dev/null || true
    wait "$stress" 2>/dev/null || true
    stress=""
  fi
}
trap stop_stress EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# where each module's reports go (made by the build: named here, not globbed, as they may not exist yet)
reports=()
for module in "$repo"/src/*/; do
  reports+=("${module}target/surefire-reports" "${module}target/failsafe-reports")
done
# reports of an earlier run of these classes would read as this run's
for name in $UNITS $ITS; do
  for dir in "${reports[@]}"; do
    [[ -d "$dir" ]] && find "$dir" -maxdepth 1 -name "TEST-*.$name.xml" -delete
  done
done

if [[ "$LOAD" == 1 ]]; then
  if command -v setsid >/dev/null; then
    setsid stress-ng --cpu 1 --io 1 --timeout "$STRESS_TIMEOUT" --quiet &
  else
    stress-ng --cpu 1 --io 1 --timeout "$STRESS_TIMEOUT" --quiet &
  fi
  stress=$!
  say "stress-ng --cpu 1 --io 1 running beside the tests (pid $stress, at most $STRESS_TIMEOUT)"
fi

join() { local IFS=,; echo "$*"; }
# shellcheck disable=SC2086 # the class names, split on spaces
units="$(join $UNITS)"
# shellcheck disable=SC2086
its="$(join $ITS)"
log="$repo/target/tests-under-load.log"
mkdir -p "$repo/target"
started=$SECONDS
say "mvn verify of ${UNITS:+the unit classes $units}${UNITS:+${ITS:+ and }}${ITS:+the lab classes $its}; log: $log"
set +e
# shellcheck disable=SC2086 # MVN_ARGS: the caller's words
(cd "$repo" && mvn -B $MVN_ARGS -pl src/lab -am verify -Drelease.skip=true \
  -Dtest="${units:-none}" -Dsurefire.failIfNoSpecifiedTests=false \
  -Dit.test="${its:-none}" -Dfailsafe.failIfNoSpecifiedTests=false \
  -Dmaven.test.failure.ignore=true) >"$log" 2>&1
mvn_status=$?
set -e
wall=$((SECONDS - started))
load="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
stop_stress

# one line a class, from its report: tests, failures, errors
attr() { sed -n "s/.* $1=\"\([0-9]*\)\".*/\1/p" <<<"$suite"; }
failed=0
printf '%-28s %-6s %s\n' class result "tests failures errors"
for name in $UNITS $ITS; do
  report=""
  for dir in "${reports[@]}"; do
    for f in "$dir"/TEST-*."$name".xml; do [[ -f "$f" ]] && report="$f"; done
  done
  if [[ -z "$report" ]]; then
    printf '%-28s %-6s %s\n' "$name" FAIL "did not run (see $log)"
    failed=1
    continue
  fi
  suite="$(grep -m1 -o '<testsuite [^>]*>' "$report")"
  tests="$(attr tests)" failures="$(attr failures)" errors="$(attr errors)"
  if [[ "${tests:-0}" -gt 0 && "${failures:-1}" == 0 && "${errors:-1}" == 0 ]]; then
    printf '%-28s %-6s %s\n' "$name" PASS "$tests 0 0"
  else
    printf '%-28s %-6s %s\n' "$name" FAIL "${tests:-?} ${failures:-?} ${errors:-?}"
    failed=1
  fi
done
printf 'wall %dm%02ds, %s, load average at the end %s, mvn exit %d\n' $((wall / 60)) $((wall % 60)) \
  "$([[ "$LOAD" == 1 ]] && echo "stress-ng --cpu 1 --io 1 beside" || echo quiet)" "$load" "$mvn_status"
if [[ "$failed" != 0 || "$mvn_status" != 0 ]]; then
  exit 1
fi
