package dev.fleetfix.inventory;

/** How the control node reaches a host: over SSH, or by running commands locally (Ansible's {@code local}). */
public enum Connection {
    SSH,
    LOCAL
}
