package dev.fleetfix.bench.plan;

import dev.fleetfix.bench.Phase;
import dev.fleetfix.redis.load.Operation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The one place a {@link BenchPlan} is built from what a user wrote: {@code fleetfix bench}'s
 * options and a playbook's {@code benchmark} step give it the same words and get the same plan, the
 * same defaults and the same refusals. Each front end names the field its own way ({@link Field}),
 * so an error reads {@code --value-size: ...} on the command line and {@code value_size: ...} in a
 * playbook.
 *
 * <p>Values left unset take the defaults below. The value size is 64 bytes for both engines:
 * redis-benchmark's own default of 3 bytes is smaller than any real value, and a plan must measure
 * the same values whichever engine runs it (the playbook step once used 3 for redis-benchmark and
 * 64 for builtin, the command line 64 for both).
 */
public final class BenchPlanBuilder {
    public static final int DEFAULT_VALUE_SIZE = 64;
    /**
     * Rounds of a sweep when none are given: the fewest with which the shipped sweep (6 sizes at both
     * TCP_NODELAY settings, 16 comparisons, alpha split over them) can call a change, 10 batches a point
     * against 8 at 4 rounds; fewer are refused when the plan is read (steps.benchmark.BenchDesign). redis-benchmark
     * gives one batch a round, not two: its sweep takes twice as many, the same batches a point.
     */
    public static final int DEFAULT_SWEEP_ROUNDS = 5;

    private static final long DEFAULT_REDIS_BENCHMARK_REQUESTS = 100_000;

    /** A setting, as the command line and the playbook spell it. */
    public enum Field {
        NAME("name", "--name"),
        ENGINE("engine", "--engine"),
        PROFILE("profile", "--profile"),
        TESTS("tests", "--tests"),
        MIX("mix", "--tests"),
        CONNECTIONS("connections", "--clients"),
        PIPELINE("pipeline", "--pipeline"),
        VALUE_SIZE("value_size", "--value-size"),
        KEYSPACE("keyspace", "--keyspace"),
        REQUESTS("requests", "--requests"),
        DURATION("duration", "--duration"),
        WARMUP("warmup", "--warmup"),
        RATE("rate", "--rate"),
        THREADS("threads", "--threads"),
        PREFIX("prefix", "--prefix"),
        BGSAVE_INTERVAL("bgsave_interval", "--bgsave-interval"),
        ROUNDS("rounds", "--rounds"),
        TCP_NODELAY("tcp_nodelay", "--tcp-nodelay");

        private final String key;
        private final String option;

        Field(String key, String option) {
            this.key = key;
            this.option = option;
        }

        /** The playbook's key. */
        public String key() {
            return key;
        }

        /** The command line's option. */
        public String option() {
            return option;
        }
    }

    /** A value the builder refuses; the message does not name the field, the front end does. */
    public static final class Invalid extends IllegalArgumentException {
        private final Field field;
        private final String part;
        private final boolean named;

        Invalid(Field field, String message) {
            this(field, "", message, true);
        }

        Invalid(Field field, String part, String message) {
            this(field, part, message, true);
        }

        private Invalid(Field field, String part, String message, boolean named) {
            super(message);
            this.field = field;
            this.part = part;
            this.named = named;
        }

        /** Two settings that exclude each other: the message names both itself. */
        static Invalid between(Field field, String message) {
            return new Invalid(field, "", message, false);
        }

        public Field field() {
            return field;
        }

        /** "value_size: ..." or "mix.set: ...", with the field spelled as the front end spells it. */
        public String render(String fieldName) {
            if (!named) {
                return getMessage();
            }
            return fieldName + (part.isEmpty() ? "" : "." + part) + ": " + getMessage();
        }
    }

    private final Set<Field> given = EnumSet.noneOf(Field.class);
    private String name = "bench";
    private Phase phase = Phase.BEFORE;
    private BenchPlan.Engine engine = BenchPlan.Engine.BUILTIN;
    private BenchPlan.Profile profile = BenchPlan.Profile.PLAIN;
    private Map<Operation, Integer> mix = Map.of(Operation.SET, 1, Operation.GET, 1);
    private List<Operation> order = List.of(Operation.SET, Operation.GET);
    private int connections = 10;
    private int pipeline = 1;
    private List<Integer> valueSizes = List.of(DEFAULT_VALUE_SIZE);
    private long keyspace = 100_000;
    private OptionalLong requests = OptionalLong.empty();
    private Duration duration = Duration.ofSeconds(10);
    private Duration warmup = Duration.ofSeconds(2);
    private Optional<Double> rate = Optional.empty();
    private OptionalInt threads = OptionalInt.empty();
    private String prefix = LoadSpec.DEFAULT_PREFIX;
    private Duration bgsaveInterval = Duration.ofMillis(1500);
    private OptionalInt rounds = OptionalInt.empty();
    private int defaultRounds = 1;
    private boolean force;
    private List<Boolean> tcpNoDelay = List.of();

