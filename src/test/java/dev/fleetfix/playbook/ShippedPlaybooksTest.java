package dev.fleetfix.playbook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.fake.Harness;
import dev.fleetfix.rollout.RunOptions;
import dev.fleetfix.rollout.RunPlan;
import dev.fleetfix.rollout.event.RunOutcome;
import dev.fleetfix.rollout.event.RunSummary;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The playbooks at the repository root parse, plan and run on simulated hosts. */
class ShippedPlaybooksTest {
    @TempDir
    Path dir;

    @Test
    void thpOffPlansTheCanaryThenHalves() throws Exception {
        Harness h = new Harness(dir, "r1", "r2", "r3", "r4", "r5");
        String yaml = Files.readString(Path.of("playbooks/thp-off.yaml"));
        RunPlan plan = h.plan(yaml, RunOptions.defaults());
        assertThat(plan.plays().get(0).batches().batches())
                .extracting(java.util.List::size)
                .containsExactly(1, 2, 2);
        RunSummary summary = h.run(yaml);
        assertThat(summary.outcome()).isEqualTo(RunOutcome.OK);
        assertThat(h.hosts.values())
                .allSatisfy(host -> assertThat(host.thp("enabled")).isEqualTo("never"));
    }

    @Test
    void kernelTuningIsReadAndPlannedWithItsRestartOnlyWhereNeeded() throws Exception {
        Harness h = new Harness(dir, "r1", "r2", "r3", "r4", "r5");
        String yaml = Files.readString(Path.of("playbooks/kernel-tuning.yaml"));
        RunPlan plan = h.plan(yaml, RunOptions.defaults());
        assertThat(plan.plays().get(0).batches().batches())
                .extracting(java.util.List::size)
                .containsExactly(1, 2, 2);
        assertThat(yaml)
                .contains("when: redis.restart_needed == yes")
                .contains("- sysctl:")
                .contains("- redis_config:");
    }

    @Test
    void auditChangesNothingAndFailsHostsWithThpOn() throws Exception {
        Harness h = new Harness(dir, "r1", "r2");
        h.host("r2").write("/sys/kernel/mm/transparent_hugepage/enabled", "always madvise [never]\n");
        h.host("r2").write("/sys/kernel/mm/transparent_hugepage/defrag", "never\n");
        var before = h.host("r1").snapshot();
        RunSummary summary = h.run(Files.readString(Path.of("playbooks/audit.yaml")));
        assertThat(summary.outcome()).isEqualTo(RunOutcome.HOSTS_FAILED);
        assertThat(summary.failed()).containsExactly("r1");
        assertThat(summary.done()).containsExactly("r2");
        assertThat(h.result("r1", "assert").message()).startsWith("THP is on: run playbooks/thp-off.yaml");
        assertThat(h.host("r1").snapshot()).isEqualTo(before);
    }
}
