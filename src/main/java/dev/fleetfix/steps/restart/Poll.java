package dev.fleetfix.steps.restart;

import dev.fleetfix.redis.RedisException;
import dev.fleetfix.rollout.gate.Sleeper;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** Polls a condition on the run's clock and sleeper until it holds or a timeout passes. */
final class Poll {
    /** One look: empty when the condition holds, else what was seen. */
    @FunctionalInterface
    interface Look {
        Optional<String> notYet();
    }

    private final Clock clock;
    private final Sleeper sleeper;
    private final Duration interval;

    Poll(Clock clock, Sleeper sleeper, Duration interval) {
        this.clock = clock;
        this.sleeper = sleeper;
        this.interval = interval;
    }

    /** Empty when the condition held in time; else the last observation. Redis errors count as "not yet". */
    Optional<String> until(Duration timeout, Look look) throws InterruptedException {
        Instant start = clock.instant();
        String last = "no answer yet";
        while (true) {
            try {
                Optional<String> seen = look.notYet();
                if (seen.isEmpty()) {
                    return Optional.empty();
                }
                last = seen.get();
            } catch (RedisException e) {
                last = e.getMessage();
            }
            Duration elapsed = Duration.between(start, clock.instant());
            if (elapsed.compareTo(timeout) >= 0) {
                return Optional.of("timed out after " + timeout.toSeconds() + "s: " + last);
            }
            sleeper.sleep(interval);
        }
    }
}
