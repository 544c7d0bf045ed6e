package dev.fleetfix.lab;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/** Polls a lab condition until it holds, or fails naming what was still missing at the deadline. */
final class LabWait {
    private static final Duration POLL = Duration.ofMillis(300);

    private LabWait() {}

    /**
     * @param what what is awaited, for the message: "Sentinels to see the primary"
     * @param missing what is still missing now, empty once the condition holds
     */
    static void until(Duration timeout, String what, Supplier<Optional<String>> missing) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Optional<String> last = missing.get();
        while (last.isPresent()) {
            if (System.nanoTime() > deadline) {
                throw new LabException("waited " + timeout.toSeconds() + " s for " + what + ", in vain: " + last.get());
            }
            sleep(POLL);
            last = missing.get();
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LabException("interrupted while waiting for the lab", e);
        }
    }
}
