package dev.fleetfix.bench;

import dev.fleetfix.bench.stats.HostEffects;
import dev.fleetfix.bench.stats.Median;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The fleet's verdict comes from the hosts' effects, never from "any host regressed".
 *
 * <p>Per decisive figure, each host contributes its after/before ratio. With one host the fleet
 * says what that host says. With more, a figure moved for the fleet when the 95 % interval of the
 * hosts' geometric-mean ratio excludes 1, the mean change is at least the effect floor, and at
 * least one host's own test found the change in that direction: so one noisy host among quiet
 * ones cannot make a fleet verdict, and neither can several tiny moves no host could tell.
 */
final class FleetVerdict {
    private FleetVerdict() {}

    static FleetComparison of(String name, String test, List<TestComparison> hosts, double floor) {
        Map<Metric, List<Double>> ratios = new EnumMap<>(Metric.class);
        Map<Metric, List<MetricComparison>> decisive = new EnumMap<>(Metric.class);
        for (TestComparison host : hosts) {
            for (MetricComparison m : host.metrics()) {
                ratios.computeIfAbsent(m.metric(), k -> new ArrayList<>()).add(m.ratio());
                if (m.decisive()) {
                    decisive.computeIfAbsent(m.metric(), k -> new ArrayList<>()).add(m);
                }
            }
        }
        Map<Metric, Double> medianRatio = new EnumMap<>(Metric.class);
        ratios.forEach((metric, values) -> medianRatio.put(metric, Median.of(values)));
        Map<Metric, HostEffects> effects = new EnumMap<>(Metric.class);
        Map<Metric, Verdict> verdicts = new EnumMap<>(Metric.class);
        decisive.forEach((metric, ms) -> {
            HostEffects e =
                    HostEffects.of(ms.stream().map(MetricComparison::ratio).toList());
            effects.put(metric, e);
            verdicts.put(metric, judge(metric, ms, e, floor));
        });
        Verdict verdict = Verdict.combine(verdicts.values());
        return new FleetComparison(name, test, medianRatio, hosts, effects, verdicts, verdict);
    }

    private static Verdict judge(Metric metric, List<MetricComparison> hosts, HostEffects e, double floor) {
        if (hosts.size() == 1) {
            return hosts.get(0).verdict();
        }
        if (!e.excludesOne() || !(Math.abs(e.ratio() - 1) >= floor)) {
            return Verdict.WITHIN_NOISE;
        }
        boolean better = metric.higherIsBetter() ? e.ratio() > 1 : e.ratio() < 1;
        Verdict direction = better ? Verdict.IMPROVED : Verdict.REGRESSED;
        return hosts.stream().anyMatch(m -> m.verdict() == direction) ? direction : Verdict.WITHIN_NOISE;
    }
}
