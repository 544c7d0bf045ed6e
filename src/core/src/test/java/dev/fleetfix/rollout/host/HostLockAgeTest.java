package dev.fleetfix.rollout.host;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.rollout.journal.RunControl;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How long a host has been locked, as the refusal says it: never negative, never a crash. */
class HostLockAgeTest {
    private static final Instant NOW = Instant.parse("2026-11-28T01:30:00Z");
    private final RunControl.LockOwner me =
            new RunControl.LockOwner("20261128T013000Z-a1b2", "ops", "control", 1, Duration.ofHours(2), Set.of());

    @Test
    void aLockTakenAnHourAgoSaysSixtyMinutes() {
        String text = HostLock.describe(held(String.valueOf(NOW.getEpochSecond() - 3600)), me, NOW);

        assertThat(text).contains("locked by run other (pid 7 on control node elsewhere)", "(60 min ago)");
    }

    @Test
    void aLockFromTheFutureIsNotANegativeAge() {
        String text = HostLock.describe(held(String.valueOf(NOW.getEpochSecond() + 3600)), me, NOW);

        assertThat(text).contains("3600 s ahead of this control node's clock").doesNotContain("-3600", "-60 min");
    }

    @Test
    void aForgedHugeOrNegativeTimeIsLeftOutNotThrown() {
        for (String since : new String[] {String.valueOf(Long.MAX_VALUE), "-5", "99999999999999999999", "x"}) {
            String text = HostLock.describe(held(since), me, NOW);

            assertThat(text).as(since).contains("locked by run other").doesNotContain(" since ", " ago", "ahead");
        }
    }

    private static Map<String, String> held(String since) {
        return Map.of("run", "other", "pid", "7", "node", "elsewhere", "since", since);
    }
}
