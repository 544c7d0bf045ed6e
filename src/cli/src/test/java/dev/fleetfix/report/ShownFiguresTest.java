package dev.fleetfix.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.Phase;
import dev.fleetfix.bench.WindowSample;
import dev.fleetfix.bench.load.HistogramLatency;
import dev.fleetfix.bench.plan.BenchRun;
import dev.fleetfix.redis.load.RedisEvidence;
import dev.fleetfix.report.console.ConsoleReporter;
import dev.fleetfix.report.files.ReportCollector;
import dev.fleetfix.report.files.ReportJson;
import dev.fleetfix.report.html.HtmlPage;
import dev.fleetfix.report.model.FleetReport;
import dev.fleetfix.report.model.MetricReport;
import dev.fleetfix.rollout.event.BenchmarkFinished;
import dev.fleetfix.rollout.event.RunEnded;
import dev.fleetfix.rollout.event.RunEvent;
import dev.fleetfix.rollout.event.RunOutcome;
import dev.fleetfix.rollout.event.RunStarted;
import dev.fleetfix.rollout.event.RunSummary;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reader checks a change against the two figures printed beside it. The rounds' own rps (one
 * figure per round) can differ by 2 % while the windows the statistics compare have the same
 * median: the line must then show the windows' medians, whose ratio is the change it prints, and
 * never 85,012 → 83,124 next to "±0 %".
 */
class ShownFiguresTest {
    private static final Instant T0 = Instant.parse("2026-12-01T05:00:00Z");

    /** Ten windows per round at the same rates on both sides; only the round figures differ by 2 %. */
    private static BenchmarkFinished round(Phase phase, double roundRps) {
        return round(phase, roundRps, 0.30);
    }

    private static BenchmarkFinished round(Phase phase, double roundRps, double p50) {
        Histogram micros = new Histogram(3_600_000_000L, 3);
        for (int i = 0; i < 1000; i++) {
            micros.recordValue(200 + i % 400);
        }
        List<WindowSample> windows = new ArrayList<>();
        for (int w = 0; w < 10; w++) {
            double rps = 84_000 + 100 * w;
            windows.add(new WindowSample(
                    8_400 / rps,
                    8_400,
                    p50 + (roundRps % 7) * 0.001 + w * 0.002,
                    0.70,
                    0.80 + w * 0.01,
                    0.9,
                    1.2,
                    2.0));
        }
        BenchResult r = new BenchResult(
                "SET", roundRps, OptionalLong.of(84_000), HistogramLatency.of(micros), windows, Optional.empty());
        return new BenchmarkFinished(T0, "p", "lab-1", 1, "bench", new BenchRun("lab-1", "b", phase, List.of(r)));
    }

    private static List<RunEvent> events() {
        return events(0.30, 0.30);
    }

    private static List<RunEvent> events(double p50Before, double p50After) {
        List<RunEvent> e = new ArrayList<>();
        e.add(new RunStarted(T0, "20261201T050000Z", Path.of("p.yaml"), false, false, 1, List.of("lab-1")));
        for (double rps : new double[] {85_012, 85_100, 84_950, 85_060}) {
            e.add(round(Phase.BEFORE, rps, p50Before));
        }
        for (double rps : new double[] {83_124, 83_200, 83_050, 83_160}) {
            e.add(round(Phase.AFTER, rps, p50After));
        }
        e.add(new RunEnded(
                T0.plusSeconds(20),
                new RunSummary(
                        RunOutcome.OK,
                        "",
                        List.of("lab-1"),
                        List.of(),
                        List.of(),
                        false,
                        List.of(),
                        Duration.ofSeconds(20))));
        return e;
    }

    private static final Pattern RPS = Pattern.compile("rps ([\\d,]+) → ([\\d,]+) ([−+±])(\\d+) %");

