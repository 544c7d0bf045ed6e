package dev.fleetfix.report;

import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.Latency;
import dev.fleetfix.bench.Metric;
import dev.fleetfix.bench.plan.BenchRun;
import dev.fleetfix.bench.plan.SweepPoint;
import dev.fleetfix.bench.verdict.BeforeAfter;
import dev.fleetfix.bench.verdict.FleetComparison;
import dev.fleetfix.bench.verdict.MetricComparison;
import dev.fleetfix.bench.verdict.Sweep;
import dev.fleetfix.bench.verdict.TestComparison;
import dev.fleetfix.bench.verdict.Verdict;
import dev.fleetfix.bench.verdict.stats.HostEffects;
import dev.fleetfix.bench.verdict.stats.Median;
import dev.fleetfix.health.GateResult;
import dev.fleetfix.redis.load.RedisEvidence;
import dev.fleetfix.report.model.BenchmarkReport;
import dev.fleetfix.report.model.BenchmarkRunReport;
import dev.fleetfix.report.model.ChangeReport;
import dev.fleetfix.report.model.ClientCpuReport;
import dev.fleetfix.report.model.ComparisonReport;
import dev.fleetfix.report.model.DiffReport;
import dev.fleetfix.report.model.FleetComparisonReport;
import dev.fleetfix.report.model.FleetEffectReport;
import dev.fleetfix.report.model.GateReport;
import dev.fleetfix.report.model.LatencyEventReport;
import dev.fleetfix.report.model.LatencyPointReport;
import dev.fleetfix.report.model.LatencySpikeReport;
import dev.fleetfix.report.model.MetricReport;
import dev.fleetfix.report.model.StepReport;
import dev.fleetfix.report.model.SweepComparisonReport;
import dev.fleetfix.report.model.SweepPointReport;
import dev.fleetfix.report.model.SweepRowReport;
import dev.fleetfix.report.model.TestResultReport;
import dev.fleetfix.report.model.WindowReport;
import dev.fleetfix.rollout.event.StepFinished;
import dev.fleetfix.steps.model.StepResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/** Maps the engine's and the benchmark module's types to the report model. */
public final class ReportModelMapper {
    /** The percentiles every test reports when its source knows them, by label. */
    public static final Map<String, Double> PERCENTILES = percentiles();

    private ReportModelMapper() {}

    /** A benchmark round with the step that measured it. */
    public record MeasuredRun(String step, BenchRun run) {}

    private static Map<String, Double> percentiles() {
        Map<String, Double> p = new LinkedHashMap<>();
        p.put("p50", 50.0);
        p.put("p90", 90.0);
        p.put("p95", 95.0);
        p.put("p99", 99.0);
        p.put("p99.9", 99.9);
        p.put("p99.99", 99.99);
        p.put("max", 100.0);
        return p;
    }

    public static StepReport step(StepFinished e) {
        StepResult r = e.result();
        return new StepReport(
                e.play(),
                e.index(),
                e.step(),
                e.type(),
                word(r.status()),
                r.message(),
                e.elapsed().toMillis(),
                e.attempts(),
                r.changes().stream()
                        .map(c -> new ChangeReport(c.what(), c.before(), c.after()))
                        .toList(),
                r.diffs().stream()
                        .map(d -> new DiffReport(d.path(), d.unifiedDiff(), d.backup()))
                        .toList(),
                r.gates().stream().map(ReportModelMapper::gate).toList(),
                r.facts(),
                r.predicted());
    }

    static GateReport gate(GateResult g) {
        return new GateReport(
                g.gate(),
                g.passed(),
                g.detail(),
                g.elapsed().toMillis(),
                g.parts().stream().map(ReportModelMapper::gate).toList(),
                g.forecast().orElse(null));
    }

    public static BenchmarkReport benchmarks(List<MeasuredRun> measured) {
        if (measured.isEmpty()) {
            return BenchmarkReport.NONE;
        }
        List<BenchRun> runs = measured.stream().map(MeasuredRun::run).toList();
        return new BenchmarkReport(
                measured.stream().map(ReportModelMapper::run).toList(),
                BeforeAfter.DEFAULT.perHost(runs).stream()
                        .map(ReportModelMapper::comparison)
                        .toList(),
                BeforeAfter.DEFAULT.fleet(runs).stream()
                        .map(ReportModelMapper::fleet)
                        .toList(),
                sweepRows(runs),
                new Sweep(BeforeAfter.DEFAULT)
                        .compare(runs).stream()
                                .map(c -> new SweepComparisonReport(
                                        c.host(),
                                        c.name(),
                                        c.test(),
                                        c.factor().name().toLowerCase(Locale.ROOT),
                                        point(c.from()),
                                        point(c.to()),
                                        comparison(c.comparison())))
                                .toList());
    }

