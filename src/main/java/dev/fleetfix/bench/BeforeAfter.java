package dev.fleetfix.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Compares before and after runs of the same name, per host and for the fleet.
 *
 * <p>A figure changed only when the medians of the two sides differ by more than the noise: the
 * larger of either side's spread (max - min over its rounds) and a relative floor (5 % by default)
 * of the before median. One round per side has no spread, so only the floor guards it; three
 * rounds are the least that make the verdict worth reading.
 *
 * @param relativeNoise the smallest relative change taken as real, 0.05 for 5 %
 */
public record BeforeAfter(double relativeNoise) {

    public static final BeforeAfter DEFAULT = new BeforeAfter(0.05);

    public BeforeAfter {
        if (!(relativeNoise >= 0 && relativeNoise < 1)) {
            throw new IllegalArgumentException("relativeNoise must be in [0, 1), was " + relativeNoise);
        }
    }

    /** Per host, per named benchmark, per test: every test that has rounds on both sides. */
    public List<TestComparison> perHost(Collection<BenchRun> runs) {
        Map<List<String>, List<List<BenchResult>>> sides = new LinkedHashMap<>();
        for (BenchRun run : runs) {
            for (BenchResult result : run.results()) {
                List<String> key = List.of(run.host(), run.name(), result.test());
                sides.computeIfAbsent(key, k -> List.of(new ArrayList<>(), new ArrayList<>()))
                        .get(run.phase().ordinal())
                        .add(result);
            }
        }
        List<TestComparison> comparisons = new ArrayList<>();
        sides.forEach((key, bothSides) -> {
            if (!bothSides.get(0).isEmpty() && !bothSides.get(1).isEmpty()) {
                comparisons.add(compare(key.get(0), key.get(1), key.get(2), bothSides.get(0), bothSides.get(1)));
            }
        });
        return comparisons;
    }

    /** Per named benchmark and test, over the hosts that ran it on both sides. */
    public List<FleetComparison> fleet(Collection<BenchRun> runs) {
        Map<List<String>, List<TestComparison>> byTest = new LinkedHashMap<>();
        for (TestComparison c : perHost(runs)) {
            byTest.computeIfAbsent(List.of(c.name(), c.test()), k -> new ArrayList<>())
                    .add(c);
        }
        List<FleetComparison> fleet = new ArrayList<>();
        byTest.forEach((key, hosts) -> fleet.add(fleetOf(key.get(0), key.get(1), hosts)));
        return fleet;
    }

    public TestComparison compare(
            String host, String name, String test, List<BenchResult> before, List<BenchResult> after) {
        List<MetricComparison> metrics = new ArrayList<>();
        for (Metric metric : Metric.values()) {
            List<Double> b = values(metric, before);
            List<Double> a = values(metric, after);
            if (b.size() == before.size() && a.size() == after.size()) {
                metrics.add(compare(metric, b, a));
            }
        }
        Verdict verdict =
                Verdict.combine(metrics.stream().map(MetricComparison::verdict).toList());
        return new TestComparison(host, name, test, before.size(), after.size(), metrics, verdict);
    }

    MetricComparison compare(Metric metric, List<Double> before, List<Double> after) {
        double bm = median(before);
        double am = median(after);
        double bs = spread(before);
        double as = spread(after);
        double noise = Math.max(Math.max(bs, as), relativeNoise * Math.abs(bm));
        double change = am - bm;
        Verdict verdict;
        if (Math.abs(change) <= noise) {
            verdict = Verdict.WITHIN_NOISE;
        } else {
            boolean better = metric.higherIsBetter() ? change > 0 : change < 0;
            verdict = better ? Verdict.IMPROVED : Verdict.REGRESSED;
        }
        double ratio = bm == 0 ? (am == 0 ? 1 : Double.POSITIVE_INFINITY) : am / bm;
        return new MetricComparison(metric, before, after, bm, am, bs, as, ratio, verdict);
    }

    private static FleetComparison fleetOf(String name, String test, List<TestComparison> hosts) {
        Map<Metric, List<Double>> ratios = new EnumMap<>(Metric.class);
        for (TestComparison host : hosts) {
            for (MetricComparison m : host.metrics()) {
                ratios.computeIfAbsent(m.metric(), k -> new ArrayList<>()).add(m.ratio());
            }
        }
        Map<Metric, Double> medianRatio = new EnumMap<>(Metric.class);
        ratios.forEach((metric, values) -> medianRatio.put(metric, median(values)));
        long regressed =
                hosts.stream().filter(h -> h.verdict() == Verdict.REGRESSED).count();
        long improved =
                hosts.stream().filter(h -> h.verdict() == Verdict.IMPROVED).count();
        Verdict verdict = regressed > 0
                ? Verdict.REGRESSED
                : (improved * 2 >= hosts.size() ? Verdict.IMPROVED : Verdict.WITHIN_NOISE);
        return new FleetComparison(name, test, medianRatio, hosts, verdict);
    }

    private static List<Double> values(Metric metric, List<BenchResult> results) {
        List<Double> values = new ArrayList<>();
        for (BenchResult r : results) {
            OptionalDouble v = metric.valueOf(r);
            v.ifPresent(values::add);
        }
        return values;
    }

    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    static double spread(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).max().orElse(0)
                - values.stream().mapToDouble(Double::doubleValue).min().orElse(0);
    }
}
