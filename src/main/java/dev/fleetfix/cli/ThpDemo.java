package dev.fleetfix.cli;

import dev.fleetfix.bench.BeforeAfter;
import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.ForkUnderLoad;
import dev.fleetfix.bench.ForkUnderLoadSpec;
import dev.fleetfix.bench.HistogramLatency;
import dev.fleetfix.bench.LoadSpec;
import dev.fleetfix.bench.Metric;
import dev.fleetfix.bench.MetricComparison;
import dev.fleetfix.bench.ProfileOutcome;
import dev.fleetfix.bench.SafetyPolicy;
import dev.fleetfix.bench.TestComparison;
import dev.fleetfix.inventory.RedisAuth;
import dev.fleetfix.inventory.RedisEndpoint;
import dev.fleetfix.redis.jedis.JedisBenchTarget;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code fleetfix thp-demo} (hidden), the driver of {@code bench/thp-demo.sh}: runs the
 * fork-under-load profile against a local Redis and saves the figures ({@code run}), then prints two
 * saved runs side by side ({@code compare}). The script owns the kernel setting and the Redis
 * processes; this command only measures and prints.
 */
@Command(
        name = "thp-demo",
        hidden = true,
        mixinStandardHelpOptions = true,
        description = "The driver of bench/thp-demo.sh: measure a local Redis under load (run), compare runs.",
        subcommands = {ThpDemo.Run.class, ThpDemo.Compare.class})
