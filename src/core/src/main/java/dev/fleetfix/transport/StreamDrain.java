package dev.fleetfix.transport;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Reads a command's output stream to its end on a thread of its own. stdout and stderr are drained
 * at the same time, so a command that fills one pipe while we wait on the other cannot deadlock.
 * What is kept is bounded ({@link HeadTail#forStream()}): the rest is read and dropped, so a host
 * that prints gigabytes costs time, not memory.
 */
public final class StreamDrain {
    private final CompletableFuture<HeadTail> bytes = new CompletableFuture<>();

    private StreamDrain(InputStream in, String name) {
        Thread thread = new Thread(() -> drain(in), name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Starts reading {@code in} until end of stream. */
    public static StreamDrain start(InputStream in, String name) {
        return new StreamDrain(in, name);
    }

    private void drain(InputStream in) {
        try (in) {
            HeadTail out = HeadTail.forStream();
            in.transferTo(out);
            bytes.complete(out);
        } catch (IOException | RuntimeException e) {
            bytes.completeExceptionally(e);
        }
    }

    /**
     * The output as UTF-8 (head and tail when it was too long), waiting at most {@code timeout} for
     * its end.
     *
     * @throws TimeoutException when the stream is still open after {@code timeout}
     * @throws UncheckedIOException when reading failed
     */
    public String text(Duration timeout) throws TimeoutException, InterruptedException {
        try {
            long millis = Math.max(1, timeout.toMillis());
            return bytes.get(millis, TimeUnit.MILLISECONDS).text();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw new UncheckedIOException(io);
            }
            throw new IllegalStateException("reading command output failed", cause);
        }
    }

    /** Bytes of output dropped between head and tail; 0 until the stream ended. */
    public long dropped() {
        HeadTail done = bytes.getNow(null);
        return done == null ? 0 : done.dropped();
    }
}
