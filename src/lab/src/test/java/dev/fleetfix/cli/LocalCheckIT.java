package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.lab.RunsAlone;
import dev.fleetfix.redis.jedis.LocalRedisServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code apply --check} on this machine through the local transport (no SSH), against a
 * redis-server the test starts on a free loopback port: stopped, started by the run, and running.
 * Check mode must answer in seconds (it waits for no gate), exit 3 for pending changes and 1 only
 * for what apply would fail on, and its forecast must be what apply then does. The THP steps only
 * read in check mode; the applied playbook has none.
 */
@RunsAlone
class LocalCheckIT {
    /**
     * Below the 60 s a gate of these playbooks would wait: check mode looks at gates once. Only a wait takes a check
     * this long; 30 s was also what a check on a loaded machine could take.
     */
    private static final Duration QUICK = Duration.ofSeconds(55);

    /**
     * A Redis that refuses connections is known to be down through its service's state (systemd, or
     * the SysV script's status) and nothing listening on its port. The Redis of these tests is not the
     * machine's service, whose state says nothing about it; it is known to be down (the test never
     * started it), so the test says so.
     */
    private static final String STOPPED = "allow_data_loss: true";

    @TempDir
    Path dir;

    private int port;
    private final List<Runnable> cleanup = new ArrayList<>();

    @AfterEach
    void stopWhatTheRunStarted() {
        cleanup.forEach(Runnable::run);
    }

    private Path inventory(int redisPort, String service) throws IOException {
        Path file = dir.resolve("inventory-" + redisPort + ".yml");
        Files.writeString(
                file,
                """
                all:
                  hosts:
                    localhost:
                      ansible_connection: local
                      ansible_host: 127.0.0.1
                      redis_port: %d
                      redis_service: %s
                """
                        .formatted(redisPort, service));
        return file;
    }

    /** Starts (or restarts) a redis-server on {@code port} with save points, in the test's directory. */
    private String startCommand() {
        return "redis-cli -h 127.0.0.1 -p " + port + " shutdown >/dev/null 2>&1; redis-server --port " + port
                + " --bind 127.0.0.1 --save '3600 1' --appendonly no --dir " + dir + " --daemonize yes"
                + " --pidfile " + dir.resolve("redis.pid") + " --logfile " + dir.resolve("redis.log");
    }

    private static String thpOff(String restartArgs) {
        return """
                - name: THP off, persisted, rolling restart
                  hosts: all
                  max_fail_percentage: 0
                  steps:
                    - audit: {}
                    - thp: {enabled: never, defrag: never}
                    - persist_thp: {method: auto}
                    - restart_redis: {always: true, %s}
                    - wait_healthy: {timeout: 60s, gates: [ping, loading_done, role_unchanged, replica_synced]}
                    - assert: {that: "thp.enabled == never"}
                """
                .formatted(restartArgs);
    }

    private CliRun apply(String playbookYaml, Path inventory, String... more) throws IOException {
        Path playbook = dir.resolve("playbook-" + System.nanoTime() + ".yaml");
        Files.writeString(playbook, playbookYaml);
        List<String> args = new ArrayList<>(List.of(
                "apply",
                playbook.toString(),
                "-i",
                inventory.toString(),
                "--no-color",
                "--run-dir",
                dir.resolve("run-" + System.nanoTime()).toString()));
        args.addAll(List.of(more));
        long start = System.nanoTime();
        CliRun run = CliRun.of(args.toArray(String[]::new));
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        System.out.println(run + "\ntook " + took.toMillis() + " ms");
        if (List.of(more).contains("--check")) {
            assertThat(took).as("check mode waits for nothing\n" + run).isLessThan(QUICK);
        }
        return run;
    }

