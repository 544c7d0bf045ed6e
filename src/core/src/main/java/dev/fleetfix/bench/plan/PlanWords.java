package dev.fleetfix.bench.plan;

import dev.fleetfix.bench.plan.BenchPlanBuilder.Field;
import dev.fleetfix.bench.plan.BenchPlanBuilder.Invalid;
import dev.fleetfix.redis.load.Operation;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a user's words for one setting mean, for {@link BenchPlanBuilder}: each value parsed and checked alone, refused
 * with an {@link Invalid} naming its field. Whether settings go together is the builder's to say.
 */
final class PlanWords {
    private PlanWords() {}

    /** The commands a plan sends, with their weights, in the order they were given. */
    record Commands(Map<Operation, Integer> weights, List<Operation> order) {}

    static BenchPlan.Engine engine(String word) {
        return switch (word.strip().toLowerCase(Locale.ROOT)) {
            case "builtin" -> BenchPlan.Engine.BUILTIN;
            case "redis-benchmark" -> BenchPlan.Engine.REDIS_BENCHMARK;
            default -> throw new Invalid(Field.ENGINE, "expected builtin or redis-benchmark, was '" + word + "'");
        };
    }

    static BenchPlan.Profile profile(String word) {
        return switch (word.strip().toLowerCase(Locale.ROOT)) {
            case "plain" -> BenchPlan.Profile.PLAIN;
            case "fork-under-load" -> BenchPlan.Profile.FORK_UNDER_LOAD;
            default -> throw new Invalid(Field.PROFILE, "expected plain or fork-under-load, was '" + word + "'");
        };
    }

    /** {@code set,get} or {@code [set, get]}: each command once, with equal weights. */
    static Commands tests(List<?> words) {
        List<Operation> commands = new ArrayList<>();
        for (Object w : words) {
            for (String part : String.valueOf(w).split(",")) {
                Operation c = command(Field.TESTS, part);
                if (!commands.contains(c)) {
                    commands.add(c);
                }
            }
        }
        if (commands.isEmpty()) {
            throw new Invalid(Field.TESTS, "give at least one of set, get, incr, lpush");
        }
        Map<Operation, Integer> weights = new EnumMap<>(Operation.class);
        commands.forEach(c -> weights.put(c, 1));
        return new Commands(weights, List.copyOf(commands));
    }

    /** {@code {set: 3, get: 1}}: relative weights. */
    static Commands mix(Map<?, ?> weights) {
        if (weights.isEmpty()) {
            throw new Invalid(Field.MIX, "expected a mapping of command to weight like {set: 3, get: 1}, was {}");
        }
        Map<Operation, Integer> m = new EnumMap<>(Operation.class);
        List<Operation> o = new ArrayList<>();
        for (Map.Entry<?, ?> e : weights.entrySet()) {
            Operation c = command(Field.MIX, e.getKey());
            m.put(c, (int) whole(Field.MIX, String.valueOf(e.getKey()), e.getValue(), 1, 1_000));
            o.add(c);
        }
        return new Commands(m, List.copyOf(o));
    }

    /** Sizes in bytes, each once: {@code 64,512,1024} or {@code [64, 512, 1024]}. */
    static List<Integer> valueSizes(List<?> values) {
        List<Integer> sizes = new ArrayList<>();
        for (Object part : parts(values)) {
            int size = (int) whole(Field.VALUE_SIZE, null, part, 1, LoadSpec.MAX_VALUE_SIZE);
            if (sizes.contains(size)) {
                throw new Invalid(Field.VALUE_SIZE, "lists " + size + " twice, was " + values);
            }
            sizes.add(size);
        }
        if (sizes.isEmpty()) {
            throw new Invalid(Field.VALUE_SIZE, "give at least one size in bytes");
        }
        return List.copyOf(sizes);
    }

    /** {@code on}, {@code off}, or both ({@code on,off}), each once. */
    static List<Boolean> tcpNoDelay(List<?> values) {
        List<Boolean> settings = new ArrayList<>();
        for (Object part : parts(values)) {
            boolean on = onOff(part);
            if (settings.contains(on)) {
                throw new Invalid(Field.TCP_NODELAY, "lists " + SweepPoint.word(on) + " twice, was " + values);
            }
            settings.add(on);
        }
        if (settings.isEmpty()) {
            throw new Invalid(Field.TCP_NODELAY, "give on, off, or both");
        }
        return List.copyOf(settings);
    }

    /** Each value of a list, and each comma-separated part of a word, in order. */
    private static List<Object> parts(List<?> values) {
        List<Object> parts = new ArrayList<>();
        for (Object v : values) {
            parts.addAll(v instanceof String s ? List.of(s.split(",", -1)) : List.of(v));
        }
        return parts;
    }

    static double rate(Object value) {
        double r;
        try {
            r = Double.parseDouble(String.valueOf(value).strip());
        } catch (NumberFormatException e) {
            r = Double.NaN;
        }
        if (!(r > 0) || Double.isInfinite(r)) {
            throw new Invalid(Field.RATE, "expected requests per second above 0, was '" + value + "'");
        }
        return r;
    }

    static Duration positive(Field field, Duration value) {
        if (value.isNegative() || value.isZero()) {
            throw new Invalid(field, "must be positive, was " + value);
        }
        return value;
    }

    private static Operation command(Field field, Object word) {
        String text = String.valueOf(word).strip().toUpperCase(Locale.ROOT);
        try {
            return Operation.valueOf(text);
        } catch (IllegalArgumentException e) {
            throw new Invalid(field, "unknown command '" + word + "'; use set, get, incr or lpush");
        }
    }

    private static boolean onOff(Object value) {
        if (value instanceof Boolean b) {
            return b;
        }
        return switch (String.valueOf(value).strip().toLowerCase(Locale.ROOT)) {
            case "on", "true", "yes" -> true;
            case "off", "false", "no" -> false;
            default -> throw new Invalid(Field.TCP_NODELAY, "expected on or off, was '" + value + "'");
        };
    }

    /**
     * A whole number from a YAML scalar or an option's word. A BigInteger's longValue() wraps
     * around (2^64 + 1 would become 1), so out-of-range values are refused, not wrapped.
     */
    static long whole(Field field, String part, Object value, long min, long max) {
        long n;
        try {
            n = value instanceof BigInteger big
                    ? big.longValueExact()
                    : value instanceof Number number && !(value instanceof Double || value instanceof Float)
                            ? number.longValue()
                            : Long.parseLong(String.valueOf(value).strip().replace("_", ""));
        } catch (NumberFormatException | ArithmeticException e) {
            n = Long.MIN_VALUE;
        }
        if (n < min || n > max) {
            String range = max == Long.MAX_VALUE ? ">= " + min : "from " + min + " to " + max;
            throw new Invalid(
                    field, part == null ? "" : part, "expected a whole number " + range + ", was '" + value + "'");
        }
        return n;
    }
}
