package dev.fleetfix.cli;

import dev.fleetfix.fake.FakeHost;
import dev.fleetfix.fake.TestClock;
import dev.fleetfix.rollout.RolloutPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Fake hosts behind the real command line: each name a {@link FakeHost} in {@code dir}, the adapters wired to them,
 * on {@code clock}, and every Redis connection counted, so a test can tell that a command read no Redis.
 */
final class FakeFleet {
    private final Map<String, FakeHost> hosts = new LinkedHashMap<>();
    private final TestClock clock;
    private final Path dir;
    private final AtomicInteger redisConnections = new AtomicInteger();

    FakeFleet(Path dir, TestClock clock, String... names) {
        this.dir = dir;
        this.clock = clock;
        for (String name : names) {
            hosts.put(name, new FakeHost(name, dir));
        }
    }

    /** The hosts by name, in the order given. */
    Map<String, FakeHost> hosts() {
        return Collections.unmodifiableMap(hosts);
    }

    int redisConnections() {
        return redisConnections.get();
    }

    /** Adapters onto the fake hosts: the clock's sleeper, short retries, runs journaled under {@code dir}. */
    Adapters adapters() {
        return Adapters.builder()
                .clock(clock)
                .sleeper(clock.sleeper())
                .shells(host -> hosts.get(host.name()).shell())
                .redis((host, timeout) -> {
                    redisConnections.incrementAndGet();
                    return hosts.get(host.name()).redis().connect();
                })
                .policy(RolloutPolicy.of(2, Duration.ofMillis(10)))
                .runsHome(dir.resolve("fleetfix-runs"))
                .build();
    }

    /** {@code fleetfix ARGS} on these hosts. */
    CliRun run(String... args) {
        return CliRun.of(Main.commandLine(adapters()), args);
    }

    /** {@code fleetfix apply ARGS} on these hosts. */
    CliRun apply(String... args) {
        return run(withApply(args));
    }

    static String[] withApply(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "apply";
        System.arraycopy(args, 0, all, 1, args.length);
        return all;
    }
}
