package dev.fleetfix.bench.verdict;

import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.verdict.stats.Holm;
import dev.fleetfix.bench.verdict.stats.ShiftedRankTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Judges the measured figures of one test together: Holm's correction over the decisive ones, then each figure's
 * verdict against its effect floor, withheld when this machine's own drift could explain it, and why it is
 * inconclusive, down to the number of rounds that would settle it.
 */
final class FigureJudge {
    private final Thresholds t;

    FigureJudge(Thresholds thresholds) {
        this.t = thresholds;
    }

    /** {@code metrics} with their adjusted p-values, verdicts and reasons set, in place. */
    void judgeAll(
            List<MetricComparison> metrics, List<BenchResult> before, List<BenchResult> after, Controls controls) {
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
            } else if (v == Verdict.INCONCLUSIVE) {
                reason = Optional.of(
                        whyInconclusive(m, adjusted[k], decisive.size(), Math.min(before.size(), after.size())));
            }
            metrics.set(decisive.get(k), m.withAdjusted(adjusted[k], v, withheld, reason));
        }
    }

    /**
     * Between two moments ({@link BatchTest}): improved or regressed when the change is beyond the floor at the level
     * after Holm; no change detected when the two one-sided tests put it within the floor. With controls: called when
     * significant after Holm, the interval excludes no change and the change passes the floor; no change detected
     * when the interval lies within the floor. Inconclusive otherwise.
     */
    private Verdict judge(MetricComparison m, double adjustedP) {
        boolean better = m.metric().higherIsBetter() ? m.ratio() > 1 : m.ratio() < 1;
        if (batches(m)) {
            if (adjustedP < t.alpha()) {
                return better ? Verdict.IMPROVED : Verdict.REGRESSED;
            }
            return m.equivalenceP() < Thresholds.EQUIVALENCE_ALPHA ? Verdict.NO_CHANGE_DETECTED : Verdict.INCONCLUSIVE;
        }
        boolean excludesOne = m.low() > 1 || m.high() < 1;
        if (adjustedP < t.alpha() && excludesOne && Math.abs(m.ratio() - 1) >= m.floor()) {
            return better ? Verdict.IMPROVED : Verdict.REGRESSED;
        }
        if (m.low() >= 1 - m.floor() && m.high() <= 1 + m.floor()) {
            return Verdict.NO_CHANGE_DETECTED;
        }
        return Verdict.INCONCLUSIVE;
    }

    private static boolean batches(MetricComparison m) {
        // rounds without windows are one batch each; only controls judge windows (difference in differences)
        return !FigureSamples.WINDOW.equals(m.sampleUnit());
    }

    /**
     * "not significant after correction (p 0.029 after Holm over 5 figures, level 0.01)", and when no change
     * however large could pass with this design, that too and what would.
     */
    private String whyInconclusive(MetricComparison m, double adjustedP, int figures, int rounds) {
        boolean pastFloor = m.ratio() >= 1 + m.floor() || m.ratio() <= 1 - m.floor();
        boolean excludesOne = m.low() > 1 || m.high() < 1;
        String floor = String.format(java.util.Locale.ROOT, "±%.0f %%", m.floor() * 100);
        String why;
        if (batches(m)) {
            why = pastFloor && excludesOne
                    ? significance(adjustedP, figures)
                    : String.format(
                            java.util.Locale.ROOT,
                            "interval too wide (the tests that the change lies within the %s effect floor give p"
                                    + " %.2g, not below %s: a change that matters is not ruled out)",
                            floor,
                            m.equivalenceP(),
                            level(Thresholds.EQUIVALENCE_ALPHA));
            return why + designLimit(m, figures, rounds).map(d -> "; " + d).orElse("");
        }
        if (excludesOne && Math.abs(m.ratio() - 1) >= m.floor()) {
            return significance(adjustedP, figures);
        } else if (!excludesOne) {
            return "interval too wide (it includes no change but reaches past the " + floor + " effect floor)";
        }
        return "interval too wide (a change below the " + floor + " effect floor, but its interval reaches past it)";
    }

    private String significance(double adjustedP, int figures) {
        return String.format(
                java.util.Locale.ROOT,
                "not significant after correction (p %.2g after Holm over %d figures, level %s)",
                adjustedP,
                figures,
                level(t.alpha()));
    }

    private static String level(double alpha) {
        return new java.math.BigDecimal(alpha)
                .round(new java.math.MathContext(2))
                .stripTrailingZeros()
                .toPlainString();
    }

    /**
     * "3 rounds a side cannot reach the level (…): 4 would, or controls: N": when even batches that do not overlap at
     * all would give the exact test a p too large for Holm's first step.
     */
    private Optional<String> designLimit(MetricComparison m, int figures, int rounds) {
        double needed = t.alpha() / figures;
        double smallest = ShiftedRankTest.smallestTwoSided(m.beforeSamples(), m.afterSamples());
        if (smallest < needed || rounds < 1) {
            return Optional.empty();
        }
        int perRound = Math.max(1, Math.min(m.beforeSamples(), m.afterSamples()) / rounds);
        String more = "no number of rounds up to 100 would; controls: N would take the drift out instead";
        for (int r = rounds + 1; r <= 100; r++) {
            if (ShiftedRankTest.smallestTwoSided(r * perRound, r * perRound) < needed) {
                more = r + " rounds a side would, or controls: N";
                break;
            }
        }
        return Optional.of(String.format(
                java.util.Locale.ROOT,
                "%d rounds a side cannot reach the level (%d vs %d samples that do not overlap give p %.2g at the"
                        + " very least, Holm's first step needs below %.2g): %s",
                rounds,
                m.beforeSamples(),
                m.afterSamples(),
                smallest,
                needed,
                more));
    }
}
