package dev.fleetfix.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.cli.CliRun;
import dev.fleetfix.transport.ExecResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The scale lab: 30 sshd-only hosts in one container, each on its own address, audited for real. */
class LabScaleIT {
    private static final int HOSTS = 30;
    private static LabFleet fleet;

    @BeforeAll
    static void startFleet() {
        fleet = LabFleet.start(LabPreset.SCALE, LabPreset.SCALE.specs(HOSTS), LabSettings.forTests());
    }

    @AfterAll
    static void removeFleet() {
        if (fleet != null) {
            fleet.close();
        }
    }

    @Test
    void auditReachesEveryScaleHostAndReadsItsFactsAndRedis() {
        CliRun run =
                CliRun.of("audit", "-i", fleet.inventoryFile().toString(), "--forks", "10", "--connect-timeout", "30s");

        // 1: findings (THP always, overcommit 0); anything above means a host or fact was not read
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
        assertThat(run.stdout()).as(run.toString()).contains(HOSTS + " hosts: ", " 0 unreachable");
        for (int i = 1; i <= HOSTS; i++) {
            assertThat(line(run.stdout(), "lab-" + i + " ")).as(run.toString()).contains("7.0.15", "always", "at-risk");
        }
    }

    @Test
    void eachHostHasItsOwnAddressAndSshdWithSudoButSixteenShareARedis() {
        assertThat(fleet.hosts()).hasSize(HOSTS);
        assertThat(fleet.hosts()).extracting(LabHost::address).doesNotHaveDuplicates();
        assertThat(fleet.hosts()).extracting(LabHost::address).noneMatch(a -> a.startsWith("127.0.0."));

        ExecResult login = OpenSsh.run(fleet, "lab-30", "sudo -n id -u; cat /proc/1/comm");
        assertThat(login.exitCode()).as(login.stderr()).isZero();
        assertThat(login.stdout()).startsWith("0\n").doesNotContain("systemd");

        assertThat(pid("lab-1")).isEqualTo(pid("lab-16")).isNotEqualTo(pid("lab-17"));
    }

    @Test
    void statusShowsEveryHostUpWithoutInit() {
        CliRun status = lab("status");

        assertThat(status.exitCode()).as(status.toString()).isZero();
        List<String> hostLines =
                status.stdout().lines().filter(l -> l.startsWith("  lab-")).toList();
        assertThat(hostLines).hasSize(HOSTS).allSatisfy(l -> assertThat(l)
                .contains("running", "sshd up", "redis up", "init none"));
    }

    @Test
    void refusesWhatNeedsAnInit() {
        assertThatThrownBy(() -> fleet.reboot("lab-2"))
                .isInstanceOf(LabException.class)
                .hasMessageContaining("scale lab host");
        assertThatThrownBy(() -> fleet.killRedis("lab-2")).hasMessageContaining("scale lab host");
        assertThat(LabProbe.redisUp(
                        fleet.host("lab-2").address(), fleet.host("lab-2").redisPort()))
                .isTrue();
    }

    private static Optional<String> pid(String host) {
        LabHost h = fleet.host(host);
        ExecResult info =
                OpenSsh.run(fleet, host, "redis-cli -h " + h.address() + " -p " + h.redisPort() + " info server");
        return info.stdout().lines().filter(l -> l.startsWith("process_id:")).findFirst();
    }

    private static String line(String text, String start) {
        return text.lines()
                .filter(l -> l.startsWith(start))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no line starting '" + start + "' in:\n" + text));
    }

    private static CliRun lab(String... args) {
        List<String> command = new ArrayList<>(List.of("lab"));
        command.addAll(List.of(args));
        command.addAll(List.of("--home", fleet.directory().getParent().toString(), "--id", fleet.id()));
        return CliRun.of(command.toArray(String[]::new));
    }
}
