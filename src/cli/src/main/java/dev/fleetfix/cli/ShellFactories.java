package dev.fleetfix.cli;

import dev.fleetfix.inventory.Host;
import dev.fleetfix.transport.ShellFactory;
import dev.fleetfix.transport.SshOptions;
import dev.fleetfix.transport.TransportException;
import dev.fleetfix.transport.held.HeldShells;
import dev.fleetfix.transport.held.HoldClient;
import dev.fleetfix.transport.held.HoldPlace;
import dev.fleetfix.transport.local.LocalShell;
import dev.fleetfix.transport.ssh.SshHolder;
import dev.fleetfix.transport.ssh.SshShell;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@link ShellFactory} of a run: SSH for SSH hosts, local processes for {@code local} hosts. A host of another
 * connection plugin (winrm, docker, ...) gets no shell: the run fails that host alone, as unreachable, with one line
 * naming the plugin, and sends it nothing.
 */
public final class ShellFactories {
    private ShellFactories() {}

    public static ShellFactory create(SshOptions options) {
        return create(options, Optional.empty());
    }

    /** As {@link #create(SshOptions)}, SSH hosts through the user's connection holder when one is given. */
    public static ShellFactory create(SshOptions options, Optional<HeldShells> held) {
        Objects.requireNonNull(options, "options");
        ShellFactory direct = host -> SshShell.open(host, options);
        ShellFactory ssh = held.map(h -> h.around(options, direct)).orElse(direct);
        return host -> switch (host.connection()) {
            case LOCAL -> new LocalShell(host);
            case SSH -> ssh.open(host);
            case UNSUPPORTED -> throw unsupported(host);
        };
    }

    /**
     * This user's holder, started when missing as this process was: the same Java and class path, running {@link
     * SshHolder}, with a small client VM's flags (it only moves bytes between sockets and SSH).
     */
    static HoldClient holdClient(Duration persist) {
        String java = ProcessHandle.current()
                .info()
                .command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> command = List.of(
                java,
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-Xss512k",
                "-cp",
                System.getProperty("java.class.path"),
                SshHolder.class.getName());
        return new HoldClient(HoldPlace.ofProcess(), persist, command);
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
