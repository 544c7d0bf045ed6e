package dev.fleetfix.cli;

import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.CommandTimes;
import dev.fleetfix.transport.ExecResult;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;

/**
 * Prints where a run's time goes ({@code fleetfix -vvv}), one line per host opened and per command come back, each
 * stamped with the time since the JVM started (fleetfix's own start before the first host shows in the first stamp): {@code [lab-1] +2.611s exit 0 after 1.493s, 1.402s of it the command's own on the host: # facts}.
 * What a command's round trip adds to its own time is the control node's and the connection's share (a session, the
 * connection holder); the time between a host's lines is the run's own work between them (Redis, the report).
 */
final class TimesTrace implements CommandTimes.Listener {
    private static final int SHOWN = 60;

    private final PrintWriter err;
    private final Clock clock;
    private final Instant processStart;

    TimesTrace(PrintWriter err, Clock clock, Instant processStart) {
        this.err = err;
        this.clock = clock;
        this.processStart = processStart;
    }

    /**
     * The trace of this process: stamps count from the JVM's start, to the millisecond (the operating system's start
     * time of a process is known only to within a second here: it counts from the boot time in whole seconds).
     */
    static TimesTrace ofProcess(PrintWriter err, Clock clock) {
        Instant start =
                Instant.ofEpochMilli(ManagementFactory.getRuntimeMXBean().getStartTime());
        return new TimesTrace(err, clock, start);
    }

    @Override
    public void opened(String host, Duration took, boolean ok) {
        print(host, (ok ? "opened in " : "failed to open after ") + seconds(took));
    }

    @Override
    public void done(String host, Command command, Duration roundTrip, Optional<ExecResult> result) {
        String what = result.map(r -> "exit " + r.exitCode() + " after " + seconds(roundTrip) + ", "
                        + seconds(r.duration()) + " of it the command's own on the host")
                .orElse("came back after " + seconds(roundTrip));
        print(host, what + ": " + firstLine(command.script()));
    }

    private void print(String host, String text) {
        String stamp = seconds(Duration.between(processStart, clock.instant()));
        synchronized (err) {
            err.println("[" + host + "] +" + stamp + " " + text);
            err.flush();
        }
    }

    private static String firstLine(String script) {
        String line = script.strip().lines().findFirst().orElse("");
        return line.length() > SHOWN ? line.substring(0, SHOWN) + "…" : line;
    }

    private static String seconds(Duration d) {
        return String.format(Locale.ROOT, "%.3fs", d.toNanos() / 1e9);
    }
}
