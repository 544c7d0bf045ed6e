package dev.fleetfix.redis;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Every Redis command fleetfix sends, with an example of each as sent and what needs it: what an ACL user must be
 * allowed for the audit, health gates, data-safe restarts, failovers, {@code redis_config} and benchmarks to work.
 * The audit asks Redis (7.0+) with {@code ACL DRYRUN} which of them its user may not run; the minimal ACL in
 * docs/inventory.md is {@link #aclRule()}. A unit test reads every command the code sends and fails on one missing
 * here, or on one listed here that nothing sends.
 *
 * <p>AUTH (and HELLO) are not listed: Redis lets every user run them. Commands sent to a Sentinel are in {@link
 * #SENTINEL}, for the Sentinel's own ACL user.
 */
public final class NeededCommands {
    /** What fleetfix does that needs a command. */
    public enum Use {
        AUDIT("audit"),
        HEALTH("health gates"),
        RESTART("restart_redis"),
        FAILOVER("failover"),
        CONFIG("redis_config"),
        BENCHMARK("benchmark");

        private final String label;

        Use(String label) {
            this.label = label;
        }

        @Override
        public String toString() {
            return label;
        }
    }

    /**
     * One command.
     *
     * @param label as the ACL names it ({@code config|get}), for messages and docs/inventory.md
     * @param example argv of a representative call, for {@code ACL DRYRUN}
     * @param uses what needs it
     * @param why what for, in a few words
     */
    public record Needed(String label, List<String> example, Set<Use> uses, String why) {
        public Needed {
            Objects.requireNonNull(label, "label");
            example = List.copyOf(example);
            uses = Set.copyOf(uses);
            Objects.requireNonNull(why, "why");
        }
    }

    private static Needed needed(String label, List<String> example, Set<Use> uses, String why) {
        return new Needed(label, example, uses, why);
    }

    private static final Use AUDIT = Use.AUDIT;
    private static final Use HEALTH = Use.HEALTH;
    private static final Use RESTART = Use.RESTART;
    private static final Use FAILOVER = Use.FAILOVER;
    private static final Use CONFIG = Use.CONFIG;
    private static final Use BENCHMARK = Use.BENCHMARK;

    /** The commands sent to a Redis server, in the order the audit asks about them. */
    public static final List<Needed> ALL = List.of(
            needed(
                    "ping",
                    List.of("PING"),
                    Set.of(HEALTH, RESTART, BENCHMARK),
                    "ping gate, Redis back after a restart"),
            needed(
                    "info",
                    List.of("INFO", "server"),
                    Set.of(AUDIT, HEALTH, RESTART, FAILOVER, BENCHMARK),
                    "version, role, replication, persistence, memory, keyspace"),
            needed(
                    "config|get",
                    List.of("CONFIG", "GET", "save"),
                    Set.of(AUDIT, RESTART, CONFIG, BENCHMARK),
                    "disable-thp, tcp-backlog, save, maxmemory"),
            needed(
                    "acl|dryrun",
                    List.of("ACL", "DRYRUN", "default", "PING"),
                    Set.of(AUDIT, RESTART),
                    "which of these are refused; a restart's route, before it begins"),
            needed("time", List.of("TIME"), Set.of(RESTART), "the server's clock beside LASTSAVE"),
            needed("lastsave", List.of("LASTSAVE"), Set.of(RESTART), "see the save finish"),
            needed("bgsave", List.of("BGSAVE", "SCHEDULE"), Set.of(RESTART, BENCHMARK), "save first; fork profile"),
            needed("bgrewriteaof", List.of("BGREWRITEAOF"), Set.of(RESTART), "save first with AOF"),
            needed(
                    "set",
                    List.of("SET", "fleetfix:canary:x", "1", "EX", "3600"),
                    Set.of(RESTART, FAILOVER, BENCHMARK),
                    "data check canary, a write to the new primary, load"),
            needed("get", List.of("GET", "fleetfix:canary:x"), Set.of(RESTART, BENCHMARK), "data check canary, load"),
            needed(
                    "del",
                    List.of("DEL", "fleetfix:canary:x"),
                    Set.of(RESTART, FAILOVER, BENCHMARK),
                    "canary and probe key; benchmark keys before Redis 4.0"),
            needed("readonly", List.of("READONLY"), Set.of(RESTART), "read the canary on a cluster replica"),
            needed("cluster|nodes", List.of("CLUSTER", "NODES"), Set.of(RESTART, FAILOVER, BENCHMARK), "topology"),
            needed(
                    "cluster|keyslot",
                    List.of("CLUSTER", "KEYSLOT", "fleetfix:canary:x"),
                    Set.of(RESTART, FAILOVER),
                    "a key this node serves"),
            needed(
                    "cluster|links",
                    List.of("CLUSTER", "LINKS"),
                    Set.of(FAILOVER),
                    "every voter's bus link is up (7.0+)"),
            needed("cluster|failover", List.of("CLUSTER", "FAILOVER"), Set.of(FAILOVER), "hand a cluster primary over"),
            needed("failover", List.of("FAILOVER"), Set.of(FAILOVER), "hand a primary over (6.2+)"),
            needed(
                    "config|rewrite",
                    List.of("CONFIG", "REWRITE"),
                    Set.of(FAILOVER, CONFIG),
                    "keep roles and settings over a restart"),
            needed(
                    "config|set",
                    List.of("CONFIG", "SET", "replica-priority", "100"),
                    Set.of(FAILOVER, CONFIG),
                    "replica-priority, min-slaves-* guard, redis_config values"),
            needed("multi", List.of("MULTI"), Set.of(FAILOVER), "manual handover: guard and pause at once"),
            needed("exec", List.of("EXEC"), Set.of(FAILOVER), "manual handover"),
            needed(
                    "client|pause",
                    List.of("CLIENT", "PAUSE", "10000", "WRITE"),
                    Set.of(FAILOVER),
                    "manual handover: stop writes"),
            needed("client|unpause", List.of("CLIENT", "UNPAUSE"), Set.of(FAILOVER), "manual handover (6.2+)"),
            needed(
                    "replicaof",
                    List.of("REPLICAOF", "NO", "ONE"),
                    Set.of(FAILOVER),
                    "manual handover: promote, repoint (5.0+)"),
            needed("slaveof", List.of("SLAVEOF", "NO", "ONE"), Set.of(FAILOVER), "manual handover before 5.0"),
            needed(
                    "client|setname",
                    List.of("CLIENT", "SETNAME", "fleetfix-bench"),
                    Set.of(BENCHMARK),
                    "name the benchmark's connections"),
            needed("incr", List.of("INCR", "fleetfix:bench:ctr:0"), Set.of(BENCHMARK), "load"),
            needed("lpush", List.of("LPUSH", "fleetfix:bench:list:0", "x"), Set.of(BENCHMARK), "load"),
            needed(
                    "scan",
                    List.of("SCAN", "0", "MATCH", "fleetfix:bench:*"),
                    Set.of(BENCHMARK),
                    "keys under the prefix"),
            needed("unlink", List.of("UNLINK", "fleetfix:bench:str:0"), Set.of(BENCHMARK), "delete its keys (4.0+)"),
            needed("latency|latest", List.of("LATENCY", "LATEST"), Set.of(BENCHMARK), "Redis's own latency figures"),
            needed("latency|history", List.of("LATENCY", "HISTORY", "fork"), Set.of(BENCHMARK), "fork spikes"));

    /** The commands sent to a Sentinel (restarts and failovers of a Sentinel-watched primary). */
    public static final List<Needed> SENTINEL = List.of(
            needed("sentinel|masters", List.of("SENTINEL", "MASTERS"), Set.of(RESTART, FAILOVER), "what it watches"),
            needed(
                    "sentinel|get-master-addr-by-name",
                    List.of("SENTINEL", "GET-MASTER-ADDR-BY-NAME", "mymaster"),
                    Set.of(RESTART, FAILOVER),
                    "the primary it names"),
            needed("sentinel|replicas", List.of("SENTINEL", "REPLICAS", "mymaster"), Set.of(FAILOVER), "candidates"),
            needed("sentinel|failover", List.of("SENTINEL", "FAILOVER", "mymaster"), Set.of(FAILOVER), "hand over"));

    private NeededCommands() {}

    /** The ACL rule of {@code commands}: "+ping +info +config|get ...". */
    public static String aclRule(List<Needed> commands) {
        return commands.stream().map(n -> "+" + n.label()).collect(Collectors.joining(" "));
    }

    /** The ACL rule of {@link #ALL}. */
    public static String aclRule() {
        return aclRule(ALL);
    }

    /** The example of the command labelled {@code label} ({@code bgsave}, {@code config|rewrite}). */
    public static List<String> example(String label) {
        return ALL.stream()
                .filter(n -> n.label().equals(label))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("not a command fleetfix sends: " + label))
                .example();
    }

    /** The labels of the commands {@code use} needs. */
    public static Set<String> labels(Use use) {
        Set<String> labels = new LinkedHashSet<>();
        for (Needed n : ALL) {
            if (n.uses().contains(use)) {
                labels.add(n.label());
            }
        }
        return labels;
    }
}
