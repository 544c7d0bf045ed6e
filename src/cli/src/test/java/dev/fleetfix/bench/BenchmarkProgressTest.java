package dev.fleetfix.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.bench.host.HostBenchmark;
import dev.fleetfix.bench.load.BuiltinBenchmark;
import dev.fleetfix.bench.load.ForkUnderLoad;
import dev.fleetfix.bench.load.LoadGenerator;
import dev.fleetfix.bench.plan.BenchPlan;
import dev.fleetfix.bench.plan.ForkUnderLoadSpec;
import dev.fleetfix.bench.plan.LoadSpec;
import dev.fleetfix.bench.plan.RedisBenchmarkSpec;
import dev.fleetfix.fake.TestHosts;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.redis.load.Operation;
import dev.fleetfix.report.console.BenchOutput;
import dev.fleetfix.report.console.LiveLine;
import dev.fleetfix.report.console.Screen;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A benchmark of three rounds of 2 s warm-up and 10 s measured, on a fake clock that each request moves by a
 * millisecond, shown as {@code fleetfix bench} shows it: no gap of 2 s without a line on a terminal; off a terminal a
 * line at most every 4 s for the same round, and never more than 5 s without one.
 */
class BenchmarkProgressTest {
    private final AtomicLong nanos = new AtomicLong();
    private final FakeTarget target =
            new FakeTarget(nanos, n -> Duration.ofMillis(1).toNanos());
    private final LoadGenerator generator = new LoadGenerator(nanos::get, d -> nanos.addAndGet(d.toNanos()));
    private final HostBenchmark bench = new HostBenchmark(
            h -> target,
            h -> {
                throw new UnsupportedOperationException("no shell");
            },
            new BuiltinBenchmark(generator),
            new ForkUnderLoad(generator, nanos::get, d -> nanos.addAndGet(d.toNanos())));
    private final Host host = TestHosts.local("redis-1", false);

    /** A line shown, and when on the fake clock. */
    private record Shown(Instant at, String text) {}

    @Test
    void offATerminalALineComesAtMostEvery4sPerRoundAndNeverMoreThan5sApart() {
        List<Shown> shown = run(Screen.pipe());

        assertThat(shown.get(0).at()).isBefore(Instant.EPOCH.plusSeconds(2));
        for (int i = 1; i < shown.size(); i++) {
            Duration gap = Duration.between(shown.get(i - 1).at(), shown.get(i).at());
            assertThat(gap)
                    .as("%s after %s", shown.get(i), shown.get(i - 1))
                    .isLessThanOrEqualTo(Duration.ofSeconds(5));
            if (what(shown.get(i)).equals(what(shown.get(i - 1)))) {
                assertThat(gap)
                        .as("%s after %s", shown.get(i), shown.get(i - 1))
                        .isGreaterThanOrEqualTo(LiveLine.PIPE_EVERY);
            }
        }
        // the second of the fake clock a line falls on depends on how the generator's threads interleave
        assertThat(shown).extracting(Shown::text).anySatisfy(line -> assertThat(line)
                .matches("\\[00:[0-9]{2}\\] running: \\[redis-1\\] benchmark thp round 2/3: 1,000 rps so far, "
                        + "[0-9]+s of 10s"));
    }

    @Test
    void onATerminalTheLineIsRewrittenInPlaceAtLeastEvery2s() {
        StringWriter text = new StringWriter();
        List<Shown> shown = run(new Screen(true, 80), text);

        assertThat(shown.get(0).at()).isBefore(Instant.EPOCH.plusSeconds(2));
        for (int i = 1; i < shown.size(); i++) {
            assertThat(Duration.between(shown.get(i - 1).at(), shown.get(i).at()))
                    .as("%s after %s", shown.get(i), shown.get(i - 1))
                    .isLessThan(Duration.ofSeconds(2));
        }
        assertThat(text.toString()).doesNotContain("\n").contains("\r[00:");
        assertThat(text.toString().split("\r"))
                .allSatisfy(line -> assertThat(line.length()).isLessThan(80));
    }

    /** What runs, as a line names it: "benchmark thp round 2/3". */
    private static String what(Shown s) {
        String rest = s.text().substring(s.text().indexOf("] benchmark") + 2);
        return rest.contains(": ") ? rest.substring(0, rest.indexOf(": ")) : rest;
    }

    private List<Shown> run(Screen screen) {
        return run(screen, new StringWriter());
    }

    /** The benchmark, its progress through the bench command's lines; the lines shown, with their times. */
    private List<Shown> run(Screen screen, StringWriter text) {
        Clock clock = new Clock() {
            @Override
            public ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return Instant.EPOCH.plusNanos(nanos.get());
            }
        };
        List<Shown> shown = new ArrayList<>();
        LiveLine live = new LiveLine(new PrintWriter(text), screen);
        var lines = BenchOutput.progress(live, clock);
        HostBenchmark.Outcome outcome = bench.run(List.of(host), plan(), h -> {
                    var listener = lines.apply(h);
                    return p -> {
                        int before = text.getBuffer().length();
                        listener.progress(p);
                        if (text.getBuffer().length() > before) {
                            String out = text.getBuffer().substring(before).strip();
                            shown.add(new Shown(clock.instant(), out.substring(out.lastIndexOf('\r') + 1)));
                        }
                    };
                })
                .get(0);
        assertThat(outcome.rounds()).hasSize(3);
        return shown;
    }

    private static BenchPlan plan() {
        LoadSpec load = LoadSpec.builder()
                .connections(1)
                .keyspace(100)
                .warmup(Duration.ofSeconds(2))
                .duration(Duration.ofSeconds(10))
                .build();
        return new BenchPlan(
                "thp",
                BenchPlan.Engine.BUILTIN,
                BenchPlan.Profile.PLAIN,
                load,
                ForkUnderLoadSpec.defaults()
                        .withLoad(load.toBuilder().test(ForkUnderLoadSpec.TEST).build()),
                new RedisBenchmarkSpec(
                        "127.0.0.1",
                        6379,
                        List.of(Operation.SET),
                        1000,
                        1,
                        3,
                        1,
                        OptionalLong.empty(),
                        OptionalInt.empty(),
                        LoadSpec.DEFAULT_PREFIX,
                        Duration.ofMinutes(1)),
                3,
                Phase.BEFORE,
                dev.fleetfix.bench.plan.SafetyPolicy.DEFAULT);
    }
}
