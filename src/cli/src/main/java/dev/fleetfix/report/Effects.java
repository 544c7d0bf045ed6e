package dev.fleetfix.report;

import dev.fleetfix.checks.ThpEra;
import dev.fleetfix.checks.ThpFacts;
import dev.fleetfix.report.model.FleetEffectReport;
import dev.fleetfix.report.model.HostReport;
import dev.fleetfix.report.model.MetricReport;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** How a before/after change is written: {@code p99 −38 % [−45 %, −30 %]}, the way a reader acts on it. */
public final class Effects {
    private Effects() {}

    /**
     * Whether a line that shows only some figures ({@code usual}) must show this one too: a figure
     * that decided a verdict, or was withheld from one, is always shown, so that a "regressed"
     * never stands beside figures that all improved.
     */
    public static boolean shown(MetricReport m, java.util.Collection<String> usual) {
        return usual.contains(m.metric()) || VerdictText.called(m.verdict()) || m.withheld() != null;
    }

    /** The change of the figure's median with its interval, and "(not decisive)" when it cannot decide. */
    public static String of(MetricReport m) {
        if (m.ratio() == null) {
            return "n/a";
        }
        String interval =
                m.low() != null && m.high() != null ? " [" + percent(m.low()) + ", " + percent(m.high()) + "]" : "";
        return percent(m.ratio()) + interval + (m.decisive() ? whyNoiseDespiteInterval(m) : " (not decisive)");
    }

    /**
     * Why a figure whose interval leaves out "no change" got no call, or nothing. Without it a line reads "rps −39 %
     * [−62 %, −4 %]" next to an "inconclusive" badge, which looks like a contradiction: the interval is each
     * figure's own 95 %, while the verdict also asks the rank test, corrected for the number of figures (Holm), and
     * the effect floor.
     */
    public static String whyNoiseDespiteInterval(MetricReport m) {
        if (m.withheld() != null && !VerdictText.called(m.verdict())) {
            return " (inconclusive: " + m.withheld() + ")";
        }
        boolean excludesNoChange = m.low() != null && m.high() != null && (m.low() > 1 || m.high() < 1);
        if (!excludesNoChange || VerdictText.called(m.verdict()) || m.ratio() == null) {
            return "";
        }
        if (m.reason() != null) {
            return " (" + VerdictText.of(m.verdict(), m.reason()) + ")";
        }
        // a file of schema version 1: no reason stored
        if (m.floor() != null && Math.abs(m.ratio() - 1) < m.floor()) {
            return String.format(Locale.ROOT, " (within the ±%.0f %% effect floor)", m.floor() * 100);
        }
        if (m.adjustedP() != null && Double.isFinite(m.adjustedP())) {
            return String.format(
                    Locale.ROOT, " (p %.2g after Holm: not significant at the comparison's level)", m.adjustedP());
        }
        return " (not significant at the comparison's level)";
    }

    /**
     * The two figures the change compares, {@code 84,512 → 84,498}: the medians of the samples the
     * ratio is over. A file written before they were stored has only the rounds' medians, which can
     * differ from each other by more than the change; those are labelled so.
     */
    public static String compared(MetricReport m) {
        boolean samples = m.beforeSampleMedian() != null && m.afterSampleMedian() != null;
        double before = samples ? m.beforeSampleMedian() : m.beforeMedian();
        double after = samples ? m.afterSampleMedian() : m.afterMedian();
        String format = m.metric().equals("rps") ? "%,.0f → %,.0f" : "%.2f → %.2f";
        return String.format(Locale.ROOT, format, before, after) + (samples ? "" : " (medians of rounds)");
    }

    public static String of(String metric, FleetEffectReport e) {
        String interval =
                e.low() != null && e.high() != null ? " [" + percent(e.low()) + ", " + percent(e.high()) + "]" : "";
        return metric + " " + percent(e.ratio()) + interval;
    }

    /** A ratio as a signed percentage with a real minus sign: 0.62 → "−38 %". */
    public static String percent(double ratio) {
        double pct = (ratio - 1) * 100;
        long rounded = Math.round(pct);
        if (rounded == 0) {
            return "±0 %";
        }
        return (rounded > 0 ? "+" : "−") + String.format(Locale.ROOT, "%,d", Math.abs(rounded)) + " %";
    }

    /**
     * What a THP benchmark should show on this host, from its audit facts; empty without a kernel fact. A
     * THP file that is not the kernel's comes first: the era then only says what the kernel would do.
     */
    public static Optional<String> expectation(HostReport host) {
        return expectation(host.facts());
    }

    /**
     * Whether a before/after benchmark of turning THP off can show a latency effect on this host: not when its kernel
     * splits huge pages on write after fork (5.8+), nor when Redis keeps itself off THP, nor when THP is not the
     * kernel's (a file over sysfs, as in the lab); empty when unknown.
     */
    public static Optional<Boolean> latencyEffectCanShow(HostReport host) {
        String filesystem = host.facts().get("thp.filesystem");
        if (filesystem != null && !filesystem.equals(ThpFacts.SYSFS)) {
            return Optional.of(false);
        }
        String kernel = host.facts().get("kernel");
        if (kernel == null) {
            return Optional.empty();
        }
        String optOut = host.facts().get("redis.disable_thp");
        Optional<Boolean> disableThp = optOut == null ? Optional.empty() : Optional.of(optOut.equals("yes"));
        return switch (ThpEra.of(kernel, disableThp)) {
            case MEMORY_ONLY, OPTED_OUT -> Optional.of(false);
            case FORK_SPIKES -> Optional.of(true);
            case UNKNOWN_KERNEL -> Optional.empty();
        };
    }

    public static Optional<String> expectation(Map<String, String> facts) {
        String kernel = facts.get("kernel");
        if (kernel == null) {
            return Optional.empty();
        }
        String optOut = facts.get("redis.disable_thp");
        Optional<Boolean> disableThp = optOut == null ? Optional.empty() : Optional.of(optOut.equals("yes"));
        String era = ThpEra.expectation(kernel, disableThp);
        String filesystem = facts.get("thp.filesystem");
        if (filesystem != null && !filesystem.equals(ThpFacts.SYSFS)) {
            return Optional.of("THP here is not the kernel's (not on sysfs: " + filesystem
                    + "): a benchmark cannot show a THP effect; " + era);
        }
        return Optional.of(era);
    }
}
