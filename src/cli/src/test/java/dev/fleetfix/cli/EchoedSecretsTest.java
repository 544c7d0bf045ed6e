package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.KnownSecrets;
import dev.fleetfix.fake.FakeHost;
import dev.fleetfix.fake.TestClock;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisException.Kind;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.rollout.RolloutPolicy;
import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.RemoteShell;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Peers that say the password back, in every channel a run reads: a Redis whose AUTH is renamed away (its error
 * echoes AUTH's arguments, a long one cut at Redis's 128 characters), a Redis whose every error and reply carries
 * it, and a shell whose commands print it on stdout and stderr in several quotings. No output of audit or apply
 * (--check and a real run) holds the password at any verbosity: console, report.json, junit.xml, report.html,
 * journal, the audit's files.
 */
class EchoedSecretsTest {
    /** Quotes, a backslash and markup: each output escapes some of them its own way. */
    private static final String QUOTED = "Ech0'd\"pw\\<&>-4c1e";
    /** Longer than Redis echoes: the error holds only its beginning. */
    private static final String LONG = "long-echoed-password-" + "x9".repeat(80) + "-tail-3b7d";
    /** Spaces: the words of a phrase must not be taken for the cut pieces of another secret. */
    private static final String PHRASE = "third password with spaces 8f2d";

    @TempDir
    Path dir;

    @Test
    void noOutputHoldsAPasswordAPeerSaidBack() throws Exception {
        Path inventory = Files.writeString(
                dir.resolve("inventory.yaml"),
                """
                all:
                  children:
                    redis:
                      hosts:
                        renamed: {ansible_host: 127.0.0.1, redis_password: '%s'}
                        shell-echo: {ansible_host: 127.0.0.2, redis_password: '%s'}
                        redis-echo: {ansible_host: 127.0.0.3, redis_password: '%s'}
                """
                        .formatted(LONG, QUOTED.replace("'", "''"), PHRASE));
        Path playbook = Files.writeString(
                dir.resolve("thp-off.yaml"),
                """
                - name: thp off
                  hosts: redis
                  serial: 1
                  max_fail_percentage: 100
                  steps:
                    - thp: {}
                    - persist_thp: {method: systemd}
                    - restart_redis: {}
                    - wait_healthy: {timeout: 10s}
                """);

        StringBuilder everything = new StringBuilder();
        for (String verbosity : List.of("", "-v", "-vv", "-vvv")) {
            Path work = Files.createDirectories(dir.resolve("run" + verbosity));
            Adapters adapters = echoingFleet(work);
            List<List<String>> commands = List.of(
                    List.of("audit", "-i", inventory.toString()),
                    List.of("audit", "-i", inventory.toString(), "--json"),
                    List.of("audit", "-i", inventory.toString(), "--format", "openmetrics", "-o", work + "/audit.prom"),
                    List.of("apply", playbook.toString(), "-i", inventory.toString(), "--check"),
                    List.of("apply", playbook.toString(), "-i", inventory.toString(), "--report", work + "/reports"));
            for (List<String> command : commands) {
                List<String> args = new ArrayList<>(command);
                if (!verbosity.isEmpty()) {
                    args.add(verbosity);
                }
                CliRun run = CliRun.of(Main.commandLine(adapters), args.toArray(String[]::new));
                assertThat(run.exitCode()).as(run.toString()).isNotZero();
                everything.append(run.stdout()).append(run.stderr());
            }
            try (Stream<Path> files = Files.walk(work)) {
                for (Path file : files.filter(Files::isRegularFile).toList()) {
                    everything.append(Files.readString(file));
                }
            }
        }

        String all = everything.toString();
        assertThat(all)
                .as("the peers' words reached the outputs (else this test shows nothing)")
                .contains("with args beginning with: '" + KnownSecrets.MASK)
                .contains("fleetfix.lock: \"" + KnownSecrets.MASK + "\"");
        assertThat(all).doesNotContain(QUOTED, LONG, LONG.substring(0, 100), "tail-3b7d", "Ech0'd", PHRASE, "8f2d");
        assertThat(all).doesNotContain("Ech0&#39;d", "Ech0\\'d", "pw\\\\&lt;", "pw\\\\<&>");
    }

