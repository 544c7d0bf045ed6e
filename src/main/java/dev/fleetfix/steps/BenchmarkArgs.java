package dev.fleetfix.steps;

import dev.fleetfix.bench.BenchCommand;
import dev.fleetfix.bench.BenchPlan;
import dev.fleetfix.bench.ForkUnderLoadSpec;
import dev.fleetfix.bench.LoadSpec;
import dev.fleetfix.bench.Phase;
import dev.fleetfix.bench.RedisBenchmarkSpec;
import dev.fleetfix.bench.SafetyPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The {@code benchmark} step's arguments turned into a {@link BenchPlan}, every value checked with
 * a message naming the playbook's field, before any host is contacted.
 */
final class BenchmarkArgs {
    static final Set<String> NAMES = Set.of(
            "name",
            "phase",
            "engine",
            "profile",
            "duration",
            "requests",
            "warmup",
            "connections",
            "pipeline",
            "value_size",
            "keyspace",
            "rate",
            "rounds",
            "tests",
            "mix",
            "force",
            "prefix",
            "bgsave_interval",
            "threads",
            "calibrate",
            "controls");

    /** {@code profile: auto}: fork-under-load when the host allows it, else plain. */
    static final String AUTO = "auto";

    /**
     * @param plan what to run (with {@code auto}, the fork-under-load profile, tried first)
     * @param auto whether the profile was {@code auto}
     * @param calibrate measure the before side twice; the A/A difference is the noise floor
     * @param controls how many unchanged hosts of later batches to measure right after each side
     *     (difference in differences); 0 for none
     */
    record Parsed(BenchPlan plan, boolean auto, boolean calibrate, int controls) {}

    private BenchmarkArgs() {}

    static Parsed parse(StepArgs args) {
        String name = args.text("name", "benchmark").strip();
        if (name.isEmpty() || !name.matches("[A-Za-z0-9_.-]+")) {
            throw args.error("name: expected letters, digits, '.', '_' or '-', was '" + name + "'");
        }
        if (!args.has("phase")) {
            throw args.error("phase: required, before or after");
        }
        Phase phase = Phase.valueOf(
                args.choice("phase", "before", List.of("before", "after")).toUpperCase(Locale.ROOT));
        String engineWord = args.choice("engine", "builtin", List.of("builtin", "redis-benchmark"));
        BenchPlan.Engine engine =
                engineWord.equals("builtin") ? BenchPlan.Engine.BUILTIN : BenchPlan.Engine.REDIS_BENCHMARK;
        String profileWord = args.choice("profile", "plain", List.of("plain", "fork-under-load", AUTO));
        boolean auto = profileWord.equals(AUTO);
        if (engine == BenchPlan.Engine.REDIS_BENCHMARK) {
            if (profileWord.equals("fork-under-load")) {
                throw args.error("profile: fork-under-load needs engine builtin, was engine redis-benchmark");
            }
            for (String builtinOnly : List.of("duration", "warmup", "rate", "mix", "bgsave_interval")) {
                if (args.has(builtinOnly)) {
                    throw args.error(builtinOnly + ": only for engine builtin, was engine redis-benchmark");
                }
            }
        } else if (args.has("threads")) {
            throw args.error("threads: only for engine redis-benchmark, was engine builtin");
        }
        BenchPlan.Profile profile = profileWord.equals("plain") || engine == BenchPlan.Engine.REDIS_BENCHMARK
                ? BenchPlan.Profile.PLAIN
                : BenchPlan.Profile.FORK_UNDER_LOAD;
        if (args.has("duration") && args.has("requests")) {
            throw args.error("give either duration or requests, not both");
        }
        String prefix = args.text("prefix", LoadSpec.DEFAULT_PREFIX);
        if (prefix.isBlank() || prefix.contains("*") || prefix.contains("?") || prefix.contains("[")) {
            throw args.error("prefix: expected a key prefix without glob characters, was '" + prefix + "'");
        }
        int connections = (int) whole(args, "connections", 10, 1, 10_000);
        int pipeline = (int) whole(args, "pipeline", 1, 1, 100_000);
        int rounds = (int) whole(args, "rounds", 3, 1, 100);
        long keyspace = whole(args, "keyspace", 100_000, 1, Long.MAX_VALUE);
        Map<BenchCommand, Integer> mix = mix(args, engine);
        SafetyPolicy safety = args.bool("force", false) ? SafetyPolicy.DEFAULT.forced() : SafetyPolicy.DEFAULT;
        try {
            LoadSpec load = LoadSpec.defaults()
                    .withTest(mix.size() == 1 ? mix.keySet().iterator().next().name() : "MIX")
                    .withConnections(connections)
                    .withPipeline(pipeline)
                    .withMix(mix)
                    .withValueSize((int) whole(args, "value_size", 64, 1, LoadSpec.MAX_VALUE_SIZE))
                    .withKeyspace(keyspace)
                    .withWarmup(nonNegative(args, "warmup", Duration.ofSeconds(2)))
                    .withKeyPrefix(prefix);
            load = args.has("requests")
                    ? load.withRequests(whole(args, "requests", 1, 1, Long.MAX_VALUE))
                    : load.withDuration(args.duration("duration", Duration.ofSeconds(10)));
            if (args.has("rate")) {
                load = load.withRate(rate(args));
            }
            ForkUnderLoadSpec fork = ForkUnderLoadSpec.defaults()
                    .withLoad(load.withTest(ForkUnderLoadSpec.TEST).withMix(Map.of(BenchCommand.SET, 1)))
                    .withBgsaveInterval(args.duration("bgsave_interval", Duration.ofMillis(1500)));
            RedisBenchmarkSpec redisBenchmark = new RedisBenchmarkSpec(
                    "127.0.0.1",
                    6379,
                    List.copyOf(mix.keySet()),
                    args.has("requests") ? whole(args, "requests", 1, 1, Long.MAX_VALUE) : 100_000,
                    connections,
                    (int) whole(args, "value_size", 3, 1, 64 * 1024),
                    pipeline,
                    OptionalLong.of(keyspace),
                    args.has("threads")
                            ? OptionalInt.of((int) whole(args, "threads", 1, 1, 1024))
                            : OptionalInt.empty(),
                    prefix,
                    Duration.ofMinutes(10));
            BenchPlan plan = new BenchPlan(name, engine, profile, load, fork, redisBenchmark, rounds, phase, safety);
            boolean calibrate = args.bool("calibrate", false);
            if (calibrate && phase != Phase.BEFORE) {
                throw args.error("calibrate: only a before run is measured twice, this one is phase: after");
            }
            int controls = (int) whole(args, "controls", 0, 0, 16);
            if (controls > 0 && engine != BenchPlan.Engine.BUILTIN) {
                throw args.error("controls: need engine builtin (a control host is loaded from this machine),"
                        + " was engine redis-benchmark");
            }
            return new Parsed(plan, auto && engine == BenchPlan.Engine.BUILTIN, calibrate, controls);
        } catch (IllegalArgumentException e) {
            throw args.error(e.getMessage());
        }
    }

