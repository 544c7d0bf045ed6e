package dev.fleetfix.bench.plan;

import dev.fleetfix.Durations;
import dev.fleetfix.bench.Phase;
import dev.fleetfix.redis.load.Operation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@code fleetfix bench} (or a benchmark step) runs on each host.
 *
 * @param name the benchmark's name; before and after runs of the same name are compared
 * @param engine builtin (Jedis from the control node) or redis-benchmark (on the host)
 * @param profile plain load, or fork-under-load (builtin only)
 * @param load the builtin load
 * @param forkUnderLoad the profile's settings (its load replaces {@code load})
 * @param redisBenchmark the redis-benchmark options (address and port are taken per host)
 * @param rounds how many times to run on each host, for the median and the spread
 * @param phase before or after the remediation
 * @param safety when writing to a primary is allowed
 * @param tcpNoDelay the builtin client's TCP_NODELAY; empty keeps the client library's choice
 * @param sweep the points a sweep runs, each round in turn (empty: one plain run of this plan); see
 *     {@link #at(SweepPoint)}
 */
public record BenchPlan(
        String name,
        Engine engine,
        Profile profile,
        LoadSpec load,
        ForkUnderLoadSpec forkUnderLoad,
        RedisBenchmarkSpec redisBenchmark,
        int rounds,
        Phase phase,
        SafetyPolicy safety,
        Optional<Boolean> tcpNoDelay,
        List<SweepPoint> sweep) {

    /**
     * How long the discarded client warm-up runs against each host before the builtin engine's rounds; a plan's
     * footprint counts it, since no request bound holds while it runs.
     */
    public static final Duration CLIENT_WARMUP = Duration.ofSeconds(1);

    /** Where the load comes from. */
    public enum Engine {
        BUILTIN,
        REDIS_BENCHMARK
    }

    /** What the load does. */
    public enum Profile {
        PLAIN,
        FORK_UNDER_LOAD
    }

    public BenchPlan {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(load, "load");
        Objects.requireNonNull(forkUnderLoad, "forkUnderLoad");
        Objects.requireNonNull(redisBenchmark, "redisBenchmark");
        Objects.requireNonNull(phase, "phase");
        Objects.requireNonNull(safety, "safety");
        Objects.requireNonNull(tcpNoDelay, "tcpNoDelay");
        sweep = List.copyOf(sweep);
        if (rounds < 1 || rounds > 100) {
            throw new IllegalArgumentException("rounds must be 1..100, was " + rounds);
        }
        if (engine == Engine.REDIS_BENCHMARK && profile == Profile.FORK_UNDER_LOAD) {
            throw new IllegalArgumentException("profile fork-under-load needs the builtin engine");
        }
        if (engine == Engine.REDIS_BENCHMARK
                && (tcpNoDelay.isPresent()
                        || sweep.stream().anyMatch(p -> p.tcpNoDelay().isPresent()))) {
            throw new IllegalArgumentException("tcp_nodelay is a setting of the builtin engine's client");
        }
        if (sweep.size() == 1) {
            throw new IllegalArgumentException("a sweep needs at least two points, was " + sweep);
        }
        if (sweep.stream().distinct().count() != sweep.size()) {
            throw new IllegalArgumentException("a sweep lists each point once, was " + sweep);
        }
    }

    /** A plan of one plain run: no TCP_NODELAY setting, no sweep. */
    public BenchPlan(
            String name,
            Engine engine,
            Profile profile,
            LoadSpec load,
            ForkUnderLoadSpec forkUnderLoad,
            RedisBenchmarkSpec redisBenchmark,
            int rounds,
            Phase phase,
            SafetyPolicy safety) {
        this(
                name,
                engine,
                profile,
                load,
                forkUnderLoad,
                redisBenchmark,
                rounds,
                phase,
                safety,
                Optional.empty(),
                List.of());
    }

    public boolean isSweep() {
        return !sweep.isEmpty();
    }

    /**
     * The plain plan one point of the sweep runs: this plan's settings with the point's value size
     * (for every engine and profile) and TCP_NODELAY.
     */
    public BenchPlan at(SweepPoint point) {
        int size = point.valueSize();
        return new BenchPlan(
                name,
                engine,
                profile,
                load.withValueSize(size),
                forkUnderLoad.withLoad(forkUnderLoad.load().withValueSize(size)),
                engine == Engine.REDIS_BENCHMARK ? redisBenchmark.withDataSize(size) : redisBenchmark,
                rounds,
                phase,
                safety,
                point.tcpNoDelay(),
                List.of());
    }

    /** The prefix of every key this plan writes, for its engine and profile. */
    public String keyPrefix() {
        if (engine == Engine.REDIS_BENCHMARK) {
            return redisBenchmark.keyPrefix();
        }
        return profile == Profile.FORK_UNDER_LOAD ? forkUnderLoad.load().keyPrefix() : load.keyPrefix();
    }

    /**
     * What the client does, without the name, phase and key prefix: before and after must match
     * for their comparison to mean anything.
     */
    public String clientSettings() {
        LoadSpec l = profile == Profile.FORK_UNDER_LOAD ? forkUnderLoad.load() : load;
        String common = "engine " + engine.name().toLowerCase(java.util.Locale.ROOT) + ", rounds " + rounds
                + tcpNoDelay.map(on -> ", tcp_nodelay " + SweepPoint.word(on)).orElse("")
                + (sweep.isEmpty()
                        ? ""
                        : ", sweep " + sweep.stream().map(SweepPoint::label).toList());
        if (engine == Engine.REDIS_BENCHMARK) {
            RedisBenchmarkSpec r = redisBenchmark;
            return common + ", tests " + words(r.tests()) + ", requests " + r.requests() + ", clients " + r.clients()
                    + ", data size " + r.dataSize() + ", pipeline " + r.pipeline() + ", keyspace "
                    + (r.keyspace().isPresent() ? r.keyspace().getAsLong() : "-") + ", threads "
                    + (r.threads().isPresent() ? r.threads().getAsInt() : "-");
        }
        return common + ", connections " + l.connections() + ", pipeline " + l.pipeline() + ", mix " + mix(l.mix())
                + ", value size " + l.valueSize() + ", keyspace " + l.keyspace() + ", duration "
                + l.duration().map(Durations::typed).orElse("-") + ", requests "
                + (l.requests().isPresent() ? l.requests().getAsLong() : "-") + ", warmup "
                + Durations.typed(l.warmup()) + ", rate "
                + (l.rate().isPresent()
                        ? String.format(Locale.ROOT, "%.0f", l.rate().getAsDouble())
                        : "-");
    }

    /** The commands as a playbook names them: {@code set get}. */
    private static String words(List<Operation> tests) {
        return String.join(
                " ", tests.stream().map(t -> t.name().toLowerCase(Locale.ROOT)).toList());
    }

    /** Each command's share of the requests: {@code SET 75 % GET 25 %}, {@code SET 100 %}. */
    static String mix(Map<Operation, Integer> weights) {
        int total = weights.values().stream().mapToInt(Integer::intValue).sum();
        List<String> shares = new ArrayList<>();
        for (Operation op : Operation.values()) {
            Integer w = weights.get(op);
            if (w != null) {
                shares.add(op.name() + " " + Math.round(100.0 * w / total) + " %");
            }
        }
        return String.join(" ", shares);
    }

    /** The same plan with another profile (a benchmark step's {@code profile: auto} picks one per host). */
    public BenchPlan withProfile(Profile other) {
        return new BenchPlan(
                name, engine, other, load, forkUnderLoad, redisBenchmark, rounds, phase, safety, tcpNoDelay, sweep);
    }

    /** The same plan measuring another phase. */
    public BenchPlan withPhase(Phase other) {
        return new BenchPlan(
                name, engine, profile, load, forkUnderLoad, redisBenchmark, rounds, other, safety, tcpNoDelay, sweep);
    }

    /**
     * The same plan with {@code tag + ":"} appended to every key prefix ({@code fleetfix:bench:{7}:}),
     * so that in Redis Cluster every key lands in one slot of the node under test.
     */
    public BenchPlan withKeyTag(String tag) {
        return new BenchPlan(
                name,
                engine,
                profile,
                load.withKeyPrefix(load.keyPrefix() + tag + ":"),
                forkUnderLoad.withLoad(
                        forkUnderLoad.load().withKeyPrefix(forkUnderLoad.load().keyPrefix() + tag + ":")),
                redisBenchmark.withKeyPrefix(redisBenchmark.keyPrefix() + tag + ":"),
                rounds,
                phase,
                safety,
                tcpNoDelay,
                sweep);
    }
}
