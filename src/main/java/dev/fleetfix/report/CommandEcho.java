package dev.fleetfix.report;

import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.CommandTrace;
import java.io.PrintWriter;

/**
 * Prints each command as it is sent ({@code fleetfix -v}): {@code [lab-1] $ sudo uname -r}. A
 * multi-line script shows its first line and how many lines follow.
 */
public final class CommandEcho implements CommandTrace.Listener {
    private final PrintWriter err;

    public CommandEcho(PrintWriter err) {
        this.err = err;
    }

    @Override
    public void onCommand(String host, Command command) {
        String[] lines = command.script().strip().split("\n");
        StringBuilder line = new StringBuilder("[").append(host).append("] $ ");
        if (command.become()) {
            line.append("sudo ");
        }
        line.append(lines[0]);
        if (lines.length > 1) {
            line.append("  … (+").append(lines.length - 1).append(" lines)");
        }
        synchronized (err) {
            err.println(line);
            err.flush();
        }
    }
}
