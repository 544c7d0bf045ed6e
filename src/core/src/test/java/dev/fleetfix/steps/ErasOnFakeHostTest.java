package dev.fleetfix.steps;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.fake.Harness;
import dev.fleetfix.redis.RedisServerTest;
import dev.fleetfix.rollout.event.RunOutcome;
import dev.fleetfix.steps.model.Change;
import dev.fleetfix.steps.model.FileDiff;
import dev.fleetfix.steps.model.StepResult;
import dev.fleetfix.steps.model.StepStatus;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hosts of other eras and flavours: SysV init instead of systemd, Valkey instead of Redis. */
class ErasOnFakeHostTest {
    private static final String REMEDIATE =
            """
            - hosts: all
              steps:
                - audit: {}
                - thp: {}
                - persist_thp: {method: auto}
                - restart_redis: {}
                - wait_healthy: {timeout: 10s}
            """;

    @TempDir
    Path dir;

    /**
     * SysV init runs rc.local last, after /etc/init.d/redis-server: a 2.8 (no disable-thp) would start under THP
     * always at every boot. Where grub is, auto puts THP on the kernel command line, and defrag in rc.local.
     */
    @Test
    void aSysvHostIsRestartedThroughItsInitScriptAndPersistsThpOnTheKernelCommandLineAndInRcLocal() throws Exception {
        Harness h = new Harness(dir, "old");
        h.host("old").sysv("redis-server").redis().version("2.8.19").data().put("k", "v");

        assertThat(h.run(REMEDIATE).outcome()).isEqualTo(RunOutcome.OK);

        assertThat(h.result("old", "audit").facts())
                .containsEntry("init", "sysv")
                .containsEntry("init.pid1", "init")
                .containsEntry("redis.version", "2.8.19");
        StepResult persist = h.result("old", "persist_thp");
        assertThat(persist.facts()).containsEntry("persist_thp.method", "grub+rc.local");
        assertThat(persist.message()).doesNotContain("rc.local runs");
        assertThat(h.host("old").read("/etc/default/grub"))
                .hasValueSatisfying(g -> assertThat(g).contains("GRUB_CMDLINE_LINUX=\"transparent_hugepage=never\""));
        assertThat(h.host("old").read("/etc/rc.local")).hasValueSatisfying(rc -> assertThat(rc)
                .contains("echo never > /sys/kernel/mm/transparent_hugepage/enabled # fleetfix-thp enabled")
                .contains("echo never > /sys/kernel/mm/transparent_hugepage/defrag # fleetfix-thp defrag")
                .endsWith("exit 0\n"));
        assertThat(h.host("old").calls()).containsExactly("update-grub", "init.d redis-server restart");
        assertThat(h.result("old", "restart_redis").changes())
                .extracting(Change::what)
                .contains("service redis-server");
        assertThat(h.host("old").redis().data()).containsEntry("k", "v");
        assertThat(h.host("old").redis().commands()).contains("BGSAVE");
    }

    @Test
    void aSysvHostWithoutGrubPersistsInRcLocalAloneAndSaysThatItRunsAfterRedis() throws Exception {
        Harness h = new Harness(dir, "old");
        h.host("old").sysv("redis-server");
        h.host("old").delete("/etc/default/grub");
        String play = "- hosts: all\n  steps:\n    - persist_thp: {method: auto}\n";

        h.run(play);

        StepResult persist = h.result("old", "persist_thp");
        assertThat(persist.status()).isEqualTo(StepStatus.CHANGED);
        assertThat(persist.facts()).containsEntry("persist_thp.method", "rc.local");
        assertThat(persist.message())
                .isEqualTo("rc.local runs at the end of boot, after Redis has started: a Redis before 6.2 (no"
                        + " disable-thp) loads its data under the boot THP mode and keeps those huge pages until its"
                        + " next restart; method grub sets THP on the kernel command line, before any process starts");
        assertThat(persist.diffs()).extracting(FileDiff::path).containsExactly("/etc/rc.local");
        assertThat(h.host("old").read("/etc/default/grub")).isEmpty();
        assertThat(h.host("old").calls()).isEmpty();

        h.run(play);
        assertThat(h.result("old", "persist_thp").status()).isEqualTo(StepStatus.OK);
    }

