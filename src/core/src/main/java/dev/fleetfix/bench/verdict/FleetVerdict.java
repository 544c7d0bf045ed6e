package dev.fleetfix.bench.verdict;

import dev.fleetfix.bench.Metric;
import dev.fleetfix.bench.verdict.stats.HostEffects;
import dev.fleetfix.bench.verdict.stats.Median;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The fleet's verdict follows the hosts' own verdicts, and says how many hosts carry it.
 *
 * <p>Some hosts regressed and none improved: regressed ("regressed on 2 of 3 hosts, none improved"), since a
 * remediation that makes hosts worse must be looked at; likewise improved. Hosts that disagree, or none that
 * called a change while some are inconclusive: inconclusive, with why. Every host no change detected: no change
 * detected.
 *
 * <p>Fleet figures (per decisive figure, the 95 % interval of the hosts' geometric-mean ratio) need at least
 * {@link #MIN_HOSTS} hosts: from two, an interval over hosts spans orders of magnitude and says nothing. Below
 * that there are none, and the reason says "too few hosts for a fleet interval". From three, a figure moved for
 * the fleet when that interval excludes 1, the mean change is at least the effect floor, and at least one host's
 * own test found the change in that direction.
 */
final class FleetVerdict {
    /** The fewest hosts whose ratios make a fleet interval. */
    static final int MIN_HOSTS = 3;

    static final String TOO_FEW_HOSTS = "too few hosts for a fleet interval";

    private FleetVerdict() {}

    static FleetComparison of(String name, String test, List<TestComparison> hosts, double floor) {
        return of(name, test, hosts, floor, Thresholds.DEFAULT.alpha());
    }

    /**
     * @param alpha the hosts' level: a host whose own design could not reach it (see {@link
     *     DesignCheck#couldCall}) gives neither the fleet's word nor its interval, and is named as left out
     */
    static FleetComparison of(String name, String test, List<TestComparison> all, double floor, double alpha) {
        List<TestComparison> hosts =
                all.stream().filter(h -> DesignCheck.couldCall(h, alpha)).toList();
        List<String> leftOut = all.stream()
                .filter(h -> !hosts.contains(h))
                .map(TestComparison::host)
                .toList();
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
        Map<Metric, HostEffects> effects = new EnumMap<>(Metric.class);
        Map<Metric, Verdict> verdicts = new EnumMap<>(Metric.class);
        if (hosts.size() >= MIN_HOSTS) {
            ratios.forEach((metric, values) -> medianRatio.put(metric, Median.of(values)));
            decisive.forEach((metric, ms) -> {
                HostEffects e =
                        HostEffects.of(ms.stream().map(MetricComparison::ratio).toList());
                effects.put(metric, e);
                verdicts.put(metric, judge(metric, ms, e, floor));
            });
        }
        Verdict verdict = fromHosts(hosts);
        // with no host that could call, the words are those of every host: all inconclusive, the reason theirs
        String reason = reason(verdict, hosts.isEmpty() ? all : hosts, all.size(), leftOut, hosts.size());
        return new FleetComparison(name, test, medianRatio, all, effects, verdicts, verdict, reason);
    }

    private static Verdict fromHosts(List<TestComparison> hosts) {
        long improved = count(hosts, Verdict.IMPROVED);
        long regressed = count(hosts, Verdict.REGRESSED);
        if (regressed > 0 && improved == 0) {
            return Verdict.REGRESSED;
        }
        if (improved > 0 && regressed == 0) {
            return Verdict.IMPROVED;
        }
        if (improved == 0 && count(hosts, Verdict.NO_CHANGE_DETECTED) == hosts.size() && !hosts.isEmpty()) {
            return Verdict.NO_CHANGE_DETECTED;
        }
        return Verdict.INCONCLUSIVE;
    }

    /**
     * "on 2 of 3 hosts, none improved", and "too few hosts for a fleet interval" below three. Every reason but
     * "hosts disagree" starts "on K of N hosts", so one form covers every verdict (a reader, or a test, need not
     * know which word came out).
     */
    private static String reason(
            Verdict verdict, List<TestComparison> hosts, int n, List<String> leftOut, int couldCall) {
        long improved = count(hosts, Verdict.IMPROVED);
        long regressed = count(hosts, Verdict.REGRESSED);
        String why =
                switch (verdict) {
                    case REGRESSED -> "on " + regressed + " of " + n + " hosts, none improved";
                    case IMPROVED -> "on " + improved + " of " + n + " hosts, none regressed";
                    case NO_CHANGE_DETECTED -> "on " + hosts.size() + " of " + n + " hosts";
                    case INCONCLUSIVE -> improved > 0
                            ? "hosts disagree: " + improved + " improved, " + regressed + " regressed"
                            : "on " + count(hosts, Verdict.INCONCLUSIVE) + " of " + n + " hosts, none called a change"
                                    + hosts.stream()
                                            .flatMap(h -> h.reason().stream())
                                            .findFirst()
                                            .map(r -> " (" + r + ")")
                                            .orElse("");
                };
        if (!leftOut.isEmpty()) {
            why += "; left out, their design could not call a change: " + String.join(", ", leftOut);
        }
        // the fleet interval rests on the hosts whose design could call, so they are what it needs enough of
        return couldCall < MIN_HOSTS ? why + "; " + TOO_FEW_HOSTS : why;
    }

    private static long count(List<TestComparison> hosts, Verdict v) {
        return hosts.stream().filter(h -> h.verdict() == v).count();
    }

    private static Verdict judge(Metric metric, List<MetricComparison> hosts, HostEffects e, double floor) {
        // every host called it the same way: so does the fleet, however far apart their changes are
        for (Verdict direction : List.of(Verdict.REGRESSED, Verdict.IMPROVED)) {
            if (!hosts.isEmpty() && hosts.stream().allMatch(m -> m.verdict() == direction)) {
                return direction;
            }
        }
        if (e.excludesOne() && Math.abs(e.ratio() - 1) >= floor) {
            boolean better = metric.higherIsBetter() ? e.ratio() > 1 : e.ratio() < 1;
            Verdict direction = better ? Verdict.IMPROVED : Verdict.REGRESSED;
            if (hosts.stream().anyMatch(m -> m.verdict() == direction)) {
                return direction;
            }
        }
        boolean within = e.low() >= 1 - floor && e.high() <= 1 + floor;
        return within ? Verdict.NO_CHANGE_DETECTED : Verdict.INCONCLUSIVE;
    }
}
