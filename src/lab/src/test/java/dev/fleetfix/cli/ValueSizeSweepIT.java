package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleetfix.lab.LabCli;
import dev.fleetfix.lab.LabFleet;
import dev.fleetfix.lab.LabHostSpec;
import dev.fleetfix.report.html.HeadlessChromium;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * playbooks/value-size-sweep.yaml on one lab host (with shorter rounds, so the IT stays short): the
 * recap has the table and a comparison per neighbouring pair, report.html draws the sweep's charts
 * in headless Chromium, and the benchmark's keys are gone. {@code fleetfix bench --value-size ...
 * --json} gives per-size results.
 *
 * <p>It runs beside another lab test: what it asserts is the shape of the answer (the table, the four words, the
 * charts), never a figure or which word.
 */
class ValueSizeSweepIT {
    private static final Path OUT = Path.of("src/lab", "target", "browser");

    /**
     * Requests a second, below what the slowest point answers (8 KiB SETs with TCP_NODELAY off, Nagle's cliff: about
     * 360 a second on the lab), so that every round ends on time: at 2,000 that point's rounds ran 3 s for their 1 s,
     * catching up on the requests the schedule had fallen behind by.
     */
    private static final int RATE = 300;

    private static LabFleet fleet;

    @TempDir
    Path dir;

    @BeforeAll
    static void startFleet() {
        fleet = LabFleet.start(List.of(LabHostSpec.named("sweep-1")));
    }

    @AfterAll
    static void removeFleet() {
        if (fleet != null) {
            fleet.close();
        }
    }

    /**
     * The shipped playbook with rounds of 1 s, still 5 of them: with alpha split over its 16 comparisons, no
     * comparison of fewer rounds could call a change (3 rounds, 6 batches a point, reach p 0.0022 where 0.0001 is
     * needed), and they are refused when the playbook is read (DesignCheck). Paced ({@link #RATE}): no figure is
     * asserted, and flat out its 12 points took a core of load generator and one of Redis for a minute and a half.
     */
    private Path playbook() throws Exception {
        String text = Files.readString(Path.of("playbooks", "value-size-sweep.yaml"));
        String shorter = text.replace(
                "duration: 3s, warmup: 1s, rounds: 5", "duration: 1s, warmup: 200ms, rounds: 5, rate: " + RATE);
        assertThat(shorter).as("the playbook's benchmark settings").isNotEqualTo(text);
        Path file = dir.resolve("value-size-sweep.yaml");
        Files.writeString(file, shorter);
        return file;
    }

    private static String redisCli(String args) {
        return LabCli.redis(fleet, "sweep-1", args).stdout().strip();
    }

