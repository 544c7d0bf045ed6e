package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.Metric;
import dev.fleetfix.bench.Phase;
import dev.fleetfix.bench.host.HostBenchmark;
import dev.fleetfix.bench.load.BuiltinBenchmark;
import dev.fleetfix.bench.load.ForkUnderLoad;
import dev.fleetfix.bench.load.LoadGenerator;
import dev.fleetfix.bench.plan.BenchPlan;
import dev.fleetfix.bench.plan.BenchRun;
import dev.fleetfix.bench.plan.ForkUnderLoadSpec;
import dev.fleetfix.bench.plan.LoadSpec;
import dev.fleetfix.bench.plan.RedisBenchmarkSpec;
import dev.fleetfix.bench.plan.SafetyPolicy;
import dev.fleetfix.bench.verdict.BeforeAfter;
import dev.fleetfix.bench.verdict.MachineDrift;
import dev.fleetfix.bench.verdict.MetricComparison;
import dev.fleetfix.bench.verdict.TestComparison;
import dev.fleetfix.bench.verdict.Verdict;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.ansible.InventoryLoader;
import dev.fleetfix.lab.LabFleetExtension;
import dev.fleetfix.lab.LabHostSpec;
import dev.fleetfix.lab.RunsAlone;
import dev.fleetfix.redis.jedis.JedisBenchTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The before/after verdict on real Redis: A/A pairs (nothing changes between the sides) must
 * almost never get a verdict, and a Redis throttled by its cgroup's CPU quota between the sides
 * must be called regressed. Each side is 4 rounds of 1.2 s (4 windows, 2 batches each: the shipped design's 8
 * batches, in shorter rounds) after a discarded
 * client warm-up, the benchmark step's own machinery without SSH.
 */
@RunsAlone
class VerdictLabIT {
    /**
     * 5 by default (10 comparisons, 2 minutes of the suite's time alone on the machine; the false-call rate itself is
     * measured over 100 pairs and more by bench/verdict-sensitivity.sh); more to measure the drift between two
     * moments (bench/results/aa-drift.txt).
     */
    private static final int AA_PAIRS_PER_HOST = Integer.getInteger("fleetfix.aaPairsPerHost", 5);

    /** This test's share of the suite's 0.1 % false-failure budget per CI run. */
    private static final double FALSE_FAILURE = 0.0004;

    @RegisterExtension
    static final LabFleetExtension fleet = LabFleetExtension.of(LabHostSpec.named("lab-1"), LabHostSpec.named("lab-2"));

    private static List<Host> hosts;

    @BeforeAll
    static void prepareHosts() {
        hosts = InventoryLoader.load(fleet.inventoryFile()).hosts();
    }

    private static BenchPlan plan(Phase phase, int rounds) {
        LoadSpec load = LoadSpec.builder()
                .connections(4)
                .keyspace(20_000)
                .valueSize(32)
                .warmup(Duration.ofMillis(200))
                .duration(Duration.ofMillis(1200))
                .build();
        return new BenchPlan(
                "aa",
                BenchPlan.Engine.BUILTIN,
                BenchPlan.Profile.PLAIN,
                load,
                ForkUnderLoadSpec.defaults()
                        .withLoad(load.toBuilder().test(ForkUnderLoadSpec.TEST).build()),
                new RedisBenchmarkSpec(
                        "127.0.0.1",
                        6379,
                        List.of(dev.fleetfix.redis.load.Operation.SET),
                        1000,
                        1,
                        3,
                        1,
                        OptionalLong.empty(),
                        OptionalInt.empty(),
                        LoadSpec.DEFAULT_PREFIX,
                        Duration.ofMinutes(1)),
                rounds,
                phase,
                SafetyPolicy.DEFAULT);
    }

    private static List<BenchRun> measure(Host host, Phase phase) {
        return measure(host, phase, 4);
    }

    private static List<BenchRun> measure(Host host, Phase phase, int rounds) {
        HostBenchmark bench = new HostBenchmark(
                h -> JedisBenchTarget.connect(h, Duration.ofSeconds(10)),
                h -> {
                    throw new UnsupportedOperationException("this test opens no shell to the host");
                },
                new BuiltinBenchmark(LoadGenerator.system()),
                ForkUnderLoad.system());
        HostBenchmark.Outcome outcome =
                bench.run(List.of(host), plan(phase, rounds)).get(0);
        assertThat(outcome.failure()).isEmpty();
        assertThat(outcome.skipped()).isEmpty();
        return outcome.rounds();
    }

