package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.lab.LabCli;
import dev.fleetfix.lab.LabFleet;
import dev.fleetfix.lab.LabHost;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;

/**
 * What the restart ITs check on a lab fleet: redis-cli run on the host itself, a seeded data set,
 * and each host's key count and dataset digest ({@code DEBUG DIGEST}), which must be the same after
 * a run as before it.
 */
final class LabData {
    private final LabFleet fleet;
    private final List<String> hosts;

    LabData(LabFleet fleet, List<String> hosts) {
        this.fleet = fleet;
        this.hosts = List.copyOf(hosts);
    }

    /** redis-cli on the host, against its own Redis; stdout, stripped ({@link LabCli}: plain commands from here). */
    String cli(String host, String command) {
        return LabCli.redis(fleet, host, command).stdout().strip();
    }

    /** Sentinel's answer on the host, through redis-cli. */
    String sentinel(String host, String command) {
        int port = fleet.host(host).sentinelPort().orElseThrow();
        return LabCli.run(fleet, host, port, Optional.empty(), command).stdout().strip();
    }

    /** "keys digest" per host. */
    Map<String, String> digests() {
        Map<String, String> data = new TreeMap<>();
        for (String host : hosts) {
            data.put(host, cli(host, "DBSIZE") + " " + cli(host, "DEBUG DIGEST"));
        }
        return data;
    }

    /** {@code keys} keys written by one script on a primary, so that the writes replicate. */
    void seed(String host, String prefix, int keys) {
        cli(
                host,
                "EVAL \"for i=1," + keys + " do redis.call('SET','" + prefix
                        + ":'..i,'value-'..i..'-'..string.rep('x', 48)) end\" 0");
    }

    /** {@code keys} keys written through cluster redirects ({@code redis-cli -c}), spread over every shard. */
    void seedCluster(String host, String prefix, int keys) {
        LabHost h = fleet.host(host);
        fleet.rootExec(
                host,
                "for i in $(seq 1 " + keys + "); do echo \"SET " + prefix + ":$i value-$i\"; done"
                        + " | redis-cli -c -h " + h.address() + " -p " + h.redisPort() + " >/dev/null");
    }

    void awaitKeys(String host, int keys) {
        await(() -> cli(host, "DBSIZE").equals(Integer.toString(keys)), 60_000);
        assertThat(cli(host, "DBSIZE"))
                .as(host + ": " + cli(host, "INFO replication"))
                .isEqualTo(Integer.toString(keys));
    }

    /** Every Redis answers and holds what it held when {@code seeded} was taken. */
    void assertIntact(Map<String, String> seeded) {
        for (String host : hosts) {
            assertThat(cli(host, "PING")).as(host).contains("PONG");
        }
        // a replica applies the canary's DEL a moment after its primary
        await(() -> digests().equals(seeded), 10_000);
        assertThat(digests()).isEqualTo(seeded);
    }

    /**
     * A play that restarts every host's Redis ({@code always}), {@code serial} at a time, then waits
     * until it is healthy in the role it should have; {@code restartArgs} go into the restart step
     * ({@code ", failback: true"}).
     */
    static String restartPlaybook(String serial, String restartArgs) {
        return """
                - name: restart redis
                  hosts: all
                  serial: %s
                  steps:
                    - restart_redis: {always: true, timeout: 60s%s}
                    - wait_healthy: {timeout: 60s, gates: [ping, loading_done, role_unchanged, replica_synced]}
                """
                .formatted(serial, restartArgs);
    }

    /**
     * {@code fleetfix apply} of a playbook with this lab's inventory, a run dir of its own and no
     * colour; printed, for the test log.
     */
    CliRun apply(Path dir, String playbookYaml, String... args) {
        Path playbook = dir.resolve("playbook-" + System.nanoTime() + ".yaml");
        try {
            Files.writeString(playbook, playbookYaml);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> all = new ArrayList<>(List.of(
                "apply",
                playbook.toString(),
                "-i",
                fleet.inventoryFile().toString(),
                "--no-color",
                "--run-dir",
                dir.resolve("run-" + System.nanoTime()).toString()));
        all.addAll(List.of(args));
        CliRun run = CliRun.of(all.toArray(String[]::new));
        System.out.println(run);
        return run;
    }

    /**
     * A regular expression for {@code host}'s restart_redis line saying {@code decision}: the step first says which
     * service it found running Redis ("found redis on :6379 (pid 812) run by ...; ") where nothing named one.
     */
    static String restartSays(String host, String decision) {
        return java.util.regex.Pattern.quote("[" + host + "] restart_redis: ") + "(found [^;\n]*; )?"
                + java.util.regex.Pattern.quote(decision);
    }

    /** The {@code run_id:} line of the host's INFO server: a new one means Redis really restarted. */
    String runId(String host) {
        return cli(host, "INFO server")
                .lines()
                .filter(l -> l.startsWith("run_id:"))
                .findFirst()
                .orElseThrow()
                .strip();
    }

    /** Polls every 250 ms until the condition holds or the time is up; the caller asserts afterwards. */
    static void await(BooleanSupplier condition, long millis) {
        await(condition, millis, 250);
    }

    /** Polls every {@code everyMillis} until the condition holds or the time is up; the caller asserts afterwards. */
    static void await(BooleanSupplier condition, long millis, long everyMillis) {
        long end = System.currentTimeMillis() + millis;
        while (!condition.getAsBoolean() && System.currentTimeMillis() < end) {
            sleep(everyMillis);
        }
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
