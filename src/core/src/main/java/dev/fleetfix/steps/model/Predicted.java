package dev.fleetfix.steps.model;

/**
 * Names of a host's predicted state in check mode ({@link HostState#predicted()}): what an action
 * that check mode skipped would have left behind.
 */
public final class Predicted {
    /**
     * What {@code restart_redis} would have done to Redis: {@code restarted} (it runs now) or
     * {@code started} (it does not answer now). Gates after it see Redis as the run would leave it.
     */
    public static final String REDIS = "redis";

    /** The route of that restart, in words ("fail over to lab-2, then restart; fail back"). */
    public static final String REDIS_ROUTE = "redis.route";

    private Predicted() {}
}
