# shellcheck shell=sh
# fleetfix: prints the container's state in systemd's words (active, activating, inactive, failed), or nothing when it
# cannot be told (ContainerRoute). Runs as the login user: the runtime's socket may need root, asked without a prompt.
# Podman is asked as root only: as another user it is rootless Podman, which would make its storage in that user's home
# (and, where newuidmap is installed, leave a pause process running), and never knows root's containers.
# The caller prepends, quoted: runtime, name.
: "${runtime:=}" "${name:=}"
if [ "$runtime" = podman ] && [ "$(id -u)" != 0 ]; then
  st=$(sudo -n podman inspect --type container --format '{{.State.Status}}' "$name" 2>/dev/null)
else
  st=$("$runtime" inspect --type container --format '{{.State.Status}}' "$name" 2>/dev/null ||
    sudo -n "$runtime" inspect --type container --format '{{.State.Status}}' "$name" 2>/dev/null)
fi
case "$st" in
  running) echo active ;;
  restarting) echo activating ;;
  created | exited | stopped | configured) echo inactive ;;
  dead) echo failed ;;
esac
