package dev.fleetfix.report;

import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.Phase;
import dev.fleetfix.bench.WindowSample;
import dev.fleetfix.bench.load.HistogramLatency;
import dev.fleetfix.bench.plan.BenchRun;
import dev.fleetfix.health.GateResult;
import dev.fleetfix.rollout.event.BatchStarted;
import dev.fleetfix.rollout.event.BenchmarkFinished;
import dev.fleetfix.rollout.event.GateChecked;
import dev.fleetfix.rollout.event.HostFinished;
import dev.fleetfix.rollout.event.HostOutcome;
import dev.fleetfix.rollout.event.PlayStarted;
import dev.fleetfix.rollout.event.RunEnded;
import dev.fleetfix.rollout.event.RunEvent;
import dev.fleetfix.rollout.event.RunListener;
import dev.fleetfix.rollout.event.RunOutcome;
import dev.fleetfix.rollout.event.RunStarted;
import dev.fleetfix.rollout.event.RunSummary;
import dev.fleetfix.rollout.event.StepFinished;
import dev.fleetfix.steps.model.Change;
import dev.fleetfix.steps.model.FileDiff;
import dev.fleetfix.steps.model.StepResult;
import dev.fleetfix.steps.model.StepStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import org.HdrHistogram.Histogram;

/**
 * A run's events without a lab: r1 and r2 go from THP always to never with four benchmark rounds
 * before and after (a fork-like tail before, a short one after); r3 fails its restart; r4 is never
 * started.
 */
public final class SyntheticRun {
    public static final Instant T0 = Instant.parse("2026-11-28T01:30:00Z");
    public static final List<String> HOSTS = List.of("r1", "r2", "r3", "r4");

    private SyntheticRun() {}

    public static void play(RunListener listener) {
        events().forEach(listener::on);
    }

    public static List<RunEvent> events() {
        List<RunEvent> e = new ArrayList<>();
        e.add(new RunStarted(T0, "20261128T013000Z", Path.of("thp-off.yaml"), false, false, 10, HOSTS));
        e.add(new PlayStarted(
                T0,
                "thp off",
                List.of(List.of("r1", "r2", "r3"), List.of("r4")),
                50,
                java.util.Optional.of("Sat 01:00-05:00 UTC")));
        e.add(new BatchStarted(T0, "thp off", 1, 2, List.of("r1", "r2", "r3")));
        Random random = new Random(42);
        int seconds = 1;
        for (String host : List.of("r1", "r2", "r3")) {
            Instant at = T0.plusSeconds(seconds++);
            e.add(step(at, host, 1, "audit", "audit", audit()));
            if (!host.equals("r3")) {
                for (int round = 0; round < 4; round++) {
                    e.add(bench(at, host, 2, Phase.BEFORE, random));
                }
            }
            e.add(step(at, host, 2, "benchmark before", "benchmark", StepResult.ok("4 rounds")));
            e.add(step(at, host, 3, "thp", "thp", thpChanged()));
            if (host.equals("r3")) {
                e.add(step(
                        at,
                        host,
                        4,
                        "restart redis",
                        "restart_redis",
                        StepResult.failed("systemctl restart redis-server: exit 1\nJob failed")));
                e.add(new HostFinished(
                        at,
                        "thp off",
                        host,
                        HostOutcome.FAILED,
                        "restart redis: systemctl restart redis-server: exit 1",
                        Duration.ofSeconds(4),
                        Map.of("thp.enabled", "never")));
                continue;
            }
            e.add(step(at, host, 4, "restart redis", "restart_redis", StepResult.ok("restarted")));
            GateResult gate = GateResult.passed("ping", "PONG", Duration.ofMillis(120));
            StepResult healthy =
                    new StepResult(StepStatus.OK, "healthy", List.of(), List.of(), List.of(gate), Map.of());
            e.add(step(at, host, 5, "wait healthy", "wait_healthy", healthy));
            e.add(new GateChecked(at, "thp off", host, gate));
            for (int round = 0; round < 4; round++) {
                e.add(bench(at, host, 6, Phase.AFTER, random));
            }
            e.add(step(at, host, 6, "benchmark after", "benchmark", StepResult.ok("4 rounds")));
            e.add(step(at, host, 7, "maybe", "command", StepResult.skipped("when: thp.enabled == always — was never")));
            e.add(new HostFinished(
                    at,
                    "thp off",
                    host,
                    HostOutcome.DONE,
                    "",
                    Duration.ofSeconds(9),
                    Map.of("thp.enabled", "never", "thp.defrag", "madvise")));
        }
        e.add(new RunEnded(
                T0.plusSeconds(30),
                new RunSummary(
                        RunOutcome.HOSTS_FAILED,
                        "1 of 3 hosts failed",
                        List.of("r1", "r2"),
                        List.of("r3"),
                        List.of("r4"),
                        true,
                        List.of("r1", "r2", "r3"),
                        Duration.ofSeconds(30))));
        return e;
    }

