package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.fake.TestClock;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.CommandTimes;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.RemoteShell;
import dev.fleetfix.transport.ShellFactory;
import dev.fleetfix.transport.TransportException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** -vvv's times: each host's opening and each command's round trip beside its own time on the host. */
class TimesTraceTest {
    private static final Instant START = Instant.parse("2026-12-06T10:00:00Z");

    private final TestClock clock = new TestClock(START);
    private final StringWriter err = new StringWriter();
    private final TimesTrace trace = new TimesTrace(new PrintWriter(err, true), clock, START);

    /** A host whose opening takes 0.1 s and whose commands take 1.5 s, 1.4 s of it on the host. */
    private final ShellFactory slow = host -> {
        clock.advance(Duration.ofMillis(100));
        return new RemoteShell() {
            @Override
            public String hostName() {
                return host.name();
            }

            @Override
            public ExecResult exec(Command command) {
                clock.advance(Duration.ofMillis(1500));
                if (command.script().startsWith("false")) {
                    throw new TransportException(host, TransportException.Kind.BROKEN, "connection lost", null);
                }
                return new ExecResult(0, "ok", "", Duration.ofMillis(1400));
            }

            @Override
            public void put(String remotePath, byte[] content, int mode, boolean become) {
                clock.advance(Duration.ofMillis(200));
            }

            @Override
            public void close() {}
        };
    };

    @Test
    void eachOpeningAndCommandSaysWhenSinceTheStartAndHowLongAndTheHostsOwnShare() {
        clock.advance(Duration.ofMillis(900)); // the JVM and fleetfix before the first host
        RemoteShell shell = CommandTimes.around(slow, clock, trace).open(Host.implicitLocalhost());

        ExecResult result =
                shell.exec(Command.of("# the host's facts\nuname -r").asRoot());
        shell.put("/etc/fleetfix.conf", new byte[3], 0644, true);

        assertThat(result.stdout()).as("the command's result passes unchanged").isEqualTo("ok");
        assertThat(err.toString().lines())
                .containsExactly(
                        "[localhost] +1.000s opened in 0.100s",
                        "[localhost] +2.500s exit 0 after 1.500s, 1.400s of it the command's own on the host:"
                                + " # the host's facts",
                        "[localhost] +2.700s came back after 0.200s: (write 3 bytes) /etc/fleetfix.conf");
    }

    @Test
    void aFailedOpeningOrCommandIsTimedTooAndItsFailurePassesUnchanged() {
        ShellFactory refused = host -> {
            clock.advance(Duration.ofMillis(300));
            throw new TransportException(host, TransportException.Kind.AUTH, "refused", null);
        };
        assertThatThrownBy(() -> CommandTimes.around(refused, clock, trace).open(Host.implicitLocalhost()))
                .isInstanceOf(TransportException.class)
                .hasMessageContaining("refused");
        RemoteShell shell = CommandTimes.around(slow, clock, trace).open(Host.implicitLocalhost());
        assertThatThrownBy(() -> shell.exec(Command.of("false"))).hasMessageContaining("connection lost");

        assertThat(err.toString().lines())
                .containsExactly(
                        "[localhost] +0.300s failed to open after 0.300s",
                        "[localhost] +0.400s opened in 0.100s",
                        "[localhost] +1.900s came back after 1.500s: false");
    }
}