    private static TestComparison compare(List<BenchRun> before, List<BenchRun> after) {
        List<BenchRun> all = new ArrayList<>(before);
        all.addAll(after);
        return BeforeAfter.DEFAULT.perHost(all).get(0);
    }

    /**
     * The rule this project used before: medians of the rounds differ by more than the larger of
     * either side's spread and 5 % on any figure. Kept here only to measure it on the same data.
     */
    static boolean oldRuleSeesAChange(List<BenchRun> before, List<BenchRun> after) {
        for (Metric m : Metric.values()) {
            List<Double> b = figures(m, before);
            List<Double> a = figures(m, after);
            if (b.size() != before.size() || a.size() != after.size()) {
                continue;
            }
            double bm = median(b);
            double noise = Math.max(Math.max(spread(b), spread(a)), 0.05 * Math.abs(bm));
            if (Math.abs(median(a) - bm) > noise) {
                return true;
            }
        }
        return false;
    }

    private static List<Double> figures(Metric m, List<BenchRun> runs) {
        List<Double> v = new ArrayList<>();
        for (BenchRun r : runs) {
            for (BenchResult res : r.results()) {
                OptionalDouble x = m.valueOf(res);
                x.ifPresent(v::add);
            }
        }
        return v;
    }

    private static double median(List<Double> v) {
        List<Double> s = v.stream().sorted().toList();
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    private static double spread(List<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).max().orElse(0)
                - v.stream().mapToDouble(Double::doubleValue).min().orElse(0);
    }

    private static List<BenchResult> results(List<BenchRun> runs) {
        return runs.stream().flatMap(r -> r.results().stream()).toList();
    }

    private static String drift(List<BenchRun> before, List<BenchRun> after) {
        return MachineDrift.of(results(before), results(after))
                .map(d -> String.format(
                        Locale.ROOT,
                        " [other load %.0f %% -> %.0f %%, fleetfix waited for a core %.0f %% -> %.0f %%, x%.2f]",
                        d.before() * 100,
                        d.after() * 100,
                        d.waitBefore() * 100,
                        d.waitAfter() * 100,
                        d.stretch()))
                .orElse(" [other load unknown]");
    }

    private static String line(TestComparison c) {
        StringBuilder s = new StringBuilder(c.host() + " " + c.verdict());
        for (MetricComparison m : c.metrics()) {
            s.append(String.format(
                    Locale.ROOT,
                    " %s %+.1f%% [%+.1f, %+.1f] p=%.4f%s",
                    m.metric().label(),
                    (m.ratio() - 1) * 100,
                    (m.low() - 1) * 100,
                    (m.high() - 1) * 100,
                    m.adjustedP(),
                    m.decisive() ? "" : "(nd)"));
            m.withheld().ifPresent(w -> s.append("(withheld)"));
        }
        c.reason().ifPresent(r -> s.append(" (").append(r).append(')'));
        return s.toString();
    }

