package dev.fleetfix.rollout.event;

import dev.fleetfix.playbook.TagSelection;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A run began.
 *
 * @param runId the run's id (its start stamp), also in backup file names
 * @param playbook the playbook file
 * @param check check mode
 * @param diff whether diffs were asked for
 * @param forks parallelism bound
 * @param hosts every host some play will run on
 * @param tags the steps {@code --tags} and {@code --skip-tags} select
 */
public record RunStarted(
        Instant at,
        String runId,
        Path playbook,
        boolean check,
        boolean diff,
        int forks,
        List<String> hosts,
        TagSelection tags)
        implements RunEvent {
    public RunStarted {
        hosts = List.copyOf(hosts);
        Objects.requireNonNull(tags, "tags");
    }

    /** A run of every step but those tagged {@code never} (no {@code --tags}, no {@code --skip-tags}). */
    public RunStarted(
            Instant at, String runId, Path playbook, boolean check, boolean diff, int forks, List<String> hosts) {
        this(at, runId, playbook, check, diff, forks, hosts, TagSelection.all());
    }
}
