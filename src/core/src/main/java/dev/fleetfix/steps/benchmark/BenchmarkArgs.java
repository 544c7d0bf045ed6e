package dev.fleetfix.steps.benchmark;

import dev.fleetfix.bench.Phase;
import dev.fleetfix.bench.plan.BenchPlan;
import dev.fleetfix.bench.plan.BenchPlanBuilder;
import dev.fleetfix.bench.plan.LoadSpec;
import dev.fleetfix.playbook.StepDoc;
import dev.fleetfix.steps.model.StepArgs;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The {@code benchmark} step's arguments turned into a {@link BenchPlan} by the same {@link
 * BenchPlanBuilder} as {@code fleetfix bench}, every value checked with a message naming the
 * playbook's field, before any host is contacted.
 */
public final class BenchmarkArgs {
    /** The step's arguments: those its doc describes ({@link BenchmarkDoc}), one list for the parser and the doc. */
    public static final Set<String> NAMES =
            BenchmarkDoc.of().args().stream().map(StepDoc.Arg::name).collect(Collectors.toUnmodifiableSet());

    /** The most control hosts a benchmark step measures beside the changed one. */
    private static final int MAX_CONTROLS = 16;

    /** {@code profile: auto}: fork-under-load when the host allows it, else plain. */
    static final String AUTO = "auto";

    /**
     * @param plan what to run (with {@code auto}, the fork-under-load profile, tried first)
     * @param auto whether the profile was {@code auto}
     * @param calibrate measure the before side twice; the A/A difference is the noise floor
     * @param controls how many unchanged hosts of later batches to measure beside each side, round by round in turn
     *     (difference in differences); 0 for none
     */
    public record Parsed(BenchPlan plan, boolean auto, boolean calibrate, int controls) {}

    private BenchmarkArgs() {}

    public static Parsed parse(StepArgs args) {
        BenchPlanBuilder b = new BenchPlanBuilder();
        try {
            b.name(args.text("name", "benchmark"));
            design(args, b);
            boolean auto = engineAndProfile(args, b);
            load(args, b);
            timing(args, b);
            b.prefix(args.text("prefix", LoadSpec.DEFAULT_PREFIX));
            b.force(args.bool("force", false));
            boolean calibrate = args.bool("calibrate", false);
            BenchPlan plan = b.build();
            calibrationProblem(plan, calibrate).ifPresent(p -> {
                throw args.error(p);
            });
            int controls = controls(args);
            controlsProblem(plan, controls).ifPresent(p -> {
                throw args.error(p);
            });
            return new Parsed(plan, auto && plan.engine() == BenchPlan.Engine.BUILTIN, calibrate, controls);
        } catch (BenchPlanBuilder.Invalid e) {
            throw args.error(e.render(e.field().key()));
        } catch (IllegalArgumentException e) {
            throw args.error(e.getMessage());
        }
    }

    /**
     * A before/after run needs its phase and takes the fewest rounds with which the verdict can call a change and say
     * no change detected, whatever the engine's samples ({@link BenchDesign}), each short: the side stays within
     * about 20 s. A sweep takes the builder's own default.
     */
    private static void design(StepArgs args, BenchPlanBuilder b) {
        if (isList(args, "value_size") || isList(args, "tcp_nodelay")) {
            return;
        }
        if (!args.has("phase")) {
            throw args.error("phase: required, before or after");
        }
        boolean redisBenchmark = args.text("engine", "builtin").equals("redis-benchmark");
        b.defaultRounds(redisBenchmark ? BenchDesign.REDIS_BENCHMARK_ROUNDS : BenchDesign.BUILTIN_ROUNDS)
                .defaultDuration(BenchDesign.ROUND_DURATION);
    }

    /** The phase, the engine and the profile; whether the profile was {@code auto}. */
    private static boolean engineAndProfile(StepArgs args, BenchPlanBuilder b) {
        b.phase(Phase.valueOf(
                args.choice("phase", "before", List.of("before", "after")).toUpperCase(Locale.ROOT)));
        String engine = args.choice("engine", "builtin", List.of("builtin", "redis-benchmark"));
        b.engine(engine);
        String profile = args.choice("profile", "plain", List.of("plain", "fork-under-load", AUTO));
        builderProfile(profile, engine).ifPresent(b::profile);
        return profile.equals(AUTO);
    }

