package dev.fleetfix;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * Waits. Injected with the {@link java.time.Clock} (or a nano-time source) wherever the engine polls,
 * backs off or paces load, so tests advance a fake clock instead of waiting.
 */
@FunctionalInterface
public interface Sleeper {
    void sleep(Duration duration) throws InterruptedException;

    /**
     * Parks the thread until the duration has passed; a zero or negative duration returns at once.
     * Parking rather than {@code Thread.sleep(millis)} keeps short waits precise enough for pacing a
     * load at thousands of requests a second.
     */
    static Sleeper system() {
        return duration -> {
            long nanos = saturatedNanos(duration);
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

    private static long saturatedNanos(Duration duration) {
        try {
            return duration.toNanos();
        } catch (ArithmeticException e) {
            return duration.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE / 2;
        }
    }
}
