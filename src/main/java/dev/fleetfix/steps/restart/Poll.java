package dev.fleetfix.steps.restart;

import dev.fleetfix.health.Sleeper;
import dev.fleetfix.health.Wait;
import dev.fleetfix.health.WaitListener;
import dev.fleetfix.redis.RedisException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Polls a condition on the run's clock and sleeper until it holds or a timeout passes. A wait that
 * lasts {@link Wait#NOTICEABLE} is told, once, with what it waits for and what it saw last.
 */
final class Poll {
    /** One look: empty when the condition holds, else what was seen. */
    @FunctionalInterface
    interface Look {
        Optional<String> notYet();
    }

    private final Clock clock;
    private final Sleeper sleeper;
    private final Duration interval;
    private final WaitListener waits;

    Poll(Clock clock, Sleeper sleeper, Duration interval, WaitListener waits) {
        this.clock = clock;
        this.sleeper = sleeper;
        this.interval = interval;
        this.waits = waits;
    }

    /**
     * Empty when the condition held in time; else the last observation. Redis errors count as "not
     * yet". {@code what} names what it waits for ("Redis to answer after the restart").
     */
    Optional<String> until(String what, Duration timeout, Look look) throws InterruptedException {
        Instant start = clock.instant();
        String last = "no answer yet";
        boolean told = false;
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
            if (!told && elapsed.compareTo(Wait.NOTICEABLE) >= 0) {
                waits.waiting(new Wait(what, last, timeout, elapsed));
                told = true;
            }
            sleeper.sleep(interval);
        }
    }
}
