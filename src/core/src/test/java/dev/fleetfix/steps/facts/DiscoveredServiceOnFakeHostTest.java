package dev.fleetfix.steps.facts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.fake.FakeHost;
import dev.fleetfix.fake.Harness;
import dev.fleetfix.steps.model.StepResult;
import dev.fleetfix.steps.model.StepStatus;
import dev.fleetfix.transport.Command;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hosts whose inventory names no service: restart_redis, persist_thp and the audit use what runs Redis there. */
class DiscoveredServiceOnFakeHostTest {
    private static final String RESTART = "- hosts: all\n  steps:\n    - restart_redis: {always: true}\n";

    @TempDir
    Path dir;

    private static String supervised(String program) {
        return "self.pidns=pid:[1]\npid1=systemd\ninfo.config=\nport=6379\nsockets=1\npid=4242\n"
                + "pid.comm=redis-server\npid.exe=/usr/bin/redis-server\npid.pidns=pid:[1]\n"
                + "pid.cgroup=0::/system.slice/supervisor.service\nparent=900 supervisord\nparent=1 systemd\n"
                + "unit=supervisor.service\nunit.Id=supervisor.service\nunit.MainPID=900\nsupervisord=900\n"
                + "supervisord.conf=/etc/supervisor/supervisord.conf\n"
                + "supervisor.status=" + program + "   RUNNING   pid 4242, uptime 0:10:00\nend=1\n";
    }

    @Test
    void restartRedisRestartsTheGeneratedSysvUnitFoundRunningRedisNotAnAssumedRedisServer() throws Exception {
        Harness h = new Harness(dir, "classic-1");
        h.host("classic-1").withoutNamedService().runs("redis_6379.service");

        h.run(RESTART);

        StepResult r = h.result("classic-1", "restart_redis");
        assertThat(r.status()).isEqualTo(StepStatus.CHANGED);
        // the preflight's read-only look (systemctl cat) aside
        assertThat(h.host("classic-1").calls())
                .filteredOn(c -> !c.startsWith("systemctl cat"))
                .containsExactly("systemctl restart redis_6379.service");
        assertThat(h.host("classic-1").redis().restarts()).isEqualTo(1);
        assertThat(r.message()).contains("found redis on :6379 (pid 4242) run by systemd unit redis_6379.service");
        assertThat(r.facts())
                .containsEntry("redis.service.manager", "systemd")
                .containsEntry("redis.service.name", "redis_6379.service");
    }

    @Test
    void withoutSystemdTheInitScriptFoundRunningRedisIsRestarted() throws Exception {
        Harness h = new Harness(dir, "old");
        h.host("old").withoutNamedService().sysv("redis_6379");

        h.run(RESTART);

        assertThat(h.result("old", "restart_redis").status()).isEqualTo(StepStatus.CHANGED);
        assertThat(h.host("old").calls()).containsExactly("init.d redis_6379 restart");
    }

    @Test
    void aSupervisordProgramIsRestartedWithSupervisorctl() throws Exception {
        Harness h = new Harness(dir, "sv");
        FakeHost host = h.host("sv").withoutNamedService().discovers(supervised("redis"));
        host.command("supervisorctl", "echo \"supervisorctl $*\" >> \"$FAKE_ROOT/calls.log\"; echo 'redis: started'\n");

        h.run(RESTART);

        StepResult r = h.result("sv", "restart_redis");
        assertThat(r.status()).as(r.message()).isEqualTo(StepStatus.CHANGED);
        // the fake host roots /etc in its directory
        // the preflight's read-only look (supervisorctl status) aside
        assertThat(host.calls())
                .filteredOn(c -> c.contains(" restart "))
                .singleElement()
                .asString()
                .matches("supervisorctl -c \\S*/etc/supervisor/supervisord.conf restart redis");
        assertThat(host.redis().restarts()).isEqualTo(1);
        assertThat(r.facts()).containsEntry("redis.service.manager", "supervisord");
    }

