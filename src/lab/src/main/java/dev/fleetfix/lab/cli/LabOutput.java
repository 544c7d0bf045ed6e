package dev.fleetfix.lab.cli;

import dev.fleetfix.Counts;
import dev.fleetfix.Durations;
import dev.fleetfix.Heartbeat;
import dev.fleetfix.Progress;
import dev.fleetfix.Sleeper;
import dev.fleetfix.lab.LabFleet;
import dev.fleetfix.lab.LabHost;
import dev.fleetfix.lab.LabHostStatus;
import dev.fleetfix.lab.LabInit;
import dev.fleetfix.report.console.LiveLine;
import dev.fleetfix.report.console.Screen;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * What {@code fleetfix lab} prints: a lab just up (its hosts, inventory and what to do next), each
 * host's status, a reboot, a removal, and the progress of starting one.
 */
public final class LabOutput {
    private LabOutput() {}

    /** Prints each progress line of starting a lab as {@code lab: LINE}, at once. */
    public static Consumer<String> progress(PrintWriter err) {
        return line -> {
            err.println("lab: " + line);
            err.flush();
        };
    }

    /**
     * The progress of starting a lab: each line as {@code lab: LINE} at once and, while the step it names lasts (a
     * boot, the cluster forming), every second a live line saying how long it has lasted, paced by {@link LiveLine}.
     * Close it when the lab is up (or failed).
     */
    public static Starting starting(PrintWriter err, Screen screen, Clock clock) {
        return new Starting(err, screen, clock);
    }

    /** See {@link #starting}. */
    public static final class Starting implements Consumer<String>, AutoCloseable {
        private final PrintWriter err;
        private final LiveLine live;
        private final Clock clock;
        private final Heartbeat heartbeat;
        private String step = "";
        private Instant since;

        private Starting(PrintWriter err, Screen screen, Clock clock) {
            this.err = err;
            this.live = new LiveLine(err, screen);
            this.clock = clock;
            this.since = clock.instant();
            // beats in real time, for people
            this.heartbeat = Heartbeat.start(Sleeper.system(), Progress.EVERY, this::beat);
        }

        @Override
        public synchronized void accept(String line) {
            live.clear();
            err.println("lab: " + line);
            err.flush();
            step = line;
            since = clock.instant();
            live.forget("lab");
        }

        private synchronized void beat() {
            Instant now = clock.instant();
            live.progress(
                    "lab",
                    step,
                    since,
                    now,
                    "lab: still " + (step.isEmpty() ? "starting" : step) + " ("
                            + Durations.seconds(Duration.ofSeconds(
                                    Duration.between(since, now).toSeconds())) + ")");
        }

        @Override
        public void close() {
            heartbeat.close();
            synchronized (this) {
                live.clear();
                err.flush();
            }
        }
    }

    /**
     * A lab just up: how long it took, its hosts, its inventory and the commands to use and remove
     * it.
     *
     * @param hostCount the hosts asked for
     * @param preset the preset's name
     * @param realThp whether the lab made this machine's THP real
     * @param severalLabs whether other labs are up too, so removing this one needs its id
     */
    public static void up(
            LabFleet fleet,
            int hostCount,
            Duration took,
            String preset,
            boolean realThp,
            boolean severalLabs,
            PrintWriter out) {
        out.printf(
                "lab %s: %s up in %.1f s (%s%s)%n",
                fleet.id(),
                Counts.of(hostCount, "host"),
                took.toNanos() / 1e9,
                preset,
                realThp ? ", real THP: this machine's kernel THP is always until lab down" : "");
        hosts(fleet, out);
        out.println("inventory: " + fleet.inventoryFile());
        out.println("next: fleetfix audit -i " + fleet.inventoryFile()
                + fleet.vaultPasswordFile()
                        .map(file -> " --vault-password-file " + file)
                        .orElse(""));
        out.println("remove it with: fleetfix lab down" + (severalLabs ? " --id " + fleet.id() : ""));
    }

    /** No lab lives under {@code home}. */
    public static void noneUp(Path home, PrintWriter out) {
        out.println("no lab is up in " + home);
    }

    /** The lab's inventory file, alone on its line, for {@code -i "$(fleetfix lab inventory)"}. */
    public static void inventory(LabFleet fleet, PrintWriter out) {
        out.println(fleet.inventoryFile());
    }

    public static void rebooted(String host, Duration took, PrintWriter out) {
        out.printf("%s rebooted in %.1f s%n", host, took.toNanos() / 1e9);
    }

    public static void removed(LabFleet fleet, int hostCount, PrintWriter out) {
        out.println("lab " + fleet.id() + " removed (" + Counts.of(hostCount, "host") + ")");
    }

    /** One line a host: name, address, SSH, Redis and Sentinel ports. */
    public static void hosts(LabFleet fleet, PrintWriter out) {
        hosts(fleet.hosts(), out);
    }

    /**
     * As above, the names padded to the longest ({@code sudo-password-1}) and the addresses to the longest, so that
     * the columns line up.
     */
    static void hosts(List<LabHost> hosts, PrintWriter out) {
        int addressWidth =
                hosts.stream().mapToInt(h -> h.address().length()).max().orElse(1);
        String columns = "  %-" + nameWidth(hosts) + "s %-" + addressWidth + "s  ssh :%d  redis :%s%s%n";
        for (LabHost host : hosts) {
            out.printf(
                    columns,
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

    /** The longest host name, and at least 8 wide, as the table always was for {@code lab-1}. */
    private static int nameWidth(List<LabHost> hosts) {
        return Math.max(8, hosts.stream().mapToInt(h -> h.name().length()).max().orElse(0));
    }

    /** The lab's inventory, then one line a host (container, sshd, Redis, role, server), instances below. */
    public static void status(LabFleet fleet, PrintWriter out) {
        out.println("lab " + fleet.id() + ": " + fleet.inventoryFile());
        status(fleet.status(), out);
    }

    /** One line a host, the names padded to the longest; instances below their host. */
    static void status(List<LabHostStatus> statuses, PrintWriter out) {
        String name =
                "  %-" + nameWidth(statuses.stream().map(LabHostStatus::host).toList()) + "s";
        for (LabHostStatus status : statuses) {
            LabHost host = status.host();
            out.println(String.format(
                            name + " %-15s %-8s sshd %-4s redis %-4s %-7s %-14s%s%s",
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
