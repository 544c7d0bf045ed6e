package dev.fleetfix.steps;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.fake.FakeHost;
import dev.fleetfix.fake.Harness;
import dev.fleetfix.rollout.event.RunOutcome;
import dev.fleetfix.rollout.event.RunSummary;
import dev.fleetfix.steps.facts.FactGatherer;
import dev.fleetfix.steps.facts.ShellFacts;
import dev.fleetfix.steps.model.Change;
import dev.fleetfix.steps.model.StepResult;
import dev.fleetfix.steps.model.StepStatus;
import dev.fleetfix.steps.persist.PersistMethods;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StepsOnFakeHostTest {
    @TempDir
    Path dir;

    private static String play(String steps) {
        return "- hosts: all\n  steps:\n" + steps;
    }

    @Test
    void auditGathersFactsAndChangesNothing() throws Exception {
        Harness h = new Harness(dir, "r1");
        Map<String, String> before = h.host("r1").snapshot();
        h.run(play("    - audit: {}\n"));
        StepResult audit = h.result("r1", "audit");
        assertThat(audit.status()).isEqualTo(StepStatus.OK);
        assertThat(audit.facts())
                .containsEntry("thp.enabled", "always")
                .containsEntry("thp.defrag", "always")
                .containsEntry("init", "systemd")
                .containsEntry("os.id", "debian")
                .containsEntry("redis.role", "master")
                .containsEntry("grub.tool", "update-grub");
        assertThat(h.host("r1").snapshot()).isEqualTo(before);
    }

    @Test
    void thpSetsBothFilesThenIsIdempotent() throws Exception {
        Harness h = new Harness(dir, "r1");
        String yaml = play("    - thp: {enabled: never, defrag: never}\n");
        h.run(yaml);
        StepResult first = h.result("r1", "thp");
        assertThat(first.status()).isEqualTo(StepStatus.CHANGED);
        assertThat(first.changes())
                .containsExactly(
                        new Change("thp.enabled", "always", "never"), new Change("thp.defrag", "always", "never"));
        assertThat(h.host("r1").thp("enabled")).isEqualTo("never");
        assertThat(h.host("r1").thp("defrag")).isEqualTo("never");

        h.run(yaml);
        assertThat(h.result("r1", "thp").status()).isEqualTo(StepStatus.OK);
        assertThat(h.result("r1", "thp").changes()).isEmpty();
    }

    @Test
    void thpInCheckModeReportsButWritesNothing() throws Exception {
        Harness h = new Harness(dir, "r1");
        Map<String, String> before = h.host("r1").snapshot();
        RunSummary summary = h.check(play("    - thp: {}\n    - assert: {that: \"thp.enabled == never\"}\n"));
        assertThat(h.result("r1", "thp").status()).isEqualTo(StepStatus.CHANGED);
        assertThat(h.result("r1", "thp").changes()).contains(new Change("thp.enabled", "always", "never"));
        assertThat(h.result("r1", "assert").status())
                .as("facts hold what check mode would have set")
                .isEqualTo(StepStatus.OK);
        assertThat(summary.changesPending()).isTrue();
        assertThat(h.host("r1").snapshot()).isEqualTo(before);
        assertThat(h.host("r1").scripts()).noneMatch(s -> s.contains(">") && s.contains("/sys/"));
    }

    @Test
    void persistSystemdWritesEnablesAndIsIdempotent() throws Exception {
        Harness h = new Harness(dir, "r1");
        String yaml = play("    - persist_thp: {method: systemd}\n");
        h.run(yaml);
        FakeHost r1 = h.host("r1");
        String unit = r1.read(PersistMethods.UNIT_PATH).orElseThrow();
        assertThat(unit)
                .contains("Type=oneshot")
                .contains("Before=basic.target redis-server.service")
                .contains("WantedBy=basic.target multi-user.target")
                .contains("echo never > /sys/kernel/mm/transparent_hugepage/enabled");
        assertThat(r1.calls()).contains("systemctl daemon-reload", "systemctl enable fleetfix-thp.service");
        assertThat(h.result("r1", "persist_thp").status()).isEqualTo(StepStatus.CHANGED);
        assertThat(h.result("r1", "persist_thp").diffs()).hasSize(1);

        int callsBefore = r1.calls().size();
        h.run(yaml);
        assertThat(h.result("r1", "persist_thp").status()).isEqualTo(StepStatus.OK);
        // read only: the preflight's look and the step's
        assertThat(r1.calls().subList(callsBefore, r1.calls().size()))
                .containsOnly("systemctl is-enabled fleetfix-thp.service");
    }

    /**
     * thp.path is what the host printed: a value that is not the kernel's THP directory would go into a file that
     * runs as root at boot.
     */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "systemd  | /var/x; touch /var/pwned",
                "tmpfiles | /sys/kernel/mm/transparent_hugepage/../../../../etc",
                "rc.local | /sys/kernel/mm/transparent_hugepage $(reboot)",
                "auto     | /sys/kernel/mm/other_hugepage"
            })
    void aThpPathTheHostPrintedThatIsNotTheKernelsIsRefusedAndNothingIsWritten(String method, String path)
            throws Exception {
        FactGatherer lying = ctx -> {
            Map<String, String> facts = new java.util.HashMap<>(new ShellFacts().gather(ctx));
            facts.put("thp.path", path);
            return facts;
        };
        Harness h = new Harness(dir, "r1").registry(StepRegistry.standard(lying));
        FakeHost r1 = h.host("r1");
        Map<String, String> before = r1.snapshot();

        h.run(play("    - audit: {}\n    - persist_thp: {method: " + method + "}\n"));

        StepResult persist = h.result("r1", "persist_thp");
        assertThat(persist.status()).isEqualTo(StepStatus.FAILED);
        assertThat(persist.message())
                .contains("host r1")
                .contains("thp.path '" + path + "' is not a THP directory of the kernel");
        assertThat(r1.snapshot()).as("no file written").isEqualTo(before);
        assertThat(r1.scripts()).noneMatch(script -> script.contains(path));
    }

    @Test
    void persistTmpfilesWritesWLines() throws Exception {
        Harness h = new Harness(dir, "r1");
        h.run(play("    - persist_thp: {method: tmpfiles}\n"));
        assertThat(h.host("r1").read(PersistMethods.TMPFILES_PATH).orElseThrow())
                .contains("w /sys/kernel/mm/transparent_hugepage/enabled - - - - never")
                .contains("w /sys/kernel/mm/transparent_hugepage/defrag - - - - never");
        h.run(play("    - persist_thp: {method: tmpfiles}\n"));
        assertThat(h.result("r1", "persist_thp").status()).isEqualTo(StepStatus.OK);
    }

    @Test
    void persistRcLocalBacksUpOnceAndNeverDuplicatesALine() throws Exception {
        Harness h = new Harness(dir, "r1");
        FakeHost r1 = h.host("r1");
        r1.write("/etc/rc.local", "#!/bin/sh -e\n/usr/local/bin/other-thing\nexit 0\n");
        h.run(play("    - persist_thp: {method: rc.local}\n"));
        h.run(play("    - persist_thp: {method: rc.local}\n"));
        String rc = r1.read("/etc/rc.local").orElseThrow();
        assertThat(rc)
                .isEqualTo("#!/bin/sh -e\n/usr/local/bin/other-thing\n"
                        + "echo never > /sys/kernel/mm/transparent_hugepage/enabled # fleetfix-thp enabled\n"
                        + "echo never > /sys/kernel/mm/transparent_hugepage/defrag # fleetfix-thp defrag\n"
                        + "exit 0\n");
        assertThat(h.result("r1", "persist_thp").status()).isEqualTo(StepStatus.OK);
        assertThat(r1.snapshot().keySet())
                .filteredOn(k -> k.startsWith("etc/rc.local.fleetfix-"))
                .hasSize(1);
    }

    @Test
    void persistGrubEditsCmdlineAndRunsUpdateGrub() throws Exception {
        Harness h = new Harness(dir, "r1");
        h.run(play("    - persist_thp: {method: grub}\n"));
        FakeHost r1 = h.host("r1");
        assertThat(r1.read("/etc/default/grub").orElseThrow())
                .contains("GRUB_CMDLINE_LINUX=\"transparent_hugepage=never\"")
                .contains("GRUB_CMDLINE_LINUX_DEFAULT=\"quiet\"");
        assertThat(r1.calls()).contains("update-grub");
        String backup = h.result("r1", "persist_thp").diffs().get(0).backup();
        assertThat(backup).matches("/etc/default/grub\\.fleetfix-\\d{8}T\\d{6}Z-[0-9a-f]{8}\\.bak");
        assertThat(r1.read(backup)).hasValueSatisfying(b -> assertThat(b).contains("GRUB_CMDLINE_LINUX=\"\""));
        assertThat(h.result("r1", "persist_thp").diffs().get(0).unifiedDiff())
                .contains("-GRUB_CMDLINE_LINUX=\"\"", "+GRUB_CMDLINE_LINUX=\"transparent_hugepage=never\"");

        h.run(play("    - persist_thp: {method: grub}\n"));
        assertThat(h.result("r1", "persist_thp").status()).isEqualTo(StepStatus.OK);
        assertThat(r1.calls()).containsOnlyOnce("update-grub");
    }

    @Test
    void persistAutoPicksSystemdOrTheKernelCommandLineAndRcLocal() throws Exception {
        Harness h = new Harness(dir, "sd", "sysv");
        h.host("sysv").removeSystemd();
        h.run(play("    - persist_thp: {method: auto}\n"));
        assertThat(h.host("sd").read(PersistMethods.UNIT_PATH)).isPresent();
        assertThat(h.host("sd").read("/etc/rc.local")).isEmpty();
        assertThat(h.host("sd").read("/etc/default/grub").orElseThrow()).doesNotContain("transparent_hugepage");
        assertThat(h.host("sysv").read(PersistMethods.UNIT_PATH)).isEmpty();
        assertThat(h.host("sysv").read("/etc/default/grub").orElseThrow())
                .contains("GRUB_CMDLINE_LINUX=\"transparent_hugepage=never\"");
        assertThat(h.host("sysv").read("/etc/rc.local"))
                .hasValueSatisfying(
                        rc -> assertThat(rc).startsWith("#!/bin/sh -e\n").endsWith("exit 0\n"));
    }

    @Test
    void persistInCheckModeWritesNothingAndShowsTheDiff() throws Exception {
        Harness h = new Harness(dir, "r1");
        Map<String, String> before = h.host("r1").snapshot();
        h.check(play("    - persist_thp: {method: grub}\n    - persist_thp: {method: systemd}\n"));
        assertThat(h.host("r1").snapshot()).isEqualTo(before);
        assertThat(h.results("r1", "persist_thp"))
                .allSatisfy(r -> assertThat(r.status()).isEqualTo(StepStatus.CHANGED))
                .allSatisfy(r -> assertThat(r.diffs()).isNotEmpty());
        assertThat(h.host("r1").calls()).allMatch(c -> c.startsWith("systemctl is-enabled"));
    }

    @Test
    void restartOnlyWhenSomethingChangedUnlessAlways() throws Exception {
        Harness h = new Harness(dir, "r1");
        String yaml = play("    - thp: {}\n    - restart_redis: {}\n    - wait_healthy: {timeout: 10s}\n");
        h.run(yaml);
        assertThat(h.result("r1", "restart_redis").status()).isEqualTo(StepStatus.CHANGED);
        assertThat(h.host("r1").calls()).contains("systemctl restart redis-server");
        assertThat(h.result("r1", "wait_healthy").status()).isEqualTo(StepStatus.OK);

        h.run(yaml);
        assertThat(h.result("r1", "restart_redis").status()).isEqualTo(StepStatus.SKIPPED);
        assertThat(h.host("r1").redis().restarts()).isEqualTo(1);

        h.run(play("    - restart_redis: {always: true}\n"));
        assertThat(h.host("r1").redis().restarts()).isEqualTo(2);
    }

    @Test
    void aRestartOwedByTheHostsRecordIsDoneThoughNothingChangedInThisPlay() throws Exception {
        Harness h = new Harness(dir, "r1");
        // a run that died after setting THP left its record; THP already reads never
        h.host("r1").write("/sys/kernel/mm/transparent_hugepage/enabled", "always madvise [never]\n");
        h.host("r1")
                .write("/sys/kernel/mm/transparent_hugepage/defrag", "always defer defer+madvise madvise [never]\n");
        h.host("r1")
                .write("/var/lib/fleetfix/restart-pending", "since=1800000000\nreason=thp.enabled always -> never\n");
        h.run(play("    - thp: {}\n    - restart_redis: {}\n"));
        assertThat(h.result("r1", "thp").status()).isEqualTo(StepStatus.OK);
        StepResult restart = h.result("r1", "restart_redis");
        assertThat(restart.status()).as(restart.message()).isEqualTo(StepStatus.CHANGED);
        assertThat(restart.message()).startsWith("restart pending on the host since 2027-01-15T08:00:00Z");
        assertThat(h.host("r1").redis().restarts()).isEqualTo(1);
        assertThat(h.host("r1").read("/var/lib/fleetfix/restart-pending")).isEmpty();
    }

    @Test
    void thpWritesTheHostsRecordAndAVerifiedRestartRemovesIt() throws Exception {
        Harness h = new Harness(dir, "r1");
        h.run(play("    - thp: {}\n"));
        assertThat(h.host("r1").read("/var/lib/fleetfix/restart-pending"))
                .hasValueSatisfying(r -> assertThat(r).contains("reason=thp.").containsPattern("since=\\d+"));
        h.run(play("    - restart_redis: {}\n"));
        assertThat(h.host("r1").redis().restarts()).isEqualTo(1);
        assertThat(h.host("r1").read("/var/lib/fleetfix/restart-pending")).isEmpty();
    }

    @Test
    void aCanaryLeftByARunThatDiedIsRemovedFirst() throws Exception {
        Harness h = new Harness(dir, "r1");
        h.host("r1").redis().data().put("fleetfix:canary:r1", "old-run");
        h.run(play("    - restart_redis: {}\n"));
        StepResult restart = h.result("r1", "restart_redis");
        assertThat(restart.status()).isEqualTo(StepStatus.SKIPPED);
        assertThat(restart.message())
                .startsWith("removed fleetfix:canary:r1, left on r1 by a run that did not end; nothing changed");
        assertThat(h.host("r1").redis().data()).doesNotContainKey("fleetfix:canary:r1");
    }

    @Test
    void roleUnchangedFailsWhenNoRoleWasKnownBefore() throws Exception {
        Harness h = new Harness(dir, "r1");
        h.run(play("    - wait_healthy: {timeout: 10s, gates: [ping, role_unchanged]}\n"));
        StepResult gates = h.result("r1", "wait_healthy");
        assertThat(gates.status()).isEqualTo(StepStatus.FAILED);
        assertThat(gates.message()).contains("role_unchanged").contains("no role known before");
    }

    @Test
    void restartInCheckModeDoesNotRestart() throws Exception {
        Harness h = new Harness(dir, "r1");
        h.check(play("    - thp: {}\n    - restart_redis: {}\n    - wait_healthy: {}\n"));
        assertThat(h.result("r1", "restart_redis").status()).isEqualTo(StepStatus.CHANGED);
        assertThat(h.host("r1").redis().restarts()).isZero();
        assertThat(h.host("r1").calls()).noneMatch(c -> c.contains("restart"));
    }

    @Test
    void commandHonoursCreatesUnlessAndQuotesVariables() throws Exception {
        Harness h = new Harness(dir, "r1");
        String yaml = "- hosts: all\n  vars: {word: \"a b; rm -rf x\"}\n  steps:\n"
                + "    - command: {cmd: \"echo {{ word }} > /etc/marker\", creates: /etc/marker}\n";
        h.run(yaml);
        assertThat(h.result("r1", "command").status()).isEqualTo(StepStatus.CHANGED);
        assertThat(h.host("r1").read("/etc/marker")).hasValue("a b; rm -rf x\n");
        h.run(yaml);
        assertThat(h.result("r1", "command").status()).isEqualTo(StepStatus.OK);
        assertThat(h.result("r1", "command").message()).contains("/etc/marker exists");

        h.run(play("    - command: {cmd: \"false\", unless: \"test -e /etc/marker\"}\n"));
        assertThat(h.result("r1", "command").status()).isEqualTo(StepStatus.OK);

        h.run(play("    - command: \"exit 3\"\n"));
        assertThat(h.result("r1", "command").status()).isEqualTo(StepStatus.FAILED);
        assertThat(h.result("r1", "command").message()).startsWith("exited 3");
    }

    @Test
    void assertFailsTheHostWhenAFactIsOff() throws Exception {
        Harness h = new Harness(dir, "r1");
        RunSummary summary = h.run(play("    - audit: {}\n    - assert: {that: \"thp.enabled == never\"}\n"));
        StepResult result = h.result("r1", "assert");
        assertThat(result.status()).isEqualTo(StepStatus.FAILED);
        assertThat(result.message()).isEqualTo("thp.enabled == never is false: thp.enabled is always");
        assertThat(summary.outcome()).isEqualTo(RunOutcome.HALTED);
    }

    @Test
    void whenSkipsAStep() throws Exception {
        Harness h = new Harness(dir, "r1");
        h.run(play("    - audit: {}\n    - name: only on sysv\n      when: init != systemd\n"
                + "      persist_thp: {method: rc.local}\n"));
        assertThat(h.result("r1", "persist_thp").status()).isEqualTo(StepStatus.SKIPPED);
        assertThat(h.host("r1").read("/etc/rc.local")).isEmpty();
    }
}
