package dev.fleetfix.transport;

import dev.fleetfix.inventory.Host;

/** Opens a {@link RemoteShell} to a host; picks SSH or local by the host's connection. */
@FunctionalInterface
public interface ShellFactory {
    RemoteShell open(Host host);
}