final class ThpDemo implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(
            name = "run",
            mixinStandardHelpOptions = true,
            description = "Runs fork-under-load against 127.0.0.1:PORT and saves the figures to FILE.")
    static final class Run implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--port", required = true, paramLabel = "P")
        int port;

        @Option(names = "--out", required = true, paramLabel = "FILE")
        Path out;

        @Option(names = "--label", defaultValue = "run")
        String label;

        @Option(names = "--seconds", defaultValue = "45")
        long seconds;

        @Option(names = "--warmup", defaultValue = "3")
        long warmup;

        @Option(names = "--connections", defaultValue = "50")
        int connections;

        @Option(names = "--keyspace", defaultValue = "1000000")
        long keyspace;

        @Option(names = "--value-size", defaultValue = "1000")
        int valueSize;

        @Option(names = "--interval-ms", defaultValue = "1500")
        long intervalMs;

        @Override
        public Integer call() throws IOException {
            Map<String, String> o = new HashMap<>();
            o.put("port", Integer.toString(port));
            o.put("out", out.toString());
            o.put("label", label);
            o.put("seconds", Long.toString(seconds));
            o.put("warmup", Long.toString(warmup));
            o.put("connections", Integer.toString(connections));
            o.put("keyspace", Long.toString(keyspace));
            o.put("value-size", Integer.toString(valueSize));
            o.put("interval-ms", Long.toString(intervalMs));
            return ThpDemo.run(o, spec.commandLine().getOut());
        }
    }

    @Command(
            name = "compare",
            mixinStandardHelpOptions = true,
            description = "Prints two sides' saved runs: medians, range, ratio and verdict per figure.")
    static final class Compare implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", split = ",", paramLabel = "BEFORE_FILE")
        List<Path> before;

        @Parameters(index = "1", split = ",", paramLabel = "AFTER_FILE")
        List<Path> after;

        @Override
        public Integer call() throws IOException {
            ThpDemo.compare(before, after, spec.commandLine().getOut());
            return ExitCode.OK;
        }
    }

    static int run(Map<String, String> o, PrintWriter out) throws IOException {
        int port = Integer.parseInt(o.get("port"));
        LoadSpec load = ForkUnderLoadSpec.defaults().load().toBuilder()
                .connections(Integer.parseInt(o.getOrDefault("connections", "50")))
                .keyspace(Long.parseLong(o.getOrDefault("keyspace", "1000000")))
                .valueSize(Integer.parseInt(o.getOrDefault("value-size", "1000")))
                .warmup(Duration.ofSeconds(Long.parseLong(o.getOrDefault("warmup", "3"))))
                .duration(Duration.ofSeconds(Long.parseLong(o.getOrDefault("seconds", "45"))))
                .build();
        ForkUnderLoadSpec spec = ForkUnderLoadSpec.defaults()
                .withLoad(load)
                .withBgsaveInterval(Duration.ofMillis(Long.parseLong(o.getOrDefault("interval-ms", "1500"))));
        RedisEndpoint endpoint = new RedisEndpoint("127.0.0.1", port, RedisAuth.NONE, false, "redis-server");
        ProfileOutcome outcome;
        try (JedisBenchTarget target =
                JedisBenchTarget.connect("localhost", endpoint, Optional.empty(), Duration.ofSeconds(60))) {
            outcome = ForkUnderLoad.system().run(target, spec, SafetyPolicy.DEFAULT);
        }
        if (outcome instanceof ProfileOutcome.Skipped skipped) {
            out.println("fork-under-load skipped: " + skipped.reason());
            return 1;
        }
        ProfileOutcome.Ran ran = (ProfileOutcome.Ran) outcome;
        BenchResult r = ran.load().result();
        String forks =
                ran.forks().stream().map(f -> Long.toString(f.forkMicros())).collect(Collectors.joining(","));
        List<String> lines = List.of(
                "label=" + o.getOrDefault("label", "run"),
                "rps=" + r.rps(),
                "requests=" + r.requests().orElse(0),
                "errors=" + ran.load().errors(),
                "fork_usec=" + forks,
                "keys_deleted=" + ran.keysDeleted(),
                "histogram=" + r.latency().histogram().orElseThrow());
        Files.write(Path.of(o.get("out")), lines, StandardCharsets.UTF_8);
        out.printf(
                Locale.ROOT,
                "  measured %d SETs in %.1f s, %d errors, %d BGSAVE forks (fork µs: %s), %d benchmark keys deleted%n",
                r.requests().orElse(0),
                ran.load().measured().toMillis() / 1000.0,
                ran.load().errors(),
                ran.forks().size(),
                forks.isEmpty() ? "-" : forks,
                ran.keysDeleted());
        out.flush();
        return ExitCode.OK;
    }

    /** Prints the medians of each side's rounds, their range, the ratio and the verdict per figure. */
    static void compare(List<Path> beforeFiles, List<Path> afterFiles, PrintWriter out) throws IOException {
        List<Map<String, String>> before = read(beforeFiles);
        List<Map<String, String>> after = read(afterFiles);
        String bl = "THP " + before.get(0).get("label");
        String al = "THP " + after.get(0).get("label");
        TestComparison c = BeforeAfter.DEFAULT.compare(
                "localhost",
                "fork-under-load",
                ForkUnderLoadSpec.TEST,
                before.stream().map(ThpDemo::result).toList(),
                after.stream().map(ThpDemo::result).toList());
        out.printf(
                Locale.ROOT,
                "%-12s %26s %26s %7s  %s%n",
                "median",
                bl + " (rounds min-max)",
                al + " (rounds min-max)",
                "ratio",
                "verdict");
        for (MetricComparison m : c.metrics()) {
            String unit = m.metric() == Metric.RPS ? "" : " ms";
            out.printf(
                    Locale.ROOT,
                    "%-12s %26s %26s %7.2f  %s%n",
                    m.metric().label() + unit,
                    median(m.metric(), m.beforeSampleMedian(), m.before()),
                    median(m.metric(), m.afterSampleMedian(), m.after()),
                    m.ratio(),
                    m.verdict().name().toLowerCase(Locale.ROOT));
        }
        out.printf(Locale.ROOT, "%-12s %26s %26s%n", "BGSAVE forks", forks(before), forks(after));
        out.println("verdict, " + al + " against " + bl + " over " + before.size() + "+" + after.size()
                + " rounds (medians must differ by more than the rounds' spread and 5 %): " + c.verdict());
        out.flush();
    }

    private static String median(Metric metric, double median, List<Double> rounds) {
        return String.format(
                Locale.ROOT,
                "%s (%s-%s)",
                format(metric, median),
                format(
                        metric,
                        rounds.stream().mapToDouble(Double::doubleValue).min().orElse(0)),
                format(
                        metric,
                        rounds.stream().mapToDouble(Double::doubleValue).max().orElse(0)));
    }

    private static String format(Metric m, double value) {
        return m == Metric.RPS
                ? String.format(Locale.ROOT, "%.0f", value)
                : String.format(Locale.ROOT, value >= 100 ? "%.1f" : "%.2f", value);
    }

    private static BenchResult result(Map<String, String> saved) {
        return new BenchResult(
                ForkUnderLoadSpec.TEST,
                Double.parseDouble(saved.get("rps")),
                OptionalLong.of(Long.parseLong(saved.get("requests"))),
                HistogramLatency.of(HistogramLatency.decode(saved.get("histogram"))));
    }

    /** Fork durations of every round, in ms: "2.6, 101.6 | 3.1". */
    private static String forks(List<Map<String, String>> rounds) {
        return rounds.stream()
                .map(r -> r.getOrDefault("fork_usec", ""))
                .map(f -> f.isBlank()
                        ? "-"
                        : java.util.Arrays.stream(f.split(","))
                                .map(us -> String.format(Locale.ROOT, "%.0f", Long.parseLong(us) / 1000.0))
                                .collect(Collectors.joining(",")))
                .collect(Collectors.joining(" | ", "", " ms"));
    }

    private static List<Map<String, String>> read(List<Path> files) throws IOException {
        List<Map<String, String>> all = new java.util.ArrayList<>();
        for (Path f : files) {
            all.add(read(f));
        }
        return all;
    }

    private static Map<String, String> read(Path file) throws IOException {
        Map<String, String> values = new HashMap<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                values.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return values;
    }
}
