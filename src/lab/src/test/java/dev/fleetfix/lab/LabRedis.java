package dev.fleetfix.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.transport.ExecResult;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;

/** redis-cli on a lab host against its own Redis or Sentinel, as an operator logged in there would type it. */
final class LabRedis {
    private final LabFleet fleet;
    private final Optional<String> password;

    /** @param password the Redis password of every host, if they have one (Sentinels have none) */
    LabRedis(LabFleet fleet, Optional<String> password) {
        this.fleet = fleet;
        this.password = password;
    }

    String redis(String host, String args) {
        return run(host, fleet.host(host).redisPort(), password, args);
    }

    String sentinel(String host, String args) {
        return run(host, fleet.host(host).sentinelPort().orElseThrow(), Optional.empty(), args);
    }

    private String run(String host, int port, Optional<String> auth, String args) {
        ExecResult result = LabCli.run(fleet, host, port, auth, args);
        assertThat(result.exitCode())
                .as("%s: redis-cli %s: %s", host, args, result.stderr())
                .isZero();
        return result.stdout();
    }

    /** Polls {@code read} until its answer passes {@code done}; returns the last answer either way. */
    static String await(Duration timeout, Supplier<String> read, Predicate<String> done) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String answer = read.get();
        while (!done.test(answer) && System.nanoTime() < deadline) {
            Thread.sleep(250);
            answer = read.get();
        }
        return answer;
    }
}
