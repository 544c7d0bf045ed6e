package dev.fleetfix.rollout;

import dev.fleetfix.redis.RedisException;
import dev.fleetfix.transport.TransportException;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Duration;
import java.util.Objects;

/**
 * How the engine treats failures. Only connecting is retried, with exponential backoff: a step is
 * run again only when it failed to connect before it sent anything to the host. A command that was
 * sent and then timed out or lost its connection may have run, in part or whole, so it has failed
 * and is never sent again. A circuit breaker over host outcomes halts the rollout when failures
 * repeat, even when max_fail_percentage would allow them.
 *
 * @param retry when and how often to retry a step
 * @param breaker when to stop starting hosts
 */
public record RolloutPolicy(RetryConfig retry, CircuitBreakerConfig breaker) {
    public RolloutPolicy {
        Objects.requireNonNull(retry, "retry");
        Objects.requireNonNull(breaker, "breaker");
    }

    /**
     * 3 attempts, backoff 1 s then 2 s; the breaker looks at the last 5 hosts and opens when at
     * least 3 have finished and half of them were unreachable (after retries). Hosts that fail a
     * step are counted by max_fail_percentage, not by the breaker.
     */
    public static RolloutPolicy defaults() {
        return of(3, Duration.ofSeconds(1));
    }

    public static RolloutPolicy of(int attempts, Duration firstBackoff) {
        RetryConfig retry = RetryConfig.custom()
                .maxAttempts(attempts)
                .intervalFunction(IntervalFunction.ofExponentialBackoff(firstBackoff, 2.0))
                .retryOnException(RolloutPolicy::isTransient)
                .build();
        CircuitBreakerConfig breaker = CircuitBreakerConfig.custom()
                .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                .slidingWindowSize(5)
                .minimumNumberOfCalls(3)
                .failureRateThreshold(50)
                .build();
        return new RolloutPolicy(retry, breaker);
    }

    /**
     * A failure to connect, over SSH or to Redis, before anything was sent; never a command that
     * was sent (timed out, connection lost), nor keys, auth or a refused command.
     */
    public static boolean isTransient(Throwable e) {
        if (e instanceof TransportException t) {
            return t.isTransient();
        }
        return e instanceof RedisException r && r.beforeSending();
    }
}