    private boolean redisAnswers() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }

    @Test
    void aStoppedRedisIsForecastToBeStartedAndTheRunStartsIt() throws Exception {
        port = freePort();
        cleanup.add(() -> shutdown(port));
        Path inventory = inventory(port, "redis-server");

        CliRun check = apply(thpOff(STOPPED + ", command: \"" + startCommand() + "\""), inventory, "--check")
                .expectExit(ExitCode.CHANGES_PENDING);
        assertThat(check.stdout())
                .contains("would change: [localhost] restart_redis: ")
                .contains("would wait: [localhost] wait_healthy: forecast: Redis would be started by then;"
                        + " apply would wait up to 60s each for ping, loading_done, replica_synced")
                .contains("FORECAST (check mode: nothing was changed; what apply would do)")
                .contains("localhost: would change")
                .contains("  restart: start it (it does not answer now)")
                .contains("  gates: ping, loading_done, replica_synced: apply waits up to 60s once Redis is started")
                .contains("check: changes pending on localhost")
                .doesNotContain("waiting:");
        assertThat(redisAnswers()).as("check mode started nothing").isFalse();

        // The run does what the forecast said (the restart and its gates; no THP step here).
        CliRun run = apply(
                        """
                        - name: restart
                          hosts: all
                          steps:
                            - restart_redis: {always: true, %s, command: "%s"}
                            - wait_healthy: {timeout: 60s, gates: [ping, loading_done, role_unchanged, replica_synced]}
                        """
                                .formatted(STOPPED, startCommand()),
                        inventory)
                .expectExit(ExitCode.OK);
        assertThat(run.stdout())
                .contains("changed: [localhost] restart_redis: ")
                .contains("gate ping passed");
        assertThat(redisAnswers()).isTrue();

        // Running now, with save points: the forecast is a save, then a restart in place.
        CliRun again = apply(thpOff("command: \"" + startCommand() + "\""), inventory, "--check")
                .expectExit(ExitCode.CHANGES_PENDING);
        assertThat(again.stdout())
                .contains("  restart: BGSAVE, then restart in place (primary, no replica: BGSAVE first (save points))")
                .contains("ok: [localhost] wait_healthy: forecast: Redis would be restarted by then;")
                .contains("  gates: ping, loading_done, role_unchanged, replica_synced: apply waits up to 60s once"
                        + " Redis is restarted");
    }

    @Test
    void aRedisWhoseRestartWouldLoseItsDataIsARealFailure() throws Exception {
        try (LocalRedisServer redis = LocalRedisServer.start()) {
            port = redis.port;
            CliRun check = apply(thpOff("unit: redis-server"), inventory(port, "redis-server"), "--check")
                    .expectExit(ExitCode.FINDINGS);
            assertThat(check.stdout())
                    .contains("localhost: would fail at restart_redis")
                    .contains("  restart: refused: primary, no replica, and no persistence")
                    .contains("failed:    localhost");
        }
    }

    @Test
    void aUnitThatCannotBeRestartedHereIsARealFailure() throws Exception {
        port = freePort();
        CliRun check = apply(
                        thpOff(STOPPED + ", unit: \"{{ redis_service }}\""),
                        inventory(port, "fleetfix-no-such-unit"),
                        "--check")
                .expectExit(ExitCode.FINDINGS);
        assertThat(check.stdout())
                .contains("localhost: would fail at restart_redis")
                .contains("  restart: apply would fail: service fleetfix-no-such-unit cannot be restarted on this host"
                        + " (");
    }

    /**
     * The issue's own case: the shipped playbook on the implicit localhost (no inventory), this
     * machine's packaged redis-server stopped, then started by its init script. Both forecasts come
     * in seconds. A stopped Redis that no inventory names a service for is forecast to fail, exit 1: nothing listens,
     * so nothing shows which service runs it, and fleetfix never assumes redis-server (issue 25); a running one,
     * found through its init script, is forecast to be saved and restarted, exit 3.
     */
    @Test
    void theShippedPlaybookOnTheImplicitLocalhostForecastsInSecondsWhetherRedisRunsOrNot() throws Exception {
        Path runs = dir.resolve("runs");
        service("stop");
        cleanup.add(() -> service("stop"));
        // nothing listens, and no inventory names the service: fleetfix never assumes redis-server, it says so
        CliRun stopped = timedCheck(
                        "playbooks/thp-off.yaml", "--run-dir", runs.resolve("1").toString())
                .expectExit(1);
        assertThat(stopped.stdout())
                .contains("localhost: would fail at restart_redis")
                .contains("cannot be discovered (fleetfix never assumes redis-server): start it, or name it with"
                        + " redis_service in the inventory");

        service("start");
        port = 6379;
        // the init script returns once redis-server has forked, before it listens
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!redisAnswers() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(redisAnswers())
                .as("the init script started this machine's Redis")
                .isTrue();
        CliRun running = timedCheck(
                        "playbooks/thp-off.yaml", "--run-dir", runs.resolve("2").toString())
                .expectExit(ExitCode.CHANGES_PENDING);
        assertThat(running.stdout())
                .contains("localhost: would change")
                .containsPattern("  restart: BGSAVE, then restart in place \\((found [^;]*; )?primary, no replica")
                .contains("apply waits up to 60s once Redis is restarted")
                .doesNotContain("would fail");
    }

    private static CliRun timedCheck(String playbook, String... more) {
        List<String> args = new ArrayList<>(List.of("apply", playbook, "--check", "--no-color"));
        args.addAll(List.of(more));
        long start = System.nanoTime();
        CliRun run = CliRun.of(args.toArray(String[]::new));
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        System.out.println(run + "\ntook " + took.toMillis() + " ms");
        assertThat(took).as("check mode waits for nothing\n" + run).isLessThan(QUICK);
        return run;
    }

    /** This machine's packaged Redis through its init script, as an operator would. */
    private static void service(String action) {
        try {
            int rc = new ProcessBuilder("/etc/init.d/redis-server", action)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start()
                    .waitFor();
            assertThat(rc).as("/etc/init.d/redis-server " + action).isZero();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void shutdown(int p) {
        try {
            new ProcessBuilder("redis-cli", "-h", "127.0.0.1", "-p", Integer.toString(p), "shutdown", "nosave")
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start()
                    .waitFor();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