    @Test
    void aSysvHostPersistsThpOnTheKernelCommandLineWithGrub() throws Exception {
        Harness h = new Harness(dir, "old");
        h.host("old").sysv("redis-server");
        h.run("- hosts: all\n  steps:\n    - persist_thp: {method: grub}\n");
        assertThat(h.host("old").read("/etc/default/grub"))
                .hasValueSatisfying(g -> assertThat(g).contains("GRUB_CMDLINE_LINUX=\"transparent_hugepage=never\""));
        assertThat(h.host("old").calls()).containsExactly("update-grub");
    }

    @Test
    void aSysvHostWithoutAnInitScriptFailsAndSaysWhy() throws Exception {
        Harness h = new Harness(dir, "old");
        h.host("old").sysv(); // no /etc/init.d/redis-server
        h.run("- hosts: all\n  steps:\n    - restart_redis: {always: true, data_check: false}\n");
        // this machine may have a 'service' command; either it fails, or the error names the service
        StepResult r = h.result("old", "restart_redis");
        assertThat(r.status()).isEqualTo(StepStatus.FAILED);
        assertThat(r.message()).contains("redis-server");
        assertThat(h.host("old").redis().restarts()).isZero();
    }

    @Test
    void valkeyWithoutANamedUnitRestartsTheUnitFoundRunningIt() throws Exception {
        Harness h = new Harness(dir, "vk");
        h.host("vk")
                .withoutNamedService()
                .runs("valkey-server.service")
                .redis()
                .server(RedisServerTest.info("valkey-8.1.1"));
        h.run("- hosts: all\n  steps:\n    - audit: {}\n    - restart_redis: {always: true}\n");
        // the preflight's look (systemctl cat) aside
        assertThat(h.host("vk").calls())
                .filteredOn(c -> !c.startsWith("systemctl cat"))
                .containsExactly("systemctl restart valkey-server.service");
        assertThat(h.result("vk", "audit").facts())
                .containsEntry("redis.version", "8.1.1")
                .containsEntry("redis.flavour", "valkey");
    }

    @Test
    void aUnitNamedInTheInventoryWins() throws Exception {
        Harness h = new Harness(dir, "vk");
        h.host("vk").redis().server(RedisServerTest.info("valkey-8.1.1"));
        h.run("- hosts: all\n  steps:\n    - restart_redis: {always: true}\n");
        // the preflight's look (systemctl cat) aside
        assertThat(h.host("vk").calls())
                .filteredOn(c -> !c.startsWith("systemctl cat"))
                .containsExactly("systemctl restart redis-server");
    }

    /**
     * Regression: THP is the machine's; the first instance changed it, the others found it never
     * and kept running with the huge pages they had (seen on the lab's three-instance host).
     */
    @Test
    void everyInstanceOfAMachineThatChangedIsRestarted() throws Exception {
        Harness h = new Harness(dir, "m@6379", "m@6380");
        h.host("m@6379").instanceOf("m");
        h.host("m@6380").instanceOf("m");
        // one THP file in reality: the second instance sees what the first one wrote
        h.host("m@6380").write("/sys/kernel/mm/transparent_hugepage/enabled", "always madvise [never]\n");
        h.host("m@6380")
                .write("/sys/kernel/mm/transparent_hugepage/defrag", "always defer defer+madvise madvise [never]\n");

        assertThat(h.run("- hosts: all\n  steps:\n    - thp: {}\n    - restart_redis: {}\n")
                        .outcome())
                .isEqualTo(RunOutcome.OK);

        assertThat(h.result("m@6380", "thp").status()).isEqualTo(StepStatus.OK);
        assertThat(h.result("m@6380", "restart_redis").status()).isEqualTo(StepStatus.CHANGED);
        assertThat(h.host("m@6379").redis().restarts()).isEqualTo(1);
        assertThat(h.host("m@6380").redis().restarts()).isEqualTo(1);
    }
}
