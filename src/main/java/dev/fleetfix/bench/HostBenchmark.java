package dev.fleetfix.bench;

import dev.fleetfix.inventory.Host;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisServer;
import dev.fleetfix.redis.RedisVersion;
import dev.fleetfix.transport.RemoteShell;
import dev.fleetfix.transport.TransportException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Runs a {@link BenchPlan} on hosts one after another: benchmarks on several hosts at once would
 * compete for the control node (builtin) or make each other's figures meaningless.
 */
public final class HostBenchmark {
    /** How long the discarded client warm-up runs against each host. */
    static final Duration CLIENT_WARMUP = Duration.ofSeconds(1);

    private final Function<Host, BenchTarget> targets;
    private final Function<Host, RemoteShell> shells;
    private final BuiltinBenchmark builtin;
    private final ForkUnderLoad forkUnderLoad;
    private final RedisBenchmarkEngine redisBenchmark = new RedisBenchmarkEngine();

    /**
     * @param targets opens a connection to a host's Redis (closed after the host is done)
     * @param shells the host's shell, for the redis-benchmark engine (owned by the caller's pool)
     */
    public HostBenchmark(
            Function<Host, BenchTarget> targets,
            Function<Host, RemoteShell> shells,
            BuiltinBenchmark builtin,
            ForkUnderLoad forkUnderLoad) {
        this.targets = Objects.requireNonNull(targets, "targets");
        this.shells = Objects.requireNonNull(shells, "shells");
        this.builtin = Objects.requireNonNull(builtin, "builtin");
        this.forkUnderLoad = Objects.requireNonNull(forkUnderLoad, "forkUnderLoad");
    }

    /**
     * What happened on one host: its rounds, or why it skipped (the profile could not run, or the
     * safety rules refused the host) or failed.
     */
    public record Outcome(Host host, List<BenchRun> rounds, Optional<String> skipped, Optional<String> failure) {
        public Outcome {
            Objects.requireNonNull(host, "host");
            rounds = List.copyOf(rounds);
        }
    }

    public List<Outcome> run(List<Host> hosts, BenchPlan plan) {
        List<Outcome> outcomes = new ArrayList<>();
        for (Host host : hosts) {
            outcomes.add(runOne(host, plan));
        }
        return outcomes;
    }

    private Outcome runOne(Host host, BenchPlan plan) {
        List<BenchRun> rounds = new ArrayList<>();
        try (BenchTarget target = targets.apply(host)) {
            BenchPlan onHost = target.clusterHashTag().map(plan::withKeyTag).orElse(plan);
            // keys an earlier run could not delete (its connection dropped half-way) go first, on a
            // primary the safety rules allow and under a prefix that holds nothing else; a replica is
            // refused here before anything is deleted
            SafetyGuard.check(target, plan.safety());
            EarlierRuns.clean(target, onHost.keyPrefix());
            List<Optional<SweepPoint>> points = onHost.isSweep()
                    ? onHost.sweep().stream().map(Optional::of).toList()
                    : List.of(Optional.<SweepPoint>empty());
            warmUp(target, points.get(0).map(onHost::at).orElse(onHost));
            for (int i = 0; i < onHost.rounds(); i++) {
                // every round runs every point, in alternating order: a drift of the host over the
                // run then falls on every point alike instead of on the last sizes
                List<Optional<SweepPoint>> order = new ArrayList<>(points);
                if (i % 2 == 1) {
                    java.util.Collections.reverse(order);
                }
                for (Optional<SweepPoint> point : order) {
                    BenchPlan one = point.map(onHost::at).orElse(onHost);
                    Optional<String> skipped = round(host, TcpNoDelayTarget.of(target, one.tcpNoDelay()), one, rounds);
                    if (skipped.isPresent()) {
                        return new Outcome(host, rounds, skipped, Optional.empty());
                    }
                    point.ifPresent(p -> rounds.set(
                            rounds.size() - 1, rounds.get(rounds.size() - 1).at(p)));
                }
            }
            if (!rounds.isEmpty()) {
                int last = rounds.size() - 1;
                ProcessHugePages hugePages = ProcessHugePages.overShell(() -> shells.apply(host), host.become());
                rounds.set(last, rounds.get(last).withEvidence(RedisEvidence.read(target, hugePages)));
            }
            return new Outcome(host, rounds, Optional.empty(), Optional.empty());
        } catch (BenchmarkRefusedException e) {
            // the host's data comes first: not running is the right outcome, not a failure
            return new Outcome(host, rounds, Optional.of(e.getMessage()), Optional.empty());
        } catch (BenchmarkException | RedisException | TransportException e) {
            return new Outcome(host, rounds, Optional.empty(), Optional.of(e.getMessage()));
        }
    }

