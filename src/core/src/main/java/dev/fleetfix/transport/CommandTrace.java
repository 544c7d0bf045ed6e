package dev.fleetfix.transport;

import dev.fleetfix.inventory.Host;
import java.util.Objects;

/**
 * A {@link ShellFactory} decorator that tells a listener about every command before it runs: what
 * {@code fleetfix -v} shows. The shells it opens behave exactly as the wrapped ones.
 */
public final class CommandTrace {

    /** Hears of each command a shell is about to run. */
    @FunctionalInterface
    public interface Listener {
        void onCommand(String host, Command command);
    }

    private CommandTrace() {}

    public static ShellFactory around(ShellFactory factory, Listener listener) {
        Objects.requireNonNull(factory, "factory");
        Objects.requireNonNull(listener, "listener");
        return (Host host) -> new Traced(factory.open(host), listener);
    }

    private record Traced(RemoteShell shell, Listener listener) implements RemoteShell {
        @Override
        public String hostName() {
            return shell.hostName();
        }

        @Override
        public ExecResult exec(Command command) {
            listener.onCommand(shell.hostName(), command);
            return shell.exec(command);
        }

        @Override
        public void put(String remotePath, byte[] content, int mode, boolean become) {
            String write = "(write " + content.length + " bytes, mode " + Integer.toOctalString(mode) + ") "
                    + ShellQuote.quote(remotePath);
            listener.onCommand(shell.hostName(), new Command(write, become, Command.DEFAULT_TIMEOUT));
            shell.put(remotePath, content, mode, become);
        }

        @Override
        public void close() {
            shell.close();
        }
    }
}
