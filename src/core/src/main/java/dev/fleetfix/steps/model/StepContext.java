package dev.fleetfix.steps.model;

import dev.fleetfix.Progress;
import dev.fleetfix.Sleeper;
import dev.fleetfix.health.GateTarget;
import dev.fleetfix.health.Wait;
import dev.fleetfix.health.WaitListener;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.redis.topology.Sentinels;
import dev.fleetfix.transport.RemoteShell;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Everything a step may use on one host. The engine makes one per host and play (its one constructor); a step
 * that needs another poll interval takes a copy ({@code withPollInterval}, generated).
 *
 * @param ports the run's ports as the composition root built them: its clock and sleeper are {@link #clock()} and
 *     {@link #sleeper()}
 * @param host the host
 * @param shell its shell (opened once per run)
 * @param redis opens a connection to its Redis
 * @param primaries opens a replica's primary, when it is in the inventory
 * @param sentinels the inventory's Redis Sentinels (none when it names none)
 * @param check check mode: read everything, write nothing, report what would change
 * @param state the host's facts and whether this play changed it
 * @param runStamp the run's id ({@code 20261128T013000Z-3f9a1c07}), used in backup file names
 * @param pollInterval how often gates poll
 * @param waits told of every wait that lasts, or may last, noticeably long ({@link Wait})
 * @param controls hosts of this play's later batches that nothing has changed yet, in batch order:
 *     the control hosts a benchmark may measure beside this one (empty in the last batch)
 * @param progress told how far a long step has got (a benchmark's round and rps so far), at least
 *     every {@link Progress#EVERY} while it has news; the engine makes events of it
 */
@RecordBuilder
public record StepContext(
        RunPorts ports,
        Host host,
        RemoteShell shell,
        GateTarget.Connect redis,
        GateTarget.Primaries primaries,
        Sentinels sentinels,
        boolean check,
        HostState state,
        String runStamp,
        Duration pollInterval,
        WaitListener waits,
        List<Host> controls,
        Progress.Listener progress)
        implements StepContextBuilder.With {

    public StepContext {
        Objects.requireNonNull(ports, "ports");
        Objects.requireNonNull(waits, "waits");
        Objects.requireNonNull(progress, "progress");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(shell, "shell");
        Objects.requireNonNull(redis, "redis");
        Objects.requireNonNull(primaries, "primaries");
        Objects.requireNonNull(sentinels, "sentinels");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(runStamp, "runStamp");
        Objects.requireNonNull(pollInterval, "pollInterval");
        controls = List.copyOf(controls);
    }

    /** The run's clock. */
    public Clock clock() {
        return ports.clock();
    }

    /** The run's sleeper. */
    public Sleeper sleeper() {
        return ports.sleeper();
    }

    public GateTarget gateTarget() {
        return new GateTarget(host.name(), redis, primaries, clock(), sleeper(), pollInterval, waits);
    }
}
