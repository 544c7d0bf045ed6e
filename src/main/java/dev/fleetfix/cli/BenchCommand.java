package dev.fleetfix.cli;

import dev.fleetfix.InputException;
import dev.fleetfix.bench.BenchPlan;
import dev.fleetfix.bench.BuiltinBenchmark;
import dev.fleetfix.bench.ForkUnderLoad;
import dev.fleetfix.bench.ForkUnderLoadSpec;
import dev.fleetfix.bench.HostBenchmark;
import dev.fleetfix.bench.LoadGenerator;
import dev.fleetfix.bench.LoadSpec;
import dev.fleetfix.bench.Phase;
import dev.fleetfix.bench.RedisBenchmarkSpec;
import dev.fleetfix.bench.SafetyPolicy;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.report.BenchOutput;
import dev.fleetfix.transport.ShellPool;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code fleetfix bench}: an ad-hoc benchmark of the selected hosts' Redis. */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        description = "Benchmarks the selected hosts' Redis, one host after another: the builtin Jedis load"
                + " generator from this machine, or redis-benchmark run on the host over SSH. Writes only keys under"
                + " --prefix and deletes them afterwards (only the keys it wrote); refuses a prefix that already holds"
                + " keys, and a nearly full or evicting primary, unless --force.")
public final class BenchCommand implements Callable<Integer> {
    private final Adapters adapters;

    BenchCommand(Adapters adapters) {
        this.adapters = adapters;
    }

    @Spec
    CommandSpec spec;

    @Mixin
    InventoryOptions inventory;

    @Mixin
    SshOptionsMixin ssh;

    @Option(
            names = "--engine",
            defaultValue = "builtin",
            description = "builtin or redis-benchmark (default: ${DEFAULT-VALUE}).")
    String engine;

    @Option(
            names = "--json",
            description = "Print the rounds as JSON: the benchmark section of report.json (runs, comparisons, fleet).")
    boolean json;

    @Option(
            names = "--profile",
            defaultValue = "plain",
            description =
                    "plain, or fork-under-load: writes while BGSAVE forks every --bgsave-interval (builtin only).")
    String profile;

    @Option(
            names = {"-t", "--tests"},
            split = ",",
            defaultValue = "set,get",
            description = "Commands, from set, get, incr, lpush (default: ${DEFAULT-VALUE}).")
    List<String> tests;

    @Option(
            names = {"-c", "--clients"},
            defaultValue = "10",
            description = "Connections (default: ${DEFAULT-VALUE}).")
    int clients;

    @Option(
            names = {"-P", "--pipeline"},
            defaultValue = "1",
            description = "Pipeline depth (default: ${DEFAULT-VALUE}).")
    int pipeline;

    @Option(
            names = {"-d", "--data-size"},
            defaultValue = "64",
            description = "Value bytes (default: ${DEFAULT-VALUE}).")
    int dataSize;

    @Option(
            names = {"-r", "--keyspace"},
            defaultValue = "100000",
            description = "Random keys out of this many (default: ${DEFAULT-VALUE}).")
    long keyspace;

    @Option(
            names = {"-n", "--requests"},
            description = "Requests to measure (default: --duration for builtin, 100000 for redis-benchmark).")
    Long requests;

    @Option(
            names = "--duration",
            converter = DurationConverter.class,
            defaultValue = "10s",
            description = "How long the builtin engine measures (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(
            names = "--warmup",
            converter = DurationConverter.class,
            defaultValue = "2s",
            description = "Unmeasured load first (default: ${DEFAULT-VALUE}).")
    Duration warmup;

    @Option(names = "--rate", description = "Requests per second over all connections: a gentle, paced load (builtin).")
    Double rate;

    @Option(names = "--threads", description = "redis-benchmark --threads.")
    Integer threads;

    @Option(
            names = "--prefix",
            defaultValue = LoadSpec.DEFAULT_PREFIX,
            description = "Key prefix; refused when keys exist under it (default: ${DEFAULT-VALUE}).")
    String prefix;

    @Option(
            names = "--bgsave-interval",
            converter = DurationConverter.class,
            defaultValue = "1500ms",
            description = "fork-under-load: pause between BGSAVEs (default: ${DEFAULT-VALUE}).")
    Duration bgsaveInterval;

    @Option(
            names = "--rounds",
            defaultValue = "1",
            description = "Runs per host (default: ${DEFAULT-VALUE}); 3 give a median and a spread.")
    int rounds;

