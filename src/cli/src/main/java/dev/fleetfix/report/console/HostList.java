package dev.fleetfix.report.console;

import dev.fleetfix.inventory.Host;
import java.io.PrintWriter;
import java.util.List;

/**
 * {@code --list-hosts} of the commands that act on hosts one by one ({@code audit}, {@code bench}):
 * the selected hosts' names, one a line, in inventory order. {@code apply --list-hosts} prints its
 * plan's plays and batches instead ({@link ApplyOutput#hostList}).
 */
public final class HostList {
    private HostList() {}

    public static void print(List<Host> hosts, PrintWriter out) {
        hosts.forEach(host -> out.println(host.name()));
        out.flush();
    }
}
