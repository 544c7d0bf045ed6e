package dev.fleetfix.report.html;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.Latency;
import dev.fleetfix.bench.Phase;
import dev.fleetfix.bench.WindowSample;
import dev.fleetfix.bench.plan.BenchRun;
import dev.fleetfix.bench.plan.SweepPoint;
import dev.fleetfix.report.SweepTable;
import dev.fleetfix.report.SyntheticRun;
import dev.fleetfix.report.files.FileReporter;
import dev.fleetfix.report.files.ReportFormat;
import dev.fleetfix.report.files.ReportJson;
import dev.fleetfix.report.model.ComparisonReport;
import dev.fleetfix.report.model.MetricReport;
import dev.fleetfix.rollout.event.BenchmarkFinished;
import dev.fleetfix.rollout.event.RunEvent;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A sweep in the text table, report.json and report.html; and HTML that escapes a hostile test name. */
class SweepReportTest {
    static final List<Integer> SIZES = List.of(64, 512, 1024, 2048, 4096, 8192);

    @TempDir
    Path dir;

    /** Five rounds of every size on one host; latency flat up to 1 KiB, 40 % higher from 2 KiB on. */
    static List<BenchRun> sweepRuns(String host) {
        SplittableRandom random = new SplittableRandom(7);
        List<BenchRun> runs = new ArrayList<>();
        for (int round = 0; round < 5; round++) {
            for (int size : SIZES) {
                double f = size > 1024 ? 1.4 : 1.0;
                List<WindowSample> windows = new ArrayList<>();
                for (int w = 0; w < 10; w++) {
                    double n = f * Math.exp(0.03 * random.nextGaussian());
                    windows.add(
                            new WindowSample(0.2, Math.round(8000 / n), 0.2 * n, 0.3 * n, 0.5 * n, 0.9 * n, 2 * n, 5));
                }
                long requests =
                        windows.stream().mapToLong(WindowSample::requests).sum();
                Latency latency = new Latency(
                        OptionalDouble.empty(),
                        OptionalDouble.empty(),
                        OptionalDouble.of(5),
                        Map.of(50.0, 0.2 * f, 90.0, 0.3 * f, 99.0, 0.5 * f, 99.9, 0.9 * f, 99.99, 2 * f),
                        List.of(),
                        Optional.empty());
                BenchResult r = new BenchResult(
                        "MIX", requests / 2.0, OptionalLong.of(requests), latency, windows, Optional.empty());
                runs.add(new BenchRun(host, "sizes", Phase.BEFORE, List.of(r))
                        .at(new SweepPoint(size, Optional.empty())));
            }
        }
        return runs;
    }

    @Test
    void theTextTableHasOneRowPerSizeAndSaysWhereLatencyJumps() {
        StringWriter text = new StringWriter();
        SweepTable.write(new PrintWriter(text, true), "bench", sweepRuns("lab-1"));

        String out = text.toString();
        assertThat(out).contains("HOST", "POINT", "RPS", "p99.9");
        for (int size : SIZES) {
            assertThat(out).containsPattern("lab-1 +MIX +" + size + " B +5 +[\\d,]+ +[\\d.]+ +[\\d.]+ +[\\d.]+");
        }
        assertThat(out)
                .containsPattern("lab-1 MIX 1024 B vs 512 B: no change detected; rps [−+±][\\d.]+ % \\[.*] no change"
                        + " detected")
                .containsPattern("lab-1 MIX 2048 B vs 1024 B: regressed; rps −2[0-9].\\d % \\[.*] regressed, p50"
                        + " \\+4\\d.\\d %")
                .contains("lab-1 MIX 4096 B vs 2048 B: no change detected")
                .contains("largest effects, whatever their verdict:")
                .containsPattern("\n  lab-1 MIX 2048 B vs 1024 B: p(50|99|99.9) \\+4\\d.\\d % \\[.*]; regressed\n");
    }

