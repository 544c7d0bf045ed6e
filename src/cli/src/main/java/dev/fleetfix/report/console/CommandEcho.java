package dev.fleetfix.report.console;

import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.CommandTrace;
import java.io.PrintWriter;

/**
 * Prints each command as it is sent ({@code fleetfix -v}): {@code [lab-1] $ sudo uname -r}. A
 * multi-line script shows every line, the later ones after {@code [lab-1] > } as a shell's
 * continuation prompt: what was sent must be visible in full, or -v could hide an injected line.
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
        for (int i = 1; i < lines.length; i++) {
            line.append(System.lineSeparator())
                    .append('[')
                    .append(host)
                    .append("] > ")
                    .append(lines[i]);
        }
        synchronized (err) {
            err.println(line);
            err.flush();
        }
    }
}