    @Test
    void thePlaybookPrintsTheTableAndTheHtmlPageDrawsTheChartInABrowser() throws Exception {
        Path report = dir.resolve("report");
        CliRun run = CliRun.of(
                "apply",
                playbook().toString(),
                "-i",
                fleet.inventoryFile().toString(),
                "--no-color",
                "--report",
                report.toString());
        System.out.println(run);
        assertThat(run.exitCode()).as(run.toString()).isZero();
        String out = run.stdout();
        for (String point : List.of("64 B", "512 B", "1024 B", "2048 B", "4096 B", "8192 B")) {
            for (String setting : List.of("on", "off")) {
                assertThat(out)
                        .containsPattern("sweep-1 +MIX +" + point + ", tcp_nodelay " + setting
                                + " +5 +[\\d,]+ +[\\d.]+ +[\\d.]+ +[\\d.]+");
            }
        }
        // any of the four words: unlike an A/A run the honest answer is not known in advance (a
        // larger value and Nagle's delay may really cost something on this host); what the sweep
        // answers is the rumour itself, so only the shape of the answer is asserted here
        assertThat(out)
                .containsPattern("sweep-1 MIX 2048 B, tcp_nodelay on vs 1024 B, tcp_nodelay on:"
                        + " (improved|regressed|no change detected|inconclusive: [^\\n]*?); rps [−+±][\\d,.]+ % \\[[−+±][\\d,.]+ %,"
                        + " [−+±][\\d,.]+ %]")
                .containsPattern("sweep-1 MIX 1024 B, tcp_nodelay off vs 1024 B, tcp_nodelay on:"
                        + " (improved|regressed|no change detected|inconclusive: )")
                .contains("largest effects, whatever their verdict:");
        assertThat(redisCli("--scan --pattern 'fleetfix:bench:*' | wc -l"))
                .as("benchmark keys left")
                .isEqualTo("0");

        Path html = report.resolve("report.html").toAbsolutePath();
        HeadlessChromium.Browser browser =
                HeadlessChromium.run(OUT, "--dump-dom", html.toUri().toString());
        String dom = browser.stdout();
        Matcher charts = Pattern.compile("<svg class=\"chart\"[^>]*aria-label=\"sweep-1 · value-size · MIX · "
                        + "(latency|throughput)\"[^>]*>")
                .matcher(dom);
        int count = 0;
        while (charts.find()) {
            count++;
            // p50 and p99 at both settings, or rps at both: 6 sizes each
            assertThat(HeadlessChromium.number(charts.group(), "data-rendered-points"))
                    .as(charts.group())
                    .isGreaterThanOrEqualTo(12);
            assertThat(HeadlessChromium.number(charts.group(), "data-rendered-width"))
                    .as(charts.group())
                    .isGreaterThan(100);
        }
        assertThat(count).as(browser.toString()).isEqualTo(2);
        assertThat(dom).contains("2048 B, tcp_nodelay on vs 1024 B, tcp_nodelay on");
        Matcher errors =
                Pattern.compile("<pre id=\"console-errors\"[^>]*>([^<]*)</pre>").matcher(dom);
        assertThat(errors.find()).as(dom).isTrue();
        assertThat(errors.group(1)).as("errors the page recorded").isEmpty();
        Path png = OUT.resolve("sweep.png").toAbsolutePath();
        HeadlessChromium.run(
                OUT,
                "--screenshot=" + png,
                "--window-size=1280,2400",
                html.toUri().toString());
        assertThat(png).exists();
    }

    @Test
    void benchJsonCarriesPerSizeResults() throws Exception {
        CliRun run = CliRun.of(
                "bench",
                "-i",
                fleet.inventoryFile().toString(),
                "--value-size",
                "64,1024",
                "--duration",
                "500ms",
                "--warmup",
                "100ms",
                // 4 rounds of two batches: the fewest with which one comparison can call a change (2 rounds decide
                // no figure and are refused before any host)
                "--rounds",
                "4",
                "--keyspace",
                "1000",
                "--json");
        assertThat(run.exitCode()).as(run.toString()).isZero();
        JsonNode json = new ObjectMapper().readTree(run.stdout());
        assertThat(json.get("runs")).hasSize(8);
        assertThat(json.get("sweep"))
                .extracting(r -> r.get("point").get("value_size").asInt())
                .containsExactly(64, 1024);
        assertThat(json.get("sweep")).allSatisfy(r -> {
            assertThat(r.get("host").asText()).isEqualTo("sweep-1");
            assertThat(r.get("rounds").asInt()).isEqualTo(4);
            assertThat(r.get("rps").asDouble()).isPositive();
            assertThat(r.get("p99").asDouble()).isPositive();
        });
        JsonNode c = json.get("sweep_comparisons").get(0);
        assertThat(c.get("from").get("value_size").asInt()).isEqualTo(64);
        assertThat(c.get("to").get("value_size").asInt()).isEqualTo(1024);
        // 64 B against 1024 B may truly differ: the word is not known in advance, only that it is one of three
        assertThat(c.get("comparison").get("verdict").asText())
                .isIn("improved", "regressed", "no_change_detected", "inconclusive");
        assertThat(c.get("comparison").get("metrics").get(0).get("low").isNumber())
                .isTrue();
    }
}
