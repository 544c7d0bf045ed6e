package dev.fleetfix.bench.host;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.bench.FakeTarget;
import dev.fleetfix.bench.Phase;
import dev.fleetfix.bench.load.BuiltinBenchmark;
import dev.fleetfix.bench.load.ForkUnderLoad;
import dev.fleetfix.bench.load.LoadGenerator;
import dev.fleetfix.bench.plan.BenchPlan;
import dev.fleetfix.bench.plan.ForkUnderLoadSpec;
import dev.fleetfix.bench.plan.LoadSpec;
import dev.fleetfix.bench.plan.RedisBenchmarkSpec;
import dev.fleetfix.bench.plan.SafetyPolicy;
import dev.fleetfix.bench.plan.SweepPoint;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.redis.load.BenchTarget;
import dev.fleetfix.redis.load.Operation;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class HostBenchmarkTest {
    private final AtomicLong clock = new AtomicLong();
    private final FakeTarget target = new FakeTarget(clock, n -> 100_000);
    private final LoadGenerator generator = new LoadGenerator(clock::get, d -> clock.addAndGet(d.toNanos()));
    private final HostBenchmark service = over(h -> target);
    private final Host host = Host.implicitLocalhost();
    private static final List<Host> CHANGED_AND_CONTROL = List.of(
            dev.fleetfix.fake.TestHosts.local("changed", false), dev.fleetfix.fake.TestHosts.local("control", false));

    /** The engines over this test's clock, loading the targets given; no shell is opened. */
    private HostBenchmark over(java.util.function.Function<Host, BenchTarget> targets) {
        return new HostBenchmark(
                targets,
                h -> {
                    throw new UnsupportedOperationException("this test opens no shell to the host");
                },
                new BuiltinBenchmark(generator),
                new ForkUnderLoad(generator, clock::get, d -> clock.addAndGet(d.toNanos())));
    }

    private BenchPlan plan(int rounds) {
        return plan(rounds, LoadSpec.DEFAULT_PREFIX, SafetyPolicy.DEFAULT);
    }

    private BenchPlan plan(int rounds, String prefix, SafetyPolicy safety) {
        return plan(rounds, prefix, safety, b -> b);
    }

    private BenchPlan plan(
            int rounds, String prefix, SafetyPolicy safety, java.util.function.UnaryOperator<LoadSpec.Builder> tweak) {
        LoadSpec load = tweak.apply(LoadSpec.builder()
                        .keyPrefix(prefix)
                        .connections(2)
                        .keyspace(100)
                        .warmup(Duration.ZERO)
                        .requests(500))
                .build();
        return new BenchPlan(
                "thp",
                BenchPlan.Engine.BUILTIN,
                BenchPlan.Profile.PLAIN,
                load,
                ForkUnderLoadSpec.defaults()
                        .withLoad(load.toBuilder().test(ForkUnderLoadSpec.TEST).build()),
                new RedisBenchmarkSpec(
                        "127.0.0.1",
                        6379,
                        List.of(Operation.SET),
                        1000,
                        1,
                        3,
                        1,
                        OptionalLong.empty(),
                        OptionalInt.empty(),
                        prefix,
                        Duration.ofMinutes(1)),
                rounds,
                Phase.BEFORE,
                safety);
    }

    @Test
    void runsEveryRoundAndCleansUp() {
        HostBenchmark.Outcome outcome = service.run(List.of(host), plan(3)).get(0);
        assertThat(outcome.rounds()).hasSize(3).allSatisfy(r -> {
            assertThat(r.name()).isEqualTo("thp");
            assertThat(r.phase()).isEqualTo(Phase.BEFORE);
        });
        assertThat(outcome.skipped()).isEmpty();
        assertThat(outcome.failure()).isEmpty();
        assertThat(target.keys).noneMatch(k -> k.startsWith(LoadSpec.DEFAULT_PREFIX));
        assertThat(target.closed).isTrue();
    }

    /**
     * Regression: a primary at 75 % of maxmemory under volatile-lru ran the benchmark, and its keys
     * evicted every user key that carried a TTL. The plan's keys do not fit the room left: refused
     * before anything is written or deleted, warm-up included.
     */
    @Test
    void aPlanWhoseKeysDoNotFitBelowMaxmemoryIsRefusedBeforeAnyWrite() {
        target.info.put(
                "memory",
                Map.of("used_memory", "750000000", "maxmemory", "1000000000", "maxmemory_policy", "volatile-lru"));
        BenchPlan big = plan(3, LoadSpec.DEFAULT_PREFIX, SafetyPolicy.DEFAULT, b -> b.valueSize(2048)
                .keyspace(200_000)
                .duration(Duration.ofSeconds(6)));

        HostBenchmark.Outcome outcome = service.run(List.of(host), big).get(0);

        assertThat(outcome.rounds()).isEmpty();
        assertThat(outcome.skipped()).hasValueSatisfying(why -> assertThat(why)
                .contains("maxmemory-policy volatile-lru evicts the users' keys that carry a TTL")
                .contains("use a smaller keyspace (-r, keyspace:) or value size (-d, value_size:)")
                .doesNotContain("--force"));
        assertThat(target.calls.get()).isZero();
        assertThat(target.deletes).isEmpty();
    }

    /** Regression: the rounds' error replies were dropped between the load and the round. */
    @Test
    void aRoundKeepsItsErrorReplies() {
        target.errorsPerBatch = 1;

        HostBenchmark.Outcome outcome = service.run(List.of(host), plan(1)).get(0);

        assertThat(outcome.rounds())
                .singleElement()
                .satisfies(r -> assertThat(r.results().get(0).errors()).isEqualTo(500));
    }

    /** A key evicted while the benchmark's keys are in Redis stops the host's rounds, and its keys go. */
    @Test
    void anEvictionStopsTheRoundsAndFailsTheHost() {
        target.evictFromCall = 5;

        HostBenchmark.Outcome outcome = service.run(List.of(host), plan(3)).get(0);

        assertThat(outcome.failure())
                .hasValueSatisfying(
                        why -> assertThat(why).contains("Redis evicted").contains("stopped at the first eviction"));
        assertThat(outcome.rounds()).isEmpty();
        assertThat(target.keys).noneMatch(k -> k.startsWith(LoadSpec.DEFAULT_PREFIX));
    }

    /** Regression: the first round of a process ran on a cold client and made its side look slow. */
    @Test
    void aDiscardedWarmUpRunsBeforeTheFirstMeasuredRound() {
        HostBenchmark.Outcome outcome = service.run(List.of(host), plan(2)).get(0);

        // two measured rounds of 500 requests, and a second of warm-up load on top
        assertThat(outcome.rounds())
                .hasSize(2)
                .allSatisfy(r -> assertThat(r.results().get(0).requests()).hasValue(500));
        assertThat(target.ops.size()).isGreaterThan(2 * 500 + 1000);
    }

    @Test
    void redisForkCountersAreReadAfterTheLastRoundOnly() {
        target.info.put("persistence", Map.of("rdb_last_cow_size", "4194304", "rdb_bgsave_in_progress", "0"));

        HostBenchmark.Outcome outcome = service.run(List.of(host), plan(2)).get(0);

        assertThat(outcome.rounds().get(0).evidence()).isEmpty();
        assertThat(outcome.rounds().get(1).evidence()).hasValueSatisfying(e -> assertThat(e.counters())
                .containsEntry("latest_fork_usec", "1234")
                .containsEntry("rdb_last_cow_size", "4194304")
                .doesNotContainKey("aof_last_cow_size")
                .doesNotContainKey("mem_fragmentation_ratio"));
    }

    @Test
    void aRefusalIsASkipWithTheReasonNotAFailure() {
        target.info.put("replication", Map.of("role", "slave"));
        HostBenchmark.Outcome outcome = service.run(List.of(host), plan(3)).get(0);
        assertThat(outcome.rounds()).isEmpty();
        assertThat(outcome.failure()).isEmpty();
        assertThat(outcome.skipped())
                .hasValueSatisfying(reason ->
                        assertThat(reason).contains("refusing to benchmark").contains("slave"));
        assertThat(target.ops).isEmpty();
    }

    @Test
    void keysAnEarlierRunLeftBehindAreDeletedBeforeTheNextRunWrites() {
        // an earlier run's keys carry its own run part (RunKeys); anything else under the prefix is not ours
        target.keys.add(LoadSpec.DEFAULT_PREFIX + "r0a1b2c3d:1");
        target.keys.add(LoadSpec.DEFAULT_PREFIX + "r0a1b2c3d:2");
        target.keys.add("user:1");
        HostBenchmark.Outcome outcome = service.run(List.of(host), plan(1)).get(0);
        assertThat(outcome.failure()).isEmpty();
        assertThat(outcome.skipped())
                .as("the leftovers were deleted before the prefix check")
                .isEmpty();
        assertThat(target.keys).containsExactly("user:1");
    }

    /** Regression: {@code --prefix user:} deleted a user's key shaped as a run's before the prefix check ran. */
    @Test
    void aUsersKeyShapedAsAnEarlierRunsIsKeptWhenOtherKeysShareThePrefix() {
        target.keys.add("user:r0a1b2c3d:x");
        target.keys.add("user:1");

        HostBenchmark.Outcome outcome = service.run(List.of(host), plan(1, "user:", SafetyPolicy.DEFAULT))
                .get(0);

        assertThat(target.keys).containsExactlyInAnyOrder("user:r0a1b2c3d:x", "user:1");
        assertThat(target.ops).as("nothing was written").isEmpty();
        assertThat(outcome.skipped()).hasValueSatisfying(reason -> assertThat(reason)
                .contains("2 keys already exist under the prefix 'user:'")
                .contains("1 of them are shaped as an earlier benchmark run's")
                .contains("not deleted")
                .contains("--force"));
    }

    @Test
    void forcedUnderAPrefixOfSomeoneElsesTheRunDeletesOnlyTheKeysItWrote() {
        target.keys.add("user:r0a1b2c3d:x");
        target.keys.add("user:1");

        HostBenchmark.Outcome outcome = service.run(List.of(host), plan(1, "user:", SafetyPolicy.DEFAULT.forced()))
                .get(0);

        assertThat(outcome.failure()).isEmpty();
        assertThat(outcome.skipped()).isEmpty();
        assertThat(outcome.rounds()).hasSize(1);
        assertThat(target.ops).as("the benchmark ran").isNotEmpty();
        assertThat(target.keys).containsExactlyInAnyOrder("user:r0a1b2c3d:x", "user:1");
    }

    @Test
    void underAPrefixHoldingOnlyEarlierRunsKeysTheyAreDeletedAndTheRunGoesAhead() {
        target.keys.add("user:r0a1b2c3d:1");
        target.keys.add("user:rffffffff:key:7");

        HostBenchmark.Outcome outcome = service.run(List.of(host), plan(1, "user:", SafetyPolicy.DEFAULT))
                .get(0);

        assertThat(outcome.skipped()).isEmpty();
        assertThat(outcome.rounds()).hasSize(1);
        assertThat(target.keys).isEmpty();
    }

    @Test
    void aSweepRunsEveryPointInEveryRoundInAlternatingOrderWithItsOwnSettings() {
        BenchPlan base = plan(2);
        List<SweepPoint> points = List.of(
                new SweepPoint(64, java.util.Optional.of(true)),
                new SweepPoint(1024, java.util.Optional.of(true)),
                new SweepPoint(1024, java.util.Optional.of(false)));
        BenchPlan sweep = new BenchPlan(
                base.name(),
                base.engine(),
                base.profile(),
                base.load(),
                base.forkUnderLoad(),
                base.redisBenchmark(),
                2,
                Phase.BEFORE,
                base.safety(),
                java.util.Optional.empty(),
                points);

        HostBenchmark.Outcome outcome = service.run(List.of(host), sweep).get(0);

        assertThat(outcome.failure()).isEmpty();
        assertThat(outcome.rounds())
                .extracting(r -> r.point().orElseThrow().label())
                .containsExactly(
                        "64 B, tcp_nodelay on",
                        "1024 B, tcp_nodelay on",
                        "1024 B, tcp_nodelay off",
                        "1024 B, tcp_nodelay off",
                        "1024 B, tcp_nodelay on",
                        "64 B, tcp_nodelay on");
        // values of the point's size were written; connections asked for the point's TCP_NODELAY
        assertThat(target.ops.stream()
                        .filter(op -> op.value() != null)
                        .mapToInt(op -> op.value().length)
                        .distinct()
                        .sorted()
                        .toArray())
                .containsExactly(64, 1024);
        assertThat(target.tcpNoDelays).contains(true, false);
        // warm-up (2 connections) + 6 rounds of 2 connections; the off point's rounds asked for off
        assertThat(target.tcpNoDelays.stream().filter(on -> !on).count()).isEqualTo(4);
        assertThat(target.keys).noneMatch(k -> k.startsWith(LoadSpec.DEFAULT_PREFIX));
    }

    /**
     * A changed host and its controls measured as the issue asks, "at the same moment": round by
     * round in turn, not one host's rounds after the other's. Before, the control's three rounds ran
     * after the host's three, and a drift between the two blocks read as a change (an A/A pair with a
     * control came out regressed in CI).
     */
    @Test
    void aHostAndItsControlsAreMeasuredRoundByRoundInTurn() {
        List<String> order = new java.util.ArrayList<>();
        Map<String, FakeTarget> byHost = Map.of(
                "changed", new FakeTarget(clock, n -> tick(order, "changed")),
                "control", new FakeTarget(clock, n -> tick(order, "control")));
        HostBenchmark two = over(h -> byHost.get(h.name()));

        List<HostBenchmark.Outcome> outcomes = two.alongside(CHANGED_AND_CONTROL, plan(3));

        assertThat(outcomes).extracting(o -> o.host().name()).containsExactly("changed", "control");
        assertThat(outcomes).allSatisfy(o -> {
            assertThat(o.rounds()).hasSize(3);
            assertThat(o.failure()).isEmpty();
            assertThat(o.skipped()).isEmpty();
        });
        // warm-ups (changed, control), then rounds 1 changed-control, 2 control-changed, 3 changed-control
        assertThat(order).containsExactly("changed", "control", "changed", "control", "changed", "control");
        assertThat(outcomes.get(1).rounds())
                .allSatisfy(r -> assertThat(r.host()).isEqualTo("control"));
        assertThat(byHost.values()).allSatisfy(t -> assertThat(t.closed).isTrue());
    }

    @Test
    void whenTheChangedHostIsRefusedItsControlsAreNotMeasured() {
        FakeTarget changed = new FakeTarget(clock, n -> 100_000);
        changed.info.put("replication", Map.of("role", "slave"));
        FakeTarget control = new FakeTarget(clock, n -> 100_000);
        HostBenchmark two = over(h -> h.name().equals("changed") ? changed : control);

        List<HostBenchmark.Outcome> outcomes = two.alongside(CHANGED_AND_CONTROL, plan(3));

        assertThat(outcomes.get(0).skipped())
                .hasValueSatisfying(r -> assertThat(r).contains("slave"));
        assertThat(outcomes.get(1).rounds()).isEmpty();
        assertThat(outcomes.get(1).skipped()).hasValue("not measured: changed stopped");
        assertThat(control.ops).as("nothing was written to the control").isEmpty();
    }

    /** Records each change of the host being loaded (its connections run on threads of their own), and serves in 0.1 ms. */
    private static long tick(List<String> order, String host) {
        synchronized (order) {
            if (order.isEmpty() || !order.get(order.size() - 1).equals(host)) {
                order.add(host);
            }
        }
        return 100_000;
    }

    /** Issue 31, item 4: a crash on one host (a StackOverflowError here) ended the whole benchmark run. */
    @Test
    void aHostWhoseConnectionCrashesFailsAloneAndTheNextIsMeasured() {
        Host crashing = dev.fleetfix.fake.TestHosts.local("crashing", false);
        HostBenchmark bench = over(h -> {
            if (h.name().equals("crashing")) {
                throw new StackOverflowError();
            }
            return target;
        });

        List<HostBenchmark.Outcome> outcomes = bench.run(List.of(crashing, host), plan(2));

        assertThat(outcomes.get(0).failure()).hasValue("internal error: StackOverflowError");
        assertThat(outcomes.get(1).failure()).isEmpty();
        assertThat(outcomes.get(1).rounds()).hasSize(2);
    }
}
