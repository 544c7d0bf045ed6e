package dev.fleetfix.cli;

import dev.fleetfix.InputException;
import dev.fleetfix.bench.host.HostBenchmark;
import dev.fleetfix.bench.plan.BenchPlan;
import dev.fleetfix.bench.plan.BenchPlanBuilder;
import dev.fleetfix.bench.plan.LoadSpec;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.HostSelection;
import dev.fleetfix.report.console.BenchOutput;
import dev.fleetfix.report.console.HostList;
import dev.fleetfix.report.console.LiveLine;
import dev.fleetfix.steps.benchmark.BenchDesign;
import dev.fleetfix.transport.ShellPool;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code fleetfix bench}: an ad-hoc benchmark of the selected hosts' Redis. */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        description = "Benchmarks the selected hosts' Redis, one host after another: the builtin Jedis load"
                + " generator from this machine, or redis-benchmark run on the host over SSH. Writes only keys under"
                + " --prefix and deletes them afterwards (only the keys it wrote); refuses a prefix that already holds"
                + " keys, and a nearly full or evicting primary, unless --force; refuses even then a maxmemory that"
                + " leaves no room for 1.5 times its keys, and stops at the first key Redis evicts.")
public final class BenchCommand extends HostsCommand implements Callable<Integer>, JsonOutput {
    BenchCommand(Adapters adapters) {
        super(adapters);
    }

    @Option(
            names = "--engine",
            defaultValue = "builtin",
            description = "builtin or redis-benchmark (default: ${DEFAULT-VALUE}).")
    String engine;

    @Option(
            names = "--json",
            description = "Print the rounds as JSON: schema_version and the benchmark section of report.json (runs,"
                    + " comparisons, fleet); an error as a JSON document (docs/json.md).")
    boolean json;

    @Option(
            names = "--profile",
            defaultValue = "plain",
            description =
                    "plain, or fork-under-load: writes while BGSAVE forks every --bgsave-interval (builtin only).")
    String profile;

    @Option(
            names = "--tests",
            split = ",",
            defaultValue = "set,get",
            description = "Commands, from set, get, incr, lpush (default: ${DEFAULT-VALUE}). No short form: -t is"
                    + " apply's --tags.")
    List<String> tests;

    // -t was --tests' short form, as in redis-benchmark, while apply's -t is --tags: it is refused with the new
    // spelling rather than left unknown (an unknown option would get picocli's nearest guess)
    @Option(names = "-t", hidden = true, paramLabel = "TESTS")
    String oldTests;

    @Option(
            names = {"-c", "--clients"},
            description = "Connections (default: 10).")
    String clients;

    @Option(
            names = {"-P", "--pipeline"},
            description = "Pipeline depth (default: 1).")
    String pipeline;

    @Option(
            names = {"-d", "--value-size", "--data-size"},
            paramLabel = "BYTES[,BYTES...]",
            description = "Value bytes (default: " + BenchPlanBuilder.DEFAULT_VALUE_SIZE + "). A list such as"
                    + " 64,512,1024,2048,4096,8192 sweeps the sizes: every round runs each size, and each size is"
                    + " compared with the next smaller one.")
    String valueSizes;

    @Option(
            names = "--tcp-nodelay",
            paramLabel = "on|off|on,off",
            description = "The builtin client's TCP_NODELAY (default: the client's own, on). on,off measures both"
                    + " and compares off (Nagle's algorithm on) with on.")
    String tcpNoDelay;

    @Option(
            names = {"-r", "--keyspace"},
            description = "Random keys out of this many (default: 100000).")
    String keyspace;

    @Option(
            names = {"-n", "--requests"},
            description = "Requests to measure (default: --duration for builtin, 100000 for redis-benchmark).")
    String requests;

    @Option(
            names = "--duration",
            converter = DurationConverter.class,
            description = "How long the builtin engine measures (default: 10s).")
    Duration duration;

    @Option(
            names = "--warmup",
            converter = DurationConverter.class,
            description = "Unmeasured load first (default: 2s; builtin).")
    Duration warmup;

    @Option(names = "--rate", description = "Requests per second over all connections: a gentle, paced load (builtin).")
    String rate;

    @Option(names = "--threads", description = "redis-benchmark --threads.")
    String threads;

    @Option(
            names = "--prefix",
            defaultValue = LoadSpec.DEFAULT_PREFIX,
            description = "Key prefix; refused when keys exist under it (default: ${DEFAULT-VALUE}).")
    String prefix;

