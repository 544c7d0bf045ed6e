package dev.fleetfix.steps.benchmark;

import dev.fleetfix.bench.Phase;
import dev.fleetfix.bench.plan.BenchPlan;
import dev.fleetfix.bench.plan.BenchPlanBuilder;
import dev.fleetfix.steps.model.StepArgs;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The {@code benchmark} step's arguments turned into a {@link BenchPlan} by the same {@link
 * BenchPlanBuilder} as {@code fleetfix bench}, every value checked with a message naming the
 * playbook's field, before any host is contacted.
 */
public final class BenchmarkArgs {
    public static final Set<String> NAMES = Set.of(
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
            "tcp_nodelay",
            "controls");

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
            boolean sweep = isList(args, "value_size") || isList(args, "tcp_nodelay");
            if (!args.has("phase") && !sweep) {
                throw args.error("phase: required, before or after");
            }
            if (!sweep) {
                // the fewest rounds with which the verdict can call a change and say no change detected, whatever
                // the engine's samples (BenchDesign), each short: the side stays within about 20 s; a sweep takes
                // the builder's own default
                b.defaultRounds(
                                args.text("engine", "builtin").equals("redis-benchmark")
                                        ? BenchDesign.REDIS_BENCHMARK_ROUNDS
                                        : BenchDesign.BUILTIN_ROUNDS)
                        .defaultDuration(BenchDesign.ROUND_DURATION);
            }
            b.phase(Phase.valueOf(
                    args.choice("phase", "before", List.of("before", "after")).toUpperCase(Locale.ROOT)));
            String engine = args.choice("engine", "builtin", List.of("builtin", "redis-benchmark"));
            b.engine(engine);
            String profile = args.choice("profile", "plain", List.of("plain", "fork-under-load", AUTO));
            boolean auto = profile.equals(AUTO);
            if (!(auto && engine.equals("redis-benchmark"))) {
                b.profile(auto ? "fork-under-load" : profile);
            }
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
            if (args.has("duration")) {
                b.duration(args.duration("duration", null));
            }
            if (args.has("warmup")) {
                String w = String.valueOf(args.raw().get("warmup")).strip();
                b.warmup(
                        w.equals("0") || w.equals("0s") || w.equals("0ms")
                                ? java.time.Duration.ZERO
                                : args.duration("warmup", null));
            }
            if (args.has("bgsave_interval")) {
                b.bgsaveInterval(args.duration("bgsave_interval", null));
            }
            b.prefix(args.text("prefix", dev.fleetfix.bench.plan.LoadSpec.DEFAULT_PREFIX));
            b.force(args.bool("force", false));
            boolean calibrate = args.bool("calibrate", false);
            BenchPlan plan = b.build();
            if (calibrate && plan.phase() != Phase.BEFORE) {
                throw args.error("calibrate: only a before run is measured twice, this one is phase: after");
            }
            if (calibrate && plan.isSweep()) {
                throw args.error("calibrate: a sweep compares its points with each other, not with a calibration");
            }
            int controls = controls(args);
            if (controls > 0 && plan.engine() != BenchPlan.Engine.BUILTIN) {
                throw args.error("controls: need engine builtin (a control host is loaded from this machine),"
                        + " was engine redis-benchmark");
            }
            if (controls > 0 && plan.isSweep()) {
                throw args.error("controls: a sweep compares its points with each other, not with control hosts");
            }
            if (controls == 0) {
                BenchDesign.problem(plan, "rounds").ifPresent(p -> {
                    throw args.error(p);
                });
            }
            return new Parsed(plan, auto && plan.engine() == BenchPlan.Engine.BUILTIN, calibrate, controls);
        } catch (BenchPlanBuilder.Invalid e) {
            throw args.error(e.render(e.field().key()));
        } catch (IllegalArgumentException e) {
            throw args.error(e.getMessage());
        }
    }

    private static boolean isList(StepArgs args, String field) {
        Object v = args.raw().get(field);
        return v instanceof List<?> list && list.size() > 1 || v instanceof String s && s.contains(",");
    }

    private static void given(StepArgs args, String field, java.util.function.Consumer<Object> setter) {
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
