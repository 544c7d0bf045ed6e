package dev.fleetfix.rollout.event;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * A run began.
 *
 * @param runId the run's id (its start stamp), also in backup file names
 * @param playbook the playbook file
 * @param check check mode
 * @param diff whether diffs were asked for
 * @param forks parallelism bound
 * @param hosts every host some play will run on
 */
public record RunStarted(
        Instant at, String runId, Path playbook, boolean check, boolean diff, int forks, List<String> hosts)
        implements RunEvent {
    public RunStarted {
        hosts = List.copyOf(hosts);
    }
}
