package dev.fleetfix.steps;

import dev.fleetfix.Counts;
import dev.fleetfix.Progress;
import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.Metric;
import dev.fleetfix.bench.Phase;
import dev.fleetfix.bench.host.BenchEngines;
import dev.fleetfix.bench.host.HostBenchmark;
import dev.fleetfix.bench.plan.BenchPlan;
import dev.fleetfix.bench.plan.BenchRun;
import dev.fleetfix.bench.verdict.stats.Median;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.playbook.StepDoc;
import dev.fleetfix.playbook.StepSignature;
import dev.fleetfix.steps.benchmark.BenchmarkArgs;
import dev.fleetfix.steps.benchmark.BenchmarkDoc;
import dev.fleetfix.steps.model.StepArgs;
import dev.fleetfix.steps.model.StepContext;
import dev.fleetfix.steps.model.StepResult;
import dev.fleetfix.transport.RemoteShell;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * {@code benchmark: {name: thp, phase: before, profile: auto, duration: 3s, rounds: 7}}: measures
 * the host's Redis with the {@code dev.fleetfix.bench} engines; every round becomes a
 * {@code BenchmarkFinished} event, and reporters compare the {@code before} and {@code after} rounds
 * of the same name.
 *
 * <p>It changes no configuration, so it reports ok, never changed. It writes only keys under
 * {@code prefix} and deletes them afterwards, which is still a write: in check mode it does not run.
 * A host the safety rules refuse (a replica, a nearly full or evicting primary without
 * {@code force}, a {@code maxmemory} without room for the benchmark's keys) or whose persistence settings forbid fork-under-load is skipped with the reason.
 *
 * <p>An {@code after} run needs the {@code before} run of the same name to have run on the host
 * earlier in this run; otherwise there is nothing to compare it with, and it is skipped.
 *
 * <p>{@code profile: auto} runs fork-under-load when the host allows it and plain otherwise, and
 * remembers the choice as the fact {@code benchmark.NAME.profile}, so the {@code after} run of the
 * same name uses the same profile and the two sides stay comparable.
 */
public final class BenchmarkStep implements StepType {
    static final String CHECK_MODE = "benchmark does not run in check mode";

    /** Runs a plan on one host and its controls; the step's seam for tests. */
    @FunctionalInterface
    public interface Runner {
        /**
         * Measures {@code host} and, round by round beside it, each of {@code controls} (see {@link
         * HostBenchmark#alongside}).
         *
         * @param progress told which round runs and how far it has got
         * @return the host's outcome first, then one per control in the order given
         */
        List<HostBenchmark.Outcome> run(
                Host host, RemoteShell shell, List<Host> controls, BenchPlan plan, Progress.Listener progress);
    }

    private final Runner runner;

    public BenchmarkStep(Runner runner) {
        this.runner = Objects.requireNonNull(runner, "runner");
    }

    /**
     * The engines the composition root built: the builtin load from this machine, redis-benchmark on the host over
     * its shell.
     */
    public static BenchmarkStep on(BenchEngines engines) {
        Objects.requireNonNull(engines, "engines");
        return new BenchmarkStep((host, shell, controls, plan, progress) -> {
            List<Host> all = new ArrayList<>();
            all.add(host);
            all.addAll(controls);
            return engines.on(h -> h.equals(host) ? shell : noShell(h)).alongside(all, plan, progress);
        });
    }

    @Override
    public StepSignature signature() {
        return StepSignature.of("benchmark", BenchmarkArgs.NAMES);
    }

    @Override
    public StepDoc doc() {
        return BenchmarkDoc.of();
    }

    @Override
    public StepHandler prepare(StepArgs args) {
        BenchmarkArgs.Parsed parsed = BenchmarkArgs.parse(args);
        BenchPlan plan = parsed.plan();
        String profileFact = "benchmark." + plan.name() + ".profile";
        String settingsFact = "benchmark." + plan.name() + ".settings";
        return ctx -> {
            List<String> controlNotes = new ArrayList<>();
            StepResult r = run(ctx, parsed, plan, profileFact, settingsFact, controlNotes);
            if (controlNotes.isEmpty()) {
                return r;
            }
            return new StepResult(
                            r.status(),
                            r.message() + "; " + String.join("; ", controlNotes),
                            r.changes(),
                            r.diffs(),
                            r.gates(),
                            r.facts(),
                            r.benchmarks(),
                            r.predicted())
                    .withBenchmarks(r.benchmarks());
        };
    }

    private StepResult run(
            StepContext ctx,
            BenchmarkArgs.Parsed parsed,
            BenchPlan plan,
            String profileFact,
            String settingsFact,
            List<String> controlNotes) {
        if (ctx.check()) {
            return StepResult.skipped(CHECK_MODE);
        }
        if (plan.phase() == Phase.AFTER && ctx.state().fact(profileFact).isEmpty()) {
            return StepResult.skipped(
                    "no '" + plan.name() + "' before run on this host in this run: nothing to compare with");
        }
        Measure measure = measure(ctx, parsed, settingsFact, controlNotes);
        Facts facts = new Facts(profileFact, settingsFact);
        if (!parsed.auto()) {
            return result(measure.run(plan), plan, "", facts);
        }
        Optional<String> pinned = ctx.state().fact(profileFact);
        if (pinned.isPresent()) {
            BenchPlan same = withProfile(
                    plan,
                    pinned.get().equals(word(BenchPlan.Profile.PLAIN))
                            ? BenchPlan.Profile.PLAIN
                            : BenchPlan.Profile.FORK_UNDER_LOAD);
            return result(measure.run(same), same, "", facts);
        }
        HostBenchmark.Outcome fork = measure.run(plan);
        if (fork.skipped().isPresent() && fork.rounds().isEmpty()) {
            BenchPlan plain = withProfile(plan, BenchPlan.Profile.PLAIN);
            HostBenchmark.Outcome plainOutcome = measure.run(plain);
            // a refusal refuses both profiles: say it once
            boolean sameReason = plainOutcome.skipped().equals(fork.skipped());
            String note = sameReason
                    ? ""
                    : "fork-under-load skipped (" + fork.skipped().get() + "), ran plain; ";
            return result(plainOutcome, plain, note, facts);
        }
        return result(fork, plan, "", facts);
    }

    /**
     * How a plan is measured on the step's host: refused on the after side when the client settings differ from the
     * before run's, with its controls beside it, and the before side once more when calibrating.
     */
    private Measure measure(
            StepContext ctx, BenchmarkArgs.Parsed parsed, String settingsFact, List<String> controlNotes) {
        return p -> {
            if (p.phase() == Phase.AFTER) {
                Optional<String> before = ctx.state().fact(settingsFact);
                if (before.isPresent() && !before.get().equals(p.clientSettings())) {
                    return new HostBenchmark.Outcome(
                            ctx.host(),
                            List.of(),
                            Optional.of("the after run's client settings differ from the before run's, so the"
                                    + " two would not be comparable (before: " + before.get() + "; after: "
                                    + p.clientSettings() + ")"),
                            Optional.empty());
                }
            }
            HostBenchmark.Outcome first = withControls(ctx, p, parsed.controls(), controlNotes);
            if (!parsed.calibrate()
                    || first.rounds().isEmpty()
                    || first.failure().isPresent()) {
                return first;
            }
            HostBenchmark.Outcome again = runner.run(
                            ctx.host(), ctx.shell(), List.of(), p.withPhase(Phase.CALIBRATION), ctx.progress())
                    .get(0);
            List<BenchRun> all = new ArrayList<>(first.rounds());
            all.addAll(again.rounds());
            return new HostBenchmark.Outcome(ctx.host(), all, again.skipped(), again.failure());
        };
    }

    /**
     * The changed host's rounds and, measured round by round beside them with the same plan, those of
     * up to {@code wanted} control hosts: hosts of later batches that nothing has changed yet. Their
     * drift between the before and after sides is taken out of the host's change (difference in
     * differences). When none is left (the last batch), {@code notes} says so.
     */
    private HostBenchmark.Outcome withControls(StepContext ctx, BenchPlan plan, int wanted, List<String> notes) {
        List<Host> controls = ctx.peers().controls().stream().limit(wanted).toList();
        List<HostBenchmark.Outcome> outcomes = runner.run(ctx.host(), ctx.shell(), controls, plan, ctx.progress());
        HostBenchmark.Outcome measured = outcomes.get(0);
        if (wanted == 0 || measured.rounds().isEmpty() || measured.failure().isPresent()) {
            return measured;
        }
        if (controls.isEmpty()) {
            notes.add("no control host left: no later batch holds an unchanged host, so drift is not taken out");
            return measured;
        }
        List<BenchRun> all = new ArrayList<>(measured.rounds());
        for (int i = 0; i < controls.size(); i++) {
            Host control = controls.get(i);
            HostBenchmark.Outcome o = i + 1 < outcomes.size()
                    ? outcomes.get(i + 1)
                    : new HostBenchmark.Outcome(control, List.of(), Optional.of("no outcome"), Optional.empty());
            o.rounds().forEach(r -> all.add(r.asControlOf(ctx.host().name(), plan.phase())));
            if (o.rounds().isEmpty()) {
                notes.add("control " + control.name() + " not measured: "
                        + o.failure().or(o::skipped).orElse("no rounds"));
            } else {
                notes.add("control " + control.name() + ": "
                        + Counts.of(o.rounds().size(), "round"));
            }
        }
        return new HostBenchmark.Outcome(ctx.host(), all, measured.skipped(), measured.failure());
    }

    /**
     * A control host is loaded from this machine and needs no shell; the steps of this run have not
     * opened one to it (it belongs to a later batch), so Redis's figures that need one say so.
     */
    private static RemoteShell noShell(Host host) {
        return new RemoteShell() {
            @Override
            public String hostName() {
                return host.name();
            }

            @Override
            public dev.fleetfix.transport.ExecResult exec(dev.fleetfix.transport.Command command) {
                throw new UnsupportedOperationException("a control host's shell is not opened before its own batch");
            }

            @Override
            public void put(String remotePath, byte[] content, int mode, boolean become) {
                throw new UnsupportedOperationException("a control host's shell is not opened before its own batch");
            }

            @Override
            public void close() {}
        };
    }

    /** Runs a plan on the step's host, the before side twice when calibrating. */
    @FunctionalInterface
    private interface Measure {
        HostBenchmark.Outcome run(BenchPlan plan);
    }

    /** The names of the facts a benchmark step records for its later runs. */
    private record Facts(String profile, String settings) {}

    /**
     * The step's result carrying its rounds (the engine emits one event per round). When rounds ran,
     * the fact {@code benchmark.NAME.profile} records the profile, for {@code auto} and for
     * {@code when:} conditions of later steps.
     */
    private static StepResult result(HostBenchmark.Outcome outcome, BenchPlan plan, String note, Facts names) {
        List<BenchRun> rounds = outcome.rounds();
        Map<String, String> facts = rounds.isEmpty()
                ? Map.of()
                : Map.of(names.profile(), word(plan.profile()), names.settings(), plan.clientSettings());
        StepResult result;
        if (outcome.failure().isPresent()) {
            result = StepResult.failed(outcome.failure().get());
        } else if (outcome.skipped().isPresent() && rounds.isEmpty()) {
            result = StepResult.skipped(note + outcome.skipped().get());
        } else {
            result = StepResult.ok(note
                    + summary(plan, rounds)
                    + outcome.skipped().map(s -> "; stopped early: " + s).orElse(""));
            if (!facts.isEmpty()) {
                result = result.withFacts(facts);
            }
        }
        return result.withBenchmarks(rounds);
    }

    /** "thp before, fork-under-load: 3 rounds, FORK-UNDER-LOAD median 41,210 rps p99 1.9ms max 23.0ms". */
    static String summary(BenchPlan plan, List<BenchRun> all) {
        if (plan.isSweep()) {
            // medians over points of different sizes would mean nothing: the recap's table has them per point
            return plan.name() + " sweep, " + word(plan.profile()) + ": "
                    + Counts.of(plan.sweep().size(), "point") + " x " + Counts.of(plan.rounds(), "round") + ", "
                    + all.size()
                    + " measured; per point in the SWEEP table";
        }
        List<BenchRun> rounds =
                all.stream().filter(r -> r.phase() == plan.phase()).toList();
        long calibration =
                all.stream().filter(r -> r.phase() == Phase.CALIBRATION).count();
        StringBuilder text = new StringBuilder(plan.name() + " "
                + plan.phase().name().toLowerCase(Locale.ROOT) + ", " + word(plan.profile()) + ": "
                + Counts.of(rounds.size(), "round")
                + (calibration > 0 ? " (and " + calibration + " again for calibration)" : ""));
        List<String> tests = new ArrayList<>();
        rounds.forEach(r -> r.results().stream()
                .map(BenchResult::test)
                .filter(t -> !tests.contains(t))
                .forEach(tests::add));
        for (String test : tests) {
            text.append(", ").append(test).append(" median");
            medians(text, rounds, test);
        }
        return text.toString();
    }

    /** A test's medians over the rounds (rps, p99, max), then the error replies its rounds counted, if any. */
    private static void medians(StringBuilder text, List<BenchRun> rounds, String test) {
        for (Metric m : List.of(Metric.RPS, Metric.P99, Metric.MAX)) {
            List<Double> values = new ArrayList<>();
            for (BenchRun r : rounds) {
                r.results().stream()
                        .filter(res -> res.test().equals(test))
                        .map(m::valueOf)
                        .filter(OptionalDouble::isPresent)
                        .forEach(v -> values.add(v.getAsDouble()));
            }
            if (!values.isEmpty()) {
                double median = Median.of(values);
                text.append(' ')
                        .append(
                                m == Metric.RPS
                                        ? String.format(Locale.ROOT, "%,.0f rps", median)
                                        : String.format(Locale.ROOT, "%s %.2fms", m.label(), median));
            }
        }
        long errors = rounds.stream()
                .flatMap(r -> r.results().stream())
                .filter(res -> res.test().equals(test))
                .mapToLong(BenchResult::errors)
                .sum();
        if (errors > 0) {
            text.append(String.format(
                    Locale.ROOT, " (%,d error replies counted in the rps: these rounds enter no verdict)", errors));
        }
    }

    private static BenchPlan withProfile(BenchPlan plan, BenchPlan.Profile profile) {
        // the plan's own wither: a copy made here once dropped fields added to the plan later
        return plan.withProfile(profile);
    }

    static String word(BenchPlan.Profile profile) {
        return profile == BenchPlan.Profile.PLAIN ? "plain" : "fork-under-load";
    }
}
