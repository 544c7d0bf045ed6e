package dev.fleetfix.report.files;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.cli.CliRun;
import dev.fleetfix.report.SyntheticRun;
import dev.fleetfix.report.console.ConsoleReporter;
import dev.fleetfix.report.html.Html;
import dev.fleetfix.report.model.FleetReport;
import dev.fleetfix.report.model.HostReport;
import dev.fleetfix.rollout.event.RunListener;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class ReportFilesTest {
    @TempDir
    Path dir;

    private String console;

    @BeforeEach
    void run() {
        StringWriter text = new StringWriter();
        java.util.List<RunListener> listeners = new java.util.ArrayList<>(ReportFiles.reporters(dir));
        listeners.add(new ConsoleReporter(new PrintWriter(text), false, false));
        SyntheticRun.play(RunListener.all(listeners));
        console = text.toString();
    }

    @Test
    void reportFilesFollowTheUmaskLikeAnyNewFileOfTheUser() throws Exception {
        // Java cannot set the umask: compare with a file this process makes the ordinary way (0644 under umask 022)
        Path plain = Files.writeString(dir.resolve("plain.txt"), "x");
        Set<PosixFilePermission> expected = Files.getPosixFilePermissions(plain);

        assertThat(expected).contains(PosixFilePermission.OTHERS_READ, PosixFilePermission.GROUP_READ);
        for (Path report : ReportFiles.paths(dir)) {
            assertThat(Files.getPosixFilePermissions(report))
                    .as(report.toString())
                    .isEqualTo(expected);
        }
    }

    @Test
    void jsonHasTheDocumentedSnakeCaseFieldsAndReadsBack() throws Exception {
        String json = Files.readString(dir.resolve("report.json"));
        assertThat(json)
                .contains("\"schema_version\" : 3")
                .contains("\"thp_before\" : \"always\"")
                .contains("\"thp_after\" : \"never\"")
                .contains("\"max_fail_percentage\" : 50")
                .contains("\"p99.9\"")
                .contains("\"median_ratio\"")
                .doesNotContain("schemaVersion", "elapsedMs", "Infinity", "NaN");
        FleetReport report = ReportJson.read(dir.resolve("report.json"));
        assertThat(report.run().outcome()).isEqualTo("hosts_failed");
        assertThat(report.hosts()).extracting(HostReport::name).containsExactly("r1", "r2", "r3", "r4");
        assertThat(report.hosts())
                .extracting(HostReport::outcome)
                .containsExactly("done", "done", "failed", "untouched");
        HostReport r1 = report.hosts().get(0);
        assertThat(r1.facts()).containsEntry("redis.version", "7.0.15").containsEntry("thp.enabled", "never");
        // the hosts' THP file is on ext4, not sysfs: the expectation says a benchmark cannot show a THP effect
        assertThat(r1.expectation())
                .startsWith("THP here is not the kernel's (not on sysfs: ext4): a benchmark cannot show a THP effect;")
                .contains("kernel 6.18.0 >= 5.8");
        assertThat(json).contains("\"expectation\" : \"THP here is not the kernel's (not on sysfs: ext4)");
        assertThat(console)
                .contains("  expect r1: THP here is not the kernel's (not on sysfs: ext4): a benchmark cannot show a"
                        + " THP effect; kernel 6.18.0 >= 5.8");
        assertThat(Files.readString(dir.resolve("report.html")))
                .contains(
                        "THP here is not the kernel&#39;s (not on sysfs: ext4): a benchmark cannot show a THP effect");
        assertThat(r1.steps().get(2).changes().get(0).before()).isEqualTo("always");
        assertThat(r1.steps().get(4).gates().get(0).gate()).isEqualTo("ping");
        assertThat(report.benchmarks().runs()).hasSize(16);
        assertThat(report.benchmarks().runs().get(0).tests().get(0).percentiles())
                .containsKeys("p50", "p90", "p99", "p99.9", "p99.99", "max");
        assertThat(report.benchmarks().runs().get(0).tests().get(0).distribution())
                .hasSizeGreaterThan(20);
        assertThat(report.benchmarks().comparisons()).hasSize(2).allSatisfy(c -> assertThat(c.verdict())
                .isEqualTo("improved"));
        assertThat(report.benchmarks().fleet()).singleElement().satisfies(f -> {
            assertThat(f.verdict()).isEqualTo("improved");
            // two hosts benchmarked (r3 failed before its after side): no fleet figures, and the reason says so
            assertThat(f.reason()).isEqualTo("on 2 of 2 hosts, none regressed; too few hosts for a fleet interval");
            assertThat(f.medianRatio()).isEmpty();
            assertThat(f.effects()).isEmpty();
        });
        // written again from what was read: the same text
        assertThat(ReportJson.write(report)).isEqualTo(json);
    }

    @Test
    void reportShowPrintsTheSameRecapAsTheRun() {
        CliRun run = CliRun.of("report", "show", dir.toString());
        String recap = console.substring(console.indexOf("RECAP"));
        assertThat(run.stdout()).as(run.toString()).isEqualTo(recap);
        assertThat(recap)
                .contains("r1 : ok=5   changed=1   failed=0   skipped=1   unreachable=0")
                .contains("r3 : ok=2   changed=1   failed=1")
                .contains("hosts failed: 1 of 3 hosts failed")
                .contains("untouched: r4")
                .contains("benchmark fork FORK-UNDER-LOAD: improved on 2 of 2 hosts");
        assertThat(run.exitCode()).isEqualTo(1);
    }

    @Test
    void reportShowNamesAMissingReport() {
        CliRun run = CliRun.of("report", "show", dir.resolve("nowhere").toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.stderr()).contains("nowhere").contains("report.json");
    }

    @Test
    void junitHasOneTestcasePerHostAndStep() throws Exception {
        Document xml = DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(dir.resolve("junit.xml").toFile());
        Element root = xml.getDocumentElement();
        assertThat(root.getTagName()).isEqualTo("testsuites");
        // r1, r2: 7 steps; r3: 4 steps; r4: one "not started"; 2 host and 1 fleet benchmark verdicts
        assertThat(root.getAttribute("tests")).isEqualTo("22");
        assertThat(root.getAttribute("failures")).isEqualTo("1");
        NodeList cases = xml.getElementsByTagName("testcase");
        assertThat(cases.getLength()).isEqualTo(22);
        Element fleetVerdict = (Element) cases.item(21);
        assertThat(fleetVerdict.getAttribute("classname")).isEqualTo("fleet");
        assertThat(fleetVerdict.getElementsByTagName("system-out").item(0).getTextContent())
                .isEqualTo("improved on 2 of 2 hosts, none regressed; too few hosts for a fleet interval");
        NodeList failures = xml.getElementsByTagName("failure");
        assertThat(failures.getLength()).isEqualTo(1);
        Element failure = (Element) failures.item(0);
        assertThat(((Element) failure.getParentNode()).getAttribute("classname"))
                .isEqualTo("r3");
        assertThat(failure.getAttribute("message")).isEqualTo("systemctl restart redis-server: exit 1");
        assertThat(xml.getElementsByTagName("skipped").getLength()).isEqualTo(3);
        Element suite = (Element) xml.getElementsByTagName("testsuite").item(0);
        assertThat(suite.getAttribute("name")).isEqualTo("thp off");
        assertThat(suite.getAttribute("skipped")).isEqualTo("2");
    }

    @Test
    void htmlIsSelfContainedWithLogAxisChartsThatHavePoints() throws Exception {
        String html = Files.readString(dir.resolve("report.html"));
        assertThat(html).doesNotContain("http://", "https://", "<link", " src=", "@import", "url(");
        assertThat(html)
                .contains(
                        "<svg class=\"chart\"",
                        "99.99%",
                        "90%",
                        "latency (ms)",
                        "before (4 rounds)",
                        "after (4 rounds)");
        assertThat(html).contains("fleet · fork · FORK-UNDER-LOAD", "r1 · fork · FORK-UNDER-LOAD");
        assertThat(html).contains("<code>always</code> → <code class=\"ok\">never</code>");
        Matcher polylines = Pattern.compile("<polyline class=\"series\"[^>]* points=\"([^\"]*)\"")
                .matcher(html);
        int lines = 0;
        while (polylines.find()) {
            lines++;
            assertThat(polylines.group(1).split(" ")).hasSizeGreaterThan(5);
        }
        // fleet: before + after; r1 and r2: 4 rounds each side
        assertThat(lines).isEqualTo(2 + 2 * 8);
        assertThat(html).contains("id=\"console-errors\"");
    }

    @Test
    void htmlEscapesWhatHostsSay() {
        assertThat(Html.escape("<script>alert(\"x\")</script> & 'y'"))
                .isEqualTo("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;");
    }
}
