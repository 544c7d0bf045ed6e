package dev.fleetfix.steps.restart;

import java.util.Objects;
import java.util.Optional;

/**
 * Whether a Redis puts its data set on disk, as far as it could be read. Each fact is empty when it
 * could not be read, and {@link #unknown()} then says why: a restart decision never takes the
 * safe-looking answer for a fact it does not have.
 *
 * @param rdb whether RDB save points are set ({@code save})
 * @param aof whether {@code appendonly} is on ({@code aof_enabled} of INFO persistence)
 * @param source where {@code rdb} was read ("CONFIG GET save", "config file /etc/redis/redis.conf")
 * @param unknown why a fact could not be read; empty when both were
 */
public record Persistence(Optional<Boolean> rdb, Optional<Boolean> aof, String source, Optional<String> unknown) {
    /** The source when Redis answered CONFIG GET itself: CONFIG works on this Redis. */
    public static final String CONFIG_GET = "CONFIG GET save";

    public Persistence {
        Objects.requireNonNull(rdb, "rdb");
        Objects.requireNonNull(aof, "aof");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(unknown, "unknown");
        if ((rdb.isEmpty() || aof.isEmpty()) && unknown.isEmpty()) {
            throw new IllegalArgumentException("persistence: a fact that could not be read needs its reason");
        }
    }

    /** Both facts known. */
    public static Persistence known(boolean rdb, boolean aof, String source) {
        return new Persistence(Optional.of(rdb), Optional.of(aof), source, Optional.empty());
    }

    /**
     * True when the data set is on disk one way or another, false when it is known not to be, and
     * empty when that cannot be told.
     */
    public Optional<Boolean> persistent() {
        if (aof.orElse(false)) {
            return Optional.of(true);
        }
        // With AOF unknown, a BGSAVE might not be what Redis loads at start (it prefers the AOF).
        return aof.isPresent() ? rdb : Optional.empty();
    }

    /** Whether CONFIG answered (so CONFIG REWRITE can be expected to work after a FAILOVER). */
    public boolean configAnswered() {
        return source.equals(CONFIG_GET);
    }

    /** AOF known to be on: the save before a restart is BGREWRITEAOF. */
    public boolean aofOn() {
        return aof.orElse(false);
    }

    /** "save points" / "appendonly" / "no persistence (save \"\", appendonly no)" / what is unknown. */
    public String text() {
        String base = base();
        boolean fromElsewhere = !source.isEmpty() && !configAnswered();
        // The source tells where save came from: worth saying only when save decided (AOF off).
        return fromElsewhere && persistent().isPresent() && !aofOn() ? base + " (" + source + ")" : base;
    }

    private String base() {
        boolean r = rdb.orElse(false);
        boolean a = aof.orElse(false);
        if (a && r) {
            return "appendonly and save points";
        }
        if (a) {
            return "appendonly";
        }
        if (r) {
            return "save points";
        }
        if (persistent().isEmpty()) {
            return "persistence unknown (" + unknown.orElseThrow() + ")";
        }
        return "no persistence (save \"\", appendonly no)";
    }
}