    /**
     * At most 2 false verdicts (improved or regressed) in 10 A/A comparisons. The measured rate is at most 1 %
     * per comparison ({@link VerdictRate#MEASURED}: the design's alpha, and 0 of 40 uncontrolled A/A pairs on
     * the lab, bench/results/aa-drift.txt); the count X is then at most Binomial(10, 0.01), and this test fails a
     * correct implementation with P(X ≥ 3) = 1.1e-4, within its 0.04 % share of the suite's 0.1 % per CI run. It
     * catches a rule gone wrong, not a rate of a few per cent: it fails a rate of 30 % with P(X ≥ 3) = 0.62, of
     * 50 % with 0.95, and the old rule (2 of 6, measured again below on the same data) fails it almost surely; the
     * rate itself is bench/verdict-sensitivity.sh's to measure. The promise needs the floor of sides without
     * control hosts ({@link BeforeAfter#DEFAULT}): the same pairs judged with a 5 % floor, printed beside, had 2 of
     * 20 on an idle machine, from drift their rounds share. Inconclusive and no change detected are both no false verdict;
     * their counts are printed.
     */
    @Test
    void aaComparisonsAlmostNeverGiveAVerdict() {
        int comparisons = 0;
        int falseVerdicts = 0;
        int oldRuleFalse = 0;
        int fivePercentFalse = 0;
        java.util.Map<Verdict, Integer> words = new java.util.EnumMap<>(Verdict.class);
        List<Double> rpsDrift = new ArrayList<>();
        List<Double> p99Drift = new ArrayList<>();
        for (int i = 0; i < AA_PAIRS_PER_HOST; i++) {
            for (Host host : hosts) {
                List<BenchRun> before = measure(host, Phase.BEFORE);
                List<BenchRun> after = measure(host, Phase.AFTER);
                TestComparison c = compare(before, after);
                comparisons++;
                if (c.verdict().called()) {
                    falseVerdicts++;
                }
                words.merge(c.verdict(), 1, Integer::sum);
                for (MetricComparison m : c.metrics()) {
                    if (m.metric() == Metric.RPS) {
                        rpsDrift.add(Math.log(m.ratio()));
                    } else if (m.metric() == Metric.P99) {
                        p99Drift.add(Math.log(m.ratio()));
                    }
                }
                List<BenchRun> all = new ArrayList<>(before);
                all.addAll(after);
                if (BeforeAfter.INTERLEAVED.perHost(all).get(0).verdict().called()) {
                    fivePercentFalse++;
                }
                if (oldRuleSeesAChange(before, after)) {
                    oldRuleFalse++;
                }
                System.out.println("A/A " + comparisons + ": " + line(c) + drift(before, after));
            }
        }
        System.out.printf(
                "A/A false-verdict rate: %d of %d (%.1f %%); with the 5 %% floor of stop 22: %d; the old rule on the"
                        + " same data: %d of %d (%.1f %%)%n",
                falseVerdicts,
                comparisons,
                100.0 * falseVerdicts / comparisons,
                fivePercentFalse,
                oldRuleFalse,
                comparisons,
                100.0 * oldRuleFalse / comparisons);
        System.out.println("A/A words: " + words);
        System.out.println(
                "A/A drift, log after/before: rps " + driftSummary(rpsDrift) + "; p99 " + driftSummary(p99Drift));
        assertThat(comparisons).isGreaterThanOrEqualTo(10);
        int allowed = VerdictRate.allowed(comparisons, VerdictRate.MEASURED, FALSE_FAILURE);
        assertThat(falseVerdicts)
                .as(
                        "false verdicts of %d A/A comparisons; at most %d, P(more | rate %.2f) = %.1e",
                        comparisons,
                        allowed,
                        VerdictRate.MEASURED,
                        VerdictRate.atLeast(comparisons, VerdictRate.MEASURED, allowed + 1))
                .isLessThanOrEqualTo(allowed);
    }

    /** "mean −0.012, sd 0.071, largest |x| 0.19 over 40": how far two moments differ when nothing changed. */
    private static String driftSummary(List<Double> logs) {
        double mean = logs.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
        double sd = Math.sqrt(
                logs.stream().mapToDouble(x -> (x - mean) * (x - mean)).sum() / Math.max(1, logs.size() - 1));
        double largest = logs.stream().mapToDouble(Math::abs).max().orElse(Double.NaN);
        return String.format(
                Locale.ROOT,
                "mean %+.3f, sd %.3f, largest |x| %.3f over %d: %s",
                mean,
                sd,
                largest,
                logs.size(),
                logs.stream().map(x -> String.format(Locale.ROOT, "%+.3f", x)).toList());
    }

    /**
     * An A/A pair while other work takes this machine's CPU during the after side only: busy loops
     * as many as its cores, started once the before side is measured. The host is slower for it
     * (the generator and, in the lab, Redis share this machine with the loops), and the verdict must
     * not be regressed: inconclusive, naming the drift. A false failure needs a call the drift guard lets
     * through, a throughput gain of 30 % or more while this machine got busier: the loops took rps down, never
     * up, in every run so far (rps -48 % on 2026-12-03, bench/results/aa-drift.txt), and the drift guard withholds
     * any change in the loops' direction; the remaining share of the suite's budget (0.02 %) is this test's.
     */
    @Test
    void anAaPairWhileThisMachineGetsBusyIsNotCalledRegressed() throws Exception {
        Host host = hosts.get(0);
        List<BenchRun> before = measure(host, Phase.BEFORE, 5);
        List<Process> loops = new ArrayList<>();
        List<BenchRun> after;
        try {
            for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
                loops.add(new ProcessBuilder("sh", "-c", "while :; do :; done").start());
            }
            after = measure(host, Phase.AFTER, 5);
        } finally {
            loops.forEach(Process::destroyForcibly);
            for (Process p : loops) {
                p.waitFor();
            }
        }
        TestComparison c = compare(before, after);
        System.out.println("A/A with busy loops on the after side: " + line(c) + drift(before, after) + "; old rule: "
                + oldRuleSeesAChange(before, after));

