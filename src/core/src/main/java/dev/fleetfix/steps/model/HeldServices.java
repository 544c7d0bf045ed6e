package dev.fleetfix.steps.model;

import dev.fleetfix.checks.RunningService;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What runs the host's Redis ({@link dev.fleetfix.checks.ServiceDiscovery}), as the run last read it, held until a
 * change of the run can have altered it. The audit's one trip reads it along with the facts; the steps that restart
 * Redis or order a unit before it take it from here instead of sending the discovery again, in their forecast and in
 * their run. A step that restarts Redis (the process is then another, which the restart verifies by its run_id), or
 * whose change fleetfix cannot bound (a command), drops it: the next step that needs it reads the host again.
 *
 * <p>Held per host for the whole run; the preflight's copy of the state holds the same one, since a forecast changes
 * nothing on the host. Used by one worker thread at a time, as its {@link HostState}.
 */
public final class HeldServices {
    /**
     * The step types whose changes leave the running Redis and the service that runs it as they were: kernel settings
     * (THP, sysctl), the boot unit that orders itself before Redis's, CONFIG SET, and the steps that only read.
     */
    private static final Set<String> KEEP =
            Set.of("audit", "assert", "benchmark", "persist_thp", "redis_config", "sysctl", "thp", "wait_healthy");

    private final Map<Integer, RunningService> byPort = new HashMap<>();

    /** The services of {@code ports}, in their order, when every one of them is held; else empty. */
    public Optional<List<RunningService>> of(List<Integer> ports) {
        List<RunningService> found = new ArrayList<>();
        for (Integer port : ports) {
            RunningService s = byPort.get(port);
            if (s == null) {
                return Optional.empty();
            }
            found.add(s);
        }
        return found.isEmpty() ? Optional.empty() : Optional.of(List.copyOf(found));
    }

    /** Holds what a read of {@code ports} found: one service per port, in the same order. */
    public void hold(List<Integer> ports, List<RunningService> services) {
        if (ports.size() != services.size()) {
            throw new IllegalArgumentException(
                    "one service per port: " + ports.size() + " ports, " + services.size() + " services");
        }
        for (int i = 0; i < ports.size(); i++) {
            byPort.put(ports.get(i), Objects.requireNonNull(services.get(i), "service"));
        }
    }

    /** Drops the read: the next step that needs it asks the host. */
    public void forget() {
        byPort.clear();
    }

    /** After a step of the run (never a forecast): a change that can have altered what runs Redis drops the read. */
    public void after(String stepType, StepStatus status) {
        Objects.requireNonNull(stepType, "stepType");
        if (status == StepStatus.CHANGED && !KEEP.contains(stepType)) {
            forget();
        }
    }
}
