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
import java.io.PrintStream;
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
import java.util.stream.Collectors;

/**
 * The driver of {@code bench/thp-demo.sh}: runs the fork-under-load profile against a local Redis
 * and saves the figures ({@code run}), then prints two saved runs side by side ({@code compare}).
 * The script owns the kernel setting and the Redis processes; this class only measures and prints.
 */
public final class ThpDemo {
    private ThpDemo() {}

    public static void main(String[] args) throws IOException {
        if (args.length >= 1 && args[0].equals("run")) {
            System.exit(run(options(args), System.out));
        } else if (args.length == 3 && args[0].equals("compare")) {
            compare(paths(args[1]), paths(args[2]), System.out);
        } else {
            System.err.println("usage: ThpDemo run --port P --out FILE [--label L] [--seconds S] [--warmup S]"
                    + " [--connections N] [--keyspace K] [--value-size B] [--interval-ms MS]\n"
                    + "       ThpDemo compare BEFORE_FILE[,BEFORE_FILE...] AFTER_FILE[,AFTER_FILE...]");
            System.exit(ExitCode.USAGE);
        }
    }

    private static List<Path> paths(String commaSeparated) {
        return java.util.Arrays.stream(commaSeparated.split(",")).map(Path::of).toList();
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> options = new HashMap<>();
        for (int i = 1; i + 1 < args.length; i += 2) {
            options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        return options;
    }

    static int run(Map<String, String> o, PrintStream out) throws IOException {
        int port = Integer.parseInt(o.get("port"));
        LoadSpec load = ForkUnderLoadSpec.defaults()
                .load()
                .withConnections(Integer.parseInt(o.getOrDefault("connections", "50")))
                .withKeyspace(Long.parseLong(o.getOrDefault("keyspace", "1000000")))
                .withValueSize(Integer.parseInt(o.getOrDefault("value-size", "1000")))
                .withWarmup(Duration.ofSeconds(Long.parseLong(o.getOrDefault("warmup", "3"))))
                .withDuration(Duration.ofSeconds(Long.parseLong(o.getOrDefault("seconds", "45"))));
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
        return ExitCode.OK;
    }

    /** Prints the medians of each side's rounds, their range, the ratio and the verdict per figure. */
    static void compare(List<Path> beforeFiles, List<Path> afterFiles, PrintStream out) throws IOException {
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
