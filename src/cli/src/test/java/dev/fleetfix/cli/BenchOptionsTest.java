package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.bench.plan.BenchPlan;
import dev.fleetfix.bench.plan.SweepPoint;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code fleetfix bench}'s sweep options: parsed by the shared plan builder, refused before any host. */
class BenchOptionsTest {
    @TempDir
    Path dir;

    private static BenchPlan plan(String... args) {
        BenchCommand command = new BenchCommand(Adapters.system());
        new CommandLine(command).parseArgs(args);
        return command.plan();
    }

    @Test
    void valueSizeListAndTcpNoDelayBecomeSweepPoints() {
        BenchPlan plan = plan("--value-size", "64,512,1024,2048,4096,8192", "--tcp-nodelay", "on,off");
        assertThat(plan.sweep()).hasSize(12);
        assertThat(plan.sweep()).extracting(SweepPoint::label).startsWith("64 B, tcp_nodelay on");
        assertThat(plan.rounds()).isEqualTo(5);
        assertThat(plan("-d", "128").load().valueSize()).isEqualTo(128);
        assertThat(plan("--data-size", "128").isSweep()).isFalse();
        assertThat(plan().load().valueSize()).isEqualTo(64);
        assertThat(plan().rounds()).isEqualTo(1);
        assertThat(plan("--engine", "redis-benchmark").redisBenchmark().dataSize())
                .isEqualTo(64);
    }

    @Test
    void aSweepThatCouldNeverCallAChangeIsRefusedNamingTheRounds() {
        // the shipped 6 sizes at both settings split alpha over 16 comparisons: 4 rounds a point cannot call
        assertThatThrownBy(() ->
                        plan("--value-size", "64,512,1024,2048,4096,8192", "--tcp-nodelay", "on,off", "--rounds", "4"))
                .hasMessageStartingWith("--rounds: 4 rounds a point (8 batches) cannot call any change")
                .hasMessageEndingWith("; 5 rounds a point could");
        // redis-benchmark gives one sample a round: two sizes need 7 rounds; its sweep's default is 10, not 5
        assertThatThrownBy(() -> plan("--engine", "redis-benchmark", "--value-size", "64,1024", "--rounds", "5"))
                .hasMessageStartingWith("--rounds: 5 rounds a point (5 batches) cannot call any change")
                .hasMessageEndingWith("; 7 rounds a point could");
        assertThat(plan("--engine", "redis-benchmark", "--value-size", "64,1024")
                        .rounds())
                .isEqualTo(10);
        assertThat(plan("--engine", "redis-benchmark", "--value-size", "64,1024", "--rounds", "7")
                        .rounds())
                .isEqualTo(7);
    }

    @Test
    void redisBenchmarkRefusesBuiltinOnlyOptionsItUsedToIgnore() {
        assertThatThrownBy(() -> plan("--engine", "redis-benchmark", "--duration", "5s"))
                .hasMessage("--duration: only for engine builtin, was engine redis-benchmark");
    }

    @Test
    void badListsExitTwoNamingTheOptionAndTouchNoHost() throws Exception {
        try (ServerSocket redis = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
                ServerSocket ssh = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            Path inventory = dir.resolve("inventory.yaml");
            Files.writeString(
                    inventory,
                    "all:\n  hosts:\n    r1:\n      ansible_host: 127.0.0.1\n      ansible_port: " + ssh.getLocalPort()
                            + "\n      redis_port: " + redis.getLocalPort() + "\n");
            List<String[]> cases = List.of(
                    new String[] {"--value-size", "64,abc", "--value-size: expected a whole number from 1 to"},
                    new String[] {"--value-size", "64,64", "--value-size: lists 64 twice"},
                    new String[] {"--value-size", "0", "--value-size: expected a whole number from 1 to"},
                    new String[] {"--tcp-nodelay", "maybe", "--tcp-nodelay: expected on or off, was 'maybe'"},
                    new String[] {"--rounds", "0", "--rounds: expected a whole number from 1 to 100, was '0'"});
            for (String[] c : cases) {
                CliRun run = CliRun.of("bench", "-i", inventory.toString(), c[0], c[1]);
                assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
                assertThat(run.stderr()).as(run.toString()).contains(c[2]);
            }
            CliRun rb = CliRun.of(
                    "bench", "-i", inventory.toString(), "--engine", "redis-benchmark", "--tcp-nodelay", "off");
            assertThat(rb.exitCode()).as(rb.toString()).isEqualTo(ExitCode.USAGE);
            assertThat(rb.stderr()).contains("--tcp-nodelay: only for engine builtin");
            // a sweep whose comparisons could never call a change (2 rounds a point: 4 batches, 5 decide)
            CliRun short2 = CliRun.of("bench", "-i", inventory.toString(), "--value-size", "64,1024", "--rounds", "2");
            assertThat(short2.exitCode()).as(short2.toString()).isEqualTo(ExitCode.USAGE);
            assertThat(short2.stderr())
                    .as(short2.toString())
                    .contains("--rounds: 2 rounds a point (4 batches) cannot decide any figure")
                    .contains("4 rounds a point could");
            for (ServerSocket s : List.of(redis, ssh)) {
                s.setSoTimeout(200);
                assertThatThrownBy(s::accept)
                        .as("no connection to the host")
                        .isInstanceOf(SocketTimeoutException.class);
            }
        }
    }

    @Test
    void listHostsPrintsTheSelectedNamesAsAuditDoes() throws Exception {
        Path inventory = dir.resolve("inventory.yaml");
        Files.writeString(
                inventory,
                "all:\n  hosts:\n    r1: {ansible_host: 127.0.0.201}\n    r2: {ansible_host: 127.0.0.202}\n"
                        + "    c1: {ansible_host: 127.0.0.203}\n");

        CliRun run = CliRun.of("bench", "-i", inventory.toString(), "--limit", "r*", "--list-hosts");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout()).as(run.toString()).isEqualTo("r1\nr2\n");
    }
}
