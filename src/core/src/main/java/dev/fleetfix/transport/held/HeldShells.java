package dev.fleetfix.transport.held;

import dev.fleetfix.inventory.Host;
import dev.fleetfix.transport.Become;
import dev.fleetfix.transport.LoginPassword;
import dev.fleetfix.transport.RemoteShell;
import dev.fleetfix.transport.ShellFactory;
import dev.fleetfix.transport.SshOptions;
import dev.fleetfix.transport.TransportException;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Opens SSH hosts through the user's holder; when the holder cannot be reached or started, says so once and
 * connects directly, as ssh does when its control socket is unusable. A host that logs in with a password, or whose
 * sudo or su is answered with a become password, is always reached directly, so that the holder never learns a
 * password.
 */
public final class HeldShells {
    private final HoldClient client;
    private final Consumer<String> warnings;
    private final AtomicBoolean warned = new AtomicBoolean();

    public HeldShells(HoldClient client, Consumer<String> warnings) {
        this.client = Objects.requireNonNull(client, "client");
        this.warnings = Objects.requireNonNull(warnings, "warnings");
    }

    /** A factory for SSH hosts: held when the holder answers, else {@code direct}. */
    public ShellFactory around(SshOptions options, ShellFactory direct) {
        return host -> open(host, options, direct);
    }

    private RemoteShell open(Host host, SshOptions options, ShellFactory direct) {
        if (LoginPassword.of(host, options).isPresent()
                || host.become() && Become.of(host).answers()) {
            // the holder outlives the run and would have to keep the password for as long as it holds the connection
            return direct.open(host);
        }
        try {
            return HeldShell.open(host, HoldLogin.of(host, options), client);
        } catch (TransportException e) {
            throw e; // the host's own answer (a refused key), as a direct login gives it
        } catch (IOException | RuntimeException e) {
            if (warned.compareAndSet(false, true)) {
                warnings.accept("held connections are off for this run (" + e.getMessage() + "): connecting directly");
            }
            return direct.open(host);
        }
    }
}
