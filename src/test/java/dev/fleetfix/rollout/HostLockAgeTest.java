package dev.fleetfix.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How long a host has been locked, as the refusal says it: never negative, never a crash. */
class HostLockAgeTest {
    private static final Instant NOW = Instant.parse("2026-11-28T01:30:00Z");
    private final RunControl.LockOwner me =
            new RunControl.LockOwner("20261128T013000Z", "ops@control pid 1", Duration.ofHours(2));

    @Test
    void aLockTakenAnHourAgoSaysSixtyMinutes() {
        String text = HostLock.describe(held(NOW.getEpochSecond() - 3600), me, NOW);

        assertThat(text).contains("locked by run other (ops@elsewhere pid 7) for 60 min");
    }

    @Test
    void aLockFromTheFutureIsNotANegativeAge() {
        String text = HostLock.describe(held(NOW.getEpochSecond() + 3600), me, NOW);

        assertThat(text).contains("since 3600 s in the future").doesNotContain("for -");
    }

    @Test
    void aForgedHugeTimeIsDescribedNotThrown() {
        String text = HostLock.describe(held(Long.MAX_VALUE), me, NOW);

        assertThat(text).contains("in the future").doesNotContain("-");
    }

    private static Map<String, String> held(long since) {
        return Map.of("run", "other", "owner", "ops@elsewhere pid 7", "since", String.valueOf(since));
    }
}
