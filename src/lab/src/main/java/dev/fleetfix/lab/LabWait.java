package dev.fleetfix.lab;

import dev.fleetfix.Sleeper;
import dev.fleetfix.health.Poll;
import dev.fleetfix.health.WaitListener;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/** Polls a lab condition until it holds, or fails naming what was still missing at the deadline. */
final class LabWait {
    private static final Poll POLL =
            new Poll(Clock.systemUTC(), Sleeper.system(), Duration.ofMillis(300), WaitListener.none());

    private LabWait() {}

    /**
     * @param what what is awaited, for the message: "Sentinels to see the primary"
     * @param missing what is still missing now, empty once the condition holds
     */
    static void until(Duration timeout, String what, Supplier<Optional<String>> missing) {
        Optional<Poll.TimedOut> timedOut;
        try {
            timedOut = POLL.await(what, timeout, left -> missing.get());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LabException("interrupted while waiting for the lab", e);
        }
        if (timedOut.isPresent()) {
            throw new LabException("waited " + timeout.toSeconds() + " s for " + what + ", in vain: "
                    + timedOut.get().last());
        }
    }
}
