package dev.fleetfix.cli;

import dev.fleetfix.transport.held.HoldClient;
import dev.fleetfix.transport.held.HoldPlace;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** What the user's connection holder keeps open, and closing it: OpenSSH's {@code ssh -O check} and {@code -O exit}. */
@Command(
        name = "connections",
        mixinStandardHelpOptions = true,
        description = {
            "Lists the SSH connections this user's holder keeps open between runs (--control-persist), or closes"
                    + " them all with --close.",
            "Exit 0 when a holder runs (or was closed), 1 when none runs."
        })
final class ConnectionsCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--close", description = "Close every held connection and stop the holder.")
    boolean close;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        // only asks a running holder; never starts one
        HoldClient client = new HoldClient(HoldPlace.ofProcess(), Duration.ZERO, List.of());
        if (close) {
            boolean stopped = client.stop();
            out.println(stopped ? "closed: the holder is closing its connections and exiting" : "no holder runs");
            out.flush();
            return stopped ? ExitCode.OK : ExitCode.FINDINGS;
        }
        Optional<String> status = client.status();
        out.println(status.map(s -> "holder " + s)
                .orElse("no holder runs (" + client.place().socket() + ")"));
        out.flush();
        return status.isPresent() ? ExitCode.OK : ExitCode.FINDINGS;
    }
}
