package dev.fleetfix.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.transport.ExecResult;
import java.time.Duration;
import java.util.function.Predicate;

/** redis-cli on a lab host against its own Redis or Sentinel, as an operator logged in there would type it. */
final class LabRedis {
    private LabRedis() {}

    static String redis(LabFleet fleet, String host, String args) {
        LabHost target = fleet.host(host);
        return run(fleet, host, target.redisPort(), args);
    }

    static String sentinel(LabFleet fleet, String host, String args) {
        LabHost target = fleet.host(host);
        return run(fleet, host, target.sentinelPort().orElseThrow(), args);
    }

    private static String run(LabFleet fleet, String host, int port, String args) {
        ExecResult result =
                fleet.rootExec(host, "redis-cli -h " + fleet.host(host).address() + " -p " + port + " " + args);
        assertThat(result.exitCode())
                .as("%s: redis-cli %s: %s", host, args, result.stderr())
                .isZero();
        return result.stdout();
    }

    /** Polls {@code read} until its answer passes {@code done}; returns the last answer either way. */
    static String await(Duration timeout, java.util.function.Supplier<String> read, Predicate<String> done)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String answer = read.get();
        while (!done.test(answer) && System.nanoTime() < deadline) {
            Thread.sleep(250);
            answer = read.get();
        }
        return answer;
    }
}
