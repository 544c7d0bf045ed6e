package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.lab.LabCli;
import dev.fleetfix.lab.LabFleetExtension;
import dev.fleetfix.lab.LabHost;
import dev.fleetfix.lab.LabHostSpec;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import picocli.CommandLine;

/**
 * {@code fleetfix apply playbooks/kernel-tuning.yaml} on two lab hosts whose kernels boot with
 * {@code vm.overcommit_memory 0} and {@code net.core.somaxconn 128} (each lab host has its own files for both);
 * kt-2's Redis runs with {@code rename-command CONFIG ""}. In order, as an operator would: check, apply,
 * reboot, apply and check again.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KernelTuningIT {
    private static final List<String> HOSTS = List.of("kt-1", "kt-2");
    private static final Path PLAYBOOK = Path.of("playbooks/kernel-tuning.yaml");
    private static final String FILE = "/etc/sysctl.d/90-fleetfix-redis.conf";

    @RegisterExtension
    static final LabFleetExtension fleet = LabFleetExtension.of(LabHostSpec.named("kt-1"), LabHostSpec.named("kt-2"));

    @BeforeAll
    static void prepareHosts() {
        for (String host : HOSTS) {
            fleet.kernelDefault(host, "vm.overcommit_memory", 0);
            fleet.kernelDefault(host, "net.core.somaxconn", 128);
        }
        fleet.rootExec(
                "kt-2",
                "printf 'rename-command CONFIG \"\"\\n' >> /etc/redis/redis.conf"
                        + " && systemctl restart redis-server");
        LabData.await(() -> cli("kt-2", "PING").equals("PONG"), 30_000);
        assertThat(cli("kt-2", "CONFIG GET tcp-backlog")).contains("unknown command");
    }

    private static String cli(String host, String command) {
        return LabCli.redis(fleet.get(), host, command).stdout().strip();
    }

    /**
     * The backlog the kernel gave Redis's listening socket (Send-Q of ss -lnt). Lab hosts share the machine's
     * network namespace: only this host's address is this host's Redis.
     */
    private static String listenBacklog(String host) {
        LabHost h = fleet.host(host);
        return fleet.rootExec(host, "ss -Hlnt 'src " + h.address() + ":" + h.redisPort() + "' | awk '{print $3}'")
                .stdout()
                .strip();
    }

    private static CliRun apply(String... args) {
        CommandLine cmd = Main.commandLine(Adapters.builder()
                .runsHome(fleet.directory().resolve("fleetfix-runs"))
                .build());
        String[] all = new String[args.length + 4];
        all[0] = "apply";
        all[1] = PLAYBOOK.toString();
        all[2] = "-i";
        all[3] = fleet.inventoryFile().toString();
        System.arraycopy(args, 0, all, 4, args.length);
        CliRun run = CliRun.of(cmd, all);
        System.out.println(run);
        return run;
    }

    private static void assertTuned(String host) {
        assertThat(fleet.sysctl(host, "vm.overcommit_memory")).as(host).isEqualTo("1");
        assertThat(fleet.sysctl(host, "net.core.somaxconn")).as(host).isEqualTo("4096");
        assertThat(listenBacklog(host))
                .as(host + ": Redis listens with the new tcp-backlog")
                .isEqualTo("1024");
    }

    @Test
    @Order(1)
    void checkPredictsTheChangesAndChangesNothing() {
        CliRun run = apply("--check", "--diff", "--no-color");
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.CHANGES_PENDING);
        assertThat(run.stdout())
                .contains("vm.overcommit_memory 0 → 1")
                .contains("net.core.somaxconn 128 → 4096")
                .contains("+++ b" + FILE)
                .contains("net.core.somaxconn is per network namespace");
        for (String host : HOSTS) {
            assertThat(fleet.sysctl(host, "vm.overcommit_memory")).as(host).isEqualTo("0");
            assertThat(fleet.rootExec(host, "test -e " + FILE).exitCode())
                    .as(host)
                    .isNotZero();
        }
    }

    @Test
    @Order(2)
    void applySetsPersistsAndRestartsOnlyForWhatNeedsIt() {
        String kt2Conf = fleet.rootExec("kt-2", "stat -c '%U:%G %a' /etc/redis/redis.conf")
                .stdout();
        CliRun run = apply("--no-color");
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.OK);
        for (String host : HOSTS) {
            assertTuned(host);
            assertThat(fleet.rootExec(host, "cat " + FILE).stdout())
                    .as(host)
                    .contains("vm.overcommit_memory = 1\n")
                    .contains("net.core.somaxconn = 4096\n");
            assertThat(fleet.rootExec(host, "grep -c '^tcp-backlog 1024$' /etc/redis/redis.conf")
                            .stdout()
                            .strip())
                    .as(host)
                    .isEqualTo("1");
        }
        assertThat(cli("kt-1", "CONFIG GET latency-monitor-threshold")).endsWith("100");
        assertThat(run.stdout())
                .contains("CONFIG is disabled (rename-command CONFIG \"\" in /etc/redis/redis.conf)")
                .contains("restart needed to apply");
        assertThat(fleet.rootExec("kt-2", "stat -c '%U:%G %a' /etc/redis/redis.conf")
                        .stdout())
                .as("Redis can still read its file")
                .isEqualTo(kt2Conf);
    }

    @Test
    @Order(3)
    void theValuesSurviveAReboot() {
        for (String host : HOSTS) {
            fleet.reboot(host);
            assertTuned(host);
        }
    }

    @Test
    @Order(4)
    void aSecondRunChangesNothingAndCheckPassesClean() {
        CliRun again = apply("--no-color");
        assertThat(again.exitCode()).as(again.toString()).isEqualTo(ExitCode.OK);
        for (String host : HOSTS) {
            assertThat(again.stdout()).containsPattern(host + " +: ok=\\d+ +changed=0 +failed=0");
        }
        CliRun check = apply("--check", "--no-color");
        assertThat(check.exitCode()).as(check.toString()).isEqualTo(ExitCode.OK);
    }

    @Test
    @Order(5)
    void aFileReadLaterAtBootIsNamedAndDoesWin() {
        fleet.rootExec("kt-2", "echo 'vm.overcommit_memory = 0' >> /etc/sysctl.conf");
        CliRun check = apply("--check", "--no-color", "--limit", "kt-2");
        assertThat(check.stdout())
                .containsPattern("warning: /etc/sysctl.d/99-sysctl.conf:\\d+ sets vm.overcommit_memory = 0 and wins at"
                        + " boot over " + FILE);

        fleet.reboot("kt-2");
        assertThat(fleet.sysctl("kt-2", "vm.overcommit_memory"))
                .as("/etc/sysctl.conf, read last through 99-sysctl.conf, won")
                .isEqualTo("0");
        assertThat(fleet.sysctl("kt-2", "net.core.somaxconn")).isEqualTo("4096");
    }
}
