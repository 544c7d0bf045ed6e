package dev.fleetfix.health;

import dev.fleetfix.Sleeper;
import dev.fleetfix.redis.RedisException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The one polling loop: looks at a condition on a clock and sleeper until it holds or a timeout
 * passes. A wait that lasts {@link Wait#NOTICEABLE} is told, and again at each look after, with what it waits for and what
 * it saw last. A {@link RedisException} from a look counts as "not yet". Health gates, data-safe
 * restarts and the lab all poll through it.
 */
public final class Poll {
    /** One look: empty when the condition holds, else what was seen. */
    @FunctionalInterface
    public interface Look {
        Optional<String> notYet();
    }

    /** One look that is told how much of the timeout is left (to bound a connect on it). */
    @FunctionalInterface
    public interface TimedLook {
        Optional<String> notYet(Duration left);
    }

    /**
     * The condition did not hold in time.
     *
     * @param last what the last look saw
     * @param elapsed how long the poll lasted
     */
    public record TimedOut(String last, Duration elapsed) {
        public TimedOut {
            Objects.requireNonNull(last, "last");
            Objects.requireNonNull(elapsed, "elapsed");
        }
    }

    private final Clock clock;
    private final Sleeper sleeper;
    private final Duration interval;
    private final WaitListener waits;
    private final boolean endAtTimeout;

    public Poll(Clock clock, Sleeper sleeper, Duration interval, WaitListener waits) {
        this(clock, sleeper, interval, waits, false);
    }

    private Poll(Clock clock, Sleeper sleeper, Duration interval, WaitListener waits, boolean endAtTimeout) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
        this.interval = Objects.requireNonNull(interval, "interval");
        this.waits = Objects.requireNonNull(waits, "waits");
        this.endAtTimeout = endAtTimeout;
    }

    /**
     * The same poll, whose last sleep is cut short so that the last look falls on the timeout
     * (gates), instead of a full interval after it.
     */
    public Poll lastSleepEndingAtTimeout() {
        return new Poll(clock, sleeper, interval, waits, true);
    }

    /**
     * Empty when the condition held in time; else "timed out after Ns: " and the last observation.
     * {@code what} names what it waits for ("Redis to answer after the restart").
     */
    public Optional<String> until(String what, Duration timeout, Look look) throws InterruptedException {
        return await(what, timeout, left -> look.notYet())
                .map(t -> "timed out after " + timeout.toSeconds() + "s: " + t.last());
    }

    /** Empty when the condition held in time; else the last observation and how long it took. */
    public Optional<TimedOut> await(String what, Duration timeout, TimedLook look) throws InterruptedException {
        Instant start = clock.instant();
        String last = "no answer yet";
        while (true) {
            try {
                Optional<String> seen = look.notYet(timeout.minus(Duration.between(start, clock.instant())));
                if (seen.isEmpty()) {
                    return Optional.empty();
                }
                last = seen.get();
            } catch (RedisException e) {
                last = e.getMessage();
            }
            Duration elapsed = Duration.between(start, clock.instant());
            if (elapsed.compareTo(timeout) >= 0) {
                return Optional.of(new TimedOut(last, elapsed));
            }
            if (elapsed.compareTo(Wait.NOTICEABLE) >= 0) {
                // told at each look from then on, so that a long wait shows how long it has lasted and what it sees
                waits.waiting(new Wait(what, last, timeout, elapsed));
            }
            Duration left = timeout.minus(elapsed);
            sleeper.sleep(endAtTimeout && left.compareTo(interval) < 0 ? left : interval);
        }
    }
}
