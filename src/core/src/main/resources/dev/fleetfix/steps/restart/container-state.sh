# shellcheck shell=sh
# fleetfix: prints the container's state in systemd's words (active, activating, inactive, failed), or nothing when it
# cannot be told (ContainerRoute). Run as root through the host's become path (ContainerRoute.probe): the runtime's
# socket is root's, and Podman asked as another user would be rootless Podman, which makes its storage in that
# user's home and never knows root's containers. The caller prepends, quoted: runtime, name.
: "${runtime:=}" "${name:=}"
st=$("$runtime" inspect --type container --format '{{.State.Status}}' "$name" 2>/dev/null)
case "$st" in
  running) echo active ;;
  restarting) echo activating ;;
  created | exited | stopped | configured) echo inactive ;;
  dead) echo failed ;;
esac
