package dev.fleetfix.steps.restart;

import java.time.Duration;
import java.util.Objects;

/**
 * How {@code restart_redis} keeps data safe.
 *
 * @param topology {@code topology: auto} (default) reads roles and fails primaries over;
 *     {@code off} restarts in place (data safety still applies)
 * @param failover {@code failover: auto} fails a primary over to an in-sync replica before its
 *     restart; {@code never} does not (the primary is saved and restarted in place)
 * @param failback {@code failback: true} makes the old primary primary again after its restart
 * @param allowDataLoss {@code allow_data_loss: true} restarts even when the data lives only in
 *     this Redis's memory
 * @param dataCheck {@code data_check: true} (default) compares key counts and a canary key around
 *     the restart
 * @param timeout bound on each wait (failover, save, Redis back, data check)
 * @param manualFailover {@code failover: manual} hands a primary over by hand ({@link ManualRoute})
 *     even when its Redis has FAILOVER (6.2+): for a renamed FAILOVER, and to rehearse what older
 *     Redis gets
 */
public record RestartOptions(
        boolean topology,
        boolean failover,
        boolean failback,
        boolean allowDataLoss,
        boolean dataCheck,
        Duration timeout,
        boolean manualFailover) {

    public RestartOptions(
            boolean topology,
            boolean failover,
            boolean failback,
            boolean allowDataLoss,
            boolean dataCheck,
            Duration timeout) {
        this(topology, failover, failback, allowDataLoss, dataCheck, timeout, false);
    }

    public RestartOptions {
        Objects.requireNonNull(timeout, "timeout");
        if (manualFailover && !failover) {
            throw new IllegalArgumentException("manualFailover: needs failover on");
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, was " + timeout);
        }
    }

    public static RestartOptions defaults() {
        return new RestartOptions(true, true, false, false, true, Duration.ofSeconds(90));
    }
}
