package dev.fleetfix.steps.restart;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.fake.Harness;
import dev.fleetfix.rollout.event.RunOutcome;
import dev.fleetfix.rollout.event.RunSummary;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** restart_redis on Redis versions that lack the commands 7.x has: each gets what it knows. */
class OldRedisRestartTest {
    private static final String PLAYBOOK =
            """
            - name: restart
              hosts: all
              steps:
                - restart_redis: {always: true}
            """;

    @TempDir
    Path dir;

    /** Regression: BGSAVE SCHEDULE was sent to 2.8, which refused it, and the host halted the rollout. */
    @Test
    void redis28IsSavedWithPlainBgsave() throws Exception {
        Harness h = new Harness(dir, "old");
        h.host("old").redis().version("2.8.19").data().put("k", "v");
        RunSummary summary = h.run(PLAYBOOK);
        assertThat(summary.outcome()).isEqualTo(RunOutcome.OK);
        assertThat(h.host("old").redis().commands()).contains("BGSAVE").doesNotContain("BGSAVE SCHEDULE");
        assertThat(h.host("old").redis().saves()).isEqualTo(1);
        assertThat(h.host("old").redis().restarts()).isEqualTo(1);
        assertThat(h.result("old", "restart_redis").facts()).containsEntry("restart.path", "save_then_restart");
    }

    @Test
    void plainBgsaveIsSentAgainWhileAnAofRewriteRuns() throws Exception {
        Harness h = new Harness(dir, "old");
        h.host("old").redis().version("5.0.14").rewritingFor(2).data().put("k", "v");
        RunSummary summary = h.run(PLAYBOOK);
        assertThat(summary.outcome()).isEqualTo(RunOutcome.OK);
        assertThat(h.host("old").redis().commands())
                .filteredOn(c -> c.startsWith("BGSAVE"))
                .containsExactly("BGSAVE", "BGSAVE", "BGSAVE");
        assertThat(h.host("old").redis().saves()).isEqualTo(1);
    }

    @Test
    void redis62SchedulesItsBgsave() throws Exception {
        Harness h = new Harness(dir, "new");
        h.host("new").redis().version("6.2.11").data().put("k", "v");
        RunSummary summary = h.run(PLAYBOOK);
        assertThat(summary.outcome()).isEqualTo(RunOutcome.OK);
        assertThat(h.host("new").redis().commands()).contains("BGSAVE SCHEDULE");
    }

    @Test
    void aBgsaveRefusedForGoodFailsAtOnceAndLeavesRedisRunning() throws Exception {
        Harness h = new Harness(dir, "old");
        h.host("old").redis().version("2.8.19").on("BGSAVE", args -> {
            throw new dev.fleetfix.redis.RedisException("old", "MISCONF disk full", null);
        });
        h.host("old").redis().data().put("k", "v");
        RunSummary summary = h.run(PLAYBOOK);
        assertThat(summary.outcome()).isEqualTo(RunOutcome.HALTED);
        assertThat(h.result("old", "restart_redis").message()).contains("BGSAVE: host old: redis: MISCONF disk full");
        assertThat(h.host("old").redis().commands())
                .filteredOn(c -> c.startsWith("BGSAVE"))
                .hasSize(1);
        assertThat(h.host("old").redis().restarts()).isZero();
    }
}