        MachineDrift d = MachineDrift.of(results(before), results(after)).orElseThrow();
        assertThat(c.verdict().called()).as(d.describe()).isFalse();
        // On a quiet machine the loops show as other load (41 % -> 66 %) and as fleetfix's threads waiting longer
        // for a core (their CPU 1.98 times slower). On one busy already (the suite under stress-ng: 71 % -> 76 %,
        // 86 % -> 87 %) the busy share has no room to rise, and only the wait shows them (86 % -> 93 %: 2.0 times).
        assertThat(d.rose()).as("the loops show as drift: " + d.describe()).isTrue();
        // whether the slowdown also passed the test (and was withheld) depends on how the loops share
        // the cores with the rounds; BeforeAfterTest pins that rule on known inputs
        System.out.println("  withheld: "
                + c.metrics().stream()
                        .filter(m -> m.withheld().isPresent())
                        .map(m -> m.metric().label())
                        .toList());
        assertThat(c.notes()).anySatisfy(n -> assertThat(n).contains("a change this drift alone would cause"));
    }

    /**
     * Redis throttled to a tenth of a CPU between the sides: regressed, throughput first. Two honest exceptions,
     * both the verdict's own words: when this machine's other load rose between the sides by the drift guard's
     * points, a slowdown is what that load alone could cause; and when this machine's CPU was saturated (a loaded
     * run of the suite: 87-93 % busy once), the generator's queueing is in every figure and Redis got less than its
     * quota anyway. The verdict is then withheld (inconclusive, saying which). The test fails on a call the other way,
     * a miss without one of those reasons, or a withheld call on a quiet machine.
     */
    @Test
    void aRedisThrottledByItsCpuQuotaIsCalledRegressed() {
        Host host = hosts.get(0);
        try {
            // five rounds a side: on a shared control node the rounds drift, and the test over rounds
            // needs them to see through it
            List<BenchRun> before = measure(host, Phase.BEFORE, 5);
            quota(host, "10%");
            List<BenchRun> after = measure(host, Phase.AFTER, 5);
            TestComparison c = compare(before, after);
            System.out.println("CPUQuota=10%: " + line(c) + drift(before, after) + "; old rule: "
                    + oldRuleSeesAChange(before, after));
            System.out.println(
                    "  rps per round: before " + figures(Metric.RPS, before) + ", after " + figures(Metric.RPS, after));

            java.util.Optional<MachineDrift> d = MachineDrift.of(results(before), results(after));
            boolean drifted = d.isPresent() && d.get().rose();
            boolean saturated = c.reason().orElse("").contains("this machine's CPU was saturated");
            if (c.verdict() == Verdict.INCONCLUSIVE && (drifted || saturated)) {
                // the generator shares this machine: when it had no CPU to spare, a slower Redis cannot be told from
                // a slower generator, and the verdict says which of the two reasons withheld it
                System.out.println("  withheld: "
                        + (drifted
                                ? "the competition for this machine's CPU rose between the sides"
                                : "this machine was saturated"));
                if (drifted) {
                    assertThat(c.notes())
                            .anySatisfy(n -> assertThat(n).contains("a change this drift alone would cause"));
                    assertThat(c.metrics().get(0).ratio()).as("rps fell").isLessThan(0.95);
                }
                // saturated: Redis's share of a CPU was below its quota already, so the quota may change little
                return;
            }
            assertThat(c.verdict()).as(line(c) + drift(before, after)).isEqualTo(Verdict.REGRESSED);
            MetricComparison rps = c.metrics().get(0);
            assertThat(rps.metric()).isEqualTo(Metric.RPS);
            assertThat(rps.verdict()).isEqualTo(Verdict.REGRESSED);
            assertThat(rps.high()).isLessThan(0.95);

            // how mild a throttle is still found is measured by bench/verdict-sensitivity.sh, beside an A/A pair
        } finally {
            quota(host, "");
        }
    }

    private static void quota(Host host, String value) {
        var r = fleet.rootExec(
                host.name(), "systemctl set-property --runtime redis-server CPUQuota=" + value + " && echo set");
        assertThat(r.stdout()).as(r.toString()).contains("set");
    }
}
