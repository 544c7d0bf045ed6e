package dev.fleetfix.bench.redisbenchmark;

import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.load.EvictionWatch;
import dev.fleetfix.bench.plan.Footprint;
import dev.fleetfix.bench.plan.RedisBenchmarkSpec;
import dev.fleetfix.bench.plan.SafetyGuard;
import dev.fleetfix.bench.plan.SafetyPolicy;
import dev.fleetfix.redis.RedisVersion;
import dev.fleetfix.redis.load.BenchTarget;
import dev.fleetfix.redis.load.BenchmarkException;
import dev.fleetfix.redis.load.Operation;
import dev.fleetfix.redis.load.RunKeys;
import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.RemoteShell;
import dev.fleetfix.transport.ShellQuote;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@code redis-benchmark} engine: runs the host's own redis-benchmark over its shell and
 * parses what it prints.
 *
 * <p>redis-benchmark's {@code -t} tests write fixed key names ({@code key:__rand_int__},
 * {@code mylist}) outside any prefix; so each test is run instead as the equivalent custom command
 * on keys under the prefix ({@code SET fleetfix:bench:str:__rand_int__ xxx}), which every version
 * since 2.6 supports, and the result is named after the test. Output is read as {@code --csv} from
 * 6.2 on (percentile columns) and from the verbose report before (the cumulative distribution).
 *
 * <p>Passwords are not supported: redis-benchmark takes them only as {@code -a}, which shows in the
 * host's process list. Use the builtin engine against Redis with a password.
 */
public final class RedisBenchmarkEngine {
    private static final Duration VERSION_TIMEOUT = Duration.ofSeconds(15);
    private static final int COMMAND_NOT_FOUND = 127;

    /**
     * Runs the tests as a step does: the safety check first, through {@code target} (the same Redis
     * seen from the control node), the load under a prefix of the run's own ({@link RunKeys}), and
     * those keys deleted afterwards whatever happened. After each test, {@code evicted_keys} is read
     * through {@code target}: at an eviction since the start the run fails before the next test
     * (redis-benchmark itself runs on the host and cannot be watched while it runs).
     */
    public List<BenchResult> run(
            RemoteShell shell,
            BenchTarget target,
            RedisBenchmarkSpec spec,
            SafetyPolicy policy,
            Optional<RedisVersion> redisVersion) {
        return run(shell, target, spec, policy, redisVersion, false);
    }

    /** As {@link #run(RemoteShell, BenchTarget, RedisBenchmarkSpec, SafetyPolicy, Optional)}, on a Valkey host when {@code valkey}. */
    public List<BenchResult> run(
            RemoteShell shell,
            BenchTarget target,
            RedisBenchmarkSpec spec,
            SafetyPolicy policy,
            Optional<RedisVersion> redisVersion,
            boolean valkey) {
        SafetyGuard.check(target, policy, spec.keyPrefix(), Footprint.of(spec));
        EvictionWatch evictions = new EvictionWatch(target, 0, Long.MAX_VALUE);
        String own = RunKeys.under(spec.keyPrefix());
        try {
            return run(shell, spec.withKeyPrefix(own), redisVersion, valkey, evictions::checkNow);
        } finally {
            target.deleteByPrefix(own);
        }
    }

    /**
     * Runs every test of the spec on the host.
     *
     * @param redisVersion the server's version from INFO server, used when redis-benchmark cannot
     *     tell its own
     */
    public List<BenchResult> run(RemoteShell shell, RedisBenchmarkSpec spec, Optional<RedisVersion> redisVersion) {
        return run(shell, spec, redisVersion, false);
    }

    /**
     * Runs every test of the spec on the host with its benchmark program: {@code valkey-benchmark}
     * first on a Valkey host, else {@code redis-benchmark}; the other when the first is not installed
     * (both speak to either server).
     */
    public List<BenchResult> run(
            RemoteShell shell, RedisBenchmarkSpec spec, Optional<RedisVersion> redisVersion, boolean valkey) {
        return run(shell, spec, redisVersion, valkey, () -> {});
    }