    private static MetricReport p99(double ratio, double low, double high, String verdict, double adjustedP) {
        return p99(ratio, low, high, verdict, adjustedP, null);
    }

    private static MetricReport p99(
            double ratio, double low, double high, String verdict, double adjustedP, String reason) {
        return new MetricReport(
                "p99",
                List.of(),
                List.of(),
                1,
                ratio,
                0,
                0,
                ratio,
                verdict,
                "batch",
                10,
                10,
                low,
                high,
                adjustedP / 2,
                adjustedP,
                null,
                0.05,
                true,
                null,
                1.0,
                ratio,
                null,
                reason);
    }

    private static ComparisonReport comparison(String verdict, MetricReport m) {
        return new ComparisonReport(
                "lab-1", "sizes", "MIX", 2, 2, List.of(m), verdict, "sweep", List.of(), List.of(), m.reason());
    }

    /**
     * Regression: a sweep of 16 comparisons judged each at alpha / 16, and a −93 % p99 whose interval left out
     * no change but whose p missed that level was printed "within noise", as if nothing had moved.
     */
    @Test
    void aLargeMoveThatMissesTheSweepsLevelIsInconclusiveWithItsReasonNotWithinNoise() {
        String why = "only after correction for 16 comparisons; rerun this point alone to confirm";
        ComparisonReport cliff = comparison("inconclusive", p99(0.07, 0.05, 0.12, "inconclusive", 0.004, why));
        assertThat(SweepTable.word(cliff)).isEqualTo("inconclusive: " + why);
        assertThat(SweepSection.badge(cliff).toString()).contains("badge verdict changed", "inconclusive", why);
        assertThat(SweepTable.largestEffects(
                        List.of(new dev.fleetfix.report.model.SweepComparisonReport(
                                "lab-1",
                                "sizes",
                                "MIX",
                                "tcp_nodelay",
                                new dev.fleetfix.report.model.SweepPointReport(8192, "on", "8192 B, TCP_NODELAY on"),
                                new dev.fleetfix.report.model.SweepPointReport(8192, "off", "8192 B, TCP_NODELAY off"),
                                cliff)),
                        3))
                .containsExactly("lab-1 MIX 8192 B, TCP_NODELAY off vs 8192 B, TCP_NODELAY on: p99 −93.0 % [−95.0 %,"
                        + " −88.0 %]; inconclusive: " + why);
        // an interval within the floor is no change detected; one around no change but wider, inconclusive
        assertThat(SweepTable.word(
                        comparison("no_change_detected", p99(0.98, 0.97, 0.99, "no_change_detected", 0.001))))
                .isEqualTo("no change detected");
        assertThat(SweepTable.word(
                        comparison("inconclusive", p99(0.90, 0.70, 1.10, "inconclusive", 0.3, "interval too wide"))))
                .isEqualTo("inconclusive: interval too wide");
        assertThat(SweepTable.word(comparison("regressed", p99(1.5, 1.3, 1.7, "regressed", 0.0001))))
                .isEqualTo("regressed");
    }

    @Test
    void benchJsonCarriesPerSizeResultsAndComparisons() throws Exception {
        JsonNode json = new ObjectMapper().readTree(ReportJson.writeBenchmarks("bench", sweepRuns("lab-1")));

        assertThat(json.get("runs")).hasSize(30);
        assertThat(json.get("runs").get(3).get("point").get("value_size").asInt())
                .isEqualTo(2048);
        assertThat(json.get("comparisons")).isEmpty();
        JsonNode rows = json.get("sweep");
        assertThat(rows).hasSize(6);
        assertThat(rows.get(2).get("point").get("label").asText()).isEqualTo("1024 B");
        assertThat(rows.get(2).get("rounds").asInt()).isEqualTo(5);
        assertThat(rows.get(2).get("p99").asDouble()).isEqualTo(0.5);
        JsonNode comparisons = json.get("sweep_comparisons");
        assertThat(comparisons).hasSize(5);
        JsonNode jump = comparisons.get(2);
        assertThat(jump.get("factor").asText()).isEqualTo("value_size");
        assertThat(jump.get("from").get("value_size").asInt()).isEqualTo(1024);
        assertThat(jump.get("to").get("value_size").asInt()).isEqualTo(2048);
        assertThat(jump.get("comparison").get("verdict").asText()).isEqualTo("regressed");
        JsonNode p50 = jump.get("comparison").get("metrics").get(1);
        assertThat(p50.get("metric").asText()).isEqualTo("p50");
        assertThat(p50.get("low").asDouble()).isLessThan(1.4);
        assertThat(p50.get("high").asDouble()).isGreaterThan(1.4);
    }

