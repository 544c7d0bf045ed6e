package dev.fleetfix.bench;

import java.util.concurrent.locks.LockSupport;

/** Waits; injected so that pacing and intervals are tested without waiting. */
@FunctionalInterface
public interface Sleeper {
    void sleepNanos(long nanos) throws InterruptedException;

    /** Parks the thread; short waits are precise enough for pacing at thousands of requests a second. */
    static Sleeper system() {
        return nanos -> {
            long deadline = System.nanoTime() + nanos;
            long left = nanos;
            while (left > 0) {
                LockSupport.parkNanos(left);
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                left = deadline - System.nanoTime();
            }
        };
    }
}
