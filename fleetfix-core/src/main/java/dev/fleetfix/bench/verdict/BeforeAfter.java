package dev.fleetfix.bench.verdict;

import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.ClientCpu;
import dev.fleetfix.bench.Metric;
import dev.fleetfix.bench.Phase;
import dev.fleetfix.bench.WindowSample;
import dev.fleetfix.bench.plan.BenchRun;
import dev.fleetfix.bench.verdict.stats.DifferenceInDifferences;
import dev.fleetfix.bench.verdict.stats.Holm;
import dev.fleetfix.bench.verdict.stats.Median;
import dev.fleetfix.bench.verdict.stats.RankTest;
import dev.fleetfix.bench.verdict.stats.RatioInterval;
import dev.fleetfix.bench.verdict.stats.RoundTest;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Compares before and after runs of the same name, per host and for the fleet.
 *
 * <p>Per host, each figure is judged on samples (one per window of every round, see {@link
 * WindowSample}; one per round when the engine has no windows). A figure changed only when all of
 * these hold:
 *
 * <ul>
 *   <li>the Mann–Whitney rank test of the two sides, widened by the design effect of windows
 *       clustered in rounds ({@link RankTest#clustered}) and Holm-corrected over the decisive
 *       figures of the test, is below {@code alpha}: so the chance that any figure of an unchanged
 *       host is called changed is at most {@code alpha}; and so is Student's t-test on the
 *       rounds' log medians ({@link RoundTest}), the round being the unit that is truly
 *       independent (the larger p-value of the two is the one used);
 *   <li>the bootstrap interval of the ratio (rounds resampled, then windows) excludes 1, which
 *       widens when the rounds of a side disagree with each other;
 *   <li>the change is at least the effect floor: {@code relativeNoise} when drift between the sides is
 *       taken out (control hosts) or cannot arise (sides measured in alternating rounds, {@link
 *       #INTERLEAVED}); otherwise {@code driftFloor}, and {@code tailDriftFloor} for the 99th
 *       percentile and above ({@link Metric#tail()}), since two moments minutes apart differ by more
 *       than their rounds show (see {@link #DEFAULT}); and the A/A difference of a calibration when
 *       that is larger. A real but tiny change is no reason to act;
 *   <li>without control hosts, this machine's own load did not drift between the sides in the
 *       direction that would cause the change ({@link MachineDrift}): such a change is shown with
 *       the reason it is withheld, never called.
 * </ul>
 *
 * <p>The maximum, and any percentile that a window holds too few requests above, are shown but
 * never decide. Nor does any figure of a test one of whose rounds (either side, calibration or
 * control) had error replies: its rps counted them as requests, and its latencies are of errors. For the fleet see {@link FleetVerdict}.
 *
 * @param relativeNoise the effect floor where nothing drifts between the sides, 0.05 for 5 %
 * @param driftFloor the effect floor of sides measured at two moments with no control host: the
 *     drift between two moments that their own rounds cannot show
 * @param tailDriftFloor the same for the 99th percentile and above, which drift more
 * @param alpha family-wise error rate per host comparison
 * @param level coverage of the intervals shown
 */
public record BeforeAfter(double relativeNoise, double driftFloor, double tailDriftFloor, double alpha, double level) {

    /**
     * Before and after at two moments. A change is called only when its whole interval lies beyond the floor (a
     * change whose point passes it but whose interval reaches back into it is inconclusive: no control), since the
     * drift between two moments is not in the interval. Their rounds agree with each other more than with the other
     * side's: on the lab, A/A pairs seconds apart and a mildly throttled Redis got verdicts with a 5 % floor. Tests
     * over the rounds cannot see drift that is shared by the rounds of a side, so without control hosts a change
     * must pass 20 %; a THP fork penalty on an old kernel is many times that, and a halved CPU quota still passes
     * it. The 99th percentile drifts more between two moments than throughput does, and gave a false "regressed" at
     * 20 %; so from p99 up the floor is 50 %, the same number of standard deviations of that drift that 20 % is of
     * throughput's. The measurements, with their dates:
     * docs/benchmarks-and-verdicts.md#measurements-behind-the-defaults.
     */
    public static final BeforeAfter DEFAULT = new BeforeAfter(0.05, 0.20, 0.50, 0.01, 0.95);

    /** Sides measured in alternating rounds (a sweep, the THP demo): drift falls on both alike. */
    public static final BeforeAfter INTERLEAVED = new BeforeAfter(0.05, 0.05, 0.05, 0.01, 0.95);

    /** One effect floor for every figure and design. */
    public BeforeAfter(double relativeNoise, double alpha, double level) {
        this(relativeNoise, relativeNoise, relativeNoise, alpha, level);
    }

    /** A percentile needs at least this many requests above it in every window to be decisive. */
    static final int MIN_TAIL_REQUESTS = 10;

    static final String WINDOW = "window";
    static final String SATURATED = "this machine's CPU was saturated";
    static final String ROUND = "round";
    private static final long SEED = 0x5eed_f1ee7L;

    public BeforeAfter {
        if (!(relativeNoise >= 0 && relativeNoise < 1)) {
            throw new IllegalArgumentException("relativeNoise must be in [0, 1), was " + relativeNoise);
        }
        if (!(driftFloor >= relativeNoise && driftFloor < 1)) {
            throw new IllegalArgumentException("driftFloor must be in [relativeNoise, 1), was " + driftFloor);
        }
        if (!(tailDriftFloor >= driftFloor && tailDriftFloor < 1)) {
            throw new IllegalArgumentException("tailDriftFloor must be in [driftFloor, 1), was " + tailDriftFloor);
        }
        if (!(alpha > 0 && alpha < 1)) {
            throw new IllegalArgumentException("alpha must be in (0, 1), was " + alpha);
        }
        if (!(level > 0 && level < 1)) {
            throw new IllegalArgumentException("level must be in (0, 1), was " + level);
        }
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
        byTest.forEach((key, hosts) -> fleet.add(FleetVerdict.of(key.get(0), key.get(1), hosts, relativeNoise)));
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
     * Unchanged hosts measured beside each side of the changed one, round by round in turn.
     *
     * @param hosts their names
     * @param before their rounds at the moment of the before side
     * @param after their rounds at the moment of the after side
     */
    public record Controls(List<String> hosts, List<BenchResult> before, List<BenchResult> after) {
        public static final Controls NONE = new Controls(List.of(), List.of(), List.of());

        public Controls {
            hosts = List.copyOf(hosts);
            before = List.copyOf(before);
            after = List.copyOf(after);
        }

        boolean present() {
            return !before.isEmpty() && !after.isEmpty();
        }
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
                floors.put(m.metric(), Math.max(floor(m.metric(), controls), Math.abs(m.ratio() - 1)));
            }
        }
        Optional<String> errors = errorRounds(before, after, calibration, controls);
        List<MetricComparison> metrics = errors.map(e -> metrics(before, after, floors, controls).stream()
                        .map(m -> m.notDecisiveBecause("rounds with error replies enter no verdict (" + e + ")"))
                        .toList())
                .orElseGet(() -> metrics(before, after, floors, controls));
        Verdict verdict = Verdict.combine(metrics.stream()
                .filter(MetricComparison::decisive)
                .map(MetricComparison::verdict)
                .toList());
        String design = design(calibration, controls);
        List<String> notes = notes(before, after, calibration, controls, metrics);
        boolean saturated = saturated("before", before).isPresent()
                || saturated("after", after).isPresent()
                || saturated("calibration", calibration).isPresent();
        Optional<String> reason = verdict == Verdict.INCONCLUSIVE
                ? Optional.of(errors.map(e -> "rounds with error replies (" + e + ")")
                        .orElseGet(() -> reason(metrics, saturated)))
                : Optional.empty();
        if (errors.isPresent()) {
            notes = withFirst(
                    "verdict withheld: " + errors.get() + "; a round with error replies enters no verdict (its rps"
                            + " counts the errors as requests), so this is no finding; find what Redis"
                            + " refused (OOM at maxmemory, READONLY) and measure again",
                    notes);
        }
        return new TestComparison(
                host, name, test, before.size(), after.size(), metrics, verdict, design, aa, notes, reason);
    }

    /**
     * Why a test is inconclusive, short enough for a badge: the head of each inconclusive figure's reason (the
     * part before its details in brackets), each once, and a saturated client; or, when no figure can decide,
     * why not.
     */
    static String reason(List<MetricComparison> metrics, boolean saturated) {
        java.util.Set<String> heads = new java.util.LinkedHashSet<>();
        List<MetricComparison> decisive =
                metrics.stream().filter(MetricComparison::decisive).toList();
        if (decisive.isEmpty()) {
            heads.add("no figure can decide: "
                    + metrics.stream()
                            .flatMap(m -> m.notDecisive().stream())
                            .findFirst()
                            .orElse("no figure was measured on both sides"));
        }
        for (MetricComparison m : decisive) {
            m.reason().ifPresent(r -> {
                for (String part : r.split("; ")) {
                    int details = part.indexOf(" (");
                    heads.add(details < 0 ? part : part.substring(0, details));
                }
            });
        }
        if (saturated) {
            heads.add(SATURATED);
        }
        return String.join("; ", heads);
    }

    private static List<String> withFirst(String first, List<String> rest) {
        List<String> all = new ArrayList<>();
        all.add(first);
        all.addAll(rest);
        return all;
    }

    /** "after round 2: 69,951 error replies of 70,120 requests", for every round that had any; empty when none. */
    static Optional<String> errorRounds(
            List<BenchResult> before, List<BenchResult> after, List<BenchResult> calibration, Controls controls) {
        List<String> rounds = new ArrayList<>();
        errorRounds("before", before, rounds);
        errorRounds("after", after, rounds);
        errorRounds("calibration", calibration, rounds);
        errorRounds("control before", controls.before(), rounds);
        errorRounds("control after", controls.after(), rounds);
        return rounds.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", rounds));
    }

    private static void errorRounds(String side, List<BenchResult> results, List<String> out) {
        for (int i = 0; i < results.size(); i++) {
            BenchResult r = results.get(i);
            if (r.errors() > 0) {
                out.add(String.format(
                        java.util.Locale.ROOT,
                        "%s round %d: %,d error %s%s",
                        side,
                        i + 1,
                        r.errors(),
                        r.errors() == 1 ? "reply" : "replies",
                        r.requests().isPresent()
                                ? String.format(
                                        java.util.Locale.ROOT,
                                        " of %,d requests",
                                        r.requests().getAsLong())
                                : ""));
            }
        }
    }

    /** A figure's effect floor before any calibration raises it: by design, and for tails. */
    private double floor(Metric metric, Controls controls) {
        if (controls.present()) {
            return relativeNoise;
        }
        return metric.tail() ? tailDriftFloor : driftFloor;
    }

    private String design(List<BenchResult> calibration, Controls controls) {
        String cal = calibration.isEmpty()
                ? ""
                : " with an A/A calibration (before measured twice; its difference is the noise floor)";
        if (controls.present()) {
            return "difference in differences" + cal + ": control host"
                    + (controls.hosts().size() == 1 ? " " : "s ")
                    + String.join(", ", controls.hosts())
                    + " (a later batch, not yet changed) measured round by round beside each side; the host's change is"
                    + " divided by theirs, and the before figure shown is corrected by their drift";
        }
        return "before/after" + cal
                + "; no control host (none asked for with controls: N, or none left in a later batch),"
                + " so drift between the two sides is not separated from the change"
                + (driftFloor > relativeNoise || tailDriftFloor > relativeNoise
                        ? String.format(
                                java.util.Locale.ROOT,
                                " and a change is called only when its whole interval lies beyond %.0f %% (%s%.0f %%"
                                        + " with controls)",
                                driftFloor * 100,
                                tailDriftFloor > driftFloor
                                        ? String.format(
                                                java.util.Locale.ROOT, "%.0f %% from p99 up; ", tailDriftFloor * 100)
                                        : "",
                                relativeNoise * 100)
                        : "");
    }

    private static List<String> notes(
            List<BenchResult> before,
            List<BenchResult> after,
            List<BenchResult> cal,
            Controls controls,
            List<MetricComparison> metrics) {
        List<String> notes = new ArrayList<>();
        if (controls.present()) {
            List<String> drift = new ArrayList<>();
            for (MetricComparison m : metrics) {
                if (m.metric() == Metric.RPS || m.metric() == Metric.P99) {
                    double d = m.beforeSampleMedian() / m.uncorrectedBeforeMedian();
                    drift.add(String.format(
                            java.util.Locale.ROOT, "%s %+.1f %%", m.metric().label(), (d - 1) * 100));
                }
            }
            notes.add("the control hosts drifted " + String.join(", ", drift)
                    + " between the two sides; that drift is taken out of the change");
        }
        if (!controls.present()) {
            MachineDrift.of(before, after)
                    .filter(MachineDrift::large)
                    .ifPresent(d -> notes.add(d.describe() + ": a change this drift alone would cause is not called"
                            + " (a latency change either way, a throughput change in the drift's direction; a"
                            + " throughput change against it still is)"));
        }
        saturated("before", before).ifPresent(notes::add);
        saturated("calibration", cal).ifPresent(notes::add);
        saturated("after", after).ifPresent(notes::add);
        if (!hasWindows(before) || !hasWindows(after)) {
            notes.add("one sample per round (the engine reports no windows): with few rounds no figure can decide;"
                    + " use the builtin engine or more rounds");
        }
        return notes;
    }

    private static Optional<String> saturated(String side, List<BenchResult> results) {
        List<String> rounds = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            Optional<ClientCpu> cpu = results.get(i).clientCpu();
            if (cpu.isPresent() && cpu.get().saturated()) {
                rounds.add(String.valueOf(i + 1));
            }
        }
        if (rounds.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("this machine's CPU was saturated during " + side + " round " + String.join(", ", rounds)
                + ": its latencies include the load generator's own queueing");
    }

    private List<MetricComparison> metrics(
            List<BenchResult> before, List<BenchResult> after, Map<Metric, Double> floors, Controls controls) {
        List<MetricComparison> metrics = new ArrayList<>();
        for (Metric metric : Metric.values()) {
            List<Double> b = values(metric, before);
            List<Double> a = values(metric, after);
            boolean controlled = controls.present()
                    && values(metric, controls.before()).size()
                            == controls.before().size()
                    && values(metric, controls.after()).size()
                            == controls.after().size();
            if (b.size() == before.size() && a.size() == after.size()) {
                metrics.add(compare(
                        metric,
                        before,
                        after,
                        b,
                        a,
                        floors.getOrDefault(metric, floor(metric, controlled ? controls : Controls.NONE)),
                        controlled ? controls : Controls.NONE));
            }
        }
        List<Integer> decisive = new ArrayList<>();
        for (int i = 0; i < metrics.size(); i++) {
            if (metrics.get(i).decisive()) {
                decisive.add(i);
            }
        }
        double[] adjusted = Holm.adjust(
                decisive.stream().mapToDouble(i -> metrics.get(i).p()).toArray());
        Optional<MachineDrift> drift = controls.present() ? Optional.empty() : MachineDrift.of(before, after);
        for (int k = 0; k < decisive.size(); k++) {
            MetricComparison m = metrics.get(decisive.get(k));
            Verdict v = judge(m, adjusted[k]);
            Optional<String> withheld = Optional.empty();
            Optional<String> reason = Optional.empty();
            if (v.called() && drift.isPresent() && drift.get().explains(m.metric(), m.ratio())) {
                withheld = Optional.of("would be " + (v == Verdict.REGRESSED ? "regressed" : "improved")
                        + ", but " + drift.get().describe() + ", which alone can move it this way;"
                        + " measure again in a quieter moment, or with controls: N");
                v = Verdict.INCONCLUSIVE;
                reason = Optional.of(
                        "this machine's own load drifted (" + drift.get().describe() + ")");
            } else if (v.called() && !controls.present() && driftFloor > relativeNoise && !clearsFloor(m)) {
                v = Verdict.INCONCLUSIVE;
                reason = Optional.of(String.format(
                        java.util.Locale.ROOT,
                        "no control (the interval reaches into the ±%.0f %% two moments drift apart on their own;"
                                + " controls: N would take that drift out)",
                        m.floor() * 100));
            } else if (v == Verdict.INCONCLUSIVE) {
                reason = Optional.of(whyInconclusive(
                        m, adjusted[k], decisive.size(), Math.min(before.size(), after.size()), controls.present()));
            }
            metrics.set(decisive.get(k), m.withAdjusted(adjusted[k], v, withheld, reason));
        }
        return metrics;
    }

    /**
     * Improved or regressed when the rule calls it; no change detected when the interval lies within the effect
     * floor (a change of the size that matters is ruled out); inconclusive otherwise.
     */
    private Verdict judge(MetricComparison m, double adjustedP) {
        boolean excludesOne = m.low() > 1 || m.high() < 1;
        if (adjustedP < alpha && excludesOne && Math.abs(m.ratio() - 1) >= m.floor()) {
            boolean better = m.metric().higherIsBetter() ? m.ratio() > 1 : m.ratio() < 1;
            return better ? Verdict.IMPROVED : Verdict.REGRESSED;
        }
        if (m.low() >= 1 - m.floor() && m.high() <= 1 + m.floor()) {
            return Verdict.NO_CHANGE_DETECTED;
        }
        return Verdict.INCONCLUSIVE;
    }

    /**
     * Whether the whole interval lies beyond the floor: between two moments without control hosts, a change is
     * called only when even its interval's nearest end is larger than the drift the floor allows for.
     */
    private static boolean clearsFloor(MetricComparison m) {
        return m.low() >= 1 + m.floor() || m.high() <= 1 - m.floor();
    }

    /**
     * "not significant after correction (p 0.029 after Holm over 5 figures, level 0.01)", and when no change
     * however large could pass with this design, that too and what would.
     */
    private String whyInconclusive(MetricComparison m, double adjustedP, int figures, int rounds, boolean controlled) {
        boolean excludesOne = m.low() > 1 || m.high() < 1;
        boolean pastFloor = Math.abs(m.ratio() - 1) >= m.floor();
        String floor = String.format(java.util.Locale.ROOT, "±%.0f %%", m.floor() * 100);
        String why;
        if (excludesOne && pastFloor) {
            why = String.format(
                    java.util.Locale.ROOT,
                    "not significant after correction (p %.2g after Holm over %d figures, level %s)",
                    adjustedP,
                    figures,
                    level(alpha));
        } else if (!excludesOne) {
            why = "interval too wide (it includes no change but reaches past the " + floor + " effect floor)";
        } else {
            why = "interval too wide (a change below the " + floor + " effect floor, but its interval reaches past"
                    + " it)";
        }
        return why
                + designLimit(m, figures, rounds, controlled).map(d -> "; " + d).orElse("");
    }

    private static String level(double alpha) {
        return new java.math.BigDecimal(alpha)
                .round(new java.math.MathContext(2))
                .stripTrailingZeros()
                .toPlainString();
    }

    /**
     * "3 rounds a side cannot reach the level (…): 6 would, or controls: N": when even two sides that do not overlap
     * at all would give the rank test a p too large for Holm's first step, with the rounds differing as much as
     * they did.
     */
    private Optional<String> designLimit(MetricComparison m, int figures, int rounds, boolean controlled) {
        if (controlled || !WINDOW.equals(m.sampleUnit()) || rounds < 1 || !(m.designEffect() >= 1)) {
            return Optional.empty();
        }
        double needed = alpha / figures;
        double smallest = RankTest.smallestP(m.beforeSamples(), m.afterSamples(), m.designEffect());
        if (smallest < needed) {
            return Optional.empty();
        }
        int windows = Math.max(1, Math.min(m.beforeSamples(), m.afterSamples()) / rounds);
        String more = "no number of rounds up to 50 would; controls: N would take the drift out instead";
        for (int r = rounds + 1; r <= 50; r++) {
            if (RankTest.smallestP(r * windows, r * windows, m.designEffect()) < needed) {
                more = r + " rounds a side would, or controls: N";
                break;
            }
        }
        return Optional.of(String.format(
                java.util.Locale.ROOT,
                "%d rounds a side cannot reach the level (rounds this different give p %.2g at the very least,"
                        + " Holm's first step needs below %.2g): %s",
                rounds,
                smallest,
                needed,
                more));
    }

    private MetricComparison compare(
            Metric metric,
            List<BenchResult> before,
            List<BenchResult> after,
            List<Double> beforeRounds,
            List<Double> afterRounds,
            double floor,
            Controls controls) {
        boolean windows = hasWindows(before)
                && hasWindows(after)
                && (!controls.present() || (hasWindows(controls.before()) && hasWindows(controls.after())));
        List<double[]> bs = windows ? windowValues(metric, before) : perRound(beforeRounds);
        List<double[]> as = windows ? windowValues(metric, after) : perRound(afterRounds);
        double[] bAll = bs.stream().flatMapToDouble(java.util.Arrays::stream).toArray();
        double[] aAll = as.stream().flatMapToDouble(java.util.Arrays::stream).toArray();
        Optional<String> notDecisive = whyNotDecisive(metric, windows, before, after, bAll.length, aAll.length);
        RatioInterval.Result interval;
        double p;
        double drift = 1;
        double designEffect = Double.NaN;
        if (controls.present()) {
            List<double[]> cbs =
                    windows ? windowValues(metric, controls.before()) : perRound(values(metric, controls.before()));
            List<double[]> cas =
                    windows ? windowValues(metric, controls.after()) : perRound(values(metric, controls.after()));
            DifferenceInDifferences.Result did =
                    DifferenceInDifferences.of(bs, as, cbs, cas, level, SEED + metric.ordinal());
            interval = new RatioInterval.Result(did.ratio(), did.low(), did.high());
            drift = did.controlRatio();
            if (notDecisive.isEmpty()
                    && Math.min(controls.before().size(), controls.after().size()) < 2) {
                notDecisive = Optional.of(
                        "one control round on a side: how much the controls' rounds differ is" + " unknown");
            }
            p = notDecisive.isPresent() ? Double.NaN : did.p();
        } else {
            interval = RatioInterval.of(bs, as, level, SEED + metric.ordinal());
            // the larger of two p-values: the rank test over windows sees small changes, the t-test
            // over rounds stays valid when rounds drift more than the windows let the first estimate
            RankTest.Clustered rank = RankTest.clustered(bs, as);
            designEffect = rank.designEffect();
            p = notDecisive.isPresent() ? Double.NaN : Math.max(rank.result().p(), windows ? RoundTest.p(bs, as) : 0);
        }
        return new MetricComparison(
                metric,
                beforeRounds,
                afterRounds,
                Median.of(beforeRounds),
                Median.of(afterRounds),
                spread(beforeRounds),
                spread(afterRounds),
                interval.ratio(),
                Verdict.INCONCLUSIVE,
                windows ? WINDOW : ROUND,
                bAll.length,
                aAll.length,
                interval.low(),
                interval.high(),
                p,
                Double.NaN,
                floor,
                notDecisive,
                // with controls, the before figure the change is over is the host's before times
                // the controls' drift: what the host would show at the after moment unchanged
                Median.of(bAll) * drift,
                Median.of(aAll),
                Median.of(bAll),
                Optional.empty(),
                // replaced by the verdict's own reason once the figures are judged together
                Optional.of(notDecisive.orElse("not yet judged")),
                designEffect);
    }

    private static Optional<String> whyNotDecisive(
            Metric metric, boolean windows, List<BenchResult> before, List<BenchResult> after, int nb, int na) {
        if (metric == Metric.MAX) {
            return Optional.of("the maximum is a single request");
        }
        if (Math.min(nb, na) < RankTest.MIN_PER_SIDE) {
            return Optional.of("only " + nb + " vs " + na + " " + (windows ? WINDOW : ROUND) + "s; "
                    + RankTest.MIN_PER_SIDE + " per side are the least a rank test can judge");
        }
        if (windows && Math.min(before.size(), after.size()) < 2) {
            return Optional.of("one round on a side: how much rounds differ from each other is unknown");
        }
        if (metric == Metric.RPS) {
            return Optional.empty();
        }
        long fewest = Long.MAX_VALUE;
        List<BenchResult> all = new ArrayList<>(before);
        all.addAll(after);
        for (BenchResult r : all) {
            if (windows) {
                for (WindowSample w : r.windows()) {
                    fewest = Math.min(fewest, w.requests());
                }
            } else if (r.requests().isPresent()) {
                fewest = Math.min(fewest, r.requests().getAsLong());
            }
        }
        if (fewest != Long.MAX_VALUE && fewest * metric.tailShare() < MIN_TAIL_REQUESTS) {
            long needed = (long) Math.ceil(MIN_TAIL_REQUESTS / metric.tailShare());
            return Optional.of(String.format(
                    java.util.Locale.ROOT,
                    "a %s holds as few as %,d requests; %s needs %,d to rest on %d requests above it",
                    windows ? WINDOW : ROUND,
                    fewest,
                    metric.label(),
                    needed,
                    MIN_TAIL_REQUESTS));
        }
        return Optional.empty();
    }

    static boolean hasWindows(List<BenchResult> results) {
        return !results.isEmpty() && results.stream().allMatch(r -> r.windows().size() >= 2);
    }

    private static List<double[]> windowValues(Metric metric, List<BenchResult> results) {
        return results.stream()
                .map(r -> r.windows().stream().mapToDouble(metric::valueOf).toArray())
                .toList();
    }

    private static List<double[]> perRound(List<Double> values) {
        return values.stream().map(v -> new double[] {v}).toList();
    }

    private static List<Double> values(Metric metric, List<BenchResult> results) {
        List<Double> values = new ArrayList<>();
        for (BenchResult r : results) {
            OptionalDouble v = metric.valueOf(r);
            v.ifPresent(values::add);
        }
        return values;
    }

    static double spread(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).max().orElse(0)
                - values.stream().mapToDouble(Double::doubleValue).min().orElse(0);
    }
}