    /**
     * supervisorctl talks to supervisord's socket, which is root's (0700) in Debian's and the upstream sample
     * configuration: the program's state is read as root, through the become path, as the restart and the check are;
     * as the login user it read nothing, and a Redis found stopped after discovery had seen it (it died in between,
     * or supervisord holds it in BACKOFF) looked of unknown state and was refused.
     */
    @Test
    void aStoppedSupervisordProgramsStateIsReadAsRootAndItIsRestarted() throws Exception {
        Harness h = new Harness(dir, "sv");
        FakeHost host = h.host("sv").withoutNamedService().discovers(supervised("redis"));
        host.command(
                "supervisorctl",
                "echo \"supervisorctl $*\" >> \"$FAKE_ROOT/calls.log\"\n"
                        + "case \"$*\" in *status*) echo 'redis   STOPPED   Dec 06 08:00 PM';; *) echo 'redis: started';; esac\n");
        host.stopRedis();

        h.run(RESTART);

        StepResult r = h.result("sv", "restart_redis");
        assertThat(r.status()).as(r.message()).isEqualTo(StepStatus.CHANGED);
        assertThat(r.message()).as("the state was read").contains("inactive");
        Command state = host.commands().stream()
                .filter(c -> c.script().contains("echo unit=$(") && c.script().contains("supervisorctl"))
                .findFirst()
                .orElseThrow();
        assertThat(state.become()).as("read as root").isTrue();
        assertThat(state.script()).doesNotContain("sudo");
        assertThat(host.redis().restarts()).isEqualTo(1);
    }

    @Test
    void aSupervisorctlThatAnswersAnErrorFailsTheRestart() throws Exception {
        Harness h = new Harness(dir, "sv");
        FakeHost host = h.host("sv").withoutNamedService().discovers(supervised("redis"));
        host.command("supervisorctl", "echo 'redis: ERROR (spawn error)'; exit 0\n");

        h.run(RESTART);

        StepResult r = h.result("sv", "restart_redis");
        assertThat(r.status()).isEqualTo(StepStatus.FAILED);
        assertThat(r.message()).contains("supervisord program redis").contains("spawn error");
    }

    @Test
    void aRedisInAContainerIsRefusedBeforeAnyChangeSayingWhatToDo() throws Exception {
        Harness h = new Harness(dir, "ct");
        FakeHost host = h.host("ct")
                .withoutNamedService()
                .discovers("self.pidns=pid:[1]\npid1=systemd\n"
                        + "port=6379\nsockets=1\npid=5000\npid.comm=redis-server\npid.pidns=pid:[2]\n"
                        + "pid.cgroup=0::/system.slice/docker-0123456789abcdef0123456789abcdef.scope\n"
                        + "parent=4990 containerd-shim\nend=1\n");
        Map<String, String> before = host.snapshot();

        h.run(RESTART);

        StepResult r = h.result("ct", "restart_redis");
        assertThat(r.status()).isEqualTo(StepStatus.FAILED);
        assertThat(r.message())
                .contains("container docker 0123456789ab")
                .contains("restart the container yourself")
                .contains("restart_redis command:");
        assertThat(host.redis().restarts()).isZero();
        assertThat(host.calls()).isEmpty();
        assertThat(host.redis().data()).doesNotContainKey("fleetfix:canary:ct");
        assertThat(host.snapshot()).isEqualTo(before);
    }

    @Test
    void aRedisThatIsNotRunningIsNotGivenAGuessedServiceName() throws Exception {
        Harness h = new Harness(dir, "down");
        h.host("down").withoutNamedService().stopRedis();

        h.run(RESTART);

        StepResult r = h.result("down", "restart_redis");
        assertThat(r.status()).isEqualTo(StepStatus.FAILED);
        assertThat(r.message()).contains("nothing listens on :6379").contains("redis_service");
        assertThat(h.host("down").calls()).isEmpty();
    }

    @Test
    void aRestartThatReturnsWithoutRestartingRedisFailsOnItsUnchangedRunId() throws Exception {
        Harness h = new Harness(dir, "liar");
        h.host("liar").withoutNamedService().sysv("redis_6379").restartDoesNothing();

        h.run("- hosts: all\n  steps:\n    - restart_redis: {always: true, timeout: 5s}\n");

        StepResult r = h.result("liar", "restart_redis");
        assertThat(r.status()).isEqualTo(StepStatus.FAILED);
        assertThat(r.message()).contains("run_id it had before the restart").contains("was not restarted");
    }

