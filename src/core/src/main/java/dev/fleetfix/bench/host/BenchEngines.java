package dev.fleetfix.bench.host;

import dev.fleetfix.bench.load.BuiltinBenchmark;
import dev.fleetfix.bench.load.ForkUnderLoad;
import dev.fleetfix.bench.load.LoadGenerator;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.redis.load.BenchTarget;
import dev.fleetfix.transport.RemoteShell;
import java.util.Objects;
import java.util.function.Function;

/**
 * The benchmark's engines as the composition root builds them once: how this machine connects its load to a host's
 * Redis, the builtin load generator, and the fork-under-load profile. {@code fleetfix bench} and the playbook's
 * {@code benchmark} step both measure through the same ones (redis-benchmark runs on the host, over its shell).
 *
 * @param targets connects this machine's load to a host's Redis
 * @param builtin the builtin Jedis load generator
 * @param forkUnderLoad the profile that forks Redis (BGSAVE) under load
 */
public record BenchEngines(Function<Host, BenchTarget> targets, BuiltinBenchmark builtin, ForkUnderLoad forkUnderLoad) {
    public BenchEngines {
        Objects.requireNonNull(targets, "targets");
        Objects.requireNonNull(builtin, "builtin");
        Objects.requireNonNull(forkUnderLoad, "forkUnderLoad");
    }

    /** This machine's engines, on its own clock, loading the Redis that {@code targets} connects. */
    public static BenchEngines system(Function<Host, BenchTarget> targets) {
        return new BenchEngines(targets, new BuiltinBenchmark(LoadGenerator.system()), ForkUnderLoad.system());
    }

    /** The host benchmark that runs redis-benchmark through {@code shells}. */
    public HostBenchmark on(Function<Host, RemoteShell> shells) {
        return new HostBenchmark(targets, shells, builtin, forkUnderLoad);
    }
}
