package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.lab.LabFleet;
import dev.fleetfix.lab.LabPreset;
import dev.fleetfix.steps.restart.PendingRestart;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped thp-off.yaml with tags on two lab hosts with THP always: {@code --skip-tags restart,benchmark} sets
 * THP and persists it without restarting Redis, leaving the hosts' record of a pending restart; a later {@code
 * --tags restart} runs only the audit, the restart and its gates, and restarts Redis because of that record.
 */
class TagsIT {
    @TempDir
    Path dir;

    @Test
    void aRestartLeftOutByTagsIsDoneByALaterRestartOnlyRun() throws Exception {
        List<String> hosts = List.of("lab-1", "lab-2");
        try (LabFleet fleet = LabFleet.start(2, LabPreset.THP_ALWAYS)) {
            LabData lab = new LabData(fleet, hosts);
            String playbook = ShippedPlaybook.thpOffText();
            String before = lab.runId("lab-1");

            CliRun changed =
                    lab.apply(dir, playbook, "--skip-tags", "restart,benchmark").expectExit(ExitCode.OK);

            assertThat(changed.stdout())
                    .contains("tags: all; skip: benchmark, restart")
                    .contains("left out by tags: benchmark before, restart_redis, wait_healthy, benchmark after")
                    .doesNotContain("] restart_redis: ");
            for (String host : hosts) {
                assertThat(fleet.thp(host).strip()).as(host).isEqualTo("never");
                assertThat(fleet.rootExec(host, "cat " + PendingRestart.PATH).stdout())
                        .as(host + ": the record of a pending restart")
                        .contains("since=");
            }
            assertThat(lab.runId("lab-1")).as("Redis not restarted").isEqualTo(before);

            CliRun restarted = lab.apply(dir, playbook, "--tags", "restart").expectExit(ExitCode.OK);

            assertThat(restarted.stdout())
                    .contains("left out by tags: benchmark before, thp, persist_thp, assert, benchmark after")
                    .doesNotContain("] thp: ");
            assertThat(lab.runId("lab-1")).as("Redis restarted").isNotEqualTo(before);
            for (String host : hosts) {
                assertThat(fleet.rootExec(host, "test -e " + PendingRestart.PATH + " && echo left || echo gone")
                                .stdout())
                        .as(host)
                        .contains("gone");
            }
        }
    }
}
