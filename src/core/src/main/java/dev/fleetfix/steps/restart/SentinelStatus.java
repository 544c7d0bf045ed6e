package dev.fleetfix.steps.restart;

import dev.fleetfix.redis.topology.SentinelMaster;
import java.util.Objects;
import java.util.Optional;

/**
 * What the inventory's Sentinels say about one primary, just before its restart.
 *
 * @param named whether the inventory names any Sentinel
 * @param master the primary as Sentinel monitors it; empty when no Sentinel monitors it
 * @param unknown why the Sentinels could not be asked (none answered)
 */
public record SentinelStatus(boolean named, Optional<SentinelMaster> master, Optional<String> unknown) {
    public static final SentinelStatus NONE = new SentinelStatus(false, Optional.empty(), Optional.empty());

    public SentinelStatus {
        Objects.requireNonNull(master, "master");
        Objects.requireNonNull(unknown, "unknown");
    }

    public static SentinelStatus managedAs(SentinelMaster master) {
        return new SentinelStatus(true, Optional.of(master), Optional.empty());
    }

    public static SentinelStatus unmanaged() {
        return new SentinelStatus(true, Optional.empty(), Optional.empty());
    }

    public static SentinelStatus unknown(String why) {
        return new SentinelStatus(true, Optional.empty(), Optional.of(why));
    }
}
