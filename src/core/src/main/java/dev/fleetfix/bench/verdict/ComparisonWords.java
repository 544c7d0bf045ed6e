package dev.fleetfix.bench.verdict;

import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.ClientCpu;
import dev.fleetfix.bench.Metric;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The words of a before/after comparison that are not figures: the design it used, the notes beside it (control
 * drift, this machine's drift, a saturated client, rounds without windows), the rounds with error replies, and why a
 * test is inconclusive.
 */
final class ComparisonWords {
    static final String SATURATED = "this machine's CPU was saturated";

    private ComparisonWords() {}

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

    static List<String> withFirst(String first, List<String> rest) {
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

    static String design(Thresholds t, List<BenchResult> calibration, Controls controls) {
        double driftFloor = t.driftFloor();
        double tailDriftFloor = t.tailDriftFloor();
        double relativeNoise = t.relativeNoise();
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
                + String.format(
                        java.util.Locale.ROOT,
                        "; batches of windows (%d a round), exact rank tests: a change is called when it lies beyond"
                                + " %.0f %%%s at level %s after Holm, no change detected when every figure lies within"
                                + " it at level %s",
                        BatchTest.PER_ROUND,
                        driftFloor * 100,
                        tailDriftFloor > driftFloor
                                ? String.format(java.util.Locale.ROOT, " (%.0f %% from p99 up)", tailDriftFloor * 100)
                                : "",
                        plain(t.alpha()),
                        plain(Thresholds.EQUIVALENCE_ALPHA))
                + (driftFloor > relativeNoise
                        ? String.format(java.util.Locale.ROOT, " (%.0f %% with controls)", relativeNoise * 100)
                        : "");
    }

    private static String plain(double v) {
        return new java.math.BigDecimal(v)
                .round(new java.math.MathContext(2))
                .stripTrailingZeros()
                .toPlainString();
    }

    static List<String> notes(
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
                            + " (a latency change either way, a throughput change in the drift's direction up to"
                            + " what the drift can make; a throughput change against it, or beyond that, still is)"));
        }
        saturated("before", before).ifPresent(notes::add);
        saturated("calibration", cal).ifPresent(notes::add);
        saturated("after", after).ifPresent(notes::add);
        if (!FigureSamples.hasWindows(before) || !FigureSamples.hasWindows(after)) {
            notes.add("one sample per round (the engine reports no windows): with few rounds no figure can decide;"
                    + " use the builtin engine or more rounds");
        }
        return notes;
    }

    static Optional<String> saturated(String side, List<BenchResult> results) {
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
}