    /** The builder's profile: {@code auto} tries fork-under-load first, but not with redis-benchmark. */
    static Optional<String> builderProfile(String profile, String engine) {
        if (profile.equals(AUTO)) {
            return engine.equals("redis-benchmark") ? Optional.empty() : Optional.of("fork-under-load");
        }
        return Optional.of(profile);
    }

    /** What the load is: its commands, clients and keys. */
    private static void load(StepArgs args, BenchPlanBuilder b) {
        if (args.has("tests")) {
            b.tests(args.list("tests"));
        }
        if (args.has("mix")) {
            if (!(args.raw().get("mix") instanceof Map<?, ?> weights)) {
                throw args.error("mix: expected a mapping of command to weight like {set: 3, get: 1}, was '"
                        + args.raw().get("mix") + "'");
            }
            b.mix(weights);
        }
        given(args, "connections", b::connections);
        given(args, "pipeline", b::pipeline);
        given(args, "keyspace", b::keyspace);
        given(args, "requests", b::requests);
        given(args, "rate", b::rate);
        given(args, "threads", b::threads);
        given(args, "rounds", b::rounds);
        if (args.has("value_size")) {
            b.valueSizes(args.list("value_size"));
        }
        if (args.has("tcp_nodelay")) {
            b.tcpNoDelay(args.list("tcp_nodelay"));
        }
    }

    /** How long each round, its warm-up and the interval of BGSAVEs under load are. */
    private static void timing(StepArgs args, BenchPlanBuilder b) {
        if (args.has("duration")) {
            b.duration(args.duration("duration", null));
        }
        if (args.has("warmup")) {
            String w = String.valueOf(args.raw().get("warmup")).strip();
            // warmup: 0 is none, where any other duration must be positive
            b.warmup(List.of("0", "0s", "0ms").contains(w) ? Duration.ZERO : args.duration("warmup", null));
        }
        if (args.has("bgsave_interval")) {
            b.bgsaveInterval(args.duration("bgsave_interval", null));
        }
    }

    /** Why {@code calibrate} does not fit this plan; empty when it does or is not asked for. */
    static Optional<String> calibrationProblem(BenchPlan plan, boolean calibrate) {
        if (calibrate && plan.phase() != Phase.BEFORE) {
            return Optional.of("calibrate: only a before run is measured twice, this one is phase: after");
        }
        if (calibrate && plan.isSweep()) {
            return Optional.of("calibrate: a sweep compares its points with each other, not with a calibration");
        }
        return Optional.empty();
    }

    /** Why {@code controls} do not fit this plan; without controls, why its rounds cannot call every verdict. */
    static Optional<String> controlsProblem(BenchPlan plan, int controls) {
        if (controls == 0) {
            return BenchDesign.problem(plan, "rounds");
        }
        if (plan.engine() != BenchPlan.Engine.BUILTIN) {
            return Optional.of("controls: need engine builtin (a control host is loaded from this machine),"
                    + " was engine redis-benchmark");
        }
        if (plan.isSweep()) {
            return Optional.of("controls: a sweep compares its points with each other, not with control hosts");
        }
        return Optional.empty();
    }

    private static boolean isList(StepArgs args, String field) {
        Object v = args.raw().get(field);
        return v instanceof List<?> list && list.size() > 1 || v instanceof String s && s.contains(",");
    }

    private static void given(StepArgs args, String field, Consumer<Object> setter) {
        Object value = args.raw().get(field);
        if (value != null) {
            setter.accept(value);
        }
    }

    /** {@code controls: N}, 0 to 16 control hosts; 0 when not given. */
    private static int controls(StepArgs args) {
        Object value = args.raw().get("controls");
        if (value == null) {
            return 0;
        }
        String text = value.toString().strip();
        boolean whole = !(value instanceof Double || value instanceof Float) && text.matches("[0-9]{1,2}");
        if (!whole || Integer.parseInt(text) > MAX_CONTROLS) {
            throw args.error("controls: expected a whole number from 0 to " + MAX_CONTROLS + ", was '" + value + "'");
        }
        return Integer.parseInt(text);
    }
}
