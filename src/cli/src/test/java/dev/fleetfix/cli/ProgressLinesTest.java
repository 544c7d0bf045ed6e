package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.Progress;
import dev.fleetfix.fake.TestClock;
import dev.fleetfix.health.Wait;
import dev.fleetfix.report.console.ConsoleReporter;
import dev.fleetfix.report.console.LiveLine;
import dev.fleetfix.report.console.Screen;
import dev.fleetfix.rollout.event.Progressed;
import dev.fleetfix.rollout.event.RunStarted;
import dev.fleetfix.rollout.event.StepStarted;
import dev.fleetfix.rollout.event.Waiting;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The pattern the tests strip progress lines by matches what the reporters really print, and nothing a command says
 * besides: a test that strips them still fails on any other line.
 */
class ProgressLinesTest {
    private static final Instant T0 = Instant.parse("2026-11-28T01:00:00Z");

    @Test
    void auditsAndBenchsLinesAreProgress() {
        StringWriter err = new StringWriter();
        TestClock clock = new TestClock(T0);
        Progress.Listener fleet = new LiveLine(new PrintWriter(err), Screen.pipe()).listener("fleet", clock, T0);
        clock.advance(Duration.ofMillis(1200));
        fleet.progress(new Progress("audit", "0 of 3 hosts done; waiting for audit-1, audit-2, audit-3"));
        clock.advance(Duration.ofSeconds(3599));
        fleet.progress(new Progress("audit", "2 of 3 hosts done; waiting for audit-3"));
        clock.advance(Duration.ofSeconds(3600));
        fleet.progress(new Progress("audit", ""));

        assertThat(err.toString().lines())
                .containsExactly(
                        "[00:01] running: [fleet] audit: 0 of 3 hosts done; waiting for audit-1, audit-2, audit-3",
                        "[60:00] running: [fleet] audit: 2 of 3 hosts done; waiting for audit-3",
                        "[120:00] running: [fleet] audit")
                .allMatch(ProgressLines::isProgress);
        assertThat(ProgressLines.without(err.toString())).isEmpty();
    }

    @Test
    void applysRunningAndWaitingLinesAreProgressAndItsOtherLinesStay() {
        StringWriter out = new StringWriter();
        ConsoleReporter reporter = new ConsoleReporter(new PrintWriter(out), false, false, Screen.pipe());
        reporter.on(new RunStarted(T0, "20261128T010000Z", Path.of("thp-off.yaml"), false, false, 1, List.of("r1")));
        reporter.on(new StepStarted(T0, "p", "r1", 1, "bench before", "benchmark"));
        reporter.on(new Progressed(
                T0.plusSeconds(2),
                "p",
                "r1",
                "bench before",
                new Progress("benchmark thp round 1/3", "41,200 rps so far, 6s of 10s")));
        Wait back = new Wait("Redis back after the restart", "", Duration.ofSeconds(90), Duration.ofSeconds(2));
        reporter.on(new Waiting(T0.plusSeconds(3), "p", "r1", "restart_redis", back));
        reporter.on(new Waiting(
                T0.plusSeconds(9),
                "p",
                "r1",
                "restart_redis",
                new Wait(back.what(), "host r1: redis: connection refused", back.atMost(), Duration.ofSeconds(8))));
        String text = out.toString();

        assertThat(text.lines().filter(l -> l.contains("running:") || l.contains("waiting:")))
                .hasSize(3)
                .allMatch(ProgressLines::isProgress);
        assertThat(ProgressLines.without(text))
                .isEqualTo(text.lines()
                        .filter(l -> !l.contains("running:") && !l.contains("waiting:"))
                        .map(l -> l + "\n")
                        .reduce("", String::concat))
                .contains("thp-off.yaml");
    }

    @Test
    void linesThatOnlyMentionTheWordsStay() {
        List<String> said = List.of(
                "fleetfix: host r1 (10.0.0.1:22): connection lost while running: uname -r (EOF)",
                "[00:03] ok: [r1] thp: thp.enabled always → never (0.2s)",
                "[00:03] FAILED: [r1] wait_healthy: running: [r1] is not a step",
                "running: [fleet] audit",
                "lab: still booting lab-1",
                "[WARNING]: unknown Redis key redis_usr is ignored",
                "audit-1  6.1.0  always/madvise  master  no  at-risk");
        String text = String.join("\n", said) + "\n";

        assertThat(said).noneMatch(ProgressLines::isProgress);
        assertThat(ProgressLines.without(text)).isEqualTo(text);
        assertThat(ProgressLines.isProgress("lab: still booting lab-1 (3s)")).isTrue();
        assertThat(ProgressLines.without("a\n[00:02] running: [fleet] audit: 1 of 2 hosts done\nb"))
                .isEqualTo("a\nb");
    }
}