    /**
     * A discarded run before any measured round, so that neither side measures a cold client: the
     * JIT compiles the load path and the connections are open and used. Without it the first
     * benchmark of a process ran on a cold JVM and its side looked slower (an A/A pair once read
     * 13,433 → 23,502 rps). redis-benchmark runs on the host and needs none.
     */
    private void warmUp(BenchTarget target, BenchPlan plan) {
        if (plan.engine() != BenchPlan.Engine.BUILTIN) {
            return;
        }
        LoadSpec load = plan.profile() == BenchPlan.Profile.FORK_UNDER_LOAD
                ? plan.forkUnderLoad().load()
                : plan.load();
        LoadSpec once =
                load.toBuilder().warmup(Duration.ZERO).duration(CLIENT_WARMUP).build();
        untilTheJitIsQuiet(
                jitMillis(),
                () -> builtin.run(TcpNoDelayTarget.of(target, plan.tcpNoDelay()), once, plan.safety()),
                MAX_WARMUPS,
                QUIET_JIT_MILLIS);
    }

    /** At most this many warm-ups of {@link #CLIENT_WARMUP} against one host. */
    static final int MAX_WARMUPS = 8;

    /** A warm-up during which the JIT compiled for less than this is taken as warm. */
    static final long QUIET_JIT_MILLIS = 50;

    /**
     * Runs {@code warmUp} until the JIT compiled for less than {@code quietMillis} during one (and
     * at most {@code max} times): in the first benchmark of a process one second was not enough,
     * and the compiler threads still took this machine's CPU from the first side (the lab's first
     * host read rps +23 % and +27 % after/before in two runs where nothing changed). Without a
     * compilation time, one warm-up.
     *
     * @return how many warm-ups ran
     */
    static int untilTheJitIsQuiet(Optional<LongSupplier> jitMillis, Runnable warmUp, int max, long quietMillis) {
        for (int n = 1; ; n++) {
            long start = jitMillis.map(LongSupplier::getAsLong).orElse(0L);
            warmUp.run();
            if (jitMillis.isEmpty() || n >= max || jitMillis.get().getAsLong() - start < quietMillis) {
                return n;
            }
        }
    }

    /** The JIT's total compilation time in milliseconds, when this JVM measures it. */
    private static Optional<LongSupplier> jitMillis() {
        java.lang.management.CompilationMXBean jit = java.lang.management.ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported()
                ? Optional.of(jit::getTotalCompilationTime)
                : Optional.empty();
    }

    private Optional<String> round(Host host, BenchTarget target, BenchPlan plan, List<BenchRun> rounds) {
        List<BenchResult> results;
        if (plan.engine() == BenchPlan.Engine.REDIS_BENCHMARK) {
            RedisBenchmarkSpec spec = new RedisBenchmarkSpec(
                    host.redis().address(),
                    host.redis().port(),
                    plan.redisBenchmark().tests(),
                    plan.redisBenchmark().requests(),
                    plan.redisBenchmark().clients(),
                    plan.redisBenchmark().dataSize(),
                    plan.redisBenchmark().pipeline(),
                    plan.redisBenchmark().keyspace(),
                    plan.redisBenchmark().threads(),
                    plan.redisBenchmark().keyPrefix(),
                    plan.redisBenchmark().timeout());
            Optional<RedisServer> server = RedisServer.fromInfo(target.info("server"));
            Optional<RedisVersion> version = server.map(RedisServer::redisCompat);
            boolean valkey =
                    server.map(s -> s.flavour() == RedisServer.Flavour.VALKEY).orElse(false);
            results = redisBenchmark.run(shells.apply(host), target, spec, plan.safety(), version, valkey);
        } else if (plan.profile() == BenchPlan.Profile.FORK_UNDER_LOAD) {
            ProfileOutcome outcome = forkUnderLoad.run(target, plan.forkUnderLoad(), plan.safety());
            if (outcome instanceof ProfileOutcome.Skipped skipped) {
                return Optional.of(skipped.reason());
            }
            results = List.of(((ProfileOutcome.Ran) outcome).load().result());
        } else {
            results = List.of(builtin.run(target, plan.load(), plan.safety()).result());
        }
        rounds.add(new BenchRun(host.name(), plan.name(), plan.phase(), results));
        return Optional.empty();
    }
}
