package dev.fleetfix.rollout.host;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.fake.FakeHost;
import dev.fleetfix.fake.Harness;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.rollout.event.HostFinished;
import dev.fleetfix.rollout.event.HostOutcome;
import dev.fleetfix.rollout.event.RunSummary;
import dev.fleetfix.rollout.event.StepStarted;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25, item 2: before its first change a host passes every check a later step needs that can be known now; a
 * host that does not is left exactly as it was, its line saying why and what to fix in one line.
 */
class PreflightTest {
    @TempDir
    Path dir;

    private static String thpOff() throws Exception {
        return Files.readString(Path.of("playbooks", "thp-off.yaml"));
    }

    /** thp-off.yaml on one fake host prepared by {@code prepare}; the host is left as it was. */
    private HostFinished refused(Consumer<FakeHost> prepare) throws Exception {
        Harness h = new Harness(dir.resolve("h" + System.nanoTime()), "r1");
        FakeHost r1 = h.host("r1");
        r1.redis().data().put("user:1", "kept");
        prepare.accept(r1);
        Map<String, String> files = r1.snapshot();
        Map<String, String> keys = Map.copyOf(r1.redis().data());

        RunSummary summary = h.run(thpOff());

        assertThat(summary.failed()).containsExactly("r1");
        assertThat(r1.snapshot()).as("no file written on the host").isEqualTo(files);
        assertThat(r1.redis().data()).as("the keyspace").isEqualTo(keys);
        assertThat(r1.thp("enabled")).isEqualTo("always");
        assertThat(r1.redis().restarts()).isZero();
        assertThat(r1.calls())
                .noneMatch(c -> c.startsWith("systemctl restart")
                        || c.startsWith("systemctl enable")
                        || c.startsWith("systemctl daemon-reload"));
        assertThat(r1.redis().commands()).noneMatch(c -> c.startsWith("SET") || c.startsWith("BGSAVE"));
        synchronized (h.events) {
            assertThat(h.events).as("no step began").noneMatch(StepStarted.class::isInstance);
            List<HostFinished> finished = h.events.stream()
                    .filter(HostFinished.class::isInstance)
                    .map(HostFinished.class::cast)
                    .toList();
            assertThat(finished).singleElement().satisfies(f -> {
                assertThat(f.outcome()).isEqualTo(HostOutcome.FAILED);
                assertThat(f.reason()).doesNotContain("\n").startsWith("refused before any change: ");
            });
            return finished.get(0);
        }
    }

    @Test
    void aWrongPasswordRefusesTheHostNamingTheCredentials() throws Exception {
        HostFinished f = refused(r -> r.redis().refuseCredentials("WRONGPASS invalid username-password pair"));

        assertThat(f.reason())
                .isEqualTo("refused before any change: redis auth failed (WRONGPASS invalid username-password pair):"
                        + " check redis_password / redis_user")
                .doesNotContain("allow_data_loss");
    }

    /** Issue 39: the save before the restart would land in the container's own layer, gone with the container. */
    @Test
    void aContainerWhoseDataDirIsNoVolumeRefusesTheHostInOneLine() throws Exception {
        String id = "2b609bb5b36f659ca377dd11d4b60683004a435406d819a4b30f912b40a0ca29";
        HostFinished f = refused(r -> {
            r.withoutNamedService()
                    .discovers("self.pidns=pid:[1]\npid1=systemd\ninfo.config=\nport=6379\nsockets=1\npid=4242\n"
                            + "pid.comm=redis-server\npid.pidns=pid:[2]\npid.cgroup=0::/docker/" + id + "\n"
                            + "ctr.runtime=docker\nctr.id=" + id + "\nctr.name=\"/cache\"\nctr.restart=\"no\"\n"
                            + "parent=4200 containerd-shim\nend=1\n");
            r.redis().config("dir", "/data");
        });

        assertThat(f.reason())
                .startsWith("refused before any change: restart_redis: ")
                .contains("data would be lost with the container: /data is not a volume (docker container cache mounts"
                        + " nothing)");
    }

    @Test
    void aRestartRouteThatDoesNotExistRefusesTheHostNamingTheService() throws Exception {
        HostFinished f = refused(r -> r.missingUnit("redis-server"));

        assertThat(f.reason())
                .startsWith("refused before any change: restart_redis: service redis-server cannot be restarted on"
                        + " this host (No files found for redis-server.)");
    }

    @Test
    void aForbiddenConfigWithoutPersistenceRefusesTheHostNamingTheFact() throws Exception {
        HostFinished f = refused(r -> r.redis().configRenamedAway().persistence("", false));

        assertThat(f.reason())
                .startsWith("refused before any change: restart_redis: ")
                .contains("CONFIG GET save refused")
                .doesNotContain("\n");
    }

    /** rename-command BGSAVE "": the save this restart needs would fail after THP was changed and persisted. */
    @Test
    void aSaveCommandRenamedAwayRefusesTheHostNamingTheCommand() throws Exception {
        HostFinished f = refused(r -> r.redis()
                .on("BGSAVE", a -> {
                    throw new RedisException("r1", "ERR unknown command 'BGSAVE'", null);
                })
                .on("ACL", a -> {
                    if (a.get(2).equals("BGSAVE")) {
                        throw new RedisException("r1", "ERR Command 'bgsave' not found", null);
                    }
                    return "OK";
                }));

        assertThat(f.reason())
                .isEqualTo("refused before any change: restart_redis: refused: Redis refuses commands this restart"
                        + " needs: bgsave (renamed away): grant them to redis_user (the ACL for restart_redis in"
                        + " docs/inventory.md, \"The minimal Redis ACL\") or undo their rename-command;"
                        + " Redis left running");
    }

    /** An ACL user without BGSAVE: the same, naming the user. */
    @Test
    void aSaveCommandOutsideTheUsersAclRefusesTheHostNamingTheUser() throws Exception {
        HostFinished f = refused(r -> r.redis()
                .on(
                        "ACL",
                        a -> a.get(2).equals("BGSAVE")
                                ? "User default has no permissions to run the 'bgsave' command"
                                : "OK"));

        assertThat(f.reason()).contains("Redis refuses commands this restart needs: bgsave (NOPERM for user default)");
    }

    @Test
    void aHostThatPassesThePreflightRunsAsBefore() throws Exception {
        Harness h = new Harness(dir, "r1");
        h.host("r1").redis().data().put("user:1", "kept");

        RunSummary summary = h.run(thpOff());

        assertThat(summary.failed()).isEmpty();
        assertThat(summary.done()).containsExactly("r1");
        assertThat(h.host("r1").thp("enabled")).isEqualTo("never");
        assertThat(h.host("r1").redis().restarts()).isEqualTo(1);
    }

    /** A failure that comes before any change is left to its step: its own result says it, as before. */
    @Test
    void aFailureBeforeAnyChangeIsTheStepsOwn() throws Exception {
        Harness h = new Harness(dir, "r1");
        h.host("r1").write("/sys/kernel/mm/transparent_hugepage/enabled", "always madvise [never]\n");
        h.host("r1")
                .write("/sys/kernel/mm/transparent_hugepage/defrag", "always defer defer+madvise madvise [never]\n");

        RunSummary summary = h.run("- hosts: all\n  steps:\n    - audit: {}\n"
                + "    - assert: {that: \"thp.enabled == always\"}\n    - thp: {}\n");

        assertThat(summary.failed()).containsExactly("r1");
        assertThat(h.result("r1", "assert").message()).contains("thp.enabled == always is false");
    }
}
