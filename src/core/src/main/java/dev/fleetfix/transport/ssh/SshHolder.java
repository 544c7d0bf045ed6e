package dev.fleetfix.transport.ssh;

import dev.fleetfix.transport.held.Holder;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The connection holder's process ({@link Holder} with SSH shells): started by a run as {@code java -cp ... SshHolder
 * SOCKET PERSIST_MILLIS}, it prints {@code ready} once it listens, and exits when the holder stops.
 */
public final class SshHolder {
    private SshHolder() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: SshHolder SOCKET PERSIST_MILLIS");
            System.exit(2);
        }
        Holder holder = Holder.bind(Path.of(args[0]), Duration.ofMillis(Long.parseLong(args[1])), login -> {
            SshLogin resolved =
                    SshLogin.of(login.host(), login.options(), login.home(), login.localUser(), login.env());
            SshShell shell = SshShell.open(login.host(), login.options(), resolved);
            return new Holder.Opened(shell, resolved.trustFiles(), shell::responds);
        });
        System.out.println("ready");
        System.out.flush();
        // the run that started us may close our end of the pipe: nothing more is written there
        System.setOut(new PrintStream(System.err, true));
        holder.serve();
        System.exit(0);
    }
}