    private List<BenchResult> run(
            RemoteShell shell,
            RedisBenchmarkSpec spec,
            Optional<RedisVersion> redisVersion,
            boolean valkey,
            Runnable afterEachTest) {
        Program program = program(shell, valkey);
        Optional<RedisVersion> version = program.version().or(() -> redisVersion);
        boolean csv = version.map(v -> v.atLeast(6, 2)).orElse(false);
        if (spec.threads().isPresent() && !version.map(v -> v.atLeast(6, 0)).orElse(false)) {
            throw new BenchmarkException(
                    "host " + shell.hostName() + ": --threads needs redis-benchmark 6.0 or later, found "
                            + version.map(RedisVersion::toString).orElse("an older one"));
        }
        List<BenchResult> results = new ArrayList<>();
        for (Operation test : spec.tests()) {
            String script = commandLine(program.name(), spec, test, csv);
            ExecResult run = shell.exec(Command.of(script).withTimeout(spec.timeout()));
            afterEachTest.run();
            if (run.exitCode() == COMMAND_NOT_FOUND) {
                throw new BenchmarkException("host " + shell.hostName() + ": " + program.name()
                        + " is not installed (it comes with the redis-tools or redis package, valkey-benchmark with"
                        + " valkey-tools)");
            }
            if (!run.ok()) {
                throw new BenchmarkException("host " + shell.hostName() + ": redis-benchmark " + test + " exited "
                        + run.exitCode() + ": " + run.errorText());
            }
            List<BenchResult> parsed;
            try {
                parsed = RedisBenchmarkOutput.parse(
                        run.stdout(), csv ? RedisBenchmarkOutput.Format.CSV : RedisBenchmarkOutput.Format.VERBOSE);
            } catch (BenchmarkException e) {
                throw new BenchmarkException(
                        "host " + shell.hostName() + ": redis-benchmark " + test + ": " + e.getMessage()
                                + (run.stderr().isBlank()
                                        ? ""
                                        : "; stderr: " + run.stderr().strip()),
                        e);
            }
            results.add(parsed.get(parsed.size() - 1).renamed(test.name()));
        }
        return results;
    }

    /** The benchmark program on the host, and the version it reports of itself (none before 6.0). */
    record Program(String name, Optional<RedisVersion> version) {}

    /** The first of the two programs that is installed; the preferred one's name when neither is. */
    Program program(RemoteShell shell, boolean valkeyFirst) {
        List<String> order = valkeyFirst
                ? List.of("valkey-benchmark", "redis-benchmark")
                : List.of("redis-benchmark", "valkey-benchmark");
        for (String name : order) {
            ExecResult result = shell.exec(Command.of(name + " --version").withTimeout(VERSION_TIMEOUT));
            if (result.exitCode() == COMMAND_NOT_FOUND) {
                continue;
            }
            Optional<RedisVersion> version = result.ok() && result.stdout().contains(name)
                    ? RedisVersion.find(result.stdout())
                    : Optional.empty();
            return new Program(name, version);
        }
        return new Program(order.get(0), Optional.empty());
    }

    /** The command line of one test, every value quoted. */
    static String commandLine(RedisBenchmarkSpec spec, Operation test, boolean csv) {
        return commandLine("redis-benchmark", spec, test, csv);
    }

    static String commandLine(String program, RedisBenchmarkSpec spec, Operation test, boolean csv) {
        List<String> words = new ArrayList<>();
        words.add(program);
        words.addAll(List.of("-h", spec.address(), "-p", Integer.toString(spec.port())));
        words.addAll(List.of("-n", Long.toString(spec.requests()), "-c", Integer.toString(spec.clients())));
        words.addAll(List.of("-d", Integer.toString(spec.dataSize()), "-P", Integer.toString(spec.pipeline())));
        spec.keyspace().ifPresent(r -> words.addAll(List.of("-r", Long.toString(r))));
        spec.threads().ifPresent(t -> words.addAll(List.of("--threads", Integer.toString(t))));
        if (csv) {
            words.add("--csv");
        }
        String key = test.key(spec.keyPrefix(), 0).replaceFirst("0$", "__rand_int__");
        words.add(test.name());
        words.add(key);
        if (test == Operation.SET || test == Operation.LPUSH) {
            words.add("x".repeat(spec.dataSize()));
        }
        return String.join(" ", words.stream().map(ShellQuote::quote).toList());
    }
}