    private static List<SweepRowReport> sweepRows(List<BenchRun> runs) {
        List<SweepRowReport> rows = new ArrayList<>();
        for (Sweep.Series s : Sweep.series(runs)) {
            s.points()
                    .forEach((p, results) -> rows.add(new SweepRowReport(
                            s.host(),
                            s.name(),
                            s.test(),
                            point(p),
                            results.size(),
                            median(results, Metric.RPS),
                            finite(median(results, Metric.P50)),
                            finite(median(results, Metric.P99)),
                            finite(median(results, Metric.P999)))));
        }
        return rows;
    }

    /** The median of the rounds' figure; NaN when a round lacks it. */
    private static double median(List<BenchResult> results, Metric metric) {
        double[] values = new double[results.size()];
        for (int i = 0; i < values.length; i++) {
            OptionalDouble v = metric.valueOf(results.get(i));
            if (v.isEmpty()) {
                return Double.NaN;
            }
            values[i] = v.getAsDouble();
        }
        return Median.of(values);
    }

    static SweepPointReport point(SweepPoint p) {
        return new SweepPointReport(
                p.valueSize(), p.tcpNoDelay().map(SweepPoint::word).orElse(null), p.label());
    }

    private static BenchmarkRunReport run(MeasuredRun m) {
        BenchRun r = m.run();
        return new BenchmarkRunReport(
                r.host(),
                r.name(),
                word(r.phase()),
                m.step(),
                r.results().stream().map(ReportModelMapper::test).toList(),
                r.evidence()
                        .map(e -> (Map<String, String>) new java.util.TreeMap<>(e.counters()))
                        .orElse(null),
                r.evidence()
                        .flatMap(e -> e.anonHugePagesKb().isPresent()
                                ? java.util.Optional.of(e.anonHugePagesKb().getAsLong())
                                : java.util.Optional.empty())
                        .orElse(null),
                r.evidence()
                        .map(e -> e.latencyLatest().stream()
                                .map(l -> new LatencyEventReport(l.event(), l.at(), l.latestMs(), l.maxMs()))
                                .toList())
                        .orElse(List.of()),
                r.evidence()
                        .map(e -> e.forkHistory().stream()
                                .map(l -> new LatencySpikeReport(l.at(), l.ms()))
                                .toList())
                        .orElse(List.of()),
                r.evidence().map(RedisEvidence::unread).orElse(List.of()),
                r.controlFor().orElse(null),
                r.point().map(ReportModelMapper::point).orElse(null));
    }

    static TestResultReport test(BenchResult r) {
        Latency l = r.latency();
        Map<String, Double> percentiles = new LinkedHashMap<>();
        PERCENTILES.forEach((label, p) -> {
            OptionalDouble v = l.percentile(p);
            if (v.isPresent()) {
                percentiles.put(label, v.getAsDouble());
            }
        });
        return new TestResultReport(
                r.test(),
                r.rps(),
                r.requests().isPresent() ? r.requests().getAsLong() : null,
                boxed(l.avgMillis()),
                boxed(l.minMillis()),
                percentiles,
                l.distribution().stream()
                        .map(p -> new LatencyPointReport(p.percent(), p.millis()))
                        .toList(),
                l.histogram().orElse(null),
                r.windows().stream()
                        .map(w -> new WindowReport(
                                w.seconds(), w.requests(), w.p50(), w.p90(), w.p99(), w.p999(), w.p9999(), w.max()))
                        .toList(),
                r.clientCpu()
                        .map(c -> new ClientCpuReport(
                                c.processShare(), finite(c.machineShare()), c.saturated(), finite(c.waitShare())))
                        .orElse(null),
                r.errors());
    }

    private static ComparisonReport comparison(TestComparison c) {
        return new ComparisonReport(
                c.host(),
                c.name(),
                c.test(),
                c.beforeRounds(),
                c.afterRounds(),
                c.metrics().stream().map(ReportModelMapper::metric).toList(),
                word(c.verdict()),
                c.design(),
                c.calibration().stream().map(ReportModelMapper::metric).toList(),
                c.notes(),
                c.reason().orElse(null));
    }

