package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.lab.LabFleetExtension;
import dev.fleetfix.lab.LabHost;
import dev.fleetfix.lab.LabHostSpec;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code fleetfix bench} on a lab host, both engines: the builtin load generator from this machine,
 * and redis-benchmark run on the host over SSH. Either way the user's keys stay and the benchmark's
 * keys go.
 */
class BenchLabIT {
    @RegisterExtension
    static final LabFleetExtension fleet = LabFleetExtension.of(LabHostSpec.named("lab-1"));

    @BeforeAll
    static void prepareHosts() {
        redisCli("SET user:1 'keep me'");
    }

    private static String redisCli(String args) {
        LabHost host = fleet.host("lab-1");
        return fleet.rootExec("lab-1", "redis-cli -h " + host.address() + " -p " + host.redisPort() + " " + args)
                .stdout()
                .strip();
    }

    private static CliRun bench(String... args) {
        String[] full = new String[args.length + 3];
        full[0] = "bench";
        full[1] = "-i";
        full[2] = fleet.inventoryFile().toString();
        System.arraycopy(args, 0, full, 3, args.length);
        return CliRun.of(full);
    }

    @Test
    void redisBenchmarkRunsOnTheHostOverSsh() {
        CliRun run = bench("--engine", "redis-benchmark", "-n", "5000", "-c", "5", "-t", "set,get", "--rounds", "2");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout()).as(run.toString()).containsPattern("lab-1\\s+SET\\s+1\\s+\\d");
        assertThat(run.stdout()).as(run.toString()).containsPattern("lab-1\\s+GET\\s+2\\s+\\d");
        assertThat(redisCli("--scan --pattern 'fleetfix:bench:*'")).isEmpty();
        assertThat(redisCli("GET user:1")).isEqualTo("keep me");
    }

    @Test
    void builtinEngineLoadsTheHostFromThisMachine() {
        CliRun run = bench("-n", "5000", "--warmup", "100ms", "-c", "4", "-t", "set,get,lpush");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout()).as(run.toString()).containsPattern("lab-1\\s+MIX\\s+1\\s+\\d");
        assertThat(redisCli("--scan --pattern 'fleetfix:bench:*'")).isEmpty();
        assertThat(redisCli("GET user:1")).isEqualTo("keep me");
    }
}
