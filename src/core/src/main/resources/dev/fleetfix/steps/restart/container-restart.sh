# shellcheck shell=sh
# fleetfix: restarts the container that runs Redis through what manages it (ContainerRoute): its docker compose service
# in the project's directory with its files (docker compose, else Debian's docker-compose), set up by
# container-compose.sh run before this; else the runtime's restart. Redis gets `stop_wait` seconds to save and exit
# before the runtime kills it (the runtimes' own default is 10). The caller prepends, quoted: runtime (docker or
# podman), name (the container), project, service, stop_wait.
: "${runtime:=}" "${name:=}" "${project:=}" "${service:=}" "${stop_wait:=60}"
if [ -n "$project" ]; then
  if docker compose version >/dev/null 2>&1; then
    docker compose "$@" -p "$project" restart -t "$stop_wait" "$service"
  elif command -v docker-compose >/dev/null 2>&1; then
    docker-compose "$@" -p "$project" restart -t "$stop_wait" "$service"
  else
    echo "neither docker compose nor docker-compose on this host: cannot restart compose service $service" >&2
    exit 1
  fi
else
  "$runtime" restart -t "$stop_wait" "$name"
fi
