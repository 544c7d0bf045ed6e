package dev.fleetfix.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.Forks;
import dev.fleetfix.fake.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

class CommandClockTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Duration CONNECT = Duration.ofSeconds(10);

    private final TestClock clock = new TestClock(Instant.parse("2026-12-06T10:00:00Z"));
    private final LongSupplier nanos =
            () -> Duration.between(Instant.EPOCH, clock.instant()).toNanos();

    @Test
    void aHostThatWaitedLongerThanItsTimeoutForItsTurnStillGetsAllOfIt() {
        // one fork, three hosts: each command runs 25 s, so the last host waits 50 s for its slot, past the 30 s
        Map<String, Duration> left = new ConcurrentHashMap<>();
        Forks.run(List.of("a", "b", "c"), 1, host -> {
            CommandClock command = CommandClock.starting(TIMEOUT, CONNECT, nanos);
            clock.advance(Duration.ofSeconds(2)); // the session and the exec, on a busy sshd
            command.started();
            clock.advance(Duration.ofSeconds(25)); // the command itself
            left.put(host, command.remaining());
            return host;
        });

        assertThat(left).containsEntry("c", Duration.ofSeconds(5)).containsEntry("a", Duration.ofSeconds(5));
    }

    @Test
    void theTimeoutCountsFromTheCommandsStartNotFromWhenItWasHandedOver() {
        CommandClock command = CommandClock.starting(TIMEOUT, CONNECT, nanos);
        clock.advance(Duration.ofSeconds(8)); // a login made again, sudo answered
        command.started();

        assertThat(command.remaining()).isEqualTo(TIMEOUT);
        clock.advance(Duration.ofSeconds(29));
        assertThat(command.expired()).isFalse();
        clock.advance(Duration.ofSeconds(1));
        assertThat(command.expired()).as("30 s after its start").isTrue();
        assertThat(command.elapsed()).as("what the result reports: the whole").isEqualTo(Duration.ofSeconds(38));
    }

    @Test
    void gettingTheCommandStartedIsBoundedByTheConnectTimeout() {
        CommandClock command = CommandClock.starting(TIMEOUT, CONNECT, nanos);

        clock.advance(Duration.ofSeconds(4));
        assertThat(command.remaining()).isEqualTo(Duration.ofSeconds(6));
        clock.advance(Duration.ofSeconds(7));
        assertThat(command.hasStarted()).isFalse();
        assertThat(command.expired())
                .as("sudo never answered within the connect timeout")
                .isTrue();
    }

    @Test
    void aSecondStartChangesNothing() {
        CommandClock command = CommandClock.starting(TIMEOUT, CONNECT, nanos);
        command.started();
        clock.advance(Duration.ofSeconds(20));
        command.started();

        assertThat(command.remaining()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void boundsArePositive() {
        assertThatThrownBy(() -> CommandClock.starting(Duration.ZERO, CONNECT, nanos))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("timeout must be positive");
        assertThatThrownBy(() -> CommandClock.starting(TIMEOUT, Duration.ofSeconds(-1), nanos))
                .hasMessageContaining("startBound must be positive");
    }
}
