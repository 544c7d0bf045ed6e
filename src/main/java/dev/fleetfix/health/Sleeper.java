package dev.fleetfix.health;

import java.time.Duration;

/**
 * Waits. Injected with the {@link java.time.Clock} wherever the engine polls or backs off, so tests
 * advance a fake clock instead of waiting.
 */
@FunctionalInterface
public interface Sleeper {
    void sleep(Duration duration) throws InterruptedException;

    static Sleeper system() {
        return duration -> Thread.sleep(Math.max(0, duration.toMillis()));
    }
}
