package dev.fleetfix.transport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Reads a command's output stream to its end on a thread of its own. stdout and stderr are drained
 * at the same time, so a command that fills one pipe while we wait on the other cannot deadlock.
 */
public final class StreamDrain {
    private final CompletableFuture<byte[]> bytes = new CompletableFuture<>();

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
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            in.transferTo(out);
            bytes.complete(out.toByteArray());
        } catch (IOException | RuntimeException e) {
            bytes.completeExceptionally(e);
        }
    }

    /**
     * The whole output as UTF-8, waiting at most {@code timeout} for its end.
     *
     * @throws TimeoutException when the stream is still open after {@code timeout}
     * @throws UncheckedIOException when reading failed
     */
    public String text(Duration timeout) throws TimeoutException, InterruptedException {
        try {
            long millis = Math.max(1, timeout.toMillis());
            return new String(bytes.get(millis, TimeUnit.MILLISECONDS), StandardCharsets.UTF_8);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw new UncheckedIOException(io);
            }
            throw new IllegalStateException("reading command output failed", cause);
        }
    }
}
