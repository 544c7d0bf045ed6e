package dev.fleetfix.rollout.host;

import dev.fleetfix.Sleeper;
import io.github.resilience4j.core.functions.Either;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Runs an action under a resilience4j {@link RetryConfig}: its attempts, exception predicate and
 * backoff function. The loop is ours rather than {@code Retry.decorate...} because resilience4j
 * sleeps through a process-wide static sleep function, and the engine's time must be injected.
 */
public final class Retrier {
    private final RetryConfig config;
    private final Sleeper sleeper;

    public Retrier(RetryConfig config, Sleeper sleeper) {
        this.config = config;
        this.sleeper = sleeper;
    }

    @FunctionalInterface
    interface Action<T> {
        T run() throws InterruptedException;
    }

    record Attempted<T>(T value, int attempts) {}

    <T> Attempted<T> run(Action<T> action) throws InterruptedException {
        return run(action, () -> true);
    }

    /**
     * As {@link #run(Action)}, and tries again only while {@code mayRetry} also holds after a
     * failure (a step that sent nothing yet).
     */
    <T> Attempted<T> run(Action<T> action, BooleanSupplier mayRetry) throws InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                return new Attempted<>(action.run(), attempt);
            } catch (RuntimeException e) {
                if (attempt >= config.getMaxAttempts()
                        || !config.getExceptionPredicate().test(e)
                        || !mayRetry.getAsBoolean()) {
                    throw new Exhausted(e, attempt);
                }
                long waitMillis = config.<T>getIntervalBiFunction().apply(attempt, Either.left(e));
                sleeper.sleep(Duration.ofMillis(waitMillis));
            }
        }
    }

    /** The action failed for good; carries the last error and how many attempts were made. */
    static final class Exhausted extends RuntimeException {
        private final int attempts;

        Exhausted(RuntimeException cause, int attempts) {
            super(cause.getMessage(), cause);
            this.attempts = attempts;
        }

        int attempts() {
            return attempts;
        }

        RuntimeException error() {
            return (RuntimeException) getCause();
        }
    }
}
