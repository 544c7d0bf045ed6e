package dev.fleetfix.steps.restart.handover;

import dev.fleetfix.health.GateTarget;
import dev.fleetfix.health.Poll;
import dev.fleetfix.redis.InfoParser;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.redis.RedisServer;
import dev.fleetfix.redis.topology.NodeState;
import dev.fleetfix.redis.topology.ReplicaLink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Hands a primary's role to an in-sync replica by hand, for Redis without FAILOVER (3.0 to 6.0), or
 * with {@code failover: manual}:
 *
 * <ol>
 *   <li>on the primary, in one MULTI: a write guard ({@code min-slaves-to-write} set out of reach, so
 *       that a write that slips in after the pause is refused rather than lost), {@code CLIENT
 *       PAUSE} ({@code WRITE} from 6.2, else every client), and {@code INFO replication}, whose
 *       offset is then the last write;
 *   <li>wait until the replica's {@code slave_repl_offset} reached it, within the pause;
 *   <li>{@code SLAVEOF NO ONE} on the replica ({@code REPLICAOF} from 5.0);
 *   <li>{@code SLAVEOF replica} on the old primary (before 6.2 it runs when the pause ends: the
 *       pause holds this connection too), then its guard removed;
 *   <li>the primary's other replicas that fleetfix can reach follow the new primary;
 *   <li>the old primary reports {@code role:slave}, the new one takes a write, every config is
 *       rewritten.
 * </ol>
 *
 * If the replica does not catch up within the pause, nothing is promoted and the guard is removed.
 */
final class ManualMove {
    /** How long writes wait: before 6.2 a pause cannot be lifted early, clients wait all of it. */
    static final Duration PAUSE = Duration.ofSeconds(3);
    /** More replicas than any primary has: every write is refused with NOREPLICAS. */
    static final String GUARD = "1000000";

    private static final Duration CONNECT = RoleMoves.CONNECT;

    private final RoleMoves moves;
    private final Poll poll;

    ManualMove(RoleMoves moves) {
        this.moves = moves;
        this.poll = moves.poll();
    }

    /** The old primary's guard settings, to put back. */
    private record Guard(String toWrite, String maxLag) {}

    /** What the old primary said before the pause: its commands, its guard settings, its other replicas. */
    private record Before(RedisServer server, Guard guard, List<ReplicaLink> others) {}

    /**
     * Moves the role from {@code from} to its replica {@code target}; empty when done. On an error
     * before the promotion the old primary stays primary, unguarded.
     */
    Optional<String> move(
            GateTarget.Connect from, String fromName, ReplicaLink target, GateTarget.Connect to, String toName)
            throws InterruptedException {
        Before before;
        try (RedisNode p = from.open(CONNECT)) {
            Optional<RedisServer> known = RedisServer.of(p);
            if (known.isEmpty()) {
                return Optional.of(fromName + ": INFO server has no redis_version, which commands it has is unknown");
            }
            if (!known.get().hasClientPause()) {
                return Optional.of(fromName + ": " + known.get().describe() + " has no CLIENT PAUSE (3.0+)");
            }
            Optional<Guard> guard = guard(p);
            if (guard.isEmpty()) {
                return Optional.of(fromName + ": CONFIG GET min-slaves-to-write/min-slaves-max-lag gave no answer"
                        + " (CONFIG renamed or refused): writes after the pause could not be refused, so no"
                        + " hand-over");
            }
            before = new Before(known.get(), guard.get(), others(p, fromName, target));
        } catch (RedisException e) {
            return Optional.of(e.getMessage());
        }
        // the pause also holds this connection's own commands before 6.2: wait for it to end
        Duration held = PAUSE.plus(CONNECT).plus(CONNECT);
        try (RedisNode p = from.open(held)) {
            Optional<String> swapped = swap(p, before, fromName, target, to, toName);
            if (swapped.isPresent()) {
                return swapped;
            }
        } catch (RedisException e) {
            return Optional.of(fromName + ": " + e.getMessage());
        }
        Optional<String> repointed = repoint(before.others(), target, toName);
        Optional<String> settled = moves.settle(from, fromName, Optional.of(to), toName, true);
        return settled.isPresent() ? settled : repointed;
    }

    /** The old primary's min-slaves settings; empty when CONFIG GET does not say them. */
    private static Optional<Guard> guard(RedisNode p) {
        Optional<String> toWrite = p.configGet("min-slaves-to-write");
        Optional<String> maxLag = p.configGet("min-slaves-max-lag");
        if (toWrite.isEmpty() || maxLag.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Guard(toWrite.get().strip(), maxLag.get().strip()));
    }

    /** The old primary's replicas other than {@code target}. */
    private static List<ReplicaLink> others(RedisNode p, String fromName, ReplicaLink target) {
        return NodeState.fromInfo(fromName, p.info("replication")).replicas().stream()
                .filter(r -> !(r.ip().equals(target.ip()) && r.port() == target.port()))
                .toList();
    }

