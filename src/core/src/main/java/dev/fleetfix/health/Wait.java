package dev.fleetfix.health;

import java.time.Duration;
import java.util.Objects;

/**
 * Something the engine waits for on one host, told to people before or while it waits, so that no
 * wait longer than {@link #NOTICEABLE} is silent.
 *
 * @param what what it waits for, in words ("Redis to answer after the restart", "gate ping")
 * @param lastSeen the last observation ("Connection refused", "loading:1"), empty before the first
 * @param atMost how long the wait lasts at most
 * @param waited how long it has already waited when told (zero when told up front)
 */
public record Wait(String what, String lastSeen, Duration atMost, Duration waited) {
    /**
     * A wait longer than this is announced: a polling wait once it has lasted this long, a blocking
     * call up front when it may last longer.
     */
    public static final Duration NOTICEABLE = Duration.ofSeconds(2);

    public Wait {
        Objects.requireNonNull(what, "what");
        Objects.requireNonNull(lastSeen, "lastSeen");
        Objects.requireNonNull(atMost, "atMost");
        Objects.requireNonNull(waited, "waited");
        if (atMost.isNegative() || waited.isNegative()) {
            throw new IllegalArgumentException(
                    "atMost and waited must not be negative, were " + atMost + ", " + waited);
        }
    }

    /** A blocking wait told before it starts. */
    public static Wait upFront(String what, Duration atMost) {
        return new Wait(what, "", atMost, Duration.ZERO);
    }

    /** Whether a blocking wait of at most {@code atMost} is worth telling up front. */
    public static boolean noticeable(Duration atMost) {
        return atMost.compareTo(NOTICEABLE) > 0;
    }
}