    private static MetricReport metric(MetricComparison m) {
        return new MetricReport(
                m.metric().label(),
                m.before(),
                m.after(),
                m.beforeMedian(),
                m.afterMedian(),
                m.beforeSpread(),
                m.afterSpread(),
                finite(m.ratio()),
                word(m.verdict()),
                m.sampleUnit(),
                m.beforeSamples(),
                m.afterSamples(),
                finite(m.low()),
                finite(m.high()),
                finite(m.p()),
                finite(m.adjustedP()),
                finite(m.equivalenceP()),
                m.floor(),
                m.decisive(),
                m.notDecisive().orElse(null),
                finite(m.beforeSampleMedian()),
                finite(m.afterSampleMedian()),
                m.withheld().orElse(null),
                m.reason().orElse(null));
    }

    /**
     * The fleet verdicts over per-host comparisons read back from reports (the shards of one change): the same
     * {@link BeforeAfter#fleetOf} that a single run's report uses, on the same figures.
     */
    public static List<FleetComparisonReport> fleet(List<ComparisonReport> comparisons) {
        List<TestComparison> hosts = comparisons.stream()
                .map(c -> new TestComparison(
                        c.host(),
                        c.name(),
                        c.test(),
                        c.beforeRounds(),
                        c.afterRounds(),
                        c.metrics().stream().map(ReportModelMapper::metric).toList(),
                        verdict(c.verdict()),
                        c.design(),
                        c.calibration().stream().map(ReportModelMapper::metric).toList(),
                        c.notes(),
                        Optional.ofNullable(c.reason())))
                .toList();
        return BeforeAfter.DEFAULT.fleetOf(hosts).stream()
                .map(ReportModelMapper::fleet)
                .toList();
    }

    private static MetricComparison metric(MetricReport m) {
        Metric metric = java.util.Arrays.stream(Metric.values())
                .filter(x -> x.label().equals(m.metric()))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown metric " + m.metric()));
        return new MetricComparison(
                metric,
                m.before(),
                m.after(),
                m.beforeMedian(),
                m.afterMedian(),
                m.beforeSpread(),
                m.afterSpread(),
                orNaN(m.ratio()),
                verdict(m.verdict()),
                m.sampleUnit(),
                m.beforeSamples(),
                m.afterSamples(),
                orNaN(m.low()),
                orNaN(m.high()),
                orNaN(m.p()),
                orNaN(m.adjustedP()),
                orNaN(m.floor()),
                Optional.ofNullable(m.notDecisive()),
                orNaN(m.beforeSampleMedian()),
                orNaN(m.afterSampleMedian()),
                m.beforeMedian(),
                Optional.ofNullable(m.withheld()),
                Optional.ofNullable(m.reason()),
                orNaN(m.equivalenceP()));
    }

    private static Verdict verdict(String word) {
        return Verdict.valueOf(word.toUpperCase(Locale.ROOT));
    }

    private static double orNaN(Double value) {
        return value == null ? Double.NaN : value;
    }

    private static FleetComparisonReport fleet(FleetComparison f) {
        Map<String, Double> ratios = new LinkedHashMap<>();
        for (Metric metric : Metric.values()) {
            Double r = f.medianRatio().get(metric);
            if (r != null && Double.isFinite(r)) {
                ratios.put(metric.label(), r);
            }
        }
        return new FleetComparisonReport(
                f.name(),
                f.test(),
                ratios,
                f.hosts().stream().map(TestComparison::host).toList(),
                (int) f.count(Verdict.IMPROVED),
                (int) f.count(Verdict.REGRESSED),
                (int) f.count(Verdict.NO_CHANGE_DETECTED),
                (int) f.count(Verdict.INCONCLUSIVE),
                word(f.verdict()),
                f.reason(),
                effects(f));
    }

    private static Map<String, FleetEffectReport> effects(FleetComparison f) {
        Map<String, FleetEffectReport> effects = new LinkedHashMap<>();
        for (Metric metric : Metric.values()) {
            HostEffects e = f.effects().get(metric);
            if (e != null && e.hosts() > 0) {
                effects.put(
                        metric.label(),
                        new FleetEffectReport(
                                e.hosts(),
                                e.ratio(),
                                finite(e.low()),
                                finite(e.high()),
                                e.up(),
                                e.down(),
                                e.signP(),
                                word(f.metricVerdicts().getOrDefault(metric, Verdict.INCONCLUSIVE))));
            }
        }
        return effects;
    }

    private static Double boxed(OptionalDouble v) {
        return v.isPresent() ? v.getAsDouble() : null;
    }

    private static Double finite(double v) {
        return Double.isFinite(v) ? v : null;
    }

    /** An enum constant as the report's JSON writes it: {@code NO_CHANGE_DETECTED} → {@code no_change_detected}. */
    public static String word(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }
}
