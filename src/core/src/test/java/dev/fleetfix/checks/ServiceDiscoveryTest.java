package dev.fleetfix.checks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.checks.RunningService.Manager;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ServiceDiscoveryTest {
    private static final String HEAD = "self.pidns=pid:[4026531836]\npid1=systemd\ninfo.config=\n";

    private static RunningService one(String output) {
        return ServiceDiscovery.decide(output, "", List.of(6379), Optional.empty())
                .get(0);
    }

    private static String listener(String pid, String comm, String exe, String... more) {
        return "port=6379\nsockets=1\npid=" + pid + "\npid.comm=" + comm + "\npid.exe=" + exe
                + "\npid.pidns=pid:[4026531836]\n" + String.join("\n", more) + "\n";
    }

    @Test
    void aUnitSystemdGeneratedFromAnInstallServerScriptIsRestartedByItsOwnNameAndShowsTheScript() {
        RunningService s = one(HEAD.replace("info.config=", "info.config=/etc/redis/6379.conf")
                + listener(
                        "812",
                        "redis-server",
                        "/usr/local/bin/redis-server",
                        "pid.arg=/usr/local/bin/redis-server 127.0.0.1:6379",
                        "pid.cgroup=0::/system.slice/redis_6379.service",
                        "parent=1 systemd",
                        "unit=redis_6379.service",
                        "unit.Id=redis_6379.service",
                        "unit.SourcePath=/etc/init.d/redis_6379",
                        "unit.FragmentPath=/run/systemd/generator.late/redis_6379.service",
                        "unit.MainPID=0",
                        "unit.ExecStart={ path=/etc/init.d/redis_6379 ; argv[]=/etc/init.d/redis_6379 start ; }"));

        assertThat(s.manager()).isEqualTo(Manager.SYSTEMD);
        assertThat(s.name()).contains("redis_6379.service");
        assertThat(s.initScript()).contains("/etc/init.d/redis_6379");
        assertThat(s.config()).contains("/etc/redis/6379.conf");
        assertThat(s.describe())
                .isEqualTo("redis on :6379 (pid 812) run by systemd unit redis_6379.service (SysV script"
                        + " /etc/init.d/redis_6379), config /etc/redis/6379.conf");
        assertThat(s.facts())
                .containsEntry("redis.service.manager", "systemd")
                .containsEntry("redis.service.name", "redis_6379.service")
                .containsEntry("redis.service.init_script", "/etc/init.d/redis_6379");
    }

    @Test
    void debiansMultiInstanceTemplateUnitIsFoundUnderItsSlice() {
        RunningService s = one(HEAD
                + listener(
                        "900",
                        "redis-server",
                        "/usr/bin/redis-server",
                        "pid.arg=/usr/bin/redis-server 127.0.0.1:6379",
                        "pid.cgroup=0::/system.slice/system-redis\\x2dserver.slice/redis-server@main.service",
                        "parent=1 systemd",
                        "unit=redis-server@main.service",
                        "unit.Id=redis-server@main.service",
                        "unit.SourcePath=",
                        "unit.MainPID=900",
                        "unit.ExecStart={ path=/usr/bin/redis-server ; argv[]=/usr/bin/redis-server"
                                + " /etc/redis/redis-main.conf ; }"));

        assertThat(s.manager()).isEqualTo(Manager.SYSTEMD);
        assertThat(s.name()).contains("redis-server@main.service");
        assertThat(s.initScript()).isEmpty();
    }

    @Test
    void cgroupV1LinesAndACustomUnitNameWork() {
        RunningService s = one(HEAD
                + listener(
                        "77",
                        "redis-server",
                        "/opt/redis/bin/redis-server",
                        "pid.arg=/opt/redis/bin/redis-server",
                        "pid.arg=/srv/cache/cache.conf",
                        "pid.cgroup=12:pids:/system.slice/cache-store.service",
                        "pid.cgroup=4:memory:/system.slice/cache-store.service",
                        "pid.cgroup=1:name=systemd:/system.slice/cache-store.service",
                        "parent=1 systemd",
                        "unit=cache-store.service",
                        "unit.Id=cache-store.service",
                        "unit.MainPID=77",
                        "unit.ExecStart={ path=/opt/redis/bin/redis-server ; argv[]=... }"));

        assertThat(s.manager()).isEqualTo(Manager.SYSTEMD);
        assertThat(s.name()).contains("cache-store.service");
        assertThat(s.config()).contains("/srv/cache/cache.conf");
    }

    @Test
    void redisAt6379UnitWithAForkingMainPidAboveItIsTrusted() {
        RunningService s = one(HEAD
                + listener(
                        "501",
                        "redis-server",
                        "/usr/bin/redis-server",
                        "pid.cgroup=0::/system.slice/system-redis.slice/redis@6379.service",
                        "parent=500 redis-wrapper",
                        "parent=1 systemd",
                        "unit=redis@6379.service",
                        "unit.Id=redis@6379.service",
                        "unit.MainPID=500",
                        "unit.ExecStart={ path=/usr/local/sbin/redis-wrapper ; }"));

        assertThat(s.manager()).isEqualTo(Manager.SYSTEMD);
        assertThat(s.name()).contains("redis@6379.service");
    }

    @Test
    void redisStartedByHandInsideAnotherUnitIsNotThatUnitsService() {
        RunningService s = one(HEAD
                + listener(
                        "3000",
                        "redis-server",
                        "/usr/bin/redis-server",
                        "pid.cgroup=0::/system.slice/ssh.service",
                        "parent=2990 bash",
                        "parent=2980 sshd",
                        "parent=1 systemd",
                        "unit=ssh.service",
                        "unit.Id=ssh.service",
                        "unit.MainPID=400",
                        "unit.ExecStart={ path=/usr/sbin/sshd ; argv[]=/usr/sbin/sshd -D ; }"));

        assertThat(s.manager()).isEqualTo(Manager.UNKNOWN);
        assertThat(s.why()).contains("ssh.service").contains("started by hand");
    }

    @Test
    void aLoginSessionIsNoService() {
        RunningService s = one(HEAD
                + listener(
                        "3000",
                        "redis-server",
                        "/usr/bin/redis-server",
                        "pid.cgroup=0::/user.slice/user-0.slice/session-5.scope",
                        "parent=2990 bash",
                        "parent=1 systemd"));

        assertThat(s.manager()).isEqualTo(Manager.UNKNOWN);
        assertThat(s.restartable()).isFalse();
        assertThat(s.why()).contains("session-5.scope");
    }

    @Test
    void supervisordsProgramIsFoundByItsPidEvenBehindAWrapperAndUnderSupervisorsOwnUnit() {
        RunningService s = one(HEAD
                + listener(
                        "1201",
                        "redis-server",
                        "/usr/bin/redis-server",
                        "pid.cgroup=0::/system.slice/supervisor.service",
                        "parent=1200 sh",
                        "parent=1100 supervisord",
                        "parent=1 systemd",
                        "unit=supervisor.service",
                        "unit.Id=supervisor.service",
                        "unit.MainPID=1100",
                        "supervisord=1100",
                        "supervisord.conf=/etc/supervisor/supervisord.conf",
                        "supervisor.status=other                            RUNNING   pid 1150, uptime 1:00:00",
                        "supervisor.status=cache:redis-6379                 RUNNING   pid 1200, uptime 1:00:00",
                        "supervisor.status=stopped                          STOPPED   Dec 02 01:00 PM"));

        assertThat(s.manager()).isEqualTo(Manager.SUPERVISORD);
        assertThat(s.name()).contains("cache:redis-6379");
        assertThat(s.supervisorConf()).contains("/etc/supervisor/supervisord.conf");
        assertThat(s.describe()).contains("supervisord program cache:redis-6379");
    }

    @Test
    void supervisordThatNamesNoProgramForThePidIsUnknownNotItsOwnUnit() {
        RunningService s = one(HEAD
                + listener(
                        "1201",
                        "redis-server",
                        "/usr/bin/redis-server",
                        "pid.cgroup=0::/system.slice/supervisor.service",
                        "parent=1100 supervisord",
                        "unit=supervisor.service",
                        "supervisord=1100",
                        "supervisord.conf=",
                        "supervisor.status=unix:///var/run/supervisor.sock no such file"));

        assertThat(s.manager()).isEqualTo(Manager.UNKNOWN);
        assertThat(s.why()).contains("supervisord (pid 1100)").contains("no program");
    }

    @Test
    void withoutSystemdTheInitScriptNamingItsPidFileRunsIt() {
        RunningService s = one(HEAD.replace("pid1=systemd", "pid1=init")
                + listener(
                        "55",
                        "redis-server",
                        "/usr/local/bin/redis-server",
                        "pid.cgroup=0::/",
                        "parent=1 init",
                        "pidfile=/run/redis_6379.pid",
                        "initd.pidfile=/etc/init.d/redis_6379",
                        "initd.config=/etc/init.d/redis_6379",
                        "initd.config=/etc/init.d/redis_6379.dpkg-old"));

        assertThat(s.manager()).isEqualTo(Manager.SYSV);
        assertThat(s.name()).contains("redis_6379");
        assertThat(s.initScript()).contains("/etc/init.d/redis_6379");
        assertThat(s.describe()).contains("run by SysV script /etc/init.d/redis_6379");
    }

    @Test
    void withoutSystemdTwoScriptsNamingTheConfigAreNotGuessedBetween() {
        RunningService s = one(HEAD.replace("pid1=systemd", "pid1=init")
                + listener(
                        "55",
                        "redis-server",
                        "/usr/bin/redis-server",
                        "initd.config=/etc/init.d/redis-a",
                        "initd.config=/etc/init.d/redis-b"));

        assertThat(s.manager()).isEqualTo(Manager.UNKNOWN);
        assertThat(s.why()).contains("/etc/init.d/redis-a").contains("/etc/init.d/redis-b");
    }

    @Test
    void withoutSystemdAndNoScriptItIsUnknown() {
        RunningService s = one(
                HEAD.replace("pid1=systemd", "pid1=init") + listener("55", "redis-server", "/usr/bin/redis-server"));

        assertThat(s.manager()).isEqualTo(Manager.UNKNOWN);
        assertThat(s.name()).isEmpty();
    }

    @Test
    void aDockerContainerIsToldByItsPidNamespaceAndNamedFromItsCgroup() {
        RunningService s = one(HEAD
                + "port=6379\nsockets=1\npid=4100\npid.comm=redis-server\npid.exe=/usr/local/bin/redis-server\n"
                + "pid.pidns=pid:[4026532999]\n"
                + "pid.cgroup=0::/system.slice/docker-3f4e5d6c7b8a9f0e1d2c3b4a5968778695a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0.scope\n"
                + "parent=4080 containerd-shim\nparent=1 systemd\n");

        assertThat(s.manager()).isEqualTo(Manager.CONTAINER);
        assertThat(s.name()).contains("docker 3f4e5d6c7b8a");
        assertThat(s.restartable()).isFalse();
        assertThat(s.why()).contains("container");
    }

    @Test
    void podmanCgroupV1AndKubernetesPodsAreContainersToo() {
        RunningService podman = one(HEAD
                + listener(
                        "10",
                        "redis-server",
                        "/usr/bin/redis-server",
                        "pid.cgroup=1:name=systemd:/machine.slice/libpod-0123456789abcdef0123456789abcdef.scope",
                        "parent=9 conmon"));
        RunningService k8s = one(HEAD
                + listener(
                        "10",
                        "redis-server",
                        "/usr/bin/redis-server",
                        "pid.cgroup=0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1.slice"
                                + "/cri-containerd-aabbccddeeff00112233445566778899.scope",
                        "parent=9 containerd-shim-runc-v2"));

        assertThat(podman.manager()).isEqualTo(Manager.CONTAINER);
        assertThat(podman.name()).contains("podman 0123456789ab");
        assertThat(k8s.manager()).isEqualTo(Manager.CONTAINER);
        assertThat(k8s.name()).contains("containerd aabbccddeeff");
    }

    @Test
    void systemdInsideTheSameContainerAsTheShellIsNotAContainerRestart() {
        // a lab host: the shell runs in the same container (same PID namespace), seen through the host's cgroup tree
        RunningService s = one(HEAD
                + listener(
                        "300",
                        "redis-server",
                        "/usr/bin/redis-server",
                        "pid.cgroup=0::/system.slice/docker-aaaaaaaaaaaaaaaaaaaaaaaa.scope/system.slice/redis-server.service",
                        "parent=1 systemd",
                        "unit=redis-server.service",
                        "unit.Id=redis-server.service",
                        "unit.MainPID=300"));

        assertThat(s.manager()).isEqualTo(Manager.SYSTEMD);
        assertThat(s.name()).contains("redis-server.service");
    }

    @Test
    void nothingListeningIsSaidAndNoNameIsGuessed() {
        RunningService s = one(HEAD + "port=6379\nsockets=0\n");

        assertThat(s.manager()).isEqualTo(Manager.NONE);
        assertThat(s.name()).isEmpty();
        assertThat(s.describe()).isEqualTo("redis on :6379: nothing listens on :6379: Redis is not running there");
    }

    /** A Redis of pid PID under systemd unit UNIT, as the script details it. */
    private static String redisUnder(String pid, String unit) {
        return "pid=" + pid + "\npid.comm=redis-server\npid.exe=/usr/bin/redis-server\npid.pidns=pid:[4026531836]\n"
                + "pid.arg=/usr/bin/redis-server *:6379\npid.cgroup=0::/system.slice/" + unit + "\nparent=1 systemd\n"
                + "unit=" + unit + "\nunit.Id=" + unit + "\nunit.MainPID=" + pid + "\n";
    }

    private static RunningService at(String address, String output) {
        return ServiceDiscovery.decide(output, address, List.of(6379), Optional.of("Connection refused"))
                .get(0);
    }

    @Test
    void hostsThatShareANetworkNamespaceEachFindTheirOwnRedisByAddress() {
        // lab hosts on 127.0.0.x with one kernel network namespace; two of them visible from this PID namespace
        String out = HEAD + "port=6379\nlisten=127.0.0.1:6379\nlisten=127.0.0.2:6379 700\n"
                + "listen=127.0.0.3:6379 812\nlisten=127.0.0.4:6379\nsockets=4\n"
                + redisUnder("700", "redis-a.service") + redisUnder("812", "redis-b.service");

        assertThat(at("127.0.0.2", out).name()).contains("redis-a.service");
        assertThat(at("127.0.0.3", out).name()).contains("redis-b.service");
        assertThat(at("127.0.0.3", out).pid()).hasValue(812);
        // by name, every listener counts, as before
        assertThat(at("redis.example.com", out).why()).contains("2 processes listen on :6379");
        // the implicit localhost is 127.0.0.1: a socket there whose process is in another PID namespace
        assertThat(at("localhost", out).why())
                .startsWith("1 socket(s) listen on 127.0.0.1:6379 but no process of this host holds one");
        // a wildcard listener is everyone's
        String wildcard = HEAD + "port=6379\nlisten=[::]:6379 812\nsockets=1\n" + redisUnder("812", "redis.service");
        assertThat(at("127.0.0.9", wildcard).name()).contains("redis.service");
    }

    @Test
    void aStoppedRedisIsNotRunningWithTheConnectionErrorWhateverListensAtOtherAddresses() {
        String out = HEAD + "port=6379\nlisten=127.0.0.1:6379\nlisten=127.0.0.2:6379 700\nsockets=2\n"
                + redisUnder("700", "redis-a.service");

        RunningService s = at("127.0.0.3", out);

        assertThat(s.manager()).isEqualTo(Manager.NONE);
        assertThat(s.describe())
                .isEqualTo("redis on :6379: nothing listens on 127.0.0.3:6379: Redis is not running there"
                        + " (connecting to it: Connection refused)");
    }

    @Test
    void aProcessInfoNamedIsNoListenerWhenNothingListens() {
        // Redis answered INFO, then stopped before the script ran: its pid is detailed, but nothing listens
        String out = HEAD + "port=6379\nsockets=0\nproc.sockets=0\ninfo.pid=812\ninfo.exe=/usr/bin/redis-server\n"
                + redisUnder("812", "redis-b.service");

        assertThat(at("127.0.0.3", out).manager()).isEqualTo(Manager.NONE);
    }

    @Test
    void withoutSsTheListenersOfProcNetTcpAreMatchedByAddressThroughTheirInodes() {
        String out = HEAD + "port=6379\nproc.listen=0200007F:18EB 5001\nproc.listen=0300007F:18EB 5002\n"
                + "proc.sockets=2\nproc.inode=5001 700\nproc.inode=5002 812\n"
                + redisUnder("700", "redis-a.service") + redisUnder("812", "redis-b.service");

        assertThat(at("127.0.0.3", out).name()).contains("redis-b.service");
        assertThat(at("127.0.0.4", out).manager()).isEqualTo(Manager.NONE);
    }

    @Test
    void whereRootCannotMapTheSocketWhatRedisSaysOfItselfNamesItsProcess() {
        // ss shows the socket without its process (no CAP_SYS_PTRACE); nor do the descriptors; INFO says pid 812
        String listens = HEAD + "port=6379\nlisten=127.0.0.3:6379\nsockets=1\nproc.listen=0300007F:18EB 5002\n"
                + "proc.sockets=1\ninfo.pid=812\ninfo.exe=/usr/bin/redis-server\n";
        String hidden = redisUnder("812", "redis-b.service").replace("pid.exe=/usr/bin/redis-server", "pid.exe=");

        RunningService s = at("127.0.0.3", listens + hidden);

        assertThat(s.manager()).isEqualTo(Manager.SYSTEMD);
        assertThat(s.name()).contains("redis-b.service");
        assertThat(s.pid()).hasValue(812);
        // INFO's pid from another PID namespace names another process here: not taken, even another Redis
        String other = hidden.replace("redis-server *:6379", "redis-server *:6380");
        assertThat(at("127.0.0.3", listens + other).why())
                .startsWith("1 socket(s) listen on 127.0.0.3:6379 but no process of this host holds one");
        // nor a process that is no Redis at all (a container's pid 1 is init here)
        String init = "pid=812\npid.comm=systemd\npid.arg=/sbin/init\npid.cgroup=0::/init.scope\n";
        assertThat(at("127.0.0.3", listens + init).why())
                .startsWith("1 socket(s) listen on 127.0.0.3:6379 but no process of this host holds one");
    }

    @Test
    void aSocketWhoseProcessCannotBeSeenIsUnknownNotNone() {
        RunningService s = one(HEAD + "port=6379\nsockets=0\nproc.sockets=1\n");

        assertThat(s.manager()).isEqualTo(Manager.UNKNOWN);
        assertThat(s.why()).contains("another PID namespace");
    }

    @Test
    void twoListenersOfDifferentServicesAreNotGuessedBetween() {
        RunningService s = one(HEAD
                + listener(
                        "10",
                        "redis-server",
                        "/usr/bin/redis-server",
                        "parent=1 systemd",
                        "unit=redis-a.service",
                        "unit.MainPID=10")
                + "pid=20\npid.comm=redis-server\npid.exe=/usr/bin/redis-server\npid.pidns=pid:[4026531836]\n"
                + "parent=1 systemd\nunit=redis-b.service\nunit.MainPID=20\n");

        assertThat(s.manager()).isEqualTo(Manager.UNKNOWN);
        assertThat(s.why()).contains("2 processes listen on :6379").contains("redis-a.service");
    }

    @Test
    void aForkedChildHoldingTheSocketCountsAsItsParent() {
        RunningService s = one(HEAD
                + listener(
                        "10",
                        "redis-server",
                        "/usr/bin/redis-server",
                        "parent=1 systemd",
                        "unit=redis-server.service",
                        "unit.MainPID=10")
                + "pid=11\npid.comm=redis-rdb-bgsave\npid.exe=/usr/bin/redis-server\npid.pidns=pid:[4026531836]\n"
                + "parent=10 redis-server\nparent=1 systemd\nunit=redis-server.service\nunit.MainPID=10\n");

        assertThat(s.manager()).isEqualTo(Manager.SYSTEMD);
        assertThat(s.pid()).hasValue(10);
    }

    @Test
    void severalPortsInOneRunEachGetTheirOwnAnswer() {
        List<RunningService> all = ServiceDiscovery.decide(
                HEAD
                        + listener("10", "redis-server", "/usr/bin/redis-server", "unit=redis-server@a.service")
                                .replace("port=6379", "port=6380")
                        + "port=6381\nsockets=0\n",
                "",
                List.of(6380, 6381, 6382),
                Optional.empty());

        assertThat(all)
                .extracting(RunningService::manager)
                .containsExactly(Manager.SYSTEMD, Manager.NONE, Manager.UNKNOWN);
        assertThat(all.get(0).name()).contains("redis-server@a.service");
        assertThat(all.get(2).why()).contains("printed nothing");
    }

    @Test
    void hostileNamesNeverBecomeServiceNames() {
        RunningService unit = one(HEAD
                + listener(
                        "10",
                        "redis-server",
                        "/usr/bin/redis-server",
                        "unit=x.service",
                        "unit.Id=x.service\nExecStartPre=/bin/sh -c evil",
                        "unit.MainPID=10"));
        RunningService program = one(HEAD
                + listener(
                        "10",
                        "redis-server",
                        "/usr/bin/redis-server",
                        "parent=9 supervisord",
                        "supervisord=9",
                        "supervisor.status=$(reboot);x RUNNING pid 10, uptime 1:00"));
        RunningService script = one(HEAD.replace("pid1=systemd", "pid1=init")
                + listener(
                        "10",
                        "redis-server",
                        "/usr/bin/redis-server",
                        "initd.pidfile=/etc/init.d/redis;reboot",
                        "pidfile=/run/x.pid"));

        assertThat(unit.manager()).isEqualTo(Manager.SYSTEMD);
        assertThat(unit.name()).contains("x.service");
        assertThat(program.manager()).isEqualTo(Manager.UNKNOWN);
        assertThat(script.manager()).isEqualTo(Manager.UNKNOWN);
    }

    @Test
    void garbledAndHugeOutputIsBoundedAndReadsAsUnknown() {
        String huge = "x".repeat(10_000_000);
        RunningService longLine = one(HEAD + "port=6379\npid=10\nunit=" + huge + "\npid.comm=" + huge + "\n");
        RunningService binary = one("\u0000\u001b[2J\u00ff\nport=65536\npid=abc\n");
        RunningService many = one(HEAD + "port=6379\n" + "pid=1\n".repeat(100_000));

        assertThat(longLine.manager()).isEqualTo(Manager.UNKNOWN);
        assertThat(binary.manager()).isEqualTo(Manager.UNKNOWN);
        assertThat(binary.why()).contains("printed nothing");
        assertThat(many.manager()).isIn(Manager.UNKNOWN, Manager.SYSTEMD);
        assertThat(many.name()).isEmpty();
    }

    @Test
    void theScriptQuotesWhatItIsGivenAndDropsAConfigThatIsNoPath() {
        RedisSelf self = new RedisSelf(
                6379,
                Optional.of("/etc/redis/$(reboot).conf"),
                OptionalLong.of(42),
                Optional.of("/usr/bin/redis-server;reboot"),
                Optional.empty());
        String script = ServiceDiscovery.script("10.0.0.5", List.of(6379, 6380), self);

        assertThat(script).startsWith(ServiceDiscovery.FIRST_LINE);
        assertThat(script)
                .contains(
                        "fx_conf=''",
                        "fx_info_exe=''",
                        "fx_ports='6379 6380'",
                        "fx_info_port=6379",
                        "fx_info_pid=42",
                        "fx_addr=10.0.0.5")
                .doesNotContain("reboot");
        // a name is never an address to rank sockets by, nor text to run
        assertThat(ServiceDiscovery.script("$(reboot)", List.of(6379), self))
                .contains("fx_addr=''")
                .doesNotContain("reboot");
        // the body is the resource file, after the preamble
        assertThat(script).contains("fx_port \"$fx_one\"").endsWith("echo end=1\n");
    }

    @Test
    void debiansRedisServerLinkToRedisCheckRdbIsStillWhatItsUnitStarts() {
        RunningService s = one(HEAD
                + listener(
                        "26712",
                        "redis-server",
                        "/usr/bin/redis-check-rdb",
                        "pid.arg=/usr/bin/redis-server 127.0.0.11:6379",
                        "pid.cgroup=0::/system.slice/redis-server.service",
                        "parent=1 systemd",
                        "unit=redis-server.service",
                        "unit.Id=redis-server.service",
                        "unit.MainPID=0",
                        "unit.ExecStart={ path=/usr/bin/redis-server ; argv[]=/usr/bin/redis-server"
                                + " /etc/redis/redis.conf ; ignore_errors=no }"));

        assertThat(s.manager()).isEqualTo(Manager.SYSTEMD);
        assertThat(s.name()).contains("redis-server.service");
    }

    @Test
    void aLabHostSeenFromTheMachineThatRunsItIsAContainer() {
        // printed by the script on a machine running lab containers (cgroup v1, docker 20.10), for lab-1's port
        RunningService s = one(
                """
                self.pidns=pid:[4026531836]
                pid1=process_api
                info.config=
                port=6379
                sockets=1
                pid=26712
                pid.comm=redis-server
                pid.exe=/usr/bin/redis-check-rdb
                pid.pidns=pid:[4026532186]
                pid.arg=/usr/bin/redis-server 127.0.0.11:6379
                pid.cgroup=12:hugetlb:/
                pid.cgroup=9:name=systemd:/docker/a2f283939ea5b9c5f3b002f1edffa4aec83caa45fc4e5fffe11a3c442987fd5c/system.slice/redis-server.service
                pid.cgroup=0::/docker/a2f283939ea5b9c5f3b002f1edffa4aec83caa45fc4e5fffe11a3c442987fd5c/system.slice/redis-server.service
                parent=26461 systemd
                parent=26437 containerd-shim
                parent=1 process_api
                unit=redis-server.service
                end=1
                """);

        assertThat(s.manager()).isEqualTo(Manager.CONTAINER);
        assertThat(s.name()).contains("docker a2f283939ea5");
        assertThat(s.describe()).isEqualTo("redis on :6379 (pid 26712) run by container docker a2f283939ea5");
    }
}
