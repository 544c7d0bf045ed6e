package dev.fleetfix.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.fake.TestClock;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class GatesTest {
    private final TestClock clock = new TestClock(Instant.parse("2026-11-28T01:00:00Z"));
    private final Map<String, Map<String, String>> info = new HashMap<>();
    private final AtomicInteger refusals = new AtomicInteger();
    private Duration pingTakes = Duration.ofMillis(1);

    private final GateTarget target = new GateTarget(
            "r1",
            timeout -> {
                if (refusals.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                    throw new RedisException("r1", "connection refused", null);
                }
                return node();
            },
            GateTarget.Primaries.none(),
            clock,
            clock.sleeper(),
            Duration.ofSeconds(1));

    private RedisNode node() {
        return new RedisNode() {
            @Override
            public String hostName() {
                return "r1";
            }

            @Override
            public String ping() {
                clock.advance(pingTakes);
                return "PONG";
            }

            @Override
            public Map<String, String> info(String section) {
                return info.getOrDefault(section, Map.of());
            }

            @Override
            public Optional<String> configGet(String parameter) {
                return Optional.empty();
            }

            @Override
            public Object command(String name, String... args) {
                return "OK";
            }

            @Override
            public void close() {}
        };
    }

    @Test
    void pingPassesOnceRedisAnswers() throws Exception {
        refusals.set(3);
        GateResult r = Gates.ping().withTimeout(Duration.ofSeconds(10)).await(target);
        assertThat(r.passed()).isTrue();
        assertThat(r.elapsed()).isEqualTo(Duration.ofSeconds(3).plusMillis(1));
    }

    @Test
    void aGateThatWaitsNoticeablyLongSaysSoAt2sAndAtEachLookAfterWithWhatItSawLast() throws Exception {
        List<Wait> told = new ArrayList<>();
        GateTarget listened = new GateTarget(
                target.hostName(),
                target.redis(),
                target.primaries(),
                clock,
                clock.sleeper(),
                Duration.ofSeconds(1),
                told::add);
        refusals.set(5);
        GateResult r = Gates.ping().withTimeout(Duration.ofSeconds(30)).await(listened);
        assertThat(r.passed()).isTrue();
        assertThat(told)
                .containsExactly(
                        new Wait(
                                "gate ping",
                                "host r1: redis: connection refused",
                                Duration.ofSeconds(30),
                                Duration.ofSeconds(2)),
                        new Wait(
                                "gate ping",
                                "host r1: redis: connection refused",
                                Duration.ofSeconds(30),
                                Duration.ofSeconds(3)),
                        new Wait(
                                "gate ping",
                                "host r1: redis: connection refused",
                                Duration.ofSeconds(30),
                                Duration.ofSeconds(4)));

        told.clear();
        assertThat(Gates.ping().await(listened).passed()).isTrue();
        assertThat(told).as("a gate that passes at once tells nothing").isEmpty();
    }

    @Test
    void lookingOnceNeitherWaitsNorStopsAtTheFirstGateThatDoesNotPass() {
        refusals.set(1);
        info.put("persistence", Map.of("loading", "1"));
        Instant start = clock.instant();
        GateResult r = Gates.allOf(Gates.ping(), Gates.loadingDone(), Gates.roleUnchanged("master"))
                .lookOnce(target);
        assertThat(clock.instant()).isEqualTo(start);
        assertThat(r.passed()).isFalse();
        assertThat(r.parts()).extracting(GateResult::gate).containsExactly("ping", "loading_done", "role_unchanged");
        assertThat(r.parts()).extracting(GateResult::passed).containsExactly(false, false, false);
        assertThat(r.detail())
                .isEqualTo("ping: host r1: redis: connection refused; loading_done: loading:1;"
                        + " role_unchanged: role:?, was master before the restart");
    }

    @Test
    void aGateThatTimesOutFailsWithTheLastObservation() throws Exception {
        refusals.set(1000);
        Instant start = clock.instant();
        GateResult r = Gates.ping().withTimeout(Duration.ofSeconds(5)).await(target);
        assertThat(r.passed()).isFalse();
        assertThat(r.detail()).isEqualTo("timed out after 5s: host r1: redis: connection refused");
        assertThat(Duration.between(start, clock.instant())).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void loadingAndRole() throws Exception {
        info.put("persistence", Map.of("loading", "1"));
        info.put("replication", Map.of("role", "slave"));
        assertThat(Gates.loadingDone()
                        .withTimeout(Duration.ofSeconds(2))
                        .await(target)
                        .detail())
                .isEqualTo("timed out after 2s: loading:1");
        assertThat(Gates.roleUnchanged("master")
                        .withTimeout(Duration.ofSeconds(2))
                        .await(target)
                        .detail())
                .isEqualTo("timed out after 2s: role:slave, was master before the restart");
        assertThat(Gates.roleUnchanged("slave").await(target).passed()).isTrue();
    }

    @Test
    void replicaSyncedWaitsForLinkAndOffset() throws Exception {
        info.put(
                "replication",
                Map.of(
                        "role",
                        "slave",
                        "master_link_status",
                        "down",
                        "master_sync_in_progress",
                        "1",
                        "master_host",
                        "10.0.0.1",
                        "master_port",
                        "6379",
                        "slave_repl_offset",
                        "10"));
        GateResult down =
                Gates.replicaSynced().withTimeout(Duration.ofSeconds(3)).await(target);
        assertThat(down.detail()).contains("master_link_status:down master_sync_in_progress:1");

        Map<String, String> up = new HashMap<>(info.get("replication"));
        up.put("master_link_status", "up");
        up.put("master_sync_in_progress", "0");
        info.put("replication", up);
        GateTarget withPrimary = new GateTarget(
                "r1",
                target.redis(),
                (address, port, t) -> Optional.of(primaryAt(100)),
                clock,
                clock.sleeper(),
                Duration.ofSeconds(1));
        assertThat(Gates.replicaSynced()
                        .withTimeout(Duration.ofSeconds(3))
                        .await(withPrimary)
                        .detail())
                .isEqualTo("timed out after 3s: link up, offset 10/100");
        up.put("slave_repl_offset", "120");
        assertThat(Gates.replicaSynced().await(withPrimary).passed()).isTrue();
    }

    private RedisNode primaryAt(long offset) {
        RedisNode base = node();
        return new RedisNode() {
            @Override
            public String hostName() {
                return "primary";
            }

            @Override
            public String ping() {
                return "PONG";
            }

            @Override
            public Map<String, String> info(String section) {
                return Map.of("role", "master", "master_repl_offset", Long.toString(offset));
            }

            @Override
            public Optional<String> configGet(String parameter) {
                return base.configGet(parameter);
            }

            @Override
            public Object command(String name, String... args) {
                return "OK";
            }

            @Override
            public void close() {}
        };
    }

    @Test
    void primaryPassesReplicaSyncedAtOnce() throws Exception {
        info.put("replication", Map.of("role", "master"));
        assertThat(Gates.replicaSynced().await(target).detail()).isEqualTo("role:master, nothing to sync");
    }

    @Test
    void pingLatencyIsMeasuredOnTheInjectedClock() throws Exception {
        pingTakes = Duration.ofMillis(80);
        GateResult slow = Gates.pingLatencyBelow(Duration.ofMillis(50))
                .withTimeout(Duration.ofSeconds(2))
                .await(target);
        assertThat(slow.passed()).isFalse();
        assertThat(slow.detail()).contains("PING took 80ms (bound 50ms)");
        pingTakes = Duration.ofMillis(10);
        assertThat(Gates.pingLatencyBelow(Duration.ofMillis(50)).await(target).passed())
                .isTrue();
    }

    @Test
    void allOfStopsAtTheFirstFailureAndKeepsEveryPart() throws Exception {
        info.put("persistence", Map.of("loading", "1"));
        GateResult r = Gates.allOf(Gates.ping(), Gates.loadingDone(), Gates.replicaSynced())
                .withTimeout(Duration.ofSeconds(2))
                .await(target);
        assertThat(r.passed()).isFalse();
        assertThat(r.parts()).extracting(GateResult::gate).containsExactly("ping", "loading_done");
        assertThat(r.detail()).isEqualTo("loading_done: timed out after 2s: loading:1");
    }
}
