package dev.fleetfix.bench.verdict;

import dev.fleetfix.bench.verdict.stats.RankTest;
import dev.fleetfix.bench.verdict.stats.ShiftedRankTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Whether a before/after design can give each verdict at all, decided from its shape before anything runs: the
 * smallest p-value its test can reach, against what the multiplicity correction needs, and whether its "no change
 * detected" can ever be said.
 *
 * <p>Each design's smallest p is computed by running the test it is judged by on the most extreme data it can meet,
 * so it is exact for that test:
 *
 * <ul>
 *   <li>{@link Test#ROUNDS_OF_WINDOWS} (the builtin engine today): the rank test over windows, widened by the rounds'
 *       design effect ({@link RankTest#clustered}), and Student's t over the rounds; the larger p decides. Run on two
 *       sides that do not overlap, whose rounds do not overlap each other either, which is what a change that also
 *       moves rounds apart gives (the lab's throttled Redis did): the t-test can reach any p there, the rank test
 *       cannot, so its p is the design's floor.
 *   <li>{@link Test#ONE_SAMPLE_A_ROUND} (redis-benchmark, no windows): the rank test over the rounds' figures.
 *   <li>{@link Test#BATCHES} (the proposed design, {@link BatchJudge}): the exact rank test of the batches' shift
 *       beyond the effect floor, and the exact two one-sided tests within it.
 * </ul>
 *
 * <p>Holm's first step compares the smallest p with {@code alpha} over the decisive figures; at plan time how many
 * figures will be decisive depends on the load (a percentile needs enough requests above it), so the check takes
 * the most there can be ({@link #MOST_FIGURES}): a design that passes it can call a change whatever figures decide.
 */
public final class DesignCheck {
    /** The decisive figures when every percentile has enough requests: rps, p50, p90, p99, p99.9, p99.99. */
    public static final int MOST_FIGURES = 6;

    /** The most rounds a side a suggestion names (the plan builder's own limit). */
    static final int MOST_ROUNDS = 100;

    private DesignCheck() {}

    /** The test a design is judged by. */
    public enum Test {
        /** Windows as samples, rank test widened by the rounds and t-test over rounds: the builtin engine. */
        ROUNDS_OF_WINDOWS,
        /** One sample a round, rank test over rounds: redis-benchmark, which reports no windows. */
        ONE_SAMPLE_A_ROUND,
        /** Batches of windows, exact rank tests against the effect floor (proposed, {@link BatchJudge}). */
        BATCHES
    }

    /**
     * The shape of a before/after design.
     *
     * @param test what judges it
     * @param rounds rounds a side (with {@link Test#BATCHES}, batches a side)
     * @param samplesPerRound windows a round ({@link Test#ROUNDS_OF_WINDOWS}); 1 otherwise
     * @param figures the decisive figures Holm corrects over
     * @param alpha the family-wise level of a call
     * @param equivalenceAlpha the level of "no change detected" ({@link Test#BATCHES}; the others say it when an
     *     interval lies within the floor, which needs no level of its own)
     */
    public record Design(
            Test test, int rounds, int samplesPerRound, int figures, double alpha, double equivalenceAlpha) {
        public Design {
            if (rounds < 1 || samplesPerRound < 1 || figures < 1) {
                throw new IllegalArgumentException("rounds, samples a round and figures must be at least 1, were "
                        + rounds + ", " + samplesPerRound + ", " + figures);
            }
            if (!(alpha > 0 && alpha < 1) || !(equivalenceAlpha > 0 && equivalenceAlpha < 1)) {
                throw new IllegalArgumentException("levels must be in (0, 1), were " + alpha + ", " + equivalenceAlpha);
            }
        }

        Design withRounds(int r) {
            return new Design(test, r, samplesPerRound, figures, alpha, equivalenceAlpha);
        }
    }

    /**
     * What a design can say.
     *
     * @param smallestP the smallest p its call can reach (see {@link DesignCheck})
     * @param needed what Holm's first step needs: {@code alpha / figures}; a call needs p below it
     * @param canCall whether any change, however large, can be called improved or regressed
     * @param smallestNoChangeP the smallest p of its equivalence test; NaN where "no change detected" rests on an
     *     interval alone
     * @param canSayNoChange whether "no change detected" can ever be said
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
         * Why this design is refused, in the words of a playbook or an option ("rounds: 3 a side cannot call any
         * change: ...; 9 rounds a side could"); empty when it can say every verdict.
         */
        public Optional<String> problem(String roundsField) {
            if (sound()) {
                return Optional.empty();
            }
            List<String> why = new ArrayList<>();
            String unit = design.test() == Test.BATCHES ? "batches" : "rounds";
            String one =
                    design.rounds() == 1 ? unit.substring(0, unit.length() - (unit.equals("batches") ? 2 : 1)) : unit;
            if (!canCall) {
                why.add(String.format(
                        Locale.ROOT,
                        "cannot call any change: %s p %s at the very least, and Holm over up to %d figures at level %s"
                                + " needs below %s",
                        extreme(design),
                        p(smallestP),
                        design.figures(),
                        p(design.alpha()),
                        p(needed)));
            }
            if (!canSayNoChange) {
                why.add(
                        design.test() == Test.BATCHES
                                ? String.format(
                                        Locale.ROOT,
                                        "cannot say no change detected: its equivalence test reaches p %s at the very least,"
                                                + " above its level %s",
                                        p(smallestNoChangeP),
                                        p(design.equivalenceAlpha()))
                                : "cannot say no change detected: a figure needs " + RankTest.MIN_PER_SIDE
                                        + " samples and 2 rounds a side to decide");
            }
            String fix = roundsThatCould.stream()
                    .mapToObj(r -> r + " " + unit + " a side could")
                    .findFirst()
                    .orElse("no number of " + unit + " up to " + MOST_ROUNDS + " could; controls: N measure drift"
                            + " another way");
            return Optional.of(String.format(
                    Locale.ROOT,
                    "%s: %d %s a side%s %s; %s",
                    roundsField,
                    design.rounds(),
                    one,
                    design.test() == Test.ROUNDS_OF_WINDOWS ? " of " + design.samplesPerRound() + " windows" : "",
                    String.join(", and ", why),
                    fix));
        }

        private static String extreme(Design d) {
            return switch (d.test()) {
                case ROUNDS_OF_WINDOWS -> "sides whose rounds do not overlap give the rank test";
                case ONE_SAMPLE_A_ROUND -> "rounds that do not overlap give the rank test";
                case BATCHES -> "batches that do not overlap give the exact rank test";
            };
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
        double needed = d.alpha() / d.figures();
        int n = d.rounds() * d.samplesPerRound();
        return switch (d.test()) {
            case ROUNDS_OF_WINDOWS -> {
                boolean decides = n >= RankTest.MIN_PER_SIDE && d.rounds() >= 2;
                double smallest = decides
                        ? RankTest.clustered(nonOverlapping(d, 0), nonOverlapping(d, n))
                                .result()
                                .p()
                        : 1;
                yield new Reach(d, smallest, needed, decides && smallest < needed, Double.NaN, decides, none());
            }
            case ONE_SAMPLE_A_ROUND -> {
                boolean decides = d.rounds() >= RankTest.MIN_PER_SIDE;
                double smallest = decides
                        ? RankTest.clustered(nonOverlapping(d, 0), nonOverlapping(d, n))
                                .result()
                                .p()
                        : 1;
                yield new Reach(d, smallest, needed, decides && smallest < needed, Double.NaN, decides, none());
            }
            case BATCHES -> {
                double call = ShiftedRankTest.smallestTwoSided(d.rounds(), d.rounds());
                double same = ShiftedRankTest.smallestOneSided(d.rounds(), d.rounds());
                yield new Reach(d, call, needed, call < needed, same, same < d.equivalenceAlpha(), none());
            }
        };
    }

    /**
     * Whether a host's comparison rested on a design that could call a change: some decisive figure could have
     * reached Holm's first step, given its samples and the design effect its rounds showed (the bound of {@link
     * RankTest#smallestP}). A comparison with no decisive figure, or judged by difference in differences (no design
     * effect), is not counted against its design.
     */
    public static boolean couldCall(TestComparison host, double alpha) {
        List<MetricComparison> decisive =
                host.metrics().stream().filter(MetricComparison::decisive).toList();
        if (decisive.isEmpty()) {
            return true;
        }
        double needed = alpha / decisive.size();
        return decisive.stream()
                .anyMatch(m -> !(m.designEffect() >= 1)
                        || RankTest.smallestP(m.beforeSamples(), m.afterSamples(), m.designEffect()) < needed);
    }

    /** One side's rounds of windows, every value above the one before: no round overlaps another. */
    private static List<double[]> nonOverlapping(Design d, int from) {
        List<double[]> rounds = new ArrayList<>();
        int v = from;
        for (int r = 0; r < d.rounds(); r++) {
            double[] round = new double[d.samplesPerRound()];
            for (int w = 0; w < round.length; w++) {
                round[w] = v++;
            }
            rounds.add(round);
        }
        return rounds;
    }

    private static OptionalInt none() {
        return OptionalInt.empty();
    }

    private static String p(double value) {
        return new java.math.BigDecimal(value)
                .round(new java.math.MathContext(2))
                .stripTrailingZeros()
                .toPlainString();
    }
}