    private static StepFinished step(Instant at, String host, int index, String name, String type, StepResult r) {
        return new StepFinished(at, "thp off", host, index, name, type, r, Duration.ofMillis(250 * index), 1);
    }

    private static StepResult audit() {
        return StepResult.ok("thp enabled=always defrag=madvise")
                .withFacts(Map.of(
                        "thp.enabled",
                        "always",
                        "thp.defrag",
                        "madvise",
                        "redis.version",
                        "7.0.15",
                        "kernel",
                        "6.18.0",
                        "thp.filesystem",
                        "ext4"));
    }

    private static StepResult thpChanged() {
        return new StepResult(
                StepStatus.CHANGED,
                "thp.enabled always → never",
                List.of(new Change("thp.enabled", "always", "never")),
                List.of(new FileDiff("/etc/systemd/system/fleetfix-thp.service", "--- a\n+++ b\n+never\n", "")),
                List.of(),
                Map.of("thp.enabled", "never"));
    }

    /** One round: 20k requests, most under a millisecond; before THP is off, forks stall a few. */
    private static BenchmarkFinished bench(Instant at, String host, int index, Phase phase, Random random) {
        Histogram micros = new Histogram(3_600_000_000L, 3);
        double stall = phase == Phase.BEFORE ? 150_000 : 18_000;
        double rps = phase == Phase.BEFORE ? 241_000 + random.nextInt(5000) : 374_000 + random.nextInt(5000);
        List<WindowSample> windows = new ArrayList<>();
        Histogram window = new Histogram(3_600_000_000L, 3);
        for (int i = 0; i < 20_000; i++) {
            double r = random.nextDouble();
            long v;
            if (r < 0.99) {
                v = 150 + (long) (random.nextDouble() * 600);
            } else if (r < 0.999) {
                v = 1_000 + (long) (random.nextDouble() * stall / 10);
            } else {
                v = (long) (stall * (0.5 + random.nextDouble() / 2));
            }
            micros.recordValue(v);
            window.recordValue(v);
            if (window.getTotalCount() == 2_000) { // ten windows of 2,000 requests
                windows.add(new WindowSample(
                        2_000 / (rps * (0.97 + 0.06 * random.nextDouble())),
                        2_000,
                        window.getValueAtPercentile(50) / 1000.0,
                        window.getValueAtPercentile(90) / 1000.0,
                        window.getValueAtPercentile(99) / 1000.0,
                        window.getValueAtPercentile(99.9) / 1000.0,
                        window.getValueAtPercentile(99.99) / 1000.0,
                        window.getMaxValue() / 1000.0));
                window.reset();
            }
        }
        BenchResult result = new BenchResult(
                "fork-under-load",
                rps,
                OptionalLong.of(20_000),
                HistogramLatency.of(micros),
                windows,
                Optional.empty());
        return new BenchmarkFinished(
                at,
                "thp off",
                host,
                index,
                "benchmark " + phase.name().toLowerCase(),
                new BenchRun(host, "fork", phase, List.of(result)));
    }
}
