package dev.fleetfix;

import java.time.Duration;
import java.util.Objects;

/**
 * Calls {@code beat} every {@code every} on a thread of its own until closed: for work that blocks (an audit waiting
 * for hosts to answer) and so cannot tell its own progress while it waits. Its sleeps go through the injected
 * {@link Sleeper}.
 */
public final class Heartbeat implements AutoCloseable {
    private final Thread thread;
    private volatile boolean closed;

    private Heartbeat(Sleeper sleeper, Duration every, Runnable beat) {
        thread = new Thread(
                () -> {
                    try {
                        while (!closed) {
                            sleeper.sleep(every);
                            if (!closed) {
                                beat.run();
                            }
                        }
                    } catch (InterruptedException e) {
                        // closed
                    }
                },
                "fleetfix-heartbeat");
        thread.setDaemon(true);
    }

    /** A heartbeat started now; the first beat comes after {@code every}. */
    public static Heartbeat start(Sleeper sleeper, Duration every, Runnable beat) {
        Objects.requireNonNull(sleeper, "sleeper");
        Objects.requireNonNull(every, "every");
        Objects.requireNonNull(beat, "beat");
        Heartbeat h = new Heartbeat(sleeper, every, beat);
        h.thread.start();
        return h;
    }

    /** No more beats after this returns. */
    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
