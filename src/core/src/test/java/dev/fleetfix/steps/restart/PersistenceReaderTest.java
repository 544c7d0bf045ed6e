package dev.fleetfix.steps.restart;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.checks.Container;
import dev.fleetfix.fake.RecordingShell;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.ExecResult;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class PersistenceReaderTest {
    private static final Map<String, String> NO_AOF = Map.of("aof_enabled", "0");
    private static final Map<String, String> SERVER =
            Map.of("config_file", "/etc/redis/redis.conf", "process_id", "42", "redis_version", "7.0.15");

    /** A Redis whose CONFIG fails with {@code kind}, and answers a renamed CONFIG {@code renamed}. */
    private static RedisNode redis(RedisException.Kind kind, String renamed, String save) {
        return new RedisNode() {
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
                return Map.of();
            }

            @Override
            public Optional<String> configGet(String parameter) {
                if (kind == null) {
                    return Optional.of(save);
                }
                throw new RedisException("r1", kind, Optional.of("CONFIG GET"), "CONFIG GET refused", null);
            }

            @Override
            public Object command(String name, String... args) {
                if (name.equals(renamed)) {
                    return List.of("save", save);
                }
                throw new RedisException(
                        "r1",
                        RedisException.Kind.UNKNOWN_COMMAND,
                        Optional.of(name),
                        name + " refused, unknown command: ERR unknown command '" + name + "'",
                        null);
            }

            @Override
            public void close() {}
        };
    }

    /** A host's files and units, behind a shell that records every script. */
    private static final class Host {
        final Map<String, String> files = new HashMap<>();
        String mainPid = "42";
        String execStart = "{ path=/usr/bin/redis-server ; argv[]=/usr/bin/redis-server /etc/redis/redis.conf"
                + " --supervised systemd --daemonize no ; }";
        String cmdline = "redis-server /usr/local/etc/redis/redis.conf ";
        final RecordingShell shell = RecordingShell.answering("r1", this::answer);

        private ExecResult answer(Command command) {
            String s = command.script();
            if (s.equals("tr '\\0' ' ' < /proc/4242/cmdline")) {
                return new ExecResult(0, cmdline, "", Duration.ZERO);
            }
            if (s.startsWith("cat -- ")) {
                String file = s.substring("cat -- ".length()).replace("'", "");
                String text = files.get(file);
                return text == null
                        ? new ExecResult(1, "", "cat: " + file + ": Permission denied\n", Duration.ZERO)
                        : new ExecResult(0, text, "", Duration.ZERO);
            }
            if (s.startsWith("systemctl show")) {
                return new ExecResult(0, mainPid + "\n" + execStart + "\n", "", Duration.ZERO);
            }
            return new ExecResult(127, "", "unexpected", Duration.ZERO);
        }
    }

    private static Persistence read(Host host, RedisNode node) {
        return new PersistenceReader(host.shell, "redis-server").read(node, NO_AOF, SERVER);
    }

    @Test
    void configGetAnswersWhenAllowed() {
        Host host = new Host();
        Persistence p = read(host, redis(null, null, ""));
        assertThat(p).isEqualTo(Persistence.known(false, false, "CONFIG GET save"));
        assertThat(host.shell.scripts()).isEmpty();
    }

    @Test
    void configDisabledInTheFileMakesTheFileTheTruth() {
        Host host = new Host();
        host.files.put("/etc/redis/redis.conf", "save 900 1\ninclude /etc/redis/local.conf\n");
        host.files.put("/etc/redis/local.conf", "rename-command CONFIG \"\"\nsave \"\"\n");
        Persistence p = read(host, redis(RedisException.Kind.UNKNOWN_COMMAND, null, null));
        assertThat(p.persistent()).contains(false);
        assertThat(p.source()).isEqualTo("config file /etc/redis/redis.conf (CONFIG is disabled there: save \"\")");

        host.files.put("/etc/redis/local.conf", "rename-command CONFIG \"\"\n");
        assertThat(read(host, redis(RedisException.Kind.UNKNOWN_COMMAND, null, null))
                        .persistent())
                .contains(true);
    }

    @Test
    void anUnreadableConfigFileLeavesSaveUnknownAndSaysWhy() {
        Host host = new Host();
        Persistence p = read(host, redis(RedisException.Kind.UNKNOWN_COMMAND, null, null));
        assertThat(p.rdb()).isEmpty();
        assertThat(p.persistent()).isEmpty();
        assertThat(p.unknown().orElseThrow())
                .isEqualTo("CONFIG GET save refused (unknown command: renamed away) and cannot read"
                        + " /etc/redis/redis.conf over SSH (exit 1: cat: /etc/redis/redis.conf: Permission denied)");
    }

    @Test
    void aConfigRenamedToANewNameIsAskedUnderIt() {
        Host host = new Host();
        host.files.put("/etc/redis/redis.conf", "save 900 1\nrename-command CONFIG s3cr3t-config\n");
        Persistence p = read(host, redis(RedisException.Kind.UNKNOWN_COMMAND, "s3cr3t-config", ""));
        assertThat(p.persistent()).as("the running value, not the file's").contains(false);
        assertThat(p.source()).doesNotContain("s3cr3t");
    }

    @Test
    void aRenamedCONFIGThatFailsTooLeavesSaveUnknownWithoutNamingIt() {
        Host host = new Host();
        host.files.put("/etc/redis/redis.conf", "save 900 1\nrename-command CONFIG s3cr3t-config\n");
        Persistence p = read(host, redis(RedisException.Kind.UNKNOWN_COMMAND, "other-name", ""));
        assertThat(p.persistent()).isEmpty();
        assertThat(p.unknown().orElseThrow())
                .contains("CONFIG under its renamed name failed too (unknown command)")
                .doesNotContain("s3cr3t");
    }

    @Test
    void anAclRefusalWithCONFIGNotDisabledProvesNothingFromTheFile() {
        Host host = new Host();
        host.files.put("/etc/redis/redis.conf", "save 900 1\n");
        Persistence p = read(host, redis(RedisException.Kind.NO_PERMISSION, null, null));
        assertThat(p.persistent()).isEmpty();
        assertThat(p.unknown().orElseThrow())
                .contains("CONFIG GET save refused (not permitted to this user: NOPERM)")
                .contains("does not disable CONFIG, so someone may have changed save at runtime");
    }

    @Test
    void aCommandLineThatMayOverrideTheFileLeavesSaveUnknown() {
        Host host = new Host();
        host.files.put("/etc/redis/redis.conf", "save 900 1\nrename-command CONFIG \"\"\n");
        host.execStart = "{ path=/usr/bin/redis-server ; argv[]=/usr/bin/redis-server /etc/redis/redis.conf --save ; }";
        assertThat(read(host, redis(RedisException.Kind.UNKNOWN_COMMAND, null, null))
                        .unknown()
                        .orElseThrow())
                .contains("starts Redis with --save on its command line");
        host.execStart = "";
        host.mainPid = "0";
        assertThat(read(host, redis(RedisException.Kind.UNKNOWN_COMMAND, null, null))
                        .unknown()
                        .orElseThrow())
                .contains("Redis (pid 42) was not started by unit redis-server (its MainPID is 0)");
    }

    @Test
    void aRedisWithoutConfigFileAndCONFIGRefusedIsUnknown() {
        Persistence p = new PersistenceReader(new Host().shell, "redis-server")
                .read(redis(RedisException.Kind.UNKNOWN_COMMAND, null, null), NO_AOF, Map.of("config_file", ""));
        assertThat(p.unknown().orElseThrow()).contains("runs without a config file");
    }

    /** Redis in docker container {@code cache} (pid 4242 on the host), started with a config file inside it. */
    private static Persistence inContainer(Host host, Container.Mount... mounts) {
        Container cache = new Container(
                "docker",
                "2b609bb5b36f659ca377dd11d4b60683004a435406d819a4b30f912b40a0ca29",
                Optional.of("cache"),
                Optional.of("always"),
                Optional.empty(),
                Optional.empty(),
                List.of(mounts),
                Optional.empty());
        return new PersistenceReader(host.shell, "cache", Optional.of(cache), OptionalLong.of(4242))
                .read(
                        redis(RedisException.Kind.UNKNOWN_COMMAND, null, null),
                        NO_AOF,
                        Map.of("config_file", "/usr/local/etc/redis/redis.conf", "process_id", "1"));
    }

    @Test
    void aContainersConfigFileInItsOwnLayerIsNotReadAtTheSamePathOnTheHost() {
        Host host = new Host();
        // the host's own file at that path says CONFIG is disabled and nothing is saved: it is another Redis's
        host.files.put("/usr/local/etc/redis/redis.conf", "rename-command CONFIG \"\"\nsave \"\"\n");
        Persistence p = inContainer(host, new Container.Mount("volume", "/data", "/var/lib/docker/volumes/d/_data"));
        assertThat(p.persistent()).as("claims nothing").isEmpty();
        assertThat(p.unknown().orElseThrow())
                .contains("CONFIG GET save refused")
                .contains("/usr/local/etc/redis/redis.conf is inside docker container cache, not mounted from the host,"
                        + " so fleetfix cannot read it");
        assertThat(host.shell.scripts()).noneMatch(s -> s.contains("/usr/local/etc/redis"));
    }

    @Test
    void aContainersConfigFileIsReadWhereItsMountPutsItOnTheHostWithTheProcessCommandLine() {
        Host host = new Host();
        host.files.put("/srv/cache/conf/redis.conf", "rename-command CONFIG \"\"\nsave 900 1\n");
        host.files.put("/usr/local/etc/redis/redis.conf", "rename-command CONFIG \"\"\nsave \"\"\n");
        Container.Mount conf = new Container.Mount("bind", "/usr/local/etc/redis", "/srv/cache/conf");

        Persistence p = inContainer(host, conf);
        assertThat(p.persistent()).as(p.toString()).contains(true);
        assertThat(host.shell.scripts()).contains("cat -- /srv/cache/conf/redis.conf");
        assertThat(host.shell.scripts()).noneMatch(s -> s.contains("systemctl"));

        host.cmdline = "redis-server /usr/local/etc/redis/redis.conf --save 60 1 ";
        assertThat(inContainer(host, conf).unknown().orElseThrow())
                .contains("docker container cache starts Redis with --save on its command line");
    }
}
