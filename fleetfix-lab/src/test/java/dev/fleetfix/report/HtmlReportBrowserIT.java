package dev.fleetfix.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Renders a report.html in headless Chromium (src/test/browser/prepare-chromium.sh installs it):
 * the charts have points once the browser drew them, the page logs no error, and a screenshot is
 * saved under target/browser/ for people to look at.
 */
class HtmlReportBrowserIT {
    private static final Path OUT = Path.of("fleetfix-lab", "target", "browser");
    private static Path html;

    @BeforeAll
    static void writeReport() throws IOException {
        Files.createDirectories(OUT);
        html = OUT.resolve("report.html").toAbsolutePath();
        Files.deleteIfExists(html);
        SyntheticRun.play(new HtmlReporter(html));
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

    private static int number(String tag, String attribute) {
        Matcher m = Pattern.compile(attribute + "=\"(\\d+)\"").matcher(tag);
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }

    private static HeadlessChromium.Browser chromium(String... args) throws Exception {
        return HeadlessChromium.run(OUT, args);
    }
}
