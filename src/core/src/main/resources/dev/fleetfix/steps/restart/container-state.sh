# shellcheck shell=sh
# fleetfix: prints the container's state in systemd's words (active, activating, inactive, failed), or nothing when it
# cannot be told (ContainerRoute). Runs as the login user: the runtime's socket may need root, asked without a prompt.
# The caller prepends, quoted: runtime, name.
: "${runtime:=}" "${name:=}"
st=$("$runtime" inspect --type container --format '{{.State.Status}}' "$name" 2>/dev/null ||
  sudo -n "$runtime" inspect --type container --format '{{.State.Status}}' "$name" 2>/dev/null)
case "$st" in
  running) echo active ;;
  restarting) echo activating ;;
  created | exited | stopped | configured) echo inactive ;;
  dead) echo failed ;;
esac
