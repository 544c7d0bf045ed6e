package dev.fleetfix.bench.plan;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * One point of a sweep: the value size and, for the builtin engine, the client's TCP_NODELAY.
 * Every round of a sweep runs each point once, so points are compared on samples taken side by
 * side in time.
 *
 * @param valueSize bytes per SET/LPUSH value
 * @param tcpNoDelay the client's TCP_NODELAY socket option (on: Nagle's algorithm off); empty keeps
 *     the client library's own choice (on, for Jedis)
 */
public record SweepPoint(int valueSize, Optional<Boolean> tcpNoDelay) {
    public SweepPoint {
        Objects.requireNonNull(tcpNoDelay, "tcpNoDelay");
        if (valueSize < 1 || valueSize > LoadSpec.MAX_VALUE_SIZE) {
            throw new IllegalArgumentException(
                    "valueSize must be 1.." + LoadSpec.MAX_VALUE_SIZE + ", was " + valueSize);
        }
    }

    /** "1024 B" or "1024 B, tcp_nodelay off". */
    public String label() {
        return String.format(Locale.ROOT, "%d B", valueSize)
                + tcpNoDelay.map(on -> ", tcp_nodelay " + word(on)).orElse("");
    }

    /** "on" or "off", as the options and the playbook spell it. */
    public static String word(boolean on) {
        return on ? "on" : "off";
    }
}
