package dev.fleetfix.playbook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.fake.Harness;
import dev.fleetfix.rollout.event.RunOutcome;
import dev.fleetfix.rollout.event.RunSummary;
import dev.fleetfix.rollout.plan.RunOptions;
import dev.fleetfix.rollout.plan.RunPlan;
import dev.fleetfix.steps.model.StepResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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
    void thpOffOnAnInstallServerHostThatNamesNoServiceRestartsAndOrdersBeforeTheUnitFoundRunningRedis()
            throws Exception {
        // the host: /etc/init.d/redis_6379 turned into redis_6379.service by systemd; no redis-server unit
        Harness h = new Harness(dir, "classic-1");
        h.host("classic-1").withoutNamedService().runs("redis_6379.service");

        RunSummary summary = h.run(Files.readString(Path.of("playbooks/thp-off.yaml")));

        assertThat(summary.outcome()).as(h.events.toString()).isEqualTo(RunOutcome.OK);
        assertThat(h.host("classic-1").calls()).contains("systemctl restart redis_6379.service");
        assertThat(h.host("classic-1").calls()).noneMatch(c -> c.contains("redis-server"));
        assertThat(h.host("classic-1")
                        .read("/etc/systemd/system/fleetfix-thp.service")
                        .orElseThrow())
                .contains("\nBefore=basic.target redis_6379.service\n");
        assertThat(h.host("classic-1").redis().restarts()).isEqualTo(1);
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

    private static final String CONF = "/etc/redis/redis.conf";

    /** A fake host whose Redis runs with tcp-backlog {@code backlog} (running and in its file). */
    private static void redisWithBacklog(Harness h, String host, String backlog, String latency) {
        h.host(host).write(CONF, "bind 127.0.0.1\ntcp-backlog " + backlog + "\n");
        h.host(host)
                .redis()
                .server(Map.of("redis_version", "7.0.15", "config_file", CONF))
                .config("tcp-backlog", backlog)
                .config("latency-monitor-threshold", latency);
    }

    @Test
    void kernelTuningKeepsSomaxconnAtLeastTheBacklogAndRestartsOnlyWhereNeeded() throws Exception {
        Harness h = new Harness(dir, "r1", "r2");
        redisWithBacklog(h, "r1", "511", "0");
        h.host("r1").write("/proc/sys/net/core/somaxconn", "128\n");
        // r2 is tuned already: nothing to change, no restart
        redisWithBacklog(h, "r2", "1024", "100");
        h.host("r2").write("/proc/sys/vm/overcommit_memory", "1\n");
        h.host("r2")
                .write("/etc/sysctl.d/90-fleetfix-redis.conf", "vm.overcommit_memory = 1\nnet.core.somaxconn = 4096\n");

        RunSummary summary = h.run(Files.readString(Path.of("playbooks/kernel-tuning.yaml")));

        assertThat(summary.outcome()).as(h.events.toString()).isEqualTo(RunOutcome.OK);
        for (String host : List.of("r1", "r2")) {
            assertThat(h.host(host).read("/proc/sys/net/core/somaxconn")).hasValue("4096\n");
            assertThat(h.host(host).read("/proc/sys/vm/overcommit_memory")).hasValue("1\n");
            assertThat(h.host(host).read(CONF).orElseThrow()).contains("tcp-backlog 1024\n");
            assertThat(h.results(host, "assert"))
                    .extracting(StepResult::message)
                    .containsExactly(
                            "net.core.somaxconn >= redis.tcp_backlog holds",
                            "vm.overcommit_memory == 1 and net.core.somaxconn >= 4096 holds");
        }
        assertThat(h.host("r1").redis().restarts()).isEqualTo(1);
        assertThat(h.host("r2").redis().restarts()).isZero();
    }

    @Test
    void aTcpBacklogAboveSomaxconnFailsNamingBothValuesBeforeRedisRestarts() throws Exception {
        String shipped = Files.readString(Path.of("playbooks/kernel-tuning.yaml"));
        String raised = shipped.replace("tcp-backlog: 1024", "tcp-backlog: 8192");
        assertThat(raised).isNotEqualTo(shipped);
        Harness h = new Harness(dir, "r1");
        redisWithBacklog(h, "r1", "511", "0");
        String why = "somaxconn must be at least Redis's tcp-backlog, or the kernel cuts the listen backlog:"
                + " net.core.somaxconn >= redis.tcp_backlog is false: net.core.somaxconn is 4096,"
                + " redis.tcp_backlog is 8192";

        RunSummary check = h.check(raised);
        assertThat(check.failed()).containsExactly("r1");
        assertThat(h.result("r1", "assert").message()).isEqualTo(why);

        // apply: the assert comes after the sysctl change, so the preflight refuses the host before that change
        var files = h.host("r1").snapshot();
        RunSummary run = h.run(raised);
        assertThat(run.failed()).containsExactly("r1");
        assertThat(h.events)
                .filteredOn(dev.fleetfix.rollout.event.HostFinished.class::isInstance)
                .singleElement()
                .satisfies(e -> assertThat(((dev.fleetfix.rollout.event.HostFinished) e).reason())
                        .isEqualTo("refused before any change: assert: " + why));
        assertThat(h.results("r1", "restart_redis")).isEmpty();
        assertThat(h.host("r1").redis().restarts()).isZero();
        assertThat(h.host("r1").snapshot()).as("no sysctl written").isEqualTo(files);
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