    /** Fake hosts whose Redis and shell echo the hosts' passwords. */
    private static Adapters echoingFleet(Path work) {
        Map<String, FakeHost> hosts = new LinkedHashMap<>();
        for (String name : List.of("renamed", "shell-echo", "redis-echo")) {
            hosts.put(name, new FakeHost(name, work));
        }
        TestClock clock = new TestClock(Instant.parse("2026-12-06T01:30:00Z"));
        return Adapters.builder()
                .clock(clock)
                .sleeper(clock.sleeper())
                .shells(host -> host.name().equals("shell-echo")
                        ? echoing(hosts.get(host.name()).shell(), password(host.name()))
                        : hosts.get(host.name()).shell())
                .redis((host, timeout) -> {
                    String password = password(host.name());
                    if (host.name().equals("renamed")) {
                        // as JedisErrors words Redis's answer to AUTH when AUTH is renamed away
                        String echoed = "ERR unknown command 'AUTH', with args beginning with: '"
                                + password.substring(0, Math.min(password.length(), 120)) + "' ";
                        throw new RedisException(
                                host.name(),
                                Kind.UNKNOWN_COMMAND,
                                Optional.empty(),
                                host.redis() + ": " + echoed,
                                new IllegalStateException(echoed));
                    }
                    return echoing(hosts.get(host.name()).redis().connect(), password);
                })
                .policy(RolloutPolicy.of(2, Duration.ofMillis(10)))
                .runsHome(work.resolve("fleetfix-runs"))
                .build();
    }

    private static String password(String host) {
        return switch (host) {
            case "renamed" -> LONG;
            case "shell-echo" -> QUOTED;
            default -> PHRASE;
        };
    }

    /** A shell whose every command fails, saying the password on stdout (raw, single-quoted) and stderr (quoted). */
    private static RemoteShell echoing(RemoteShell shell, String password) {
        return new RemoteShell() {
            @Override
            public String hostName() {
                return shell.hostName();
            }

            @Override
            public ExecResult exec(Command command) {
                ExecResult r = shell.exec(command);
                return new ExecResult(
                        1,
                        r.stdout() + "\necho: " + password + " '" + password + "'\n",
                        r.stderr() + "\n\"" + password.replace("\\", "\\\\").replace("\"", "\\\"") + "\"\n",
                        r.duration(),
                        r.dropped());
            }

            @Override
            public void put(String remotePath, byte[] content, int mode, boolean become) {
                shell.put(remotePath, content, mode, become);
            }

            @Override
            public void close() {
                shell.close();
            }
        };
    }

    /** A Redis whose every error names the password, and whose INFO carries it in a value. */
    private static RedisNode echoing(RedisNode node, String password) {
        return new RedisNode() {
            @Override
            public String hostName() {
                return node.hostName();
            }

            @Override
            public String ping() {
                return node.ping();
            }

            @Override
            public Map<String, String> info(String section) {
                Map<String, String> info = new LinkedHashMap<>(node.info(section));
                info.put("executable", "/usr/bin/redis-server " + password);
                return info;
            }

            @Override
            public Optional<String> configGet(String parameter) {
                throw refused("CONFIG GET");
            }

            @Override
            public Object command(String name, String... args) {
                throw refused(name);
            }

            private RedisException refused(String command) {
                String text = "ERR unknown command '" + command + "', with args beginning with: '" + password + "' ";
                return new RedisException(
                        node.hostName(),
                        Kind.UNKNOWN_COMMAND,
                        Optional.of(command),
                        command + " refused: " + text,
                        new IllegalStateException(text));
            }

            @Override
            public void close() {
                node.close();
            }
        };
    }
}
