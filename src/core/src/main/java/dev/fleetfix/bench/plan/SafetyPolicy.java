package dev.fleetfix.bench.plan;

/**
 * When a benchmark may write to a primary.
 *
 * @param maxMemoryFill refuse when {@code used_memory / maxmemory} is above this (0.8 by default)
 * @param force run anyway on a nearly full primary or one that evicts any key (not on a replica, nor
 *     where the benchmark's own keys would not fit below {@code maxmemory})
 */
public record SafetyPolicy(double maxMemoryFill, boolean force) {
    public static final SafetyPolicy DEFAULT = new SafetyPolicy(0.8, false);

    public SafetyPolicy {
        if (!(maxMemoryFill > 0 && maxMemoryFill <= 1)) {
            throw new IllegalArgumentException("maxMemoryFill must be in (0, 1], was " + maxMemoryFill);
        }
    }

    public SafetyPolicy forced() {
        return new SafetyPolicy(maxMemoryFill, true);
    }
}
