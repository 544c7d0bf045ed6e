package dev.fleetfix.cli;

import dev.fleetfix.bench.load.ProfileOutcome;
import dev.fleetfix.bench.plan.ForkUnderLoadSpec;
import dev.fleetfix.bench.plan.LoadSpec;
import dev.fleetfix.bench.plan.SafetyPolicy;
import dev.fleetfix.bench.verdict.BeforeAfter;
import dev.fleetfix.bench.verdict.TestComparison;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.RedisAuth;
import dev.fleetfix.inventory.RedisEndpoint;
import dev.fleetfix.redis.load.BenchTarget;
import dev.fleetfix.report.console.ThpDemoOutput;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
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
        /** Connect and read timeout of the local Redis: a BGSAVE of a large keyspace may hold a reply. */
        private static final Duration REDIS_TIMEOUT = Duration.ofSeconds(60);

        private final Adapters adapters;

        Run(Adapters adapters) {
            this.adapters = adapters;
        }

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
            LoadSpec load = ForkUnderLoadSpec.defaults().load().toBuilder()
                    .connections(connections)
                    .keyspace(keyspace)
                    .valueSize(valueSize)
                    .warmup(Duration.ofSeconds(warmup))
                    .duration(Duration.ofSeconds(seconds))
                    .build();
            ForkUnderLoadSpec profile =
                    ForkUnderLoadSpec.defaults().withLoad(load).withBgsaveInterval(Duration.ofMillis(intervalMs));
            Host local = Host.implicitLocalhost().toBuilder()
                    .redis(new RedisEndpoint("127.0.0.1", port, RedisAuth.NONE, false, "redis-server"))
                    .build();
            ProfileOutcome outcome;
            try (BenchTarget target = adapters.benchTargets(REDIS_TIMEOUT).apply(local)) {
                outcome = adapters.forkUnderLoad().run(target, profile, SafetyPolicy.DEFAULT);
            }
            PrintWriter printed = spec.commandLine().getOut();
            if (outcome instanceof ProfileOutcome.Skipped skipped) {
                ThpDemoOutput.skipped(skipped, printed);
                return 1;
            }
            ProfileOutcome.Ran ran = (ProfileOutcome.Ran) outcome;
            ThpDemoOutput.save(out, label, ran);
            ThpDemoOutput.measured(ran, printed);
            return ExitCode.OK;
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
            List<ThpDemoOutput.SavedRun> beforeRuns = ThpDemoOutput.read(before);
            List<ThpDemoOutput.SavedRun> afterRuns = ThpDemoOutput.read(after);
            TestComparison comparison = BeforeAfter.INTERLEAVED.compare(
                    "localhost",
                    "fork-under-load",
                    ForkUnderLoadSpec.TEST,
                    beforeRuns.stream().map(ThpDemoOutput.SavedRun::result).toList(),
                    afterRuns.stream().map(ThpDemoOutput.SavedRun::result).toList());
            ThpDemoOutput.comparison(
                    comparison, beforeRuns, afterRuns, spec.commandLine().getOut());
            return ExitCode.OK;
        }
    }
}
