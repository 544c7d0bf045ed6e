package dev.fleetfix.bench.verdict;

import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.Metric;
import dev.fleetfix.bench.Phase;
import dev.fleetfix.bench.plan.BenchRun;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Compares before and after runs of the same name, per host and for the fleet.
 *
 * <p>Per host, each figure is judged on samples. Between two moments (no control hosts) they are batches of
 * consecutive windows, two a round, each the mean of its windows (one per round when the engine has no
 * windows; {@link BatchTest}), judged by exact rank tests against the effect floor:
 *
 * <ul>
 *   <li>a change is called when the test that the after batches are shifted beyond the floor is below {@code alpha}
 *       after Holm over the decisive figures of the test: so the chance that any figure of a host that changed by
 *       less than the floor is called changed is at most {@code alpha};
 *   <li>no change detected when, for every decisive figure, the two one-sided tests that the shift lies within the
 *       floor are below {@link Thresholds#EQUIVALENCE_ALPHA};
 *   <li>the floor is {@code driftFloor}, and {@code tailDriftFloor} for the 99th percentile and above ({@link
 *       Metric#tail()}), since two moments minutes apart differ by more than their rounds show (see {@link
 *       #DEFAULT}); {@code relativeNoise} where the sides alternate round by round ({@link #INTERLEAVED}); and the
 *       A/A difference of a calibration when that is larger. A real but tiny change is no reason to act;
 *   <li>this machine's own load did not drift between the sides in the direction that would cause the change
 *       ({@link MachineDrift}): such a change is shown with the reason it is withheld, never called.
 * </ul>
 *
 * <p>With control hosts ({@code controls: N}) each figure's windows are judged by difference in differences
 * ({@link dev.fleetfix.bench.verdict.stats.DifferenceInDifferences}) against the {@code relativeNoise} floor: a change
 * is called when that test and the bootstrap interval exclude no change and it passes the floor, no change detected
 * when the interval lies within it.
 *
 * <p>The maximum, and any percentile that a window holds too few requests above, are shown but
 * never decide. Nor does any figure of a test one of whose rounds (either side, calibration or
 * control) had error replies: its rps counted them as requests, and its latencies are of errors. For the fleet see {@link FleetVerdict}.
 *
 * <p>The floors and levels are a {@link Thresholds}; a figure is measured by {@link FigureSamples}, judged with
 * the others of its test by {@link FigureJudge}, and described by {@link ComparisonWords}.
 *
 * @param thresholds the effect floors, the error rate and the intervals' coverage
 */
public record BeforeAfter(Thresholds thresholds) {
    /** {@link Thresholds#DEFAULT}: before and after at two moments. */
    public static final BeforeAfter DEFAULT = new BeforeAfter(Thresholds.DEFAULT);

    /** {@link Thresholds#INTERLEAVED}: sides measured in alternating rounds. */
    public static final BeforeAfter INTERLEAVED = new BeforeAfter(Thresholds.INTERLEAVED);

    public BeforeAfter {
        Objects.requireNonNull(thresholds, "thresholds");
    }

    /** See {@link Thresholds}. */
    public BeforeAfter(double relativeNoise, double driftFloor, double tailDriftFloor, double alpha, double level) {
        this(new Thresholds(relativeNoise, driftFloor, tailDriftFloor, alpha, level));
    }

    /** One effect floor for every figure and design. */
    public BeforeAfter(double relativeNoise, double alpha, double level) {
        this(new Thresholds(relativeNoise, alpha, level));
    }

    public double relativeNoise() {
        return thresholds.relativeNoise();
    }

    public double alpha() {
        return thresholds.alpha();
    }

    public double level() {
        return thresholds.level();
    }

    /** The before/after figures of one host, one name and one test, per phase. */
    private record Sides(Map<Phase, List<BenchResult>> byPhase) {
        List<BenchResult> of(Phase p) {
            return byPhase.getOrDefault(p, List.of());
        }
    }

    /**
     * Per host, per named benchmark, per test: every test that has rounds on both sides. Control
     * rounds ({@link BenchRun#controlFor()}) count for the host they control, never for their own.
     */
    public List<TestComparison> perHost(Collection<BenchRun> runs) {
        Map<List<String>, Sides> sides = new LinkedHashMap<>();
        Map<List<String>, Sides> controls = new LinkedHashMap<>();
        Map<List<String>, java.util.Set<String>> controlHosts = new LinkedHashMap<>();
        for (BenchRun run : runs) {
            if (run.point().isPresent()) {
                continue; // a sweep's rounds are compared point against point, see Sweep
            }
            for (BenchResult result : run.results()) {
                if (run.controlFor().isPresent()) {
                    List<String> key = List.of(run.controlFor().get(), run.name(), result.test());
                    controls.computeIfAbsent(key, k -> new Sides(new EnumMap<>(Phase.class)))
                            .byPhase()
                            .computeIfAbsent(run.phase(), p -> new ArrayList<>())
                            .add(result);
                    controlHosts
                            .computeIfAbsent(key, k -> new java.util.LinkedHashSet<>())
                            .add(run.host());
                    continue;
                }
                List<String> key = List.of(run.host(), run.name(), result.test());
                sides.computeIfAbsent(key, k -> new Sides(new EnumMap<>(Phase.class)))
                        .byPhase()
                        .computeIfAbsent(run.phase(), p -> new ArrayList<>())
                        .add(result);
            }
        }
        List<TestComparison> comparisons = new ArrayList<>();
        sides.forEach((key, s) -> {
            if (!s.of(Phase.BEFORE).isEmpty() && !s.of(Phase.AFTER).isEmpty()) {
                Sides c = controls.getOrDefault(key, new Sides(Map.of()));
                Controls ctl = c.of(Phase.CONTROL_BEFORE).isEmpty()
                                || c.of(Phase.CONTROL_AFTER).isEmpty()
                        ? Controls.NONE
                        : new Controls(
                                List.copyOf(controlHosts.get(key)),
                                c.of(Phase.CONTROL_BEFORE),
                                c.of(Phase.CONTROL_AFTER));
                comparisons.add(compare(
                        key.get(0),
                        key.get(1),
                        key.get(2),
                        s.of(Phase.BEFORE),
                        s.of(Phase.AFTER),
                        s.of(Phase.CALIBRATION),
                        ctl));
            }
        });
        return comparisons;
    }

    /** Per named benchmark and test, over the hosts that ran it on both sides. */
    public List<FleetComparison> fleet(Collection<BenchRun> runs) {
        return fleetOf(perHost(runs));
    }

    /**
     * Per named benchmark and test, over these hosts' comparisons: the fleet verdict of runs whose per-host comparisons
     * were made apart (the shards of one change, put together by {@code fleetfix report merge}).
     */
    public List<FleetComparison> fleetOf(Collection<TestComparison> comparisons) {
        Map<List<String>, List<TestComparison>> byTest = new LinkedHashMap<>();
        for (TestComparison c : comparisons) {
            byTest.computeIfAbsent(List.of(c.name(), c.test()), k -> new ArrayList<>())
                    .add(c);
        }
        List<FleetComparison> fleet = new ArrayList<>();
        byTest.forEach((key, hosts) -> fleet.add(
                FleetVerdict.of(key.get(0), key.get(1), hosts, thresholds.relativeNoise(), thresholds.alpha())));
        return fleet;
    }

    public TestComparison compare(
            String host, String name, String test, List<BenchResult> before, List<BenchResult> after) {
        return compare(host, name, test, before, after, List.of());
    }

    public TestComparison compare(
            String host,
            String name,
            String test,
            List<BenchResult> before,
            List<BenchResult> after,
            List<BenchResult> calibration) {
        return compare(host, name, test, before, after, calibration, Controls.NONE);
    }

    /**
     * @param calibration the before side measured a second time; when present, its difference from
     *     the first before side raises each figure's effect floor
     * @param controls when present, each figure's change is divided by the controls' change over the
     *     same two moments (difference in differences)
     */
    public TestComparison compare(
            String host,
            String name,
            String test,
            List<BenchResult> before,
            List<BenchResult> after,
            List<BenchResult> calibration,
            Controls controls) {
        Map<Metric, Double> floors = new EnumMap<>(Metric.class);
        List<MetricComparison> aa =
                calibration.isEmpty() ? List.of() : metrics(before, calibration, Map.of(), Controls.NONE);
        for (MetricComparison m : aa) {
            if (Double.isFinite(m.ratio())) {
                floors.put(m.metric(), Math.max(thresholds.floor(m.metric(), controls), Math.abs(m.ratio() - 1)));
            }
        }
        Optional<String> errors = ComparisonWords.errorRounds(before, after, calibration, controls);
        List<MetricComparison> metrics = errors.map(e -> metrics(before, after, floors, controls).stream()
                        .map(m -> m.notDecisiveBecause("rounds with error replies enter no verdict (" + e + ")"))
                        .toList())
                .orElseGet(() -> metrics(before, after, floors, controls));
        Verdict verdict = Verdict.combine(metrics.stream()
                .filter(MetricComparison::decisive)
                .map(MetricComparison::verdict)
                .toList());
        String design = ComparisonWords.design(thresholds, calibration, controls);
        List<String> notes = ComparisonWords.notes(before, after, calibration, controls, metrics);
        boolean saturated = ComparisonWords.saturated("before", before).isPresent()
                || ComparisonWords.saturated("after", after).isPresent()
                || ComparisonWords.saturated("calibration", calibration).isPresent();
        Optional<String> reason = verdict == Verdict.INCONCLUSIVE
                ? Optional.of(errors.map(e -> "rounds with error replies (" + e + ")")
                        .orElseGet(() -> ComparisonWords.reason(metrics, saturated)))
                : Optional.empty();
        if (errors.isPresent()) {
            notes = ComparisonWords.withFirst(
                    "verdict withheld: " + errors.get() + "; a round with error replies enters no verdict (its rps"
                            + " counts the errors as requests), so this is no finding; find what Redis"
                            + " refused (OOM at maxmemory, READONLY) and measure again",
                    notes);
        }
        return new TestComparison(
                host, name, test, before.size(), after.size(), metrics, verdict, design, aa, notes, reason);
    }

    private List<MetricComparison> metrics(
            List<BenchResult> before, List<BenchResult> after, Map<Metric, Double> floors, Controls controls) {
        List<MetricComparison> metrics = new ArrayList<>();
        for (Metric metric : Metric.values()) {
            List<Double> b = FigureSamples.values(metric, before);
            List<Double> a = FigureSamples.values(metric, after);
            boolean controlled = controls.present()
                    && FigureSamples.values(metric, controls.before()).size()
                            == controls.before().size()
                    && FigureSamples.values(metric, controls.after()).size()
                            == controls.after().size();
            if (b.size() == before.size() && a.size() == after.size()) {
                metrics.add(FigureSamples.measure(
                        new FigureSamples.Sides(metric, before, after, b, a),
                        floors.getOrDefault(metric, thresholds.floor(metric, controlled ? controls : Controls.NONE)),
                        controlled ? controls : Controls.NONE,
                        thresholds.level()));
            }
        }
        new FigureJudge(thresholds).judgeAll(metrics, before, after, controls);
        return metrics;
    }
}
