package dev.fleetfix.health;

import dev.fleetfix.Durations;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/** A gate made of one check polled on a fresh connection until it passes or the timeout is spent. */
final class PollingGate implements HealthGate {
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);

    /** One observation: passed or not, and what was seen. */
    record Observation(boolean passed, String detail) {
        static Observation pass(String detail) {
            return new Observation(true, detail);
        }

        static Observation notYet(String detail) {
            return new Observation(false, detail);
        }
    }

    /** Looks at the node once. Called again on the next poll when it does not pass. */
    @FunctionalInterface
    interface Check {
        Observation look(RedisNode node, GateTarget target);
    }

    /** Makes a fresh check per await, for checks that remember something between polls. */
    @FunctionalInterface
    interface CheckFactory {
        Check create();
    }

    private final String name;
    private final Duration timeout;
    private final CheckFactory checks;

    PollingGate(String name, Duration timeout, CheckFactory checks) {
        this.name = Objects.requireNonNull(name, "name");
        this.timeout = Gates.validTimeout(name, timeout);
        this.checks = Objects.requireNonNull(checks, "checks");
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Duration timeout() {
        return timeout;
    }

    @Override
    public HealthGate withTimeout(Duration newTimeout) {
        return new PollingGate(name, newTimeout, checks);
    }

    @Override
    public GateResult await(GateTarget target) throws InterruptedException {
        Check check = checks.create();
        Instant start = target.clock().instant();
        AtomicReference<String> passed = new AtomicReference<>();
        Optional<Poll.TimedOut> timedOut = new Poll(
                        target.clock(), target.sleeper(), target.pollInterval(), target.waits())
                .lastSleepEndingAtTimeout()
                .await("gate " + name, timeout, left -> {
                    Observation seen = look(check, target, min(CONNECT_TIMEOUT, positive(left)));
                    if (seen.passed()) {
                        passed.set(seen.detail());
                        return Optional.empty();
                    }
                    return Optional.of(seen.detail());
                });
        if (timedOut.isPresent()) {
            Poll.TimedOut t = timedOut.get();
            return GateResult.failed(
                    name, "timed out after " + Durations.seconds(timeout) + ": " + t.last(), t.elapsed());
        }
        return GateResult.passed(
                name, passed.get(), Duration.between(start, target.clock().instant()));
    }

    @Override
    public GateResult lookOnce(GateTarget target) {
        Instant start = target.clock().instant();
        Observation seen = look(checks.create(), target, CONNECT_TIMEOUT);
        return new GateResult(
                name,
                seen.passed(),
                seen.detail(),
                Duration.between(start, target.clock().instant()),
                List.of());
    }

    /** One observation on a fresh connection; a Redis that does not answer is "not yet". */
    private static Observation look(Check check, GateTarget target, Duration connectTimeout) {
        try (RedisNode node = target.redis().open(connectTimeout)) {
            return check.look(node, target);
        } catch (RedisException e) {
            return Observation.notYet(e.getMessage());
        }
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static Duration positive(Duration d) {
        return d.isNegative() || d.isZero() ? Duration.ofMillis(100) : d;
    }

    @Override
    public String toString() {
        return name + "(" + Durations.seconds(timeout) + ")";
    }
}
