package dev.fleetfix.cli;

import dev.fleetfix.inventory.Connection;
import dev.fleetfix.transport.ShellFactory;
import dev.fleetfix.transport.SshOptions;
import dev.fleetfix.transport.local.LocalShell;
import dev.fleetfix.transport.ssh.SshShell;
import java.util.Objects;

/** The {@link ShellFactory} of a run: SSH for SSH hosts, local processes for {@code local} hosts. */
public final class ShellFactories {
    private ShellFactories() {}

    public static ShellFactory create(SshOptions options) {
        Objects.requireNonNull(options, "options");
        return host -> host.connection() == Connection.LOCAL ? new LocalShell(host) : SshShell.open(host, options);
    }
}
