package dev.fleetfix;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Runs a function over hosts (or anything) with at most {@code forks} running at once, as Ansible's
 * {@code --forks} does. Results come back in input order; an exception thrown for one input is
 * captured in its {@link Outcome} and does not stop the others.
 */
public final class Forks {
    /** The one default of {@code --forks} (Ansible's 5 is for hosts that run Python; ours run one shell each). */
    public static final int DEFAULT_FORKS = 10;

    private Forks() {}

    /**
     * The one rule of a forks count, wherever it comes from (the command line, a caller), and its one message.
     *
     * @return {@code forks}, when it is a whole number of at least 1
     * @throws IllegalArgumentException naming the value otherwise
     */
    public static int checked(String forks) {
        try {
            return checked(Integer.parseInt(forks.strip()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(message(forks));
        }
    }

    /** As {@link #checked(String)}, for a number. */
    public static int checked(int forks) {
        if (forks < 1) {
            throw new IllegalArgumentException(message(String.valueOf(forks)));
        }
        return forks;
    }

    private static String message(String forks) {
        return "forks must be a whole number of at least 1, was '" + forks + "'";
    }

    /**
     * What one input gave: a value or the exception it threw, never both.
     *
     * @param input the input, as given
     * @param value the function's result
     * @param error what it threw instead
     */
    public record Outcome<T, R>(T input, Optional<R> value, Optional<RuntimeException> error) {
        public Outcome {
            Objects.requireNonNull(input, "input");
            if (value.isPresent() == error.isPresent()) {
                throw new IllegalArgumentException("outcome of " + input + ": exactly one of value and error");
            }
        }

        public boolean ok() {
            return value.isPresent();
        }
    }

    /** A task that may wait, and so be interrupted. */
    @FunctionalInterface
    public interface Task<T, R> {
        R apply(T input) throws InterruptedException;
    }

    /**
     * Applies {@code task} to every input, at most {@code forks} at a time, and waits for all.
     *
     * @throws IllegalArgumentException when forks is below 1
     * @throws Error when a task threw one (out of memory is not a per-host failure)
     */
    public static <T, R> List<Outcome<T, R>> run(List<T> inputs, int forks, Function<? super T, ? extends R> task) {
        try {
            return runInterruptibly(inputs, forks, task::apply);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for hosts", e);
        }
    }

    /**
     * As {@link #run}, for tasks that wait: an interrupted task, or an interrupt while waiting for
     * the tasks, ends the whole run with {@link InterruptedException} (the tasks still running are
     * interrupted too).
     */
    public static <T, R> List<Outcome<T, R>> runInterruptibly(
            List<T> inputs, int forks, Task<? super T, ? extends R> task) throws InterruptedException {
        checked(forks);
        if (inputs.isEmpty()) {
            return List.of();
        }
        int threads = Math.min(forks, inputs.size());
        if (threads == 1) {
            List<Outcome<T, R>> outcomes = new ArrayList<>();
            for (T input : inputs) {
                outcomes.add(call(input, task));
            }
            return List.copyOf(outcomes);
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads, namedThreads());
        try {
            List<Future<Outcome<T, R>>> futures = new ArrayList<>();
            for (T input : inputs) {
                futures.add(pool.submit(() -> call(input, task)));
            }
            List<Outcome<T, R>> outcomes = new ArrayList<>();
            for (Future<Outcome<T, R>> future : futures) {
                outcomes.add(await(future));
            }
            return List.copyOf(outcomes);
        } finally {
            pool.shutdownNow();
        }
    }

    private static <T, R> Outcome<T, R> call(T input, Task<? super T, ? extends R> task) throws InterruptedException {
        try {
            R result = Objects.requireNonNull(task.apply(input), () -> "no result for " + input);
            return new Outcome<>(input, Optional.of(result), Optional.empty());
        } catch (RuntimeException e) {
            return new Outcome<>(input, Optional.empty(), Optional.of(e));
        }
    }

    private static <T, R> Outcome<T, R> await(Future<Outcome<T, R>> future) throws InterruptedException {
        try {
            return future.get();
        } catch (ExecutionException e) {
            // call() captures RuntimeExceptions, so only Errors and interrupts get here
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            if (e.getCause() instanceof InterruptedException interrupted) {
                throw interrupted;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    private static ThreadFactory namedThreads() {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, "fleetfix-fork-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
