package dev.fleetfix.steps.restart;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.fake.FakeHost;
import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.ExecResult;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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

    @Test
    void supervisordsStateAndCheckReadSupervisorctlStatusInSystemdsWords() {
        FakeHost host = new FakeHost("sv", dir);
        Optional<String> conf = Optional.of("/etc/supervisor/supervisord.conf");
        Map<String, String> states = new LinkedHashMap<>();
        for (String status : List.of("RUNNING   pid 12, uptime 0:01:00", "STOPPED   Dec 02", "FATAL  Exited")) {
            host.command("supervisorctl", "echo \"redis   " + status + "\"\n");
            states.put(
                    status.split(" ")[0],
                    run(host, ServiceRestart.supervisorStateScript("redis", conf))
                            .stdout()
                            .strip());
        }
        host.command("supervisorctl", "echo 'nope: ERROR (no such process)'\n");

        assertThat(states)
                .containsExactly(
                        Map.entry("RUNNING", "active"), Map.entry("STOPPED", "inactive"), Map.entry("FATAL", "failed"));
        assertThat(run(host, ServiceRestart.supervisorCheckScript("nope", conf)).ok())
                .isFalse();
        // the program's name reaches supervisorctl as one argument, whatever it holds
        host.command("supervisorctl", "printf '%s\\n' \"$@\" > \"$FAKE_ROOT/args\"\n");
        run(host, ServiceRestart.supervisorScript("x'; reboot; '", conf));
        assertThat(host.read("/args")).hasValueSatisfying(a -> assertThat(a).endsWith("\nrestart\nx'; reboot; '\n"));
    }

    private static ExecResult run(FakeHost host, String script) {
        return host.shell().exec(Command.of(script).withTimeout(Duration.ofSeconds(20)));
    }
}