    public BenchPlanBuilder name(String value) {
        name = value.strip();
        if (name.isEmpty() || !name.matches("[A-Za-z0-9_.-]+")) {
            throw new Invalid(Field.NAME, "expected letters, digits, '.', '_' or '-', was '" + value + "'");
        }
        return this;
    }

    public BenchPlanBuilder phase(Phase value) {
        phase = value;
        return this;
    }

    public BenchPlanBuilder engine(String word) {
        engine = PlanWords.engine(word);
        return this;
    }

    public BenchPlanBuilder profile(String word) {
        profile = PlanWords.profile(word);
        given.add(Field.PROFILE);
        return this;
    }

    /** {@code set,get} or {@code [set, get]}: equal weights. */
    public BenchPlanBuilder tests(List<?> words) {
        commands(PlanWords.tests(words));
        given.add(Field.TESTS);
        return this;
    }

    /** {@code {set: 3, get: 1}}: relative weights (builtin only). */
    public BenchPlanBuilder mix(Map<?, ?> weights) {
        commands(PlanWords.mix(weights));
        given.add(Field.MIX);
        return this;
    }

    private void commands(PlanWords.Commands commands) {
        mix = commands.weights();
        order = commands.order();
    }

    public BenchPlanBuilder connections(Object value) {
        connections = (int) PlanWords.whole(Field.CONNECTIONS, null, value, 1, 10_000);
        return this;
    }

    public BenchPlanBuilder pipeline(Object value) {
        pipeline = (int) PlanWords.whole(Field.PIPELINE, null, value, 1, 100_000);
        return this;
    }

    /**
     * One size, or a list of two or more for a sweep ({@code 64,512,1024} or {@code [64, 512,
     * 1024]}); each in bytes, each once.
     */
    public BenchPlanBuilder valueSizes(List<?> values) {
        valueSizes = PlanWords.valueSizes(values);
        given.add(Field.VALUE_SIZE);
        return this;
    }

    /** {@code on}, {@code off}, or both ({@code on,off}) to compare them. */
    public BenchPlanBuilder tcpNoDelay(List<?> values) {
        tcpNoDelay = PlanWords.tcpNoDelay(values);
        given.add(Field.TCP_NODELAY);
        return this;
    }

    public BenchPlanBuilder keyspace(Object value) {
        keyspace = PlanWords.whole(Field.KEYSPACE, null, value, 1, Long.MAX_VALUE);
        return this;
    }

    public BenchPlanBuilder requests(Object value) {
        requests = OptionalLong.of(PlanWords.whole(Field.REQUESTS, null, value, 1, Long.MAX_VALUE));
        given.add(Field.REQUESTS);
        return this;
    }

    public BenchPlanBuilder duration(Duration value) {
        duration = PlanWords.positive(Field.DURATION, value);
        given.add(Field.DURATION);
        return this;
    }

    /** How long each round runs when neither duration nor requests are given (the builtin engine). */
    public BenchPlanBuilder defaultDuration(Duration value) {
        duration = PlanWords.positive(Field.DURATION, value);
        return this;
    }

    public BenchPlanBuilder warmup(Duration value) {
        if (value.isNegative()) {
            throw new Invalid(Field.WARMUP, "must not be negative, was " + value);
        }
        warmup = value;
        given.add(Field.WARMUP);
        return this;
    }

    public BenchPlanBuilder rate(Object value) {
        rate = Optional.of(PlanWords.rate(value));
        given.add(Field.RATE);
        return this;
    }

    public BenchPlanBuilder threads(Object value) {
        threads = OptionalInt.of((int) PlanWords.whole(Field.THREADS, null, value, 1, 1024));
        given.add(Field.THREADS);
        return this;
    }

    public BenchPlanBuilder prefix(String value) {
        if (value.isBlank() || value.contains("*") || value.contains("?") || value.contains("[")) {
            throw new Invalid(Field.PREFIX, "expected a key prefix without glob characters, was '" + value + "'");
        }
        prefix = value;
        return this;
    }

    public BenchPlanBuilder bgsaveInterval(Duration value) {
        bgsaveInterval = PlanWords.positive(Field.BGSAVE_INTERVAL, value);
        given.add(Field.BGSAVE_INTERVAL);
        return this;
    }

    public BenchPlanBuilder rounds(Object value) {
        rounds = OptionalInt.of((int) PlanWords.whole(Field.ROUNDS, null, value, 1, 100));
        return this;
    }

    /** Rounds when none are given and the plan is no sweep (a sweep takes {@link #DEFAULT_SWEEP_ROUNDS}). */
    public BenchPlanBuilder defaultRounds(int value) {
        defaultRounds = value;
        return this;
    }

    public BenchPlanBuilder force(boolean value) {
        force = value;
        return this;
    }

