package dev.fleetfix.cli;

import dev.fleetfix.inventory.Host;
import dev.fleetfix.transport.ShellFactory;
import dev.fleetfix.transport.SshOptions;
import dev.fleetfix.transport.TransportException;
import dev.fleetfix.transport.local.LocalShell;
import dev.fleetfix.transport.ssh.SshShell;
import java.util.Objects;

/**
 * The {@link ShellFactory} of a run: SSH for SSH hosts, local processes for {@code local} hosts. A host of another
 * connection plugin (winrm, docker, ...) gets no shell: the run fails that host alone, as unreachable, with one line
 * naming the plugin, and sends it nothing.
 */
public final class ShellFactories {
    private ShellFactories() {}

    public static ShellFactory create(SshOptions options) {
        Objects.requireNonNull(options, "options");
        return host -> switch (host.connection()) {
            case LOCAL -> new LocalShell(host);
            case SSH -> SshShell.open(host, options);
            case UNSUPPORTED -> throw unsupported(host);
        };
    }

    static TransportException unsupported(Host host) {
        return new TransportException(
                host,
                TransportException.Kind.UNSUPPORTED,
                "ansible_connection " + host.vars().get("ansible_connection")
                        + " is not a connection fleetfix has (ssh or local): skipped, nothing was sent to it",
                null);
    }
}