    /**
     * Within the pause: the replica catches up, is promoted, and the old primary follows it, unguarded; empty when
     * done. Before the promotion an error leaves the old primary primary, unguarded.
     */
    private Optional<String> swap(
            RedisNode p, Before before, String fromName, ReplicaLink target, GateTarget.Connect to, String toName)
            throws InterruptedException {
        RedisServer server = before.server();
        Guard guard = before.guard();
        long offset;
        try {
            offset = pauseAndRead(p, server, guard);
        } catch (RedisException e) {
            unguard(p, guard);
            return Optional.of("pausing " + fromName + ": " + e.getMessage());
        }
        Optional<String> behind = poll.until(
                toName + " to reach offset " + offset, PAUSE.minusMillis(500), () -> caughtUp(to, toName, offset));
        if (behind.isPresent()) {
            unguard(p, guard);
            return Optional.of(toName + " did not reach offset " + offset + " of " + fromName + " within the "
                    + PAUSE.toSeconds() + "s pause: " + behind.get() + "; " + fromName + " stays primary");
        }
        Optional<String> promoted = promote(to, toName);
        if (promoted.isPresent()) {
            unguard(p, guard);
            return promoted;
        }
        try {
            p.command(server.replicaOfCommand(), target.ip(), Integer.toString(target.port()));
        } catch (RedisException e) {
            return Optional.of(toName + " is primary, but " + fromName + " was not made its replica ("
                    + e.getMessage() + "); " + fromName + " refuses writes (min-slaves-to-write " + GUARD
                    + ") until it is: run " + server.replicaOfCommand() + " " + target.ip() + " "
                    + target.port() + " on it");
        }
        unguard(p, guard);
        if (server.hasClientPauseWrite()) {
            p.command("CLIENT", "UNPAUSE");
        }
        return Optional.empty();
    }

    /** MULTI: guard, pause, INFO replication; EXEC. Returns the primary's offset at the pause. */
    private static long pauseAndRead(RedisNode p, RedisServer server, Guard guard) {
        List<String[]> queued = new ArrayList<>();
        if (guard.maxLag().equals("0")) {
            // with max-lag 0 Redis ignores min-slaves-to-write
            queued.add(new String[] {"CONFIG", "SET", "min-slaves-max-lag", "10"});
        }
        queued.add(new String[] {"CONFIG", "SET", "min-slaves-to-write", GUARD});
        String ms = Long.toString(PAUSE.toMillis());
        queued.add(
                server.hasClientPauseWrite()
                        ? new String[] {"CLIENT", "PAUSE", ms, "WRITE"}
                        : new String[] {"CLIENT", "PAUSE", ms});
        queued.add(new String[] {"INFO", "replication"});
        p.command("MULTI");
        for (String[] c : queued) {
            p.command(c[0], java.util.Arrays.copyOfRange(c, 1, c.length));
        }
        Object replies = p.command("EXEC");
        if (!(replies instanceof List<?> list) || list.size() != queued.size()) {
            throw new RedisException(p.hostName(), "EXEC answered " + replies, null);
        }
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i) instanceof Exception e) {
                throw new RedisException(p.hostName(), String.join(" ", queued.get(i)) + ": " + e.getMessage(), e);
            }
        }
        String info = String.valueOf(list.get(list.size() - 1));
        long offset = ReplicaLink.number(InfoParser.parse(info).get("master_repl_offset"), -1);
        if (offset < 0) {
            throw new RedisException(p.hostName(), "INFO replication has no master_repl_offset", null);
        }
        return offset;
    }

    /** Empty once the replica processed every byte up to {@code offset}, with its link up. */
    private static Optional<String> caughtUp(GateTarget.Connect to, String toName, long offset) {
        try (RedisNode t = to.open(CONNECT)) {
            var repl = t.info("replication");
            long at = ReplicaLink.number(repl.get("slave_repl_offset"), -1);
            String link = repl.getOrDefault("master_link_status", "?");
            return at >= offset && link.equals("up")
                    ? Optional.empty()
                    : Optional.of(toName + " slave_repl_offset:" + at + " master_link_status:" + link);
        }
    }

    private static Optional<String> promote(GateTarget.Connect to, String toName) {
        try (RedisNode t = to.open(CONNECT)) {
            String command =
                    RedisServer.of(t).map(RedisServer::replicaOfCommand).orElse("SLAVEOF");
            t.command(command, "NO", "ONE");
            return Optional.empty();
        } catch (RedisException e) {
            return Optional.of("promoting " + toName + ": " + e.getMessage());
        }
    }

    /** Puts the old primary's min-slaves settings back; failing that, it keeps refusing writes. */
    private static void unguard(RedisNode p, Guard guard) {
        p.command("CONFIG", "SET", "min-slaves-to-write", guard.toWrite());
        p.command("CONFIG", "SET", "min-slaves-max-lag", guard.maxLag());
    }

    /** The old primary's other replicas follow the new one; those fleetfix cannot reach stay chained. */
    private Optional<String> repoint(List<ReplicaLink> others, ReplicaLink target, String toName) {
        List<String> problems = new ArrayList<>();
        for (ReplicaLink r : others) {
            try {
                Optional<RedisNode> node = moves.ctx().peers().primaries().open(r.ip(), r.port(), CONNECT);
                if (node.isEmpty()) {
                    continue; // not in the inventory: it keeps replicating through the old primary
                }
                try (RedisNode n = node.get()) {
                    String command =
                            RedisServer.of(n).map(RedisServer::replicaOfCommand).orElse("SLAVEOF");
                    n.command(command, target.ip(), Integer.toString(target.port()));
                    n.command("CONFIG", "REWRITE");
                }
            } catch (RedisException e) {
                problems.add(r.describe() + ": " + e.getMessage());
            }
        }
        return problems.isEmpty()
                ? Optional.empty()
                : Optional.of("replicas not moved to " + toName + ": " + String.join("; ", problems));
    }
}
