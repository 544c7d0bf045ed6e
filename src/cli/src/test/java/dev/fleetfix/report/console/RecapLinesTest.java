package dev.fleetfix.report.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.Phase;
import dev.fleetfix.bench.WindowSample;
import dev.fleetfix.bench.load.HistogramLatency;
import dev.fleetfix.bench.plan.BenchRun;
import dev.fleetfix.rollout.event.BenchmarkFinished;
import dev.fleetfix.rollout.event.HostFinished;
import dev.fleetfix.rollout.event.HostOutcome;
import dev.fleetfix.rollout.event.RunEnded;
import dev.fleetfix.rollout.event.RunOutcome;
import dev.fleetfix.rollout.event.RunStarted;
import dev.fleetfix.rollout.event.RunSummary;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * {@link RecapLines}' patterns against the real recap over 120 seeded runs of 2 to 4 hosts: A/A pairs, shifts
 * both ways, quiet and noisy rounds, throttled throughput. Every benchmark line must match the pattern of the verdict
 * it carries, and every verdict must come out somewhere, so the patterns were tried on each word.
 */
class RecapLinesTest {
    private static final Instant T0 = Instant.parse("2026-12-03T10:00:00Z");
    private static final String[] WORDS = {"improved", "regressed", "no change detected", "inconclusive"};
    private static final Pattern HOST_LINE = Pattern.compile("\n  (lab-\\d) thp \\S+: ([a-z ]+)[:(]");
    private static final Pattern FLEET_LINE = Pattern.compile("\nbenchmark thp \\S+: ([a-z ]+?)(?::| on )");

    @Test
    void everyHostAndFleetLineMatchesThePatternOfItsVerdict() {
        SplittableRandom random = new SplittableRandom(20261203);
        Map<Verdict, Integer> hostSeen = new EnumMap<>(Verdict.class);
        Map<Verdict, Integer> fleetSeen = new EnumMap<>(Verdict.class);
        for (int run = 0; run < 120; run++) {
            int hosts = 2 + random.nextInt(3);
            String out = render(hosts, random);
            Matcher m = HOST_LINE.matcher(out);
            int lines = 0;
            while (m.find()) {
                String word = m.group(2).trim();
                Verdict v = Verdict.of(word);
                hostSeen.merge(v, 1, Integer::sum);
                assertThat(out).as(word).containsPattern(RecapLines.host(m.group(1), "thp", 4, word));
                lines++;
            }
            assertThat(lines).as(out).isEqualTo(hosts);
            Matcher f = FLEET_LINE.matcher(out);
            assertThat(f.find()).as(out).isTrue();
            Verdict fleet = Verdict.of(f.group(1));
            fleetSeen.merge(fleet, 1, Integer::sum);
            assertThat(out).containsPattern(RecapLines.fleet("thp", hosts, fleet.word));
            for (Verdict other : Verdict.values()) {
                if (other != fleet) {
                    assertThat(out).doesNotContainPattern(RecapLines.fleet("thp", hosts, other.word));
                }
            }
        }
        assertThat(hostSeen).as("host verdicts seen").containsOnlyKeys(Verdict.values());
        assertThat(fleetSeen).as("fleet verdicts seen").containsOnlyKeys(Verdict.values());
    }

    private enum Verdict {
        IMPROVED("improved"),
        REGRESSED("regressed"),
        NO_CHANGE("no change detected"),
        INCONCLUSIVE("inconclusive");

        final String word;

        Verdict(String word) {
            this.word = word;
        }

        static Verdict of(String word) {
            for (Verdict v : values()) {
                if (v.word.equals(word)) {
                    return v;
                }
            }
            throw new AssertionError("not a verdict word: " + word);
        }
    }

    /** One run's recap: each host gets a latency shift and noise of its own. */
    private static String render(int hosts, SplittableRandom random) {
        StringWriter text = new StringWriter();
        ConsoleReporter reporter = new ConsoleReporter(new PrintWriter(text), false, false);
        List<String> names = new ArrayList<>();
        for (int h = 1; h <= hosts; h++) {
            names.add("lab-" + h);
        }
        reporter.on(new RunStarted(T0, "20261203T100000Z", Path.of("thp-off.yaml"), false, false, 10, names));
        for (String host : names) {
            double[] shifts = {1.0, 1.0, 0.5, 2.0, 1.1, 0.9, 8.0};
            double shift = shifts[random.nextInt(shifts.length)];
            double[] sigmas = {0.005, 0.03, 0.15, 0.6};
            double roundSigma = sigmas[random.nextInt(sigmas.length)];
            double windowSigma = sigmas[random.nextInt(sigmas.length)];
            double baseRps = random.nextBoolean() ? 80_000 : 900;
            for (Phase phase : List.of(Phase.BEFORE, Phase.AFTER)) {
                double f = phase == Phase.BEFORE ? 1.0 : shift;
                for (int round = 0; round < 4; round++) {
                    double roundFactor = Math.exp(roundSigma * random.nextGaussian());
                    reporter.on(new BenchmarkFinished(
                            T0,
                            "thp off",
                            host,
                            phase == Phase.BEFORE ? 2 : 6,
                            "benchmark " + phase.name().toLowerCase(),
                            new BenchRun(
                                    host,
                                    "thp",
                                    phase,
                                    List.of(round(baseRps, f * roundFactor, windowSigma, random)))));
                }
            }
            reporter.on(new HostFinished(T0, "thp off", host, HostOutcome.DONE, "", Duration.ofSeconds(9), Map.of()));
        }
        reporter.on(new RunEnded(
                T0.plusSeconds(60),
                new RunSummary(RunOutcome.OK, "", names, List.of(), List.of(), true, names, Duration.ofSeconds(60))));
        return text.toString();
    }

    private static BenchResult round(double baseRps, double shift, double sigma, SplittableRandom random) {
        Histogram micros = new Histogram(60_000_000L, 2);
        List<WindowSample> windows = new ArrayList<>();
        long total = 0;
        double seconds = 0;
        for (int w = 0; w < 10; w++) {
            double f = shift * Math.exp(sigma * random.nextGaussian());
            double rps = baseRps / f;
            long requests = Math.max(1, Math.round(rps * 0.3));
            double p50 = 0.12 * f;
            windows.add(new WindowSample(0.3, requests, p50, p50 * 1.6, p50 * 3, p50 * 20, p50 * 40, p50 * 60));
            micros.recordValueWithCount(Math.max(1, Math.round(p50 * 1000)), requests);
            total += requests;
            seconds += 0.3;
        }
        return new BenchResult(
                "fork-under-load",
                total / seconds,
                OptionalLong.of(total),
                HistogramLatency.of(micros),
                windows,
                Optional.empty());
    }
}
