package dev.fleetfix.report.model;

import java.util.List;
import java.util.Objects;

/**
 * One run of a playbook.
 *
 * @param id the run id (its start stamp, {@code 20261128T013000Z}), also in backup file names
 * @param playbook the playbook file as given
 * @param check whether it ran in check mode (nothing changed; changes are "would change")
 * @param forks the parallelism bound
 * @param startedAt ISO-8601 instant
 * @param endedAt ISO-8601 instant; null when the run did not end (report of an interrupted run)
 * @param elapsedMs the run's duration
 * @param outcome {@code ok}, {@code hosts_failed}, {@code halted}, {@code window_closed}, {@code
 *     refused_outside_window}; null when the run did not end
 * @param reason why it halted or was refused; empty when ok
 * @param done hosts that completed every play
 * @param failed hosts where a step failed or that could not be reached
 * @param untouched hosts the run never started
 * @param changed hosts where something changed (check mode: would change)
 * @param playbookSha256 the SHA-256 of the playbook file as the run read it (hex); null when it could not be read
 *     again, and in reports written before it was recorded
 * @param fleetfixVersion the fleetfix that ran it; null in reports written before it was recorded
 */
public record RunInfo(
        String id,
        String playbook,
        boolean check,
        boolean diff,
        int forks,
        String startedAt,
        String endedAt,
        long elapsedMs,
        String outcome,
        String reason,
        List<String> done,
        List<String> failed,
        List<String> untouched,
        List<String> changed,
        String playbookSha256,
        String fleetfixVersion) {
    public RunInfo {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(playbook, "playbook");
        Objects.requireNonNull(startedAt, "started_at");
        reason = reason == null ? "" : reason;
        done = List.copyOf(done);
        failed = List.copyOf(failed);
        untouched = List.copyOf(untouched);
        changed = List.copyOf(changed);
    }
}
