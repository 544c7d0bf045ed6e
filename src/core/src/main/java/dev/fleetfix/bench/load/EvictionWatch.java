package dev.fleetfix.bench.load;

import dev.fleetfix.redis.load.BenchTarget;
import dev.fleetfix.redis.load.BenchmarkException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Redis's {@code evicted_keys} (INFO stats) against its value when a benchmark run started. While
 * the benchmark's keys are in Redis, any eviction may have been a user's key: the run stops at the
 * first one seen, and fails.
 */
public final class EvictionWatch {
    private final BenchTarget target;
    private final long atStart;
    private final long everyNanos;
    private final AtomicLong nextCheck;
    private final AtomicLong latest;
    private volatile boolean seen;

    /**
     * Reads {@code evicted_keys} now.
     *
     * @param start the run's start on its clock
     * @param everyNanos how often {@link #checkIfDue} reads it again
     * @throws BenchmarkException when INFO stats has no {@code evicted_keys}: evictions could not be seen
     */
    public EvictionWatch(BenchTarget target, long start, long everyNanos) {
        this.target = target;
        this.everyNanos = everyNanos;
        this.atStart = read(target);
        this.latest = new AtomicLong(atStart);
        this.nextCheck = new AtomicLong(start + everyNanos);
    }

    boolean seen() {
        return seen;
    }

    /** Reads {@code evicted_keys} when a check is due at {@code now}; of several callers at once, one reads. */
    void checkIfDue(long now) {
        long due = nextCheck.get();
        if (now >= due && nextCheck.compareAndSet(due, now + everyNanos)) {
            check();
        }
    }

    void check() {
        long now = read(target);
        latest.accumulateAndGet(now, Math::max);
        if (now > atStart) {
            seen = true;
        }
    }

    /** @throws BenchmarkException when a key was evicted since the start */
    void failIfAny() {
        if (seen) {
            long evicted = latest.get() - atStart;
            throw new BenchmarkException(
                    "host " + target.hostName() + ": Redis evicted " + evicted
                            + (evicted == 1 ? " key" : " keys") + " during the benchmark (evicted_keys " + atStart
                            + " -> "
                            + latest.get()
                            + "); the benchmark stopped at the first eviction seen, and its keys are deleted. A"
                            + " user's key may be among those evicted: find what fills this Redis before benchmarking it again");
        }
    }

    /** Checks now and fails on any eviction since the start. */
    public void checkNow() {
        check();
        failIfAny();
    }

    private static long read(BenchTarget target) {
        String value = target.info("stats").get("evicted_keys");
        try {
            return Long.parseLong(value == null ? "" : value.strip());
        } catch (NumberFormatException e) {
            throw new BenchmarkException("host " + target.hostName() + ": cannot watch for evictions during the"
                    + " benchmark: INFO stats has no evicted_keys"
                    + (value == null ? "" : " number ('" + value.strip() + "')"));
        }
    }
}
