package dev.fleetfix.steps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.InputException;
import dev.fleetfix.fake.FakeHost;
import dev.fleetfix.fake.FakeRedis;
import dev.fleetfix.fake.Harness;
import dev.fleetfix.fake.TestClock;
import dev.fleetfix.health.GateTarget;
import dev.fleetfix.playbook.Location;
import dev.fleetfix.playbook.Step;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.redis.topology.Sentinels;
import dev.fleetfix.rollout.plan.RunOptions;
import dev.fleetfix.steps.model.HostState;
import dev.fleetfix.steps.model.RunPorts;
import dev.fleetfix.steps.model.StepArgs;
import dev.fleetfix.steps.model.StepContext;
import dev.fleetfix.steps.model.StepFailure;
import dev.fleetfix.steps.model.StepResult;
import dev.fleetfix.steps.model.StepStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RedisConfigStepTest {
    @TempDir
    Path dir;

    private void plan(String step) {
        new Harness(dir, "r1").plan("- hosts: all\n  steps:\n" + step, RunOptions.defaults());
    }

    @Test
    void parametersAreCheckedWhenThePlaybookIsRead() {
        plan("    - redis_config: {tcp-backlog: 1024, latency-monitor-threshold: 100, save: \"\"}\n");
        assertThatThrownBy(() -> plan("    - redis_config: {\"tcp backlog\": 1}\n"))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("play.yaml:3")
                .hasMessageContaining("not a Redis parameter name");
        assertThatThrownBy(() -> plan("    - redis_config: {save: \"900 1\\nrename-command FLUSHALL x\"}\n"))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("line breaks");
        assertThatThrownBy(() -> plan("    - redis_config: {rename-command: x}\n"))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("rename-command is not a parameter");
    }

    @Test
    void aDirectiveIsReplacedInPlaceOnceAndASecondEditChangesNothing() {
        String conf = "bind 127.0.0.1\ntcp-backlog 511\nsave 900 1\nsave 300 10\n# tcp-backlog 2\n";
        String once = RedisConfigStep.setDirective(conf, "tcp-backlog", "1024");
        assertThat(once).isEqualTo("bind 127.0.0.1\ntcp-backlog 1024\nsave 900 1\nsave 300 10\n# tcp-backlog 2\n");
        assertThat(RedisConfigStep.setDirective(once, "tcp-backlog", "1024")).isEqualTo(once);

        String saves = RedisConfigStep.setDirective(once, "save", "3600 1");
        assertThat(saves).isEqualTo("bind 127.0.0.1\ntcp-backlog 1024\nsave 3600 1\n# tcp-backlog 2\n");
        assertThat(RedisConfigStep.setDirective(saves, "save", "")).contains("save \"\"\n");
        assertThat(RedisConfigStep.setDirective("port 6379", "latency-monitor-threshold", "100"))
                .isEqualTo("port 6379\nlatency-monitor-threshold 100\n");
    }

    private static final String CONF = "/etc/redis/redis.conf";

    /** A Redis whose CONFIG answers from a map, or is renamed away. */
    private static final class ConfigRedis implements RedisNode {
        final Map<String, String> config = new LinkedHashMap<>(
                Map.of("tcp-backlog", "511", "latency-monitor-threshold", "0", "disable-thp", "yes"));
        final List<String> sent = new ArrayList<>();
        boolean configDisabled;
        String version = "7.0.15";
        String configFile = CONF;

        @Override
        public String hostName() {
            return "r1";
        }

        @Override
        public String ping() {
            return "PONG";
        }

        @Override
        public Map<String, String> info(String section) {
            return Map.of("redis_version", version, "config_file", configFile);
        }

        @Override
        public Optional<String> configGet(String parameter) {
            refuseWhenDisabled("CONFIG GET");
            return Optional.ofNullable(config.get(parameter));
        }

        @Override
        public Object command(String name, String... args) {
            sent.add(name + " " + String.join(" ", args));
            refuseWhenDisabled(name + " " + args[0]);
            if (args[0].equals("SET")) {
                if (args[1].equals("tcp-backlog")) {
                    throw new RedisException(
                            "r1",
                            RedisException.Kind.ERROR_REPLY,
                            Optional.of("CONFIG SET"),
                            "ERR can't set immutable config",
                            null);
                }
                config.put(args[1], args[2]);
            }
            return "OK";
        }

        private void refuseWhenDisabled(String command) {
            if (configDisabled) {
                throw new RedisException(
                        "r1",
                        RedisException.Kind.UNKNOWN_COMMAND,
                        Optional.of(command),
                        command + " refused, unknown command",
                        null);
            }
        }

        @Override
        public void close() {}
    }

    private StepResult run(FakeHost host, ConfigRedis redis, HostState state, boolean check, String yaml)
            throws InterruptedException {
        return run(host, timeout -> redis, state, check, yaml);
    }

    private StepResult run(FakeHost host, FakeRedis redis, String yaml) throws InterruptedException {
        return run(host, timeout -> redis.connect(), new HostState(), false, yaml);
    }

    private StepResult run(FakeHost host, GateTarget.Connect redis, HostState state, boolean check, String yaml)
            throws InterruptedException {
        Map<String, Object> args = new LinkedHashMap<>();
        for (String pair : yaml.split(", ")) {
            String[] kv = pair.split(": ");
            args.put(kv[0], kv[1]);
        }
        Step step = new Step(
                "redis_config", "redis_config", args, Optional.empty(), new Location(dir.resolve("p.yaml"), 3, 7));
        StepHandler handler = new RedisConfigStep().prepare(new StepArgs(step, host.host()));
        TestClock clock = new TestClock(java.time.Instant.parse("2026-12-01T00:00:00Z"));
        StepContext ctx = new StepContext(
                new RunPorts(h -> host.shell(), (h, timeout) -> redis.open(timeout), clock, clock.sleeper()),
                host.host(),
                host.shell(),
                redis,
                state,
                new StepContext.Run(check, "20261201T000000Z-00000001", Duration.ofMillis(10)),
                new StepContext.Peers(GateTarget.Primaries.none(), Sentinels.none(), List.of()),
                StepContext.Listeners.NONE);
        StepResult result = handler.run(ctx);
        state.learn(result.facts());
        return result;
    }

    /** The audit's facts for a Redis in a container whose config file is at {@code onHost} on the host, or nowhere. */
    private static HostState inContainer(String onHost) {
        HostState state = new HostState();
        state.learn(Map.of("redis.service.manager", "container", "redis.service.config_on_host", onHost));
        return state;
    }

    @Test
    void aContainersConfigFileNotMountedFromTheHostIsNeitherRewrittenNorEditedAndNothingClaimsPersistence()
            throws Exception {
        FakeHost host = new FakeHost("r1", dir);
        // the host's own file at the same path belongs to no Redis in the container
        host.write(CONF, "bind 127.0.0.1\n");
        ConfigRedis redis = new ConfigRedis();

        StepResult r = run(host, redis, inContainer(""), false, "latency-monitor-threshold: 100");

        assertThat(r.status()).as(r.message()).isEqualTo(StepStatus.CHANGED);
        assertThat(redis.sent).containsExactly("CONFIG SET latency-monitor-threshold 100");
        assertThat(host.read(CONF)).contains("bind 127.0.0.1\n");
        assertThat(r.message())
                .contains("Redis runs in a container whose config file /etc/redis/redis.conf is not mounted from the"
                        + " host: [latency-monitor-threshold] not persisted");
        assertThat(r.diffs()).isEmpty();
    }

    @Test
    void aContainersConfigFileMountedFromTheHostIsEditedAtItsHostPath() throws Exception {
        FakeHost host = new FakeHost("r1", dir);
        String onHost = "/var/lib/redis-conf/redis.conf";
        host.write(CONF, "bind 127.0.0.1\n");
        host.write(onHost, "bind 0.0.0.0\ntcp-backlog 511\nrename-command CONFIG \"\"\n");
        ConfigRedis redis = new ConfigRedis();
        redis.configDisabled = true;

        StepResult r = run(host, redis, inContainer(onHost), false, "tcp-backlog: 1024");

        assertThat(r.status()).as(r.message()).isEqualTo(StepStatus.CHANGED);
        assertThat(host.read(onHost).orElseThrow()).contains("tcp-backlog 1024");
        assertThat(host.read(CONF)).contains("bind 127.0.0.1\n");
    }

    @Test
    void whereConfigIsDisabledTheFileIsEditedARestartAskedForAndTheReasonNamed() throws Exception {
        FakeHost host = new FakeHost("r1", dir);
        host.write(CONF, "bind 127.0.0.1\ntcp-backlog 511\nrename-command CONFIG \"\"\n");
        ConfigRedis redis = new ConfigRedis();
        redis.configDisabled = true;

        StepResult first =
                run(host, redis, new HostState(), false, "tcp-backlog: 1024, latency-monitor-threshold: 100");
        assertThat(first.status()).as(first.message()).isEqualTo(StepStatus.CHANGED);
        assertThat(first.message())
                .contains("CONFIG is disabled (rename-command CONFIG \"\" in /etc/redis/redis.conf)")
                .contains("restart needed to apply");
        assertThat(first.facts()).containsEntry("redis.restart_needed", "yes");
        assertThat(host.read(CONF).orElseThrow())
                .contains("bind 127.0.0.1\ntcp-backlog 1024\nrename-command CONFIG \"\"\n"
                        + "latency-monitor-threshold 100\n");
        assertThat(first.diffs()).singleElement().satisfies(d -> assertThat(d.unifiedDiff())
                .contains("-tcp-backlog 511")
                .contains("+tcp-backlog 1024"));

        StepResult again =
                run(host, redis, new HostState(), false, "tcp-backlog: 1024, latency-monitor-threshold: 100");
        assertThat(again.status()).as(again.message()).isEqualTo(StepStatus.OK);
        assertThat(again.facts()).containsEntry("redis.restart_needed", "no");
    }

    @Test
    void configSetWhereItCanAndTheFileWithARestartForWhatIsReadAtStart() throws Exception {
        FakeHost host = new FakeHost("r1", dir);
        host.write(CONF, "bind 127.0.0.1\ntcp-backlog 511\n");
        ConfigRedis redis = new ConfigRedis();

        StepResult check = run(host, redis, new HostState(), true, "tcp-backlog: 1024, latency-monitor-threshold: 100");
        assertThat(check.status()).isEqualTo(StepStatus.CHANGED);
        assertThat(check.facts()).containsEntry("redis.restart_needed", "yes");
        assertThat(redis.sent).as("check mode sends no SET or REWRITE").isEmpty();
        assertThat(host.read(CONF).orElseThrow()).contains("tcp-backlog 511\n");

        StepResult apply =
                run(host, redis, new HostState(), false, "tcp-backlog: 1024, latency-monitor-threshold: 100");
        assertThat(redis.sent).containsExactly("CONFIG SET latency-monitor-threshold 100", "CONFIG REWRITE");
        assertThat(redis.config).containsEntry("latency-monitor-threshold", "100");
        assertThat(host.read(CONF).orElseThrow()).contains("tcp-backlog 1024\n");
        assertThat(apply.message())
                .contains("restart needed to apply: tcp-backlog is read when Redis starts (511 now)");
        // the values set, as facts named like the audit's, in check mode too: an assert after the step reads them
        assertThat(check.facts())
                .containsEntry("redis.tcp_backlog", "1024")
                .containsEntry("redis.latency_monitor_threshold", "100");
        assertThat(apply.facts()).containsEntry("redis.tcp_backlog", "1024");
    }

    @Test
    void aParameterNewerThanTheRunningRedisIsRefusedByName() throws Exception {
        FakeHost host = new FakeHost("r1", dir);
        host.write(CONF, "bind 127.0.0.1\n");
        ConfigRedis redis = new ConfigRedis();
        redis.version = "6.0.16";
        StepResult r = run(host, redis, new HostState(), false, "disable-thp: yes");
        assertThat(r.status()).isEqualTo(StepStatus.FAILED);
        assertThat(r.message()).isEqualTo("Redis 6.0.16 has no disable-thp (it exists from 6.2)");
    }

    @Test
    void withoutConfigAndWithoutAFileTheStepFailsSayingWhy() throws Exception {
        FakeHost host = new FakeHost("r1", dir);
        ConfigRedis redis = new ConfigRedis();
        redis.configDisabled = true;
        redis.configFile = "";
        // the engine turns a StepFailure into a FAILED result with this message
        assertThatThrownBy(() -> run(host, redis, new HostState(), false, "tcp-backlog: 1024"))
                .isInstanceOf(StepFailure.class)
                .hasMessageContaining(
                        "cannot set tcp-backlog: CONFIG is unknown to this Redis and it has no config file")
                .hasMessageContaining("Redis runs without a config file");
    }

    private static FakeRedis redisWithFile() {
        return FakeRedis.redis7()
                .server(Map.of("redis_version", "7.0.15", "config_file", CONF))
                .config("latency-monitor-threshold", "0");
    }

    private static List<String> configCommands(FakeRedis redis) {
        return redis.commands().stream()
                .filter(c -> c.startsWith("CONFIG ") || c.startsWith("xyz "))
                .toList();
    }

    /**
     * An ACL user without CONFIG rights: CONFIG GET answers NOPERM, so nothing more is sent to
     * Redis (a CONFIG SET would be refused too), the file is edited, and a restart is asked for
     * with the reason named per parameter, since the running values cannot be told.
     */
    @Test
    void anAclUserWithoutConfigRightsGetsTheFileEditedAndTheRefusalNamed() throws Exception {
        FakeHost host = new FakeHost("r1", dir);
        host.write(CONF, "bind 127.0.0.1\ntcp-backlog 511\n");
        FakeRedis redis = redisWithFile().withoutConfigRights();

        StepResult first = run(host, redis, "latency-monitor-threshold: 100, tcp-backlog: 1024");

        assertThat(first.status()).as(first.message()).isEqualTo(StepStatus.CHANGED);
        assertThat(configCommands(redis)).as("sent after the NOPERM").isEmpty();
        assertThat(redis.config()).containsEntry("latency-monitor-threshold", "0");
        assertThat(first.message())
                .contains("restart needed to apply: latency-monitor-threshold: CONFIG refused to this ACL user"
                        + " (NOPERM); the config file was edited instead; tcp-backlog: CONFIG refused to this ACL"
                        + " user (NOPERM); the config file was edited instead");
        assertThat(first.facts()).containsEntry("redis.restart_needed", "yes");
        assertThat(host.read(CONF).orElseThrow())
                .isEqualTo("bind 127.0.0.1\ntcp-backlog 1024\nlatency-monitor-threshold 100\n");

        StepResult again = run(host, redis, "latency-monitor-threshold: 100, tcp-backlog: 1024");
        assertThat(again.status()).as(again.message()).isEqualTo(StepStatus.OK);
        assertThat(again.facts()).containsEntry("redis.restart_needed", "no");
    }

    /**
     * {@code rename-command CONFIG xyz}: CONFIG is unknown, the file names its new name, and every
     * CONFIG command goes out under it: GET, SET for what can change at run time, REWRITE to keep
     * it; tcp-backlog, read at start, goes to the file with a restart asked for.
     */
    @Test
    void aRenamedConfigIsUsedUnderItsNewName() throws Exception {
        FakeHost host = new FakeHost("r1", dir);
        host.write(CONF, "bind 127.0.0.1\ntcp-backlog 511\nrename-command CONFIG xyz\n");
        FakeRedis redis = redisWithFile().configRenamedTo("xyz");

        StepResult r = run(host, redis, "latency-monitor-threshold: 100, tcp-backlog: 1024");

        assertThat(r.status()).as(r.message()).isEqualTo(StepStatus.CHANGED);
        assertThat(configCommands(redis))
                .containsExactly(
                        "xyz GET latency-monitor-threshold",
                        "xyz SET latency-monitor-threshold 100",
                        "xyz GET tcp-backlog",
                        "xyz REWRITE");
        assertThat(redis.config()).containsEntry("latency-monitor-threshold", "100");
        assertThat(r.message())
                .contains("CONFIG used under the name rename-command gives it in /etc/redis/redis.conf")
                .contains("restart needed to apply: tcp-backlog is read when Redis starts (511 now)")
                .doesNotContain("config file was edited instead");
        assertThat(r.facts()).containsEntry("redis.restart_needed", "yes");
        assertThat(host.read(CONF).orElseThrow())
                .isEqualTo("bind 127.0.0.1\ntcp-backlog 1024\nrename-command CONFIG xyz\n");
    }
}