    /** {@code tests: [set, get]} (equal weights) or {@code mix: {set: 3, get: 1}}; SET and GET by default. */
    private static Map<BenchCommand, Integer> mix(StepArgs args, BenchPlan.Engine engine) {
        if (args.has("tests") && args.has("mix")) {
            throw args.error("give either tests or mix, not both");
        }
        Map<BenchCommand, Integer> mix = new EnumMap<>(BenchCommand.class);
        if (args.has("mix")) {
            if (!(args.raw().get("mix") instanceof Map<?, ?> weights) || weights.isEmpty()) {
                throw args.error("mix: expected a mapping of command to weight like {set: 3, get: 1}, was '"
                        + args.raw().get("mix") + "'");
            }
            for (Map.Entry<?, ?> e : weights.entrySet()) {
                BenchCommand command = command(args, "mix", e.getKey());
                long weight = wholeValue(args, "mix." + e.getKey(), e.getValue(), 1, 1_000);
                mix.put(command, (int) weight);
            }
            return mix;
        }
        List<?> tests = args.has("tests") ? args.list("tests") : List.of("set", "get");
        if (tests.isEmpty()) {
            throw args.error("tests: give at least one of set, get, incr, lpush");
        }
        List<BenchCommand> commands = new ArrayList<>();
        for (Object t : tests) {
            for (String part : t.toString().split(",")) {
                commands.add(command(args, "tests", part));
            }
        }
        commands.forEach(c -> mix.put(c, 1));
        return mix;
    }

    private static BenchCommand command(StepArgs args, String field, Object word) {
        String text = String.valueOf(word).strip().toUpperCase(Locale.ROOT);
        try {
            return BenchCommand.valueOf(text);
        } catch (IllegalArgumentException e) {
            throw args.error(field + ": unknown command '" + word + "'; use set, get, incr or lpush");
        }
    }

    private static long whole(StepArgs args, String field, long fallback, long min, long max) {
        Object value = args.raw().get(field);
        return value == null ? fallback : wholeValue(args, field, value, min, max);
    }

    private static long wholeValue(StepArgs args, String field, Object value, long min, long max) {
        String text = value.toString().strip().replace("_", "");
        long n;
        try {
            // A BigInteger's longValue() wraps around: 2^64 + 1 would become 1.
            n = value instanceof java.math.BigInteger big
                    ? big.longValueExact()
                    : value instanceof Number number && !(value instanceof Double || value instanceof Float)
                            ? number.longValue()
                            : Long.parseLong(text);
        } catch (NumberFormatException | ArithmeticException e) {
            n = Long.MIN_VALUE;
        }
        if (n < min || n > max) {
            String range = max == Long.MAX_VALUE ? ">= " + min : "from " + min + " to " + max;
            throw args.error(field + ": expected a whole number " + range + ", was '" + value + "'");
        }
        return n;
    }

    private static double rate(StepArgs args) {
        Object value = args.raw().get("rate");
        try {
            double r = Double.parseDouble(value.toString().strip());
            if (r > 0 && !Double.isInfinite(r)) {
                return r;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw args.error("rate: expected requests per second above 0, was '" + value + "'");
    }

    private static Duration nonNegative(StepArgs args, String field, Duration fallback) {
        Object value = args.raw().get(field);
        if (value == null) {
            return fallback;
        }
        String text = value.toString().strip();
        return text.equals("0") || text.equals("0s") || text.equals("0ms")
                ? Duration.ZERO
                : args.parseDuration(field, value);
    }
}
