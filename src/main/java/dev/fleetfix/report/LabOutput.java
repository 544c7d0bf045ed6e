package dev.fleetfix.report;

import dev.fleetfix.lab.LabFleet;
import dev.fleetfix.lab.LabHost;
import dev.fleetfix.lab.LabHostStatus;
import dev.fleetfix.lab.LabInit;
import java.io.PrintWriter;
import java.util.Locale;

/** What {@code fleetfix lab} prints: the hosts of a lab just up, and each host's status. */
public final class LabOutput {
    private LabOutput() {}

    /** One line a host: name, address, SSH, Redis and Sentinel ports. */
    public static void hosts(LabFleet fleet, PrintWriter out) {
        for (LabHost host : fleet.hosts()) {
            out.printf(
                    "  %-8s %s  ssh :%d  redis :%s%s%n",
                    host.name(),
                    host.address(),
                    host.sshPort(),
                    String.join(
                            ",", host.redisPorts().stream().map(String::valueOf).toList()),
                    host.sentinelPort().isPresent()
                            ? "  sentinel :" + host.sentinelPort().getAsInt()
                            : "");
        }
    }

    /** The lab's inventory, then one line a host (container, sshd, Redis, role, server), instances below. */
    public static void status(LabFleet fleet, PrintWriter out) {
        out.println("lab " + fleet.id() + ": " + fleet.inventoryFile());
        for (LabHostStatus status : fleet.status()) {
            LabHost host = status.host();
            out.println(String.format(
                            "  %-8s %-15s %-8s sshd %-4s redis %-4s %-7s %-14s%s%s",
                            host.name(),
                            host.address(),
                            status.state(),
                            status.sshUp() ? "up" : "down",
                            status.redisUp() ? "up" : "down",
                            status.role().orElse("-"),
                            status.instances().get(0).server().orElse("-"),
                            host.init() == LabInit.SYSTEMD
                                    ? ""
                                    : "  init " + host.init().name().toLowerCase(Locale.ROOT),
                            host.sentinelPort().isPresent()
                                    ? "  sentinel " + (status.sentinelUp() ? "up" : "down")
                                    : "")
                    .stripTrailing());
            if (status.instances().size() > 1) {
                for (LabHostStatus.Instance instance : status.instances()) {
                    out.println(String.format(
                                    "      :%-5d %-20s %-4s %s",
                                    instance.port(),
                                    instance.service(),
                                    instance.up() ? "up" : "down",
                                    instance.server().orElse("-"))
                            .stripTrailing());
                }
            }
        }
    }
}