    /** Whether {@link #build()} makes a sweep: more than one value size or TCP_NODELAY setting. */
    public boolean sweep() {
        return valueSizes.size() > 1 || tcpNoDelay.size() > 1;
    }

    public BenchPlan build() {
        refuseMismatches();
        boolean sweep = sweep();
        int sweepRounds = engine == BenchPlan.Engine.REDIS_BENCHMARK ? 2 * DEFAULT_SWEEP_ROUNDS : DEFAULT_SWEEP_ROUNDS;
        int roundCount = rounds.orElse(sweep ? sweepRounds : defaultRounds);
        int firstSize = valueSizes.get(0);
        Optional<Boolean> noDelay = tcpNoDelay.size() == 1 ? Optional.of(tcpNoDelay.get(0)) : Optional.empty();
        LoadSpec load = load(firstSize);
        ForkUnderLoadSpec fork = ForkUnderLoadSpec.defaults()
                .withLoad(load.toBuilder()
                        .test(ForkUnderLoadSpec.TEST)
                        .mix(Map.of(Operation.SET, 1))
                        .build())
                .withBgsaveInterval(bgsaveInterval);
        RedisBenchmarkSpec redisBenchmark = new RedisBenchmarkSpec(
                "127.0.0.1",
                6379,
                order,
                requests.orElse(DEFAULT_REDIS_BENCHMARK_REQUESTS),
                connections,
                firstSize,
                pipeline,
                OptionalLong.of(keyspace),
                threads,
                prefix,
                Duration.ofMinutes(10));
        return new BenchPlan(
                name,
                engine,
                profile,
                load,
                fork,
                redisBenchmark,
                roundCount,
                phase,
                force ? SafetyPolicy.DEFAULT.forced() : SafetyPolicy.DEFAULT,
                noDelay,
                sweep ? points() : List.of());
    }

    /** Every value size at every TCP_NODELAY setting given (the client's default when none is). */
    private List<SweepPoint> points() {
        List<SweepPoint> points = new ArrayList<>();
        List<Optional<Boolean>> settings = tcpNoDelay.isEmpty()
                ? List.of(Optional.empty())
                : tcpNoDelay.stream().map(Optional::of).toList();
        for (Optional<Boolean> setting : settings) {
            for (int size : valueSizes) {
                points.add(new SweepPoint(size, setting));
            }
        }
        return points;
    }

    /** The builtin engine's load: the first value size (a sweep sets each point's own). */
    private LoadSpec load(int firstSize) {
        LoadSpec.Builder loadBuilder = LoadSpec.builder()
                .test(mix.size() == 1 ? mix.keySet().iterator().next().name() : "MIX")
                .connections(connections)
                .pipeline(pipeline)
                .mix(mix)
                .valueSize(firstSize)
                .keyspace(keyspace)
                .warmup(warmup)
                .keyPrefix(prefix);
        if (requests.isPresent()) {
            loadBuilder.requests(requests.getAsLong());
        } else {
            loadBuilder.duration(duration);
        }
        rate.ifPresent(loadBuilder::rate);
        return loadBuilder.build();
    }

    private void refuseMismatches() {
        if (given.contains(Field.TESTS) && given.contains(Field.MIX)) {
            throw Invalid.between(Field.MIX, "give either tests or mix, not both");
        }
        if (given.contains(Field.DURATION) && given.contains(Field.REQUESTS)) {
            throw Invalid.between(Field.REQUESTS, "give either duration or requests, not both");
        }
        if (engine == BenchPlan.Engine.REDIS_BENCHMARK) {
            if (profile == BenchPlan.Profile.FORK_UNDER_LOAD) {
                throw new Invalid(Field.PROFILE, "fork-under-load needs engine builtin, was engine redis-benchmark");
            }
            for (Field builtinOnly : List.of(
                    Field.DURATION, Field.WARMUP, Field.RATE, Field.MIX, Field.BGSAVE_INTERVAL, Field.TCP_NODELAY)) {
                if (given.contains(builtinOnly)) {
                    throw new Invalid(builtinOnly, "only for engine builtin, was engine redis-benchmark");
                }
            }
            int largest = valueSizes.stream().mapToInt(Integer::intValue).max().orElse(0);
            if (largest > 64 * 1024) {
                throw new Invalid(Field.VALUE_SIZE, "redis-benchmark takes at most 65536 bytes (-d), was " + largest);
            }
        } else if (given.contains(Field.THREADS)) {
            throw new Invalid(Field.THREADS, "only for engine redis-benchmark, was engine builtin");
        }
        if (sweep() && phase != Phase.BEFORE) {
            throw new Invalid(
                    valueSizes.size() > 1 ? Field.VALUE_SIZE : Field.TCP_NODELAY,
                    "a sweep compares its own points with each other; it has no before/after phase (was "
                            + phase.name().toLowerCase(Locale.ROOT) + ")");
        }
    }
}