    @Option(
            names = "--bgsave-interval",
            converter = DurationConverter.class,
            description = "fork-under-load: pause between BGSAVEs (default: 1500ms).")
    Duration bgsaveInterval;

    @Option(
            names = "--rounds",
            description = "Runs per host (default: 1, and " + BenchPlanBuilder.DEFAULT_SWEEP_ROUNDS
                    + " for a sweep, twice that with redis-benchmark); 3 give a median and a spread.")
    String rounds;

    @Option(
            names = "--force",
            description = "Run on a primary that is nearly full or evicts any key, or under a --prefix that already"
                    + " holds keys (they are left alone: only the benchmark's own keys are deleted). Not where the"
                    + " benchmark's own keys would not fit below maxmemory.")
    boolean force;

    @Option(
            names = "--redis-timeout",
            converter = DurationConverter.class,
            defaultValue = "10s",
            description = "Redis connect and read timeout (default: ${DEFAULT-VALUE}).")
    Duration redisTimeout;

    @Override
    public boolean jsonAsked() {
        return json;
    }

    @Override
    public Integer call() {
        if (oldTests != null) {
            throw new InputException("bench -t is gone: write --tests " + oldTests + " (-t means --tags in apply)");
        }
        PrintWriter out = spec.commandLine().getOut();
        HostSelection selected = FleetfixCommand.inventoryService(spec.commandLine())
                .load(inventory.source(), inventory.limit(), Optional.empty());
        List<Host> hosts = shards.narrow(selected, adapters.redis(), forks.forks(), !inventory.listHosts())
                .hosts();
        if (inventory.listHosts()) {
            HostList.print(hosts, out);
            return ExitCode.OK;
        }
        // what the benchmark cannot evaluate (a host's connection or Redis variables) stops it before any is touched
        hosts.forEach(Host::requireUsable);
        BenchPlan plan = plan();
        List<HostBenchmark.Outcome> outcomes;
        // the progress goes to stderr: stdout carries the table or the JSON only
        LiveLine live = new LiveLine(spec.commandLine().getErr(), Screens.of());
        try (ShellPool shells = adapters.shellPool(ssh)) {
            outcomes = adapters.hostBenchmark(shells::shell, redisTimeout)
                    .run(hosts, plan, BenchOutput.progress(live, adapters.clock()));
        } finally {
            live.clear();
        }
        if (json) {
            BenchOutput.json(outcomes, out, spec.commandLine().getErr());
        } else if (plan.isSweep()) {
            BenchOutput.sweep(outcomes, out);
        } else {
            BenchOutput.table(outcomes, out);
        }
        return outcomes.stream().anyMatch(o -> o.failure().isPresent()) ? ExitCode.FINDINGS : ExitCode.OK;
    }

    /** The options through the same plan builder as a playbook's benchmark step. */
    BenchPlan plan() {
        BenchPlanBuilder b = new BenchPlanBuilder().defaultRounds(1);
        try {
            b.engine(engine).profile(profile).tests(tests).prefix(prefix).force(force);
            given(clients, b::connections);
            given(pipeline, b::pipeline);
            given(keyspace, b::keyspace);
            given(requests, b::requests);
            given(rate, b::rate);
            given(threads, b::threads);
            given(rounds, b::rounds);
            if (valueSizes != null) {
                b.valueSizes(List.of(valueSizes));
            }
            if (tcpNoDelay != null) {
                b.tcpNoDelay(List.of(tcpNoDelay));
            }
            if (duration != null) {
                b.duration(duration);
            }
            if (warmup != null) {
                b.warmup(warmup);
            }
            if (bgsaveInterval != null) {
                b.bgsaveInterval(bgsaveInterval);
            }
            BenchPlan plan = b.build();
            // a sweep whose comparisons could never call a change is refused before any host is measured
            if (plan.isSweep()) {
                BenchDesign.problem(plan, "--rounds").ifPresent(p -> {
                    throw new InputException(p);
                });
            }
            return plan;
        } catch (BenchPlanBuilder.Invalid e) {
            throw new InputException(e.render(e.field().option()));
        } catch (IllegalArgumentException e) {
            throw new InputException(e.getMessage());
        }
    }

    private static void given(String value, java.util.function.Consumer<Object> setter) {
        if (value != null) {
            setter.accept(value);
        }
    }
}
