package dev.fleetfix.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.transport.ExecResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Reboots, power and service faults on one lab host, and a benchmark run on it. */
class LabOperationsIT {
    private static final String THP_ENABLED = "/sys/kernel/mm/transparent_hugepage/enabled";

    @RegisterExtension
    static final LabFleetExtension fleet = LabFleetExtension.of(LabHostSpec.named("ops-1"), LabHostSpec.named("ops-2"));

    @Test
    void rebootResetsThpAndRunsBootUnitsAgain() {
        ssh("echo never | sudo -n tee " + THP_ENABLED);
        fleet.reboot("ops-1");
        assertThat(fleet.thp("ops-1")).as("a reboot forgets a THP write").isEqualTo("[always] madvise never\n");

        ssh("printf '%s\\n' '[Unit]' 'Description=boot mark' '[Service]' 'Type=oneshot'"
                + " \"ExecStart=/bin/sh -c 'date +%%s > /var/lib/boot-mark; echo never > " + THP_ENABLED + "'\""
                + " '[Install]' 'WantedBy=multi-user.target' | sudo -n tee /etc/systemd/system/boot-mark.service"
                + " && sudo -n systemctl enable boot-mark.service");
        assertThat(ssh("test -e /var/lib/boot-mark && echo there || echo absent"))
                .isEqualTo("absent\n");

        fleet.reboot("ops-1");

        assertThat(ssh("test -e /var/lib/boot-mark && echo there || echo absent"))
                .isEqualTo("there\n");
        assertThat(fleet.thp("ops-1")).as("persisted by a boot-time unit").isEqualTo("never\n");
        assertThat(fleet.thp("ops-2")).isEqualTo("[always] madvise never\n");
    }

    @Test
    void redisBenchmarkRunsOnAHost() {
        String address = fleet.host("ops-2").address();
        int port = fleet.host("ops-2").redisPort();
        ExecResult bench = OpenSsh.run(
                fleet.get(),
                "ops-2",
                "redis-benchmark -h " + address + " -p " + port + " -t set -n 20000 -c 10 -q 2>/dev/null");

        Matcher set = Pattern.compile("SET: ([0-9.]+) requests per second").matcher(bench.stdout());
        assertThat(set.find()).as(bench.stdout() + bench.stderr()).isTrue();
        assertThat(Double.parseDouble(set.group(1))).isGreaterThan(100);
    }

    @Test
    void stoppedHostRefusesSshUntilStarted() {
        fleet.stop("ops-2");
        assertThat(OpenSsh.run(fleet.get(), "ops-2", "true").exitCode()).isEqualTo(255);

        fleet.start("ops-2");
        assertThat(OpenSsh.run(fleet.get(), "ops-2", "true").exitCode()).isZero();
    }

    @Test
    void sshdAndRedisFaults() {
        String address = fleet.host("ops-2").address();
        int port = fleet.host("ops-2").redisPort();
        fleet.stopSshd("ops-2");
        assertThat(OpenSsh.run(fleet.get(), "ops-2", "true").exitCode()).isEqualTo(255);
        fleet.startSshd("ops-2");

        fleet.stopRedis("ops-2");
        assertThat(ssh2("redis-cli -h " + address + " -p " + port + " ping")).doesNotContain("PONG");
        fleet.startRedis("ops-2");

        String pidBefore = ssh2("pidof redis-server");
        fleet.killRedis("ops-2");
        String answer = "";
        for (int attempt = 0; attempt < 50 && !answer.contains("PONG"); attempt++) {
            sleep(200);
            answer = ssh2("redis-cli -h " + address + " -p " + port + " ping");
        }
        assertThat(answer)
                .as("systemd restarts a killed redis (Restart=always)")
                .contains("PONG");
        assertThat(ssh2("pidof redis-server")).isNotEqualTo(pidBefore);
    }

    private static String ssh(String command) {
        ExecResult result = OpenSsh.run(fleet.get(), "ops-1", command);
        assertThat(result.exitCode()).as(command + ": " + result.stderr()).isZero();
        return result.stdout();
    }

    private static String ssh2(String command) {
        return OpenSsh.run(fleet.get(), "ops-2", command).stdout();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
