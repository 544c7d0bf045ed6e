package dev.fleetfix.steps.persist;

import dev.fleetfix.steps.model.StepContext;
import dev.fleetfix.steps.model.StepResult;

/**
 * One way to make THP modes survive a reboot. Made by {@link PersistMethods}; each is idempotent,
 * backs up the files it edits and writes nothing in check mode.
 */
@FunctionalInterface
public interface PersistMethod {

    /**
     * What to persist.
     *
     * @param thpDir the host's THP directory
     * @param enabled wanted {@code enabled} mode
     * @param defrag wanted {@code defrag} mode
     * @param redisUnit the Redis systemd unit the setting must come before
     */
    record Target(String thpDir, String enabled, String defrag, String redisUnit) {}

    void persist(StepContext context, Target target, StepResult.Builder result) throws InterruptedException;
}