    @Option(
            names = "--force",
            description = "Run on a primary that is nearly full or evicts any key, or under a --prefix that already"
                    + " holds keys (they are left alone: only the benchmark's own keys are deleted).")
    boolean force;

    @Option(
            names = "--redis-timeout",
            converter = DurationConverter.class,
            defaultValue = "10s",
            description = "Redis connect and read timeout (default: ${DEFAULT-VALUE}).")
    Duration redisTimeout;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        List<Host> hosts = inventory.selectHosts();
        if (inventory.listHosts()) {
            hosts.forEach(h -> out.println(h.name()));
            return ExitCode.OK;
        }
        BenchPlan plan = plan();
        List<HostBenchmark.Outcome> outcomes;
        try (ShellPool shells = new ShellPool(adapters.shells(ssh))) {
            HostBenchmark service = new HostBenchmark(
                    adapters.benchTargets(redisTimeout),
                    shells::shell,
                    new BuiltinBenchmark(LoadGenerator.system()),
                    ForkUnderLoad.system());
            outcomes = service.run(hosts, plan);
        }
        if (json) {
            BenchOutput.json(outcomes, out, spec.commandLine().getErr());
        } else {
            BenchOutput.table(outcomes, out);
        }
        return outcomes.stream().anyMatch(o -> o.failure().isPresent()) ? ExitCode.FINDINGS : ExitCode.OK;
    }

    private BenchPlan plan() {
        Map<dev.fleetfix.bench.BenchCommand, Integer> mix = new EnumMap<>(dev.fleetfix.bench.BenchCommand.class);
        List<dev.fleetfix.bench.BenchCommand> commands = new ArrayList<>();
        for (String t : tests) {
            try {
                dev.fleetfix.bench.BenchCommand c =
                        dev.fleetfix.bench.BenchCommand.valueOf(t.strip().toUpperCase(Locale.ROOT));
                mix.put(c, 1);
                commands.add(c);
            } catch (IllegalArgumentException e) {
                throw new InputException("--tests: unknown command '" + t + "'; use set, get, incr, lpush");
            }
        }
        try {
            LoadSpec load = LoadSpec.defaults()
                    .withTest(commands.size() == 1 ? commands.get(0).name() : "MIX")
                    .withConnections(clients)
                    .withPipeline(pipeline)
                    .withMix(mix)
                    .withValueSize(dataSize)
                    .withKeyspace(keyspace)
                    .withWarmup(warmup)
                    .withKeyPrefix(prefix);
            load = requests != null ? load.withRequests(requests) : load.withDuration(duration);
            if (rate != null) {
                load = load.withRate(rate);
            }
            ForkUnderLoadSpec fork = ForkUnderLoadSpec.defaults()
                    .withLoad(load.withTest(ForkUnderLoadSpec.TEST)
                            .withMix(Map.of(dev.fleetfix.bench.BenchCommand.SET, 1)))
                    .withBgsaveInterval(bgsaveInterval);
            RedisBenchmarkSpec rb = new RedisBenchmarkSpec(
                    "127.0.0.1",
                    6379,
                    commands,
                    requests != null ? requests : 100_000,
                    clients,
                    dataSize,
                    pipeline,
                    OptionalLong.of(keyspace),
                    threads == null ? OptionalInt.empty() : OptionalInt.of(threads),
                    prefix,
                    Duration.ofMinutes(10));
            return new BenchPlan(
                    "bench",
                    engine(),
                    profile(),
                    load,
                    fork,
                    rb,
                    rounds,
                    Phase.BEFORE,
                    force ? SafetyPolicy.DEFAULT.forced() : SafetyPolicy.DEFAULT);
        } catch (IllegalArgumentException e) {
            throw new InputException(e.getMessage());
        }
    }

    private BenchPlan.Engine engine() {
        return switch (engine) {
            case "builtin" -> BenchPlan.Engine.BUILTIN;
            case "redis-benchmark" -> BenchPlan.Engine.REDIS_BENCHMARK;
            default -> throw new InputException("--engine: '" + engine + "'; use builtin or redis-benchmark");
        };
    }

    private BenchPlan.Profile profile() {
        return switch (profile) {
            case "plain" -> BenchPlan.Profile.PLAIN;
            case "fork-under-load" -> BenchPlan.Profile.FORK_UNDER_LOAD;
            default -> throw new InputException("--profile: '" + profile + "'; use plain or fork-under-load");
        };
    }
}