    @Test
    void checkModeForecastsWithTheDiscoveredUnit() throws Exception {
        Harness h = new Harness(dir, "classic-1");
        FakeHost host = h.host("classic-1").withoutNamedService().runs("redis_6379.service");

        h.check(RESTART);

        StepResult r = h.result("classic-1", "restart_redis");
        assertThat(r.status()).isEqualTo(StepStatus.CHANGED);
        assertThat(r.message()).contains("run by systemd unit redis_6379.service");
        assertThat(host.calls()).contains("systemctl cat -- redis_6379.service");
        assertThat(host.redis().restarts()).isZero();
    }

    @Test
    void persistThpOrdersItsUnitBeforeTheDiscoveredUnit() throws Exception {
        Harness h = new Harness(dir, "classic-1");
        FakeHost host = h.host("classic-1").withoutNamedService().runs("redis_6379.service");

        h.run("- hosts: all\n  steps:\n    - persist_thp: {method: systemd}\n");

        assertThat(host.read("/etc/systemd/system/fleetfix-thp.service").orElseThrow())
                .contains("\nBefore=basic.target redis_6379.service\n")
                .doesNotContain("redis-server");
    }

    @Test
    void persistThpUnderSupervisordOrdersItsUnitBeforeSupervisorsUnit() throws Exception {
        Harness h = new Harness(dir, "sv");
        FakeHost host = h.host("sv").withoutNamedService().discovers(supervised("redis"));

        h.run("- hosts: all\n  steps:\n    - persist_thp: {method: systemd}\n");

        assertThat(host.read("/etc/systemd/system/fleetfix-thp.service").orElseThrow())
                .contains("\nBefore=basic.target supervisor.service\n");
    }

    @Test
    void persistThpWithNoRedisFoundNamesNoGuessedUnit() throws Exception {
        Harness h = new Harness(dir, "down");
        FakeHost host = h.host("down").withoutNamedService();
        host.stopRedis();

        h.run("- hosts: all\n  steps:\n    - persist_thp: {method: systemd}\n");

        assertThat(host.read("/etc/systemd/system/fleetfix-thp.service").orElseThrow())
                .contains("\nBefore=basic.target\n")
                .doesNotContain("redis-server");
        assertThat(h.result("down", "persist_thp").message()).contains("Before= names no Redis unit");
    }

    @Test
    void persistThpKeepsTheUnitsItFoundBeforeWhileRedisIsDown() throws Exception {
        Harness h = new Harness(dir, "classic-1");
        FakeHost host = h.host("classic-1").withoutNamedService().runs("redis_6379.service");
        String play = "- hosts: all\n  steps:\n    - persist_thp: {method: systemd}\n";
        h.run(play);
        String unit = host.read("/etc/systemd/system/fleetfix-thp.service").orElseThrow();
        host.stopRedis();

        h.run(play);

        assertThat(host.read("/etc/systemd/system/fleetfix-thp.service")).contains(unit);
        assertThat(h.result("classic-1", "persist_thp").message()).contains("kept the Before= units");
    }

    @Test
    void theAuditSaysWhatRunsRedisAndKeepsItAsFacts() throws Exception {
        Harness h = new Harness(dir, "classic-1");
        h.host("classic-1").withoutNamedService().runs("redis_6379.service");

        h.run("- hosts: all\n  steps:\n    - audit: {}\n");

        StepResult r = h.result("classic-1", "audit");
        assertThat(r.message()).contains("redis on :6379 (pid 4242) run by systemd unit redis_6379.service");
        assertThat(r.facts())
                .containsEntry("redis.service.manager", "systemd")
                .containsEntry("redis.service.name", "redis_6379.service")
                .containsEntry("redis.service.boot_unit", "redis_6379.service");
    }

    @Test
    void aServiceNamedInTheInventoryIsStillUsedAsIsWithoutDiscovery() throws Exception {
        Harness h = new Harness(dir, "named");
        FakeHost host = h.host("named").runs("something-else.service");

        h.run(RESTART);

        assertThat(host.calls())
                .filteredOn(c -> !c.startsWith("systemctl cat"))
                .containsExactly("systemctl restart redis-server");
        assertThat(host.scripts()).noneMatch(s -> s.startsWith(dev.fleetfix.checks.ServiceDiscovery.FIRST_LINE));
    }
}
