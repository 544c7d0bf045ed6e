package dev.fleetfix.rollout;

import dev.fleetfix.rollout.event.HostOutcome;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * When a rollout stops starting hosts: a batch in which more than the play's max_fail_percentage
 * of the hosts it started failed, or a circuit breaker that opened because the last hosts were
 * unreachable. One per run: the breaker remembers hosts across batches and plays.
 */
final class FailurePolicy {
    private final CircuitBreaker breaker;

    FailurePolicy(CircuitBreakerConfig breaker) {
        this.breaker = CircuitBreaker.of("rollout", breaker);
    }

    /** Whether the breaker is open: hosts not yet started should stay untouched. */
    boolean breakerOpen() {
        return breaker.getState() == CircuitBreaker.State.OPEN;
    }

    /** Counts one host that finished a batch. */
    void count(String host, HostOutcome outcome) {
        if (outcome == HostOutcome.UNTOUCHED) {
            return;
        }
        if (outcome.failed()) {
            // The breaker watches the infrastructure (hosts unreachable after retries);
            // a host that fails its steps is max_fail_percentage's business.
            if (outcome == HostOutcome.UNREACHABLE) {
                breaker.onError(0, TimeUnit.NANOSECONDS, new IllegalStateException(host + " unreachable"));
            }
        } else {
            breaker.onSuccess(0, TimeUnit.NANOSECONDS);
        }
    }

    /**
     * Why the rollout halts after batch {@code batch} (1-based), whose hosts ended as
     * {@code outcomes}; empty when it goes on.
     */
    Optional<String> haltAfter(int batch, List<HostOutcome> outcomes, int maxFailPercentage) {
        int started =
                (int) outcomes.stream().filter(o -> o != HostOutcome.UNTOUCHED).count();
        int failed = (int) outcomes.stream().filter(HostOutcome::failed).count();
        if (started > 0 && failed * 100.0 / started > maxFailPercentage) {
            return Optional.of(String.format(
                    Locale.ROOT,
                    "batch %d: %d of %d hosts failed, more than max_fail_percentage %d%%",
                    batch,
                    failed,
                    started,
                    maxFailPercentage));
        }
        if (breakerOpen()) {
            return Optional.of(String.format(
                    Locale.ROOT,
                    "circuit breaker open: %.0f%% of the last hosts were unreachable",
                    breaker.getMetrics().getFailureRate()));
        }
        return Optional.empty();
    }
}
