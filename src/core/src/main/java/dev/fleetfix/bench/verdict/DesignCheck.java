package dev.fleetfix.bench.verdict;

import dev.fleetfix.bench.verdict.stats.ShiftedRankTest;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Whether a before/after design can give each verdict at all, decided from its shape before anything runs: the
 * smallest p-value its tests can reach, against what the multiplicity correction needs, and whether its "no change
 * detected" can ever be said.
 *
 * <p>The verdict between two moments is {@link BatchTest}'s: exact rank tests over batches of windows (two a round
 * with the builtin engine, one a round with redis-benchmark, which reports no windows). Their smallest p is that of
 * the tests themselves run on batches that do not overlap, so it is exact: {@code 2 / C(2B, B)} for a call with
 * {@code B} batches a side, {@code 1 / C(2B, B)} for each one-sided test of "no change detected".
 *
 * <p>Holm's first step compares the smallest p of a call with {@code alpha} over the decisive figures; at plan time
 * how many figures will be decisive depends on the load (a percentile needs enough requests above it), so the check
 * takes the most there can be ({@link #MOST_FIGURES}): a design that passes it can call a change whatever figures
 * decide. "No change detected" needs each figure's smallest one-sided p below {@link
 * Thresholds#EQUIVALENCE_ALPHA}, with no correction (an intersection-union test).
 */
public final class DesignCheck {
    /** The decisive figures when every percentile has enough requests: rps, p50, p90, p99, p99.9, p99.99. */
    public static final int MOST_FIGURES = 6;

    /** The most rounds a side a suggestion names (the plan builder's own limit). */
    static final int MOST_ROUNDS = 100;

    private DesignCheck() {}

    /** Batches a round with windows ({@link BatchTest#PER_ROUND}), for the plan's design. */
    public static int batchesPerRound() {
        return BatchTest.PER_ROUND;
    }

    /**
     * The shape of a before/after design, or of a sweep's (whose points are its sides, judged in pairs).
     *
     * @param rounds rounds a side (a point, in a sweep)
     * @param batchesPerRound batches each round gives: {@link BatchTest#PER_ROUND} with windows (fewer when a round
     *     has fewer windows), 1 without
     * @param figures the decisive figures Holm corrects over
     * @param alpha the family-wise level of a call: a host's before/after, or a sweep's whole set of comparisons
     * @param equivalenceAlpha the level of "no change detected"
     * @param sweepComparisons how many pairs of points a sweep compares, each at {@code alpha} split over them
     *     ({@link Sweep}); empty for a before/after pair
     */
    public record Design(
            int rounds,
            int batchesPerRound,
            int figures,
            double alpha,
            double equivalenceAlpha,
            OptionalInt sweepComparisons) {
        public Design {
            if (rounds < 1 || batchesPerRound < 1 || figures < 1) {
                throw new IllegalArgumentException("rounds, batches a round and figures must be at least 1, were "
                        + rounds + ", " + batchesPerRound + ", " + figures);
            }
            if (!(alpha > 0 && alpha < 1) || !(equivalenceAlpha > 0 && equivalenceAlpha < 1)) {
                throw new IllegalArgumentException("levels must be in (0, 1), were " + alpha + ", " + equivalenceAlpha);
            }
            if (sweepComparisons.isPresent() && sweepComparisons.getAsInt() < 1) {
                throw new IllegalArgumentException(
                        "a sweep compares at least 1 pair, was " + sweepComparisons.getAsInt());
            }
        }

        /** A before/after pair. */
        public Design(int rounds, int batchesPerRound, int figures, double alpha, double equivalenceAlpha) {
            this(rounds, batchesPerRound, figures, alpha, equivalenceAlpha, OptionalInt.empty());
        }

        /** Batches a side. */
        public int batches() {
            return rounds * batchesPerRound;
        }

        /** The level one comparison's call is judged at: {@code alpha}, split over a sweep's comparisons. */
        public double comparisonAlpha() {
            return alpha / sweepComparisons.orElse(1);
        }

        Design withRounds(int r) {
            return new Design(r, batchesPerRound, figures, alpha, equivalenceAlpha, sweepComparisons);
        }

        private String side() {
            return sweepComparisons.isPresent() ? "a point" : "a side";
        }
    }

    /**
     * What a design can say.
     *
     * @param smallestP the smallest p a call's test can give: batches that do not overlap
     * @param needed Holm's first step: {@code alpha / figures}, alpha split over a sweep's comparisons
     * @param canCall whether {@code smallestP < needed}
     * @param smallestNoChangeP the smallest p of each one-sided test of "no change detected"
     * @param canSayNoChange whether that is below the equivalence level
     * @param roundsThatCould the fewest rounds a side with which both can be said, this shape otherwise; empty when
     *     none up to {@value #MOST_ROUNDS} can
     */
    public record Reach(
            Design design,
            double smallestP,
            double needed,
            boolean canCall,
            double smallestNoChangeP,
            boolean canSayNoChange,
            OptionalInt roundsThatCould) {

        public boolean sound() {
            return canCall && canSayNoChange;
        }

        /**
         * Why this design is refused, in the words of a playbook or an option ("rounds: 3 rounds a side of 2
         * batches cannot call any change: ...; 4 rounds a side could"); empty when it can say every verdict.
         */
        public Optional<String> problem(String roundsField) {
            if (sound()) {
                return Optional.empty();
            }
            String fix = roundsThatCould.stream()
                    .mapToObj(r -> r + " rounds " + design.side() + " could")
                    .findFirst()
                    .orElse("no number of rounds up to " + MOST_ROUNDS + " could"
                            + (design.sweepComparisons().isPresent()
                                    ? "; fewer points split the level less"
                                    : "; controls: N measure drift another way"));
            return Optional.of(String.format(
                    Locale.ROOT,
                    "%s: %d %s %s (%d %s) %s; %s",
                    roundsField,
                    design.rounds(),
                    design.rounds() == 1 ? "round" : "rounds",
                    design.side(),
                    design.batches(),
                    design.batches() == 1 ? "batch" : "batches",
                    String.join(", and ", why()),
                    fix));
        }

        /** What this design cannot say, each as a clause. */
        private List<String> why() {
            List<String> why = new java.util.ArrayList<>();
            if (design.batches() < FigureSamples.MIN_SAMPLES) {
                why.add(String.format(
                        Locale.ROOT,
                        "cannot decide any figure: %d batches %s are the fewest the exact rank test judges",
                        FigureSamples.MIN_SAMPLES,
                        design.side()));
                return why;
            }
            if (!canCall) {
                why.add(String.format(
                        Locale.ROOT,
                        "cannot call any change: batches that do not overlap give the exact rank test p %s at"
                                + " the very least, and Holm over up to %d figures at level %s%s needs below %s",
                        p(smallestP),
                        design.figures(),
                        p(design.alpha()),
                        design.sweepComparisons().stream()
                                .mapToObj(n -> " split over " + n + (n == 1 ? " comparison" : " comparisons"))
                                .findFirst()
                                .orElse(""),
                        p(needed)));
            }
            if (!canSayNoChange) {
                why.add(String.format(
                        Locale.ROOT,
                        "cannot say no change detected: its equivalence tests reach p %s at the very least, not"
                                + " below their level %s",
                        p(smallestNoChangeP),
                        p(design.equivalenceAlpha())));
            }
            return why;
        }
    }

    /** What {@code design} can say, and the fewest rounds of its shape that could say everything. */
    public static Reach of(Design design) {
        Reach reach = alone(design);
        OptionalInt could = OptionalInt.empty();
        for (int r = 1; r <= MOST_ROUNDS; r++) {
            if (alone(design.withRounds(r)).sound()) {
                could = OptionalInt.of(r);
                break;
            }
        }
        return new Reach(
                design,
                reach.smallestP(),
                reach.needed(),
                reach.canCall(),
                reach.smallestNoChangeP(),
                reach.canSayNoChange(),
                could);
    }

    private static Reach alone(Design d) {
        double needed = d.comparisonAlpha() / d.figures();
        int b = d.batches();
        double call = ShiftedRankTest.smallestTwoSided(b, b);
        double same = ShiftedRankTest.smallestOneSided(b, b);
        boolean decides = b >= FigureSamples.MIN_SAMPLES;
        return new Reach(
                d,
                call,
                needed,
                decides && call < needed,
                same,
                decides && same < d.equivalenceAlpha(),
                OptionalInt.empty());
    }

    /**
     * Whether a host's comparison rested on a design that could call a change: some decisive figure's batches could
     * have reached Holm's first step had they not overlapped at all. A comparison with no decisive figure, or judged
     * by difference in differences (windows with control hosts), is not counted against its design.
     */
    public static boolean couldCall(TestComparison host, double alpha) {
        List<MetricComparison> decisive =
                host.metrics().stream().filter(MetricComparison::decisive).toList();
        if (decisive.isEmpty()) {
            return true;
        }
        double needed = alpha / decisive.size();
        return decisive.stream()
                .anyMatch(m -> FigureSamples.WINDOW.equals(m.sampleUnit())
                        || ShiftedRankTest.smallestTwoSided(m.beforeSamples(), m.afterSamples()) < needed);
    }

    private static String p(double value) {
        return new java.math.BigDecimal(value)
                .round(new java.math.MathContext(2))
                .stripTrailingZeros()
                .toPlainString();
    }
}
