package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.transport.SshOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

class SshOptionsMixinTest {

    @Command(name = "probe")
    static final class Probe implements Runnable {
        @Mixin
        SshOptionsMixin ssh;

        SshOptions options;

        @Override
        public void run() {
            options = ssh.toOptions();
        }
    }

    @Test
    void defaultsAreStrictWithTenSeconds() {
        Probe probe = new Probe();

        CliRun run = CliRun.of(new CommandLine(probe));

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(probe.options).isEqualTo(SshOptions.defaults());
    }

    @Test
    void everyOptionReachesTheRecord() {
        Probe probe = new Probe();

        CliRun run = CliRun.of(
                new CommandLine(probe),
                "--accept-new-host-keys",
                "--known-hosts",
                "lab/known_hosts",
                "--connect-timeout",
                "500ms",
                "--key-passphrase-env",
                "FLEETFIX_KEY_PASS");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(probe.options)
                .isEqualTo(new SshOptions(
                        Optional.of(Path.of("lab/known_hosts")),
                        true,
                        Duration.ofMillis(500),
                        Optional.of("FLEETFIX_KEY_PASS")));
    }

    @Test
    void aBadTimeoutIsAUsageErrorNamingTheValue() {
        CliRun run = CliRun.of(new CommandLine(new Probe()), "--connect-timeout", "soon");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.stderr()).contains("--connect-timeout").contains("'soon'");
    }
}
