package dev.fleetfix.steps.model;

import dev.fleetfix.Progress;
import dev.fleetfix.Sleeper;
import dev.fleetfix.health.GateTarget;
import dev.fleetfix.health.Poll;
import dev.fleetfix.health.Wait;
import dev.fleetfix.health.WaitListener;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.redis.topology.Sentinels;
import dev.fleetfix.transport.RemoteShell;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Everything a step may use on one host. The engine makes one per host and play (in {@code HostRun}); a step that
 * needs another poll interval takes a copy ({@link #withPollInterval}).
 *
 * @param ports the run's ports as the composition root built them: its clock and sleeper are {@link #clock()} and
 *     {@link #sleeper()}
 * @param host the host
 * @param shell its shell (opened once per run)
 * @param redis opens a connection to its Redis
 * @param state the host's facts and whether this play changed it
 * @param run what the run asks of every step
 * @param peers the other hosts a step may reach
 * @param listeners told of long waits and of a long step's progress
 */
public record StepContext(
        RunPorts ports,
        Host host,
        RemoteShell shell,
        GateTarget.Connect redis,
        HostState state,
        Run run,
        Peers peers,
        Listeners listeners) {

    public StepContext {
        Objects.requireNonNull(ports, "ports");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(shell, "shell");
        Objects.requireNonNull(redis, "redis");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(run, "run");
        Objects.requireNonNull(peers, "peers");
        Objects.requireNonNull(listeners, "listeners");
    }

    /**
     * @param check check mode: read everything, write nothing, report what would change
     * @param stamp the run's id ({@code 20261128T013000Z-3f9a1c07}), used in backup file names
     * @param pollInterval how often gates poll
     */
    public record Run(boolean check, String stamp, Duration pollInterval) {
        public Run {
            Objects.requireNonNull(stamp, "stamp");
            Objects.requireNonNull(pollInterval, "pollInterval");
        }
    }

    /**
     * @param primaries opens a replica's primary, when it is in the inventory
     * @param sentinels the inventory's Redis Sentinels (none when it names none)
     * @param controls hosts of this play's later batches that nothing has changed yet, in batch order: the control
     *     hosts a benchmark may measure beside this one (empty in the last batch)
     */
    public record Peers(GateTarget.Primaries primaries, Sentinels sentinels, List<Host> controls) {
        public Peers {
            Objects.requireNonNull(primaries, "primaries");
            Objects.requireNonNull(sentinels, "sentinels");
            controls = List.copyOf(controls);
        }
    }

    /**
     * @param waits told of every wait that lasts, or may last, noticeably long ({@link Wait})
     * @param progress told how far a long step has got (a benchmark's round and rps so far), at least every {@link
     *     Progress#EVERY} while it has news; the engine makes events of it
     */
    public record Listeners(WaitListener waits, Progress.Listener progress) {
        public static final Listeners NONE = new Listeners(WaitListener.none(), Progress.Listener.none());

        public Listeners {
            Objects.requireNonNull(waits, "waits");
            Objects.requireNonNull(progress, "progress");
        }
    }

    /** Check mode: read everything, write nothing, report what would change. */
    public boolean check() {
        return run.check();
    }

    /** Told how far a long step has got. */
    public Progress.Listener progress() {
        return listeners.progress();
    }

    /** The run's clock. */
    public Clock clock() {
        return ports.clock();
    }

    /** The run's sleeper. */
    public Sleeper sleeper() {
        return ports.sleeper();
    }

    /** This context with gates polling every {@code pollInterval}. */
    public StepContext withPollInterval(Duration pollInterval) {
        return new StepContext(
                ports, host, shell, redis, state, new Run(run.check(), run.stamp(), pollInterval), peers, listeners);
    }

    /** The loop that polls for this step: the run's clock and sleeper, its interval, its wait listener. */
    public Poll poll() {
        return new Poll(clock(), sleeper(), run.pollInterval(), listeners.waits());
    }

    public GateTarget gateTarget() {
        return new GateTarget(
                host.name(), redis, peers.primaries(), clock(), sleeper(), run.pollInterval(), listeners.waits());
    }
}
