package dev.fleetfix.transport;

import dev.fleetfix.inventory.Host;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link ShellFactory} decorator that tells a listener how long each host took to open and each command took to
 * come back, beside the command's own time from its start on the host: what {@code fleetfix -vvv} shows, so that a
 * run's time can be split into the control node's share (start, opening, the round trip) and the hosts' share. The
 * shells it opens behave exactly as the wrapped ones; time is read from the clock it is given.
 */
public final class CommandTimes {

    /** Hears of each opening and each command once it is over. */
    public interface Listener {
        /** The host's shell was opened (or failed to open, {@code ok} false) after {@code took}. */
        void opened(String host, Duration took, boolean ok);

        /**
         * A command (or a file written, whose result is empty) came back after {@code roundTrip}; the result is empty
         * too when it failed to run.
         */
        void done(String host, Command command, Duration roundTrip, Optional<ExecResult> result);
    }

    private CommandTimes() {}

    public static ShellFactory around(ShellFactory factory, Clock clock, Listener listener) {
        Objects.requireNonNull(factory, "factory");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(listener, "listener");
        return (Host host) -> {
            Instant start = clock.instant();
            RemoteShell shell;
            try {
                shell = factory.open(host);
            } catch (RuntimeException e) {
                listener.opened(host.name(), Duration.between(start, clock.instant()), false);
                throw e;
            }
            listener.opened(host.name(), Duration.between(start, clock.instant()), true);
            return new Timed(shell, clock, listener);
        };
    }

    private record Timed(RemoteShell shell, Clock clock, Listener listener) implements RemoteShell {
        @Override
        public String hostName() {
            return shell.hostName();
        }

        @Override
        public ExecResult exec(Command command) {
            Instant start = clock.instant();
            Optional<ExecResult> result = Optional.empty();
            try {
                result = Optional.of(shell.exec(command));
                return result.get();
            } finally {
                listener.done(shell.hostName(), command, Duration.between(start, clock.instant()), result);
            }
        }

        @Override
        public void put(String remotePath, byte[] content, int mode, boolean become) {
            Instant start = clock.instant();
            try {
                shell.put(remotePath, content, mode, become);
            } finally {
                listener.done(
                        shell.hostName(),
                        new Command(
                                "(write " + content.length + " bytes) " + ShellQuote.quote(remotePath),
                                become,
                                Command.DEFAULT_TIMEOUT),
                        Duration.between(start, clock.instant()),
                        Optional.empty());
            }
        }

        @Override
        public void close() {
            shell.close();
        }
    }
}
