package dev.fleetfix.health;

import java.time.Duration;

/**
 * A condition a host must reach before the rollout moves on, polled until it holds or its timeout
 * passes (a gate that times out fails the host). Built with {@link Gates}; combined with
 * {@link Gates#allOf(HealthGate...)}, like Testcontainers' wait strategies.
 */
public interface HealthGate {
    /** The name playbooks and reports use ({@code ping}, {@code replica_synced}). */
    String name();

    Duration timeout();

    /** The same gate with another timeout. */
    HealthGate withTimeout(Duration timeout);

    /** Polls until the gate passes or times out. Never throws for an unhealthy host: it fails the result. */
    GateResult await(GateTarget target) throws InterruptedException;

    /**
     * Looks once, without waiting or sleeping (check mode: what the gate sees now). A composite
     * looks at every part, also after one that does not pass.
     */
    GateResult lookOnce(GateTarget target);
}
