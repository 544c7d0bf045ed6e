# shellcheck shell=sh
# fleetfix: check mode (ContainerRoute): exits 0 when container-restart.sh could restart the container here (its
# runtime knows it; for a compose service, container-compose.sh, run before this, found the project's directory and
# files, and a compose command is there), else non-zero saying why; changes nothing. The caller prepends, quoted:
# runtime, name, project.
: "${runtime:=}" "${name:=}" "${project:=}"
command -v "$runtime" >/dev/null 2>&1 || { echo "no $runtime command on this host" >&2; exit 1; }
"$runtime" inspect --type container --format '{{.Id}}' "$name" >/dev/null || exit 1
if [ -n "$project" ]; then
  docker compose version >/dev/null 2>&1 || command -v docker-compose >/dev/null 2>&1 ||
    { echo "neither docker compose nor docker-compose on this host" >&2; exit 1; }
fi
