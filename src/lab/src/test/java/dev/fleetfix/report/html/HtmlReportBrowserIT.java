package dev.fleetfix.report.html;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.bench.verdict.Thresholds;
import dev.fleetfix.report.SyntheticRun;
import dev.fleetfix.report.files.FileReporter;
import dev.fleetfix.report.files.ReportCollector;
import dev.fleetfix.report.files.ReportFormat;
import dev.fleetfix.report.model.BenchmarkReport;
import dev.fleetfix.report.model.ComparisonReport;
import dev.fleetfix.report.model.FleetComparisonReport;
import dev.fleetfix.report.model.FleetReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Renders a report.html in headless Chromium (src/test/browser/prepare-chromium.sh installs it):
 * the charts have points once the browser drew them, the page logs no error, every verdict's reason is text a
 * reader sees, and screenshots are saved under target/browser/ for people to look at.
 */
class HtmlReportBrowserIT {
    private static final Path OUT = Path.of("src/lab", "target", "browser");
    private static Path html;

    @BeforeAll
    static void writeReport() throws IOException {
        Files.createDirectories(OUT);
        html = OUT.resolve("report.html").toAbsolutePath();
        Files.deleteIfExists(html);
        SyntheticRun.play(FileReporter.writing(ReportFormat.HTML, html));
        assertThat(html).exists();
    }

    @Test
    void chartsHavePointsAfterRenderingAndTheConsoleHasNoErrors() throws Exception {
        HeadlessChromium.Browser run = chromium("--dump-dom", html.toUri().toString());
        String dom = run.stdout();
        assertThat(dom).as(run.toString()).contains("<svg class=\"chart\"");
        Matcher charts = Pattern.compile("<svg class=\"chart\"[^>]*>").matcher(dom);
        int count = 0;
        while (charts.find()) {
            count++;
            String tag = charts.group();
            assertThat(number(tag, "data-rendered-points")).as(tag).isGreaterThan(10);
            assertThat(number(tag, "data-rendered-width")).as(tag).isGreaterThan(100);
        }
        assertThat(count).isEqualTo(3);
        assertThat(dom).contains("data-charts=\"3\"");
        Matcher errors =
                Pattern.compile("<pre id=\"console-errors\"[^>]*>([^<]*)</pre>").matcher(dom);
        assertThat(errors.find()).as(dom).isTrue();
        assertThat(errors.group(1)).as("errors the page recorded").isEmpty();
        assertThat(errors.group()).contains("data-count=\"0\"");
        assertThat(run.stderr()).doesNotContain("Uncaught");
    }

    @Test
    void screenshot() throws Exception {
        Path png = OUT.resolve("report.png").toAbsolutePath();
        Files.deleteIfExists(png);
        HeadlessChromium.Browser run = chromium(
                "--screenshot=" + png, "--window-size=1280,2000", html.toUri().toString());
        assertThat(png).as(run.toString()).exists();
        byte[] bytes = Files.readAllBytes(png);
        assertThat(bytes.length).as("a rendered page, not a blank one").isGreaterThan(50_000);
        assertThat(new String(bytes, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
        assertThat(run.stderr()).doesNotContain("Uncaught");
    }

    /**
     * Every verdict word with its reason, as the text the browser shows (innerText, which leaves out what CSS hides
     * and never holds a tooltip): the run's own comparisons, re-labelled so that one page holds all four words.
     */
    @Test
    void everyVerdictWordShowsItsReasonAsVisibleText() throws Exception {
        ReportCollector collector = new ReportCollector();
        SyntheticRun.play(collector);
        FleetReport report = collector.report();
        BenchmarkReport bench = report.benchmarks();
        ComparisonReport r1 = bench.comparisons().get(0);
        ComparisonReport r2 = bench.comparisons().get(1);
        List<ComparisonReport> comparisons =
                List.of(relabel(r1, "inconclusive", NOT_SIGNIFICANT), relabel(r2, "no_change_detected", null));
        FleetComparisonReport f = bench.fleet().get(0);
        FleetComparisonReport fleet = new FleetComparisonReport(
                f.name(), f.test(), f.medianRatio(), f.hosts(), 0, 2, 1, 0, "regressed", ON_TWO_OF_THREE, f.effects());
        FleetReport page = new FleetReport(
                report.schemaVersion(),
                report.run(),
                report.plays(),
                report.hosts(),
                new BenchmarkReport(
                        bench.runs(), comparisons, List.of(fleet), bench.sweep(), bench.sweepComparisons()));
        Path file = OUT.resolve("verdicts.html").toAbsolutePath();
        // after the page's own scripts: what a reader sees, as one attribute the DOM dump carries
        String visible = "<script>document.body.setAttribute('data-visible-text', document.body.innerText);</script>";
        Files.writeString(file, HtmlPage.render(page).replace("</body>", visible + "</body>"));

        HeadlessChromium.Browser run = chromium("--dump-dom", file.toUri().toString());
        Matcher m = Pattern.compile("data-visible-text=\"([^\"]*)\"").matcher(run.stdout());
        assertThat(m.find()).as(run.toString()).isTrue();
        String text = m.group(1)
                .replace("&amp;", "&")
                .replace("&#39;", "'")
                .replace("&lt;", "<")
                .replace("&gt;", ">");
        // badges are upper-cased by CSS; their reasons are not
        assertThat(text)
                .contains("INCONCLUSIVE: " + NOT_SIGNIFICANT)
                .contains("NO CHANGE DETECTED")
                .contains("REGRESSED " + ON_TWO_OF_THREE)
                .contains("IMPROVED")
                // a figure's own reason, in its row
                // the p99 of a synthetic host, judged against the tail floor of two moments
                .containsPattern("INCONCLUSIVE: interval too wide \\(the tests that the change lies within the ±"
                        + Math.round(Thresholds.DEFAULT.tailDriftFloor() * 100)
                        + " % effect floor give p [\\d.]+, not below 0\\.05")
                .contains("not decisive: the maximum is a single request");
        assertThat(run.stdout()).doesNotContain("title=\"");

        Path png = OUT.resolve("verdicts.png").toAbsolutePath();
        Files.deleteIfExists(png);
        HeadlessChromium.Browser shot = chromium(
                "--screenshot=" + png, "--window-size=1280,1400", file.toUri().toString());
        assertThat(png).as(shot.toString()).exists();
    }

    private static final String NOT_SIGNIFICANT = "not significant after correction; this machine's CPU was saturated";
    private static final String ON_TWO_OF_THREE = "on 2 of 3 hosts, none improved";

    private static ComparisonReport relabel(ComparisonReport c, String verdict, String reason) {
        return new ComparisonReport(
                c.host(),
                c.name(),
                c.test(),
                c.beforeRounds(),
                c.afterRounds(),
                c.metrics(),
                verdict,
                c.design(),
                c.calibration(),
                c.notes(),
                reason);
    }

    private static int number(String tag, String attribute) {
        Matcher m = Pattern.compile(attribute + "=\"(\\d+)\"").matcher(tag);
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }

    private static HeadlessChromium.Browser chromium(String... args) throws Exception {
        return HeadlessChromium.run(OUT, args);
    }
}
