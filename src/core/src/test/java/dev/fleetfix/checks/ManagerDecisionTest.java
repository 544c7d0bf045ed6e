package dev.fleetfix.checks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.checks.DiscoveryOutput.Proc;
import dev.fleetfix.checks.RunningService.Manager;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Who manages one Redis process, from known lines about it: no listeners, no host, no I/O. */
class ManagerDecisionTest {
    private static final Map<String, String> SYSTEMD_HOST = Map.of("pid1", "systemd", "self.pidns", "pid:[1]");
    private static final Map<String, String> SYSV_HOST = Map.of("pid1", "init", "self.pidns", "pid:[1]");

    private static Proc proc(String... lines) {
        return procIn("pid:[1]", lines);
    }

    private static Proc procIn(String pidns, String... lines) {
        String block =
                "port=6379\npid=812\npid.comm=redis-server\npid.pidns=" + pidns + "\n" + String.join("\n", lines);
        return DiscoveryOutput.read(block, List.of(6379))
                .ports()
                .get(6379)
                .procs()
                .get(0);
    }

    private static RunningService decided(Map<String, String> host, String... lines) {
        return ManagerDecision.of(6379, host, proc(lines), Optional.of("/etc/redis/info.conf"));
    }

    @Test
    void aUnitWhoseMainProcessItIsRunsIt() {
        RunningService s = decided(
                SYSTEMD_HOST,
                "pid.arg=/usr/bin/redis-server",
                "pid.arg=/etc/redis/redis.conf",
                "unit=redis-server.service",
                "unit.Id=redis-server.service",
                "unit.MainPID=812",
                "unit.ExecStart={ path=/usr/bin/redis-server ; }");

        assertThat(s.manager()).isEqualTo(Manager.SYSTEMD);
        assertThat(s.name()).contains("redis-server.service");
        assertThat(s.bootUnit()).contains("redis-server.service");
        assertThat(s.config()).contains("/etc/redis/redis.conf");
    }

    @Test
    void aUnitThatNeitherStartsItNorHasItAsMainProcessIsNotItsService() {
        RunningService s = decided(
                SYSTEMD_HOST,
                "parent=500 bash",
                "unit=cron.service",
                "unit.MainPID=400",
                "unit.ExecStart={ path=/usr/sbin/cron ; }");

        assertThat(s.manager()).isEqualTo(Manager.UNKNOWN);
        assertThat(s.why())
                .contains("systemd unit cron.service, whose main process is 400")
                .contains("by hand");
        assertThat(s.config()).contains("/etc/redis/info.conf");
    }

    @Test
    void withSystemdAndNoUnitItWasStartedByHand() {
        RunningService s = decided(SYSTEMD_HOST, "pid.cgroup=0::/user.slice/user-0.slice/session-4.scope");

        assertThat(s.manager()).isEqualTo(Manager.UNKNOWN);
        assertThat(s.why()).contains("no systemd service (it is in login session session-4.scope)");
    }

    @Test
    void aUserManagersUnitIsNotRestartedAsASystemOne() {
        RunningService s = decided(SYSTEMD_HOST, "unit=user@1000.service", "unit.MainPID=812");

        assertThat(s.manager()).isEqualTo(Manager.UNKNOWN);
        assertThat(s.why()).contains("a user's systemd manager");
    }

    @Test
    void supervisordsProgramIsTheOneWhosePidIsInTheChainBelowIt() {
        String[] lines = {
            "parent=600 sh", "parent=300 supervisord", "supervisord=300", "supervisord.conf=/etc/supervisord.conf",
        };
        RunningService one = decided(SYSTEMD_HOST, with(lines, "supervisor.status=redis RUNNING pid 600, uptime 1:00"));
        RunningService two = decided(
                SYSTEMD_HOST,
                with(
                        lines,
                        "supervisor.status=a RUNNING pid 600, uptime 1:00",
                        "supervisor.status=b RUNNING pid 812, uptime 1:00"));

        assertThat(one.manager()).isEqualTo(Manager.SUPERVISORD);
        assertThat(one.name()).contains("redis");
        assertThat(one.supervisorConf()).contains("/etc/supervisord.conf");
        assertThat(two.manager()).isEqualTo(Manager.UNKNOWN);
        assertThat(two.why()).contains("several programs [a, b]");
    }

    @Test
    void withoutSystemdTheInitScriptThatNamesItsPidFileWinsAndTwoByConfigAreNotGuessed() {
        RunningService pidfile = decided(
                SYSV_HOST,
                "initd.pidfile=/etc/init.d/redis_6379",
                "initd.config=/etc/init.d/redis_6379",
                "initd.config=/etc/init.d/redis-old");
        RunningService two = decided(SYSV_HOST, "initd.config=/etc/init.d/a", "initd.config=/etc/init.d/b");
        RunningService backup = decided(SYSV_HOST, "initd.config=/etc/init.d/a", "initd.config=/etc/init.d/a~");

        assertThat(pidfile.manager()).isEqualTo(Manager.SYSV);
        assertThat(pidfile.name()).contains("redis_6379");
        assertThat(pidfile.why()).isEqualTo("its pid file is named in /etc/init.d/redis_6379");
        assertThat(two.manager()).isEqualTo(Manager.UNKNOWN);
        assertThat(two.why()).contains("/etc/init.d/a, /etc/init.d/b");
        assertThat(backup.manager()).isEqualTo(Manager.SYSV);
        assertThat(backup.name()).contains("a");
    }

    @Test
    void anotherPidNamespaceOrAShimAboveItIsAContainerBeforeAnyUnit() {
        RunningService ns = ManagerDecision.of(
                6379, SYSTEMD_HOST, procIn("pid:[2]", "unit=redis.service", "unit.MainPID=812"), Optional.empty());
        RunningService shim = decided(SYSTEMD_HOST, "parent=90 containerd-shim-runc-v2", "unit=redis.service");

        assertThat(ns.manager()).isEqualTo(Manager.CONTAINER);
        assertThat(ns.why()).contains("its own PID namespace");
        assertThat(shim.manager()).isEqualTo(Manager.CONTAINER);
        assertThat(shim.why()).contains("started by containerd-shim-runc-v2");
    }

    private static String[] with(String[] lines, String... more) {
        String[] all = new String[lines.length + more.length];
        System.arraycopy(lines, 0, all, 0, lines.length);
        System.arraycopy(more, 0, all, lines.length, more.length);
        return all;
    }
}