    @Test
    void theRecapLineShowsTheFiguresItsChangeIsComputedFrom() {
        StringWriter text = new StringWriter();
        ConsoleReporter console = new ConsoleReporter(new PrintWriter(text), false, false);
        events().forEach(console::on);
        String line = text.toString()
                .lines()
                .filter(l -> l.startsWith("  lab-1 b SET:"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no comparison line in\n" + text));

        Matcher m = RPS.matcher(line);
        assertThat(m.find()).as(line).isTrue();
        double before = Double.parseDouble(m.group(1).replace(",", ""));
        double after = Double.parseDouble(m.group(2).replace(",", ""));
        long shown = ("−".equals(m.group(3)) ? -1 : 1) * Long.parseLong(m.group(4));
        assertThat(Math.round((after / before - 1) * 100))
                .as("the change printed beside %s → %s in: %s", m.group(1), m.group(2), line)
                .isEqualTo(shown);
    }

    /**
     * Regression: the recap line shows rps, p99, p99.9 and max; a verdict decided by p50 alone read
     * "regressed" beside figures that had all improved or not moved (an A/A pair in CI: "regressed …
     * p99 −83 %"). The figure that decided is shown too.
     */
    @Test
    void theFigureThatDecidedTheVerdictIsOnTheLineEvenWhenItIsNotOneUsuallyShown() {
        StringWriter text = new StringWriter();
        ConsoleReporter console = new ConsoleReporter(new PrintWriter(text), false, false);
        events(0.30, 0.60).forEach(console::on);
        String line = text.toString()
                .lines()
                .filter(l -> l.startsWith("  lab-1 b SET:"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no comparison line in\n" + text));

        assertThat(line).as(line).contains(": regressed (").containsPattern("p50 0\\.3\\d → 0\\.6\\d \\+\\d+ %");
        assertThat(line).as("p90 did not move and stays off the line").doesNotContain("p90");
    }

    @Test
    void redisOwnFiguresStandBesideTheComparisonWithWhatWasNotRead() {
        List<RunEvent> events = new ArrayList<>(events());
        String sameBoth = "LATENCY: the latency monitor is off";
        RedisEvidence before = new RedisEvidence(
                java.util.Map.of("latest_fork_usec", "48000", "rdb_last_cow_size", "2097152"),
                OptionalLong.of(329_728),
                List.of(),
                List.of(new RedisEvidence.LatencySpike(1, 48), new RedisEvidence.LatencySpike(2, 34)),
                List.of(sameBoth));
        RedisEvidence after = new RedisEvidence(
                java.util.Map.of("latest_fork_usec", "3000", "rdb_last_cow_size", "4096"),
                OptionalLong.of(0),
                List.of(),
                List.of(),
                List.of(sameBoth, "AnonHugePages: no shell"));
        for (int i = 0; i < events.size(); i++) {
            if (events.get(i) instanceof BenchmarkFinished b && (i == 3 || i == 6)) {
                events.set(
                        i,
                        new BenchmarkFinished(
                                b.at(),
                                b.play(),
                                b.host(),
                                b.index(),
                                b.step(),
                                b.run().withEvidence(i == 3 ? before : after)));
            }
        }
        StringWriter text = new StringWriter();
        ConsoleReporter console = new ConsoleReporter(new PrintWriter(text), false, false);
        events.forEach(console::on);

        assertThat(text.toString())
                .contains("    redis (its own figures after the last round): latest_fork_usec 48000 → 3000,"
                        + " rdb_last_cow_size 2097152 → 4096, AnonHugePages 329,728 kB → 0 kB,"
                        + " LATENCY fork 2 spikes (latest 34 ms, max 48 ms) → none,"
                        + " not read: LATENCY: the latency monitor is off; after: AnonHugePages: no shell");
    }

    @TempDir
    Path dir;

    @Test
    void reportJsonAndHtmlShowTheSameFiguresAsTheChange() throws java.io.IOException {
        ReportCollector collector = new ReportCollector();
        events().forEach(collector::on);
        FleetReport report = ReportJson.read(write(collector.report()));
        MetricReport rps = report.benchmarks().comparisons().get(0).metrics().get(0);
        assertThat(rps.metric()).isEqualTo("rps");
        // the rounds' medians stay in the file for what they are...
        assertThat(rps.beforeMedian()).isEqualTo(85_036);
        assertThat(rps.afterMedian()).isEqualTo(83_142);
        // ...and the change is the ratio of the figures shown with it
        assertThat(rps.ratio()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
        String html = HtmlPage.render(report);
        String row = html.substring(html.indexOf("<tr><td>rps</td>"));
        row = row.substring(0, row.indexOf("</tr>"));
        Matcher cells = Pattern.compile("<td>([\\d,.]+)</td><td>([\\d,.]+)</td><td>([^<]+)</td>")
                .matcher(row);
        assertThat(cells.find()).as(row).isTrue();
        double before = Double.parseDouble(cells.group(1).replace(",", ""));
        double after = Double.parseDouble(cells.group(2).replace(",", ""));
        assertThat(String.format(Locale.ROOT, "%.3f", after / before))
                .as(row)
                .isEqualTo(String.format(Locale.ROOT, "%.3f", rps.ratio()));
        assertThat(cells.group(3)).startsWith("±0 %");
    }

    private Path write(FleetReport report) throws java.io.IOException {
        Path file = dir.resolve(ReportJson.FILE);
        java.nio.file.Files.writeString(file, ReportJson.write(report));
        return file;
    }
}