    @Test
    void theHtmlPageDrawsLatencyAndThroughputBySizeWithTheVerdicts() throws Exception {
        Path html = dir.resolve("report.html");
        FileReporter reporter = FileReporter.writing(ReportFormat.HTML, html);
        List<RunEvent> events = new ArrayList<>(SyntheticRun.events());
        int end = events.size() - 1; // before RunEnded
        for (BenchRun run : sweepRuns("r1")) {
            events.add(end++, new BenchmarkFinished(SyntheticRun.T0, "thp off", "r1", 8, "sizes", run));
        }
        events.forEach(reporter::on);

        String page = Files.readString(html);
        assertThat(page).contains("<h2>Sweeps: by value size</h2>");
        Matcher charts = Pattern.compile(
                        "<svg class=\"chart\"[^>]*aria-label=\"r1 · sizes · MIX · (latency|throughput)\"")
                .matcher(page);
        int count = 0;
        while (charts.find()) {
            count++;
        }
        assertThat(count).isEqualTo(2);
        Matcher lines = Pattern.compile(
                        "<polyline class=\"series\"[^>]*data-legend=\"(p50|p99|rps)\" points=\"([^\"]*)\"")
                .matcher(page);
        int series = 0;
        while (lines.find()) {
            series++;
            assertThat(lines.group(2).split(" ")).as(lines.group(1)).hasSize(6);
        }
        assertThat(series).isEqualTo(3);
        assertThat(page)
                .containsPattern("<td>2048 B vs 1024 B</td>.*<span class=\"badge verdict bad\">regressed</span>")
                .containsPattern(
                        "<td>1024 B vs 512 B</td>.*<span class=\"badge verdict neutral\">no change detected</span>")
                .containsPattern("<li>r1 MIX 2048 B vs 1024 B: p50 \\+40.7 % \\[[^<]*]; regressed</li>");
        // the sweep's rounds are not drawn as a before/after benchmark of their own
        assertThat(page).doesNotContain("fleet · sizes");
    }

    /** Regression: the host table put the test name, which redis-benchmark prints, into the page unescaped. */
    @Test
    void aHostileTestNameIsEscapedEverywhereOnThePage() throws Exception {
        String hostile = "<img src=x onerror=alert(1)>";
        Path html = dir.resolve("report.html");
        FileReporter reporter = FileReporter.writing(ReportFormat.HTML, html);
        for (RunEvent e : SyntheticRun.events()) {
            if (e instanceof BenchmarkFinished b) {
                BenchRun r = b.run();
                e = new BenchmarkFinished(
                        b.at(),
                        b.play(),
                        b.host(),
                        b.index(),
                        b.step(),
                        new BenchRun(
                                r.host(),
                                r.name(),
                                r.phase(),
                                List.of(r.results().get(0).renamed(hostile))));
            }
            reporter.on(e);
        }

        String page = Files.readString(html);
        assertThat(page).containsIgnoringCase("&lt;img src=x onerror=alert(1)&gt;");
        assertThat(page.toLowerCase(java.util.Locale.ROOT)).doesNotContain("<img");
    }
}
