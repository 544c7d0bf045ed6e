package dev.fleetfix.steps.restart;

import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.redis.topology.ReplicaLink;
import dev.fleetfix.steps.model.StepContext;
import dev.fleetfix.steps.restart.handover.Handover.Route;
import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.ScriptResource;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The host's own record that its Redis must restart, {@value #PATH}: a step writes it before it changes what a
 * running Redis picks up only when it starts (THP), and {@code restart_redis} removes it after a verified
 * restart. So a run killed between the change and the restart, or whose restart failed, leaves the record behind,
 * and the next run restarts Redis even though the change itself is already in place and reports no change.
 *
 * <p>It holds {@code since=} (the host's clock, epoch seconds, of the latest change), {@code reason=} and
 * {@code run=}, and while a primary's role is handed over for its restart, one {@code handover=} line: the route,
 * the new primary's address and inventory name, and whether the run meant to fail back. A Redis that started
 * after {@code since} already runs under the change. Under {@code /var/lib}, not {@code /run}: the hand-over
 * outlives a reboot (the roles are in the config files), and the directory is root's alone.
 */
public final class PendingRestart {
    public static final String PATH = "/var/lib/fleetfix/restart-pending";

    private static final String DIR = "/var/lib/fleetfix";
    private static final Duration CONNECT = Duration.ofSeconds(3);
    private static final Duration SHELL = Duration.ofSeconds(20);
    /** The record is small; a larger file is not ours to trust whole. */
    private static final int MAX_BYTES = 4096;

    private PendingRestart() {}

    /**
     * A journalled hand-over of this host's primary role.
     *
     * @param route who moved the role; the record writes it as its {@link Route#word()} ({@code failover},
     *     {@code manual}, {@code cluster} or {@code sentinel}), the words every fleetfix has written
     * @param ip the new primary's address as the old primary listed it (empty on the Sentinel route)
     * @param port its port (0 on the Sentinel route)
     * @param host its inventory name, or its address when it has none
     * @param failback whether the run that handed over meant to fail back
     * @param lineage this host's {@code master_replid} just before the hand-over, which the new primary keeps as
     *     its {@code master_replid2} until it is promoted again ({@link HandoverResume}); empty when Redis did not
     *     say (before 4.0) or the record is an older fleetfix's
     * @param from the inventory name of the host that handed over: the record is the machine's, and another Redis
     *     of the same machine must neither act on nor drop it; empty in an older fleetfix's record
     */
    public record Handover(
            Route route,
            String ip,
            int port,
            String host,
            boolean failback,
            Optional<String> lineage,
            Optional<String> from) {
        public Handover {
            Objects.requireNonNull(route, "route");
            lineage = lineage.filter(l -> l.matches("[0-9a-zA-Z]{1,64}"));
            from = from.map(PendingRestart::word);
        }

        public Handover(Route route, String ip, int port, String host, boolean failback) {
            this(route, ip, port, host, failback, Optional.empty(), Optional.empty());
        }

        String line() {
            return route.word() + " " + (ip.isEmpty() ? "-" : ip) + " " + port + " " + host + " "
                    + (failback ? "failback" : "stay") + " " + lineage.orElse("-") + " " + from.orElse("-");
        }

        /** Whether the record's hand-over is {@code hostName}'s own (an older record's may be). */
        public boolean of(String hostName) {
            return from.isEmpty() || from.get().equals(word(hostName));
        }

        /**
         * Five words (an older fleetfix's record), or seven (with the lineage and the host, "-" when unknown); empty
         * for another count or a route word no route has.
         */
        static Optional<Handover> parse(String value) {
            String[] w = value.strip().split(" ");
            Optional<Route> route = Route.ofWord(w[0]);
            if ((w.length != 5 && w.length != 7) || route.isEmpty()) {
                return Optional.empty();
            }
            Optional<String> lineage = w.length == 7 && !w[5].equals("-") ? Optional.of(w[5]) : Optional.empty();
            Optional<String> from = w.length == 7 && !w[6].equals("-") ? Optional.of(w[6]) : Optional.empty();
            try {
                return Optional.of(new Handover(
                        route.get(),
                        w[1].equals("-") ? "" : w[1],
                        Integer.parseInt(w[2]),
                        w[3],
                        w[4].equals("failback"),
                        lineage,
                        from));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        }

        /** "FAILOVER to lab-2 (127.0.0.12:6379)". */
        public String describe() {
            return route.name() + " to " + host + (ip.isEmpty() ? "" : " (" + ip + ":" + port + ")");
        }
    }

    /**
     * What the record says.
     *
     * @param since the host's epoch seconds of the latest change; -1 when unreadable (then every Redis counts as
     *     started before it)
     */
    public record Marker(long since, String reason, String run, Optional<Handover> handover) {
        static Marker parse(String text) {
            long since = -1;
            String reason = "";
            String run = "";
            Optional<Handover> handover = Optional.empty();
            for (String line : text.split("\n")) {
                int eq = line.indexOf('=');
                if (eq < 0) {
                    continue;
                }
                String key = line.substring(0, eq).strip();
                String value = line.substring(eq + 1).strip();
                switch (key) {
                    case "since" -> since = ReplicaLink.number(value, -1);
                    case "reason" -> reason = value;
                    case "run" -> run = value;
                    case "handover" -> handover = Handover.parse(value);
                    default -> {
                        // a later version's field
                    }
                }
            }
            return new Marker(since, reason, run, handover);
        }
    }

    /**
     * Records, before the change is made, that Redis must restart because of {@code reason}: {@code since} becomes
     * now, a journalled hand-over is kept. Never in check mode.
     */
    public static void mark(StepContext ctx, String reason) {
        write(ctx, markScript(reason, ctx.run().stamp(), false));
    }

    /** As {@link #mark}, unless a record is there already: its older {@code since} covers this Redis too. */
    static void markUnlessPending(StepContext ctx, String reason) {
        write(ctx, markScript(reason, ctx.run().stamp(), true));
    }

    /** Journals a hand-over before it is made, so that a run that dies after it can fail back or say so. */
    static void journal(StepContext ctx, Handover handover) {
        write(ctx, onRecord("pending-journal.sh", ScriptResource.assign("line", "handover=" + handover.line())));
    }

    /**
     * Removes the hand-over from the record ({@link HandoverResume} found its purpose gone), keeping what else it
     * says: a restart still pending stays pending. Never in check mode.
     */
    static void dropHandover(StepContext ctx) {
        write(ctx, onRecord("pending-drop.sh", ""));
    }

    /**
     * Removes the record once every Redis of the machine started after it ({@code ps}: the other instances of a
     * machine share it); kept otherwise. Empty when removed or absent, else why it was kept.
     */
    public static Optional<String> clear(StepContext ctx) {
        String script = onRecord("pending-clear.sh", "");
        ExecResult r = ctx.shell().exec(Command.of(script).asRoot().withTimeout(SHELL));
        if (!r.ok()) {
            return Optional.of("cannot remove " + PATH + ": " + r.errorText());
        }
        return r.stdout().isBlank() ? Optional.empty() : Optional.of(r.stdout().strip());
    }

    /** The host's record, if there is one. A record that cannot be read fails the step: it may say restart. */
    public static Optional<Marker> read(StepContext ctx) {
        String script = onRecord("pending-read.sh", ScriptResource.assign("max_bytes", Integer.toString(MAX_BYTES)));
        ExecResult r = ctx.shell().exec(Command.of(script).asRoot().withTimeout(SHELL));
        if (r.exitCode() == 44) {
            return Optional.empty();
        }
        if (!r.ok()) {
            throw new IllegalStateException("cannot read " + PATH + ": " + r.errorText());
        }
        return Optional.of(Marker.parse(r.stdout()));
    }

    /**
     * When the running Redis started, in the server's (the host's) epoch seconds: {@code TIME} minus
     * {@code uptime_in_seconds}. Empty when Redis does not answer or lacks either.
     */
    public static OptionalLong redisStarted(StepContext ctx) {
        try (RedisNode node = ctx.redis().open(CONNECT)) {
            Map<String, String> server = node.info("server");
            long uptime = ReplicaLink.number(server.get("uptime_in_seconds"), -1);
            Object time = node.command("TIME");
            long now = time instanceof List<?> parts && !parts.isEmpty()
                    ? ReplicaLink.number(String.valueOf(parts.get(0)), -1)
                    : -1;
            return uptime < 0 || now < 0 ? OptionalLong.empty() : OptionalLong.of(now - uptime);
        } catch (RedisException e) {
            return OptionalLong.empty();
        }
    }

    /** {@code pending-mark.sh} after its parameters. */
    private static String markScript(String reason, String run, boolean unlessPending) {
        return onRecord(
                "pending-mark.sh",
                ScriptResource.assign("dir", DIR)
                        + ScriptResource.assign("reason", "reason=" + oneLine(reason))
                        + ScriptResource.assign("run", "run=" + oneLine(run))
                        + ScriptResource.assign("unless_pending", unlessPending ? "yes" : "no"));
    }

    /** The script {@code resource} (next to this class) after the record's path and {@code parameters}. */
    private static String onRecord(String resource, String parameters) {
        return ScriptResource.assign("record", PATH) + parameters + ScriptResource.read(PendingRestart.class, resource);
    }

    /** A name as one word of the record's hand-over line. */
    static String word(String s) {
        return s.isEmpty() ? "-" : s.replaceAll("\\s+", "_");
    }

    private static String oneLine(String s) {
        return s.replaceAll("[\\r\\n]+", " ");
    }

    private static void write(StepContext ctx, String script) {
        if (ctx.check()) {
            throw new IllegalStateException("write in check mode: " + script);
        }
        ExecResult r = ctx.shell().exec(Command.of(script).asRoot().withTimeout(SHELL));
        if (!r.ok()) {
            throw new IllegalStateException("cannot write " + PATH + " (exit " + r.exitCode() + "): " + r.errorText());
        }
    }
}
