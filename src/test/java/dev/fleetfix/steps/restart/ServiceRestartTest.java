package dev.fleetfix.steps.restart;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.fake.FakeHost;
import dev.fleetfix.transport.Command;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServiceRestartTest {
    @TempDir
    Path dir;

    @Test
    void aRestartInTheSecondThePendingRecordWasWrittenStartsRedisInALaterSecondSoTheRecordCanBeCleared() {
        FakeHost host = new FakeHost("r1", dir);
        // the fake host's clock is this machine's: begin at the start of a second, as persist_thp's record did
        long since = Instant.now().getEpochSecond();
        while (Instant.now().getEpochSecond() == since) {
            Thread.onSpinWait();
        }
        since = Instant.now().getEpochSecond();
        host.write(PendingRestart.PATH, "since=" + since + "\nreason=persist_thp changed the boot settings\n");

        host.shell()
                .exec(Command.of(ServiceRestart.script("redis-server")).asRoot().withTimeout(Duration.ofSeconds(20)));

        // a Redis started in the record's own second would keep the record (PendingRestart.clear)
        assertThat(host.redis().restarts()).isEqualTo(1);
        assertThat(Instant.now().getEpochSecond()).isGreaterThan(since);
    }
}
