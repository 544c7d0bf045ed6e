package dev.fleetfix.inventory;

/**
 * How the control node reaches a host: over SSH, or by running commands locally (Ansible's {@code local}).
 * {@link #UNSUPPORTED} is a host whose {@code ansible_connection} names another plugin (winrm, docker, psrp, ...):
 * Ansible lists it like any host, so fleetfix does too, but a run never reaches it (its shell is refused, with the
 * plugin's name, as an unreachable host is).
 */
public enum Connection {
    SSH,
    LOCAL,
    UNSUPPORTED
}
