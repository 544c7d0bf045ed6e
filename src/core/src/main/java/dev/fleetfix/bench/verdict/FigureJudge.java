package dev.fleetfix.bench.verdict;

import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.verdict.stats.Holm;
import dev.fleetfix.bench.verdict.stats.RankTest;
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
            } else if (v.called() && !controls.present() && t.widensWithoutControls() && !clearsFloor(m)) {
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
    }

    /**
     * Improved or regressed when the rule calls it; no change detected when the interval lies within the effect
     * floor (a change of the size that matters is ruled out); inconclusive otherwise.
     */
    private Verdict judge(MetricComparison m, double adjustedP) {
        boolean excludesOne = m.low() > 1 || m.high() < 1;
        if (adjustedP < t.alpha() && excludesOne && Math.abs(m.ratio() - 1) >= m.floor()) {
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
                    level(t.alpha()));
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
        if (controlled || !FigureSamples.WINDOW.equals(m.sampleUnit()) || rounds < 1 || !(m.designEffect() >= 1)) {
            return Optional.empty();
        }
        double needed = t.alpha() / figures;
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
}
