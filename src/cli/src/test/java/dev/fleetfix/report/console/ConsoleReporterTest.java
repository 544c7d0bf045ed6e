package dev.fleetfix.report.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.Progress;
import dev.fleetfix.report.SyntheticRun;
import dev.fleetfix.rollout.event.HostFinished;
import dev.fleetfix.rollout.event.HostOutcome;
import dev.fleetfix.rollout.event.PlayHalted;
import dev.fleetfix.rollout.event.Progressed;
import dev.fleetfix.rollout.event.RunEnded;
import dev.fleetfix.rollout.event.RunOutcome;
import dev.fleetfix.rollout.event.RunStarted;
import dev.fleetfix.rollout.event.RunSummary;
import dev.fleetfix.rollout.event.StepFinished;
import dev.fleetfix.rollout.event.StepStarted;
import dev.fleetfix.steps.model.Change;
import dev.fleetfix.steps.model.StepResult;
import dev.fleetfix.steps.model.StepStatus;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConsoleReporterTest {
    private static final Instant T0 = Instant.parse("2026-11-28T01:00:00Z");

    private static String render(boolean color) {
        StringWriter text = new StringWriter();
        ConsoleReporter reporter = new ConsoleReporter(new PrintWriter(text), color, false);
        reporter.on(
                new RunStarted(T0, "20261128T010000Z", Path.of("thp-off.yaml"), false, false, 10, List.of("r1", "r2")));
        StepResult changed = new StepResult(
                StepStatus.CHANGED,
                "thp.enabled always → never",
                List.of(new Change("thp.enabled", "always", "never")),
                List.of(),
                List.of(),
                Map.of());
        reporter.on(
                new StepFinished(T0.plusSeconds(65), "p", "r1", 1, "thp", "thp", changed, Duration.ofMillis(420), 1));
        reporter.on(new StepFinished(
                T0.plusSeconds(70),
                "p",
                "r2",
                1,
                "thp",
                "thp",
                StepResult.failed("boom\nsee journalctl"),
                Duration.ofSeconds(2),
                3));
        reporter.on(new HostFinished(
                T0.plusSeconds(70), "p", "r2", HostOutcome.FAILED, "thp: boom", Duration.ofSeconds(2), Map.of()));
        reporter.on(
                new PlayHalted(T0.plusSeconds(71), "p", "batch 1: too many", List.of("r1"), List.of("r2"), List.of()));
        reporter.on(new RunEnded(
                T0.plusSeconds(72),
                new RunSummary(
                        RunOutcome.HALTED,
                        "batch 1: too many",
                        List.of("r1"),
                        List.of("r2"),
                        List.of(),
                        false,
                        List.of("r1"),
                        Duration.ofSeconds(72))));
        return text.toString();
    }

    @Test
    void plainTextLiveLinesAndRecap() {
        String out = render(false);
        assertThat(out)
                .contains("[01:05] changed: [r1] thp: thp.enabled always → never (420ms)")
                .contains("[01:10] failed: [r2] thp: boom / see journalctl (2.0s) [3 attempts]")
                .contains("HALTED [p]: batch 1: too many; no new host will be started")
                .containsPattern("r1 : ok=0 +changed=1 +failed=0 +skipped=0 +unreachable=0")
                .containsPattern("r2 : ok=0 +changed=0 +failed=1 +skipped=0 +unreachable=0")
                .contains("done:      r1")
                .contains("failed:    r2")
                .contains("untouched: -")
                .doesNotContain("\u001b[");
    }

    @Test
    void coloursOnlyWhenAsked() {
        assertThat(render(true)).contains("\u001b[33mchanged:\u001b[0m").contains("\u001b[31mfailed:\u001b[0m");
    }

    @Test
    void benchmarkRoundsThenBeforeAfterPerHostAndForTheFleet() {
        StringWriter text = new StringWriter();
        SyntheticRun.play(new ConsoleReporter(new PrintWriter(text), false, false));
        String out = text.toString();
        assertThat(out)
                .containsPattern("benchmark fork before \\S+: [\\d,]+ rps p50=[\\d.]+ms p99=[\\d.]+ms"
                        + " p99.9=[\\d.]+ms max=[\\d.]+ms")
                .contains(
                        "BENCHMARKS after vs before: median of the samples (batches of windows) before → after, its change [95 %"
                                + " interval]")
                .contains("  design: before/after; no control host")
                // rps +54 % with its interval; the tail's p99.9 and max are shown but cannot decide
                .containsPattern("  r1 fork \\S+: improved \\(4 vs 4 rounds, 8 vs 8 batches\\), rps [\\d,]+ →"
                        + " [\\d,]+ \\+5\\d % \\[\\+\\d+ %, \\+\\d+ %], p99 [\\d.]+ → [\\d.]+ [−+±]\\d+ % \\[.*]"
                        + "(?: \\(inconclusive: .*\\))?, p99.9 [\\d.]+ → [\\d.]+ −\\d+ % \\[.*] \\(not decisive\\), max [\\d.]+ → [\\d.]+ −\\d+ %"
                        + " \\[.*] \\(not decisive\\)")
                .containsPattern("  r2 fork \\S+: improved")
                // two hosts make no fleet interval: the line says so and gives none
                .contains(
                        "benchmark fork FORK-UNDER-LOAD: improved on 2 of 2 hosts, none regressed; too few"
                                + " hosts for a fleet interval (2 improved, 0 regressed, 0 no change detected, 0 inconclusive)\n")
                .doesNotContain("over hosts:");
        assertThat(out.indexOf("BENCHMARKS")).isGreaterThan(out.indexOf("RECAP"));
    }

    /** A benchmark step telling its progress each second for 12 s, then finishing. */
    private static String progressOf(Screen screen) {
        StringWriter text = new StringWriter();
        ConsoleReporter reporter = new ConsoleReporter(new PrintWriter(text), false, false, screen);
        reporter.on(new RunStarted(T0, "20261128T010000Z", Path.of("thp-off.yaml"), false, false, 1, List.of("r1")));
        reporter.on(new StepStarted(T0, "p", "r1", 1, "bench before", "benchmark"));
        for (int s = 1; s <= 12; s++) {
            reporter.on(new Progressed(
                    T0.plusSeconds(s),
                    "p",
                    "r1",
                    "bench before",
                    new Progress("benchmark thp round 1/1", s * 1000 + " rps so far")));
        }
        reporter.on(new StepFinished(
                T0.plusSeconds(13),
                "p",
                "r1",
                1,
                "bench before",
                "benchmark",
                StepResult.ok("measured"),
                Duration.ofSeconds(13),
                1));
        return text.toString();
    }

    @Test
    void offATerminalAStepsProgressGetsALineAtMostEvery4s() {
        String text = progressOf(Screen.pipe());

        assertThat(text.lines().filter(l -> l.contains("running:")))
                .containsExactly(
                        "[00:01] running: [r1] bench before: benchmark thp round 1/1: 1000 rps so far (1.0s)",
                        "[00:05] running: [r1] bench before: benchmark thp round 1/1: 5000 rps so far (5.0s)",
                        "[00:09] running: [r1] bench before: benchmark thp round 1/1: 9000 rps so far (9.0s)");
        assertThat(text).contains("\n[00:13] ok: [r1] bench before: measured (13.0s)");
    }

    @Test
    void onATerminalAStepsProgressIsOneLineRewrittenInPlaceThatMakesWayForTheNext() {
        String text = progressOf(new Screen(true, 120));

        assertThat(text)
                .contains("\r[00:12] running: [r1] bench before: benchmark thp round 1/1: 12000 rps so far (12.0s)")
                .doesNotContain("\n[00:05] running:");
        String afterLive = text.substring(text.lastIndexOf('\r') + 1);
        assertThat(afterLive).startsWith("[00:13] ok: [r1] bench before: measured (13.0s)");
    }

    @Test
    void onATerminalALongStepLineGoesOnOnIndentedLinesWithinTheWidth() {
        StringWriter text = new StringWriter();
        ConsoleReporter reporter = new ConsoleReporter(new PrintWriter(text), false, false, new Screen(true, 60));
        reporter.on(new RunStarted(T0, "20261128T010000Z", Path.of("thp-off.yaml"), false, false, 1, List.of("r1")));
        String message = "thp.enabled always → never; " + "defrag madvise → never; ".repeat(8) + "done";
        reporter.on(new StepFinished(
                T0.plusSeconds(3), "p", "r1", 1, "thp", "thp", StepResult.ok(message), Duration.ofMillis(420), 1));

        List<String> lines = text.toString().lines().toList();
        assertThat(lines).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(60));
        assertThat(lines.get(0)).isEqualTo("RUN thp-off.yaml: 1 host, forks 1");
        assertThat(lines.get(1)).startsWith("[00:03] ok: [r1] thp: thp.enabled always → never;");
        assertThat(lines.subList(2, lines.size())).allSatisfy(l -> assertThat(l).startsWith("          "));
        assertThat(String.join(" ", lines.subList(1, lines.size())).replaceAll(" +", " "))
                .isEqualTo("[00:03] ok: [r1] thp: " + message.replaceAll(" +", " ") + " (420ms)");
    }

    @Test
    void offATerminalALongLineStaysWhole() {
        StringWriter text = new StringWriter();
        ConsoleReporter reporter = new ConsoleReporter(new PrintWriter(text), false, false, Screen.pipe());
        String message = "defrag madvise → never; ".repeat(20);
        reporter.on(new StepFinished(
                T0.plusSeconds(3), "p", "r1", 1, "thp", "thp", StepResult.ok(message), Duration.ofMillis(420), 1));
        assertThat(text.toString().lines()).hasSize(1);
    }
}
