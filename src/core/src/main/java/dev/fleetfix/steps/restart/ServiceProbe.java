package dev.fleetfix.steps.restart;

import dev.fleetfix.checks.Container;
import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.RemoteShell;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * How a restart reads the service that runs Redis before it acts: the script that prints its state (as root where
 * the runtime's socket needs it: the become path, as every root command), and where the files Redis names are on the
 * host ({@link PersistenceReader}).
 *
 * @param unit the systemd unit that runs Redis, else the container's name: where its command line is read
 * @param state the script that prints the service's state in systemd's words ({@link ServiceRestart#stateScript})
 * @param stateAsRoot whether {@code state} asks for root ({@code docker inspect}, {@code supervisorctl}: their
 *     sockets are root's)
 * @param container the container Redis runs in: its config file is read through the container's mounts
 * @param pid Redis's process as the host sees it (not INFO's {@code process_id}, which a container numbers itself)
 */
record ServiceProbe(String unit, String state, boolean stateAsRoot, Optional<Container> container, OptionalLong pid) {
    ServiceProbe {
        Objects.requireNonNull(unit, "unit");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(container, "container");
        Objects.requireNonNull(pid, "pid");
    }

    /** A unit, an init script or a program of the host itself, its state read as the login user. */
    static ServiceProbe of(String unit, String state) {
        return new ServiceProbe(unit, state, false, Optional.empty(), OptionalLong.empty());
    }

    /** A program of a manager whose control socket is root's (supervisord), its state read as root. */
    static ServiceProbe asRoot(String unit, String state) {
        return new ServiceProbe(unit, state, true, Optional.empty(), OptionalLong.empty());
    }

    /** The command that runs {@code script}, which holds {@link #state}: as root when the state needs it. */
    Command stateCommand(String script) {
        return stateAsRoot ? Command.of(script).asRoot() : Command.of(script);
    }

    PersistenceReader persistence(RemoteShell shell) {
        return new PersistenceReader(shell, unit, container, pid);
    }
}
