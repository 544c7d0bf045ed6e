package dev.fleetfix.redis;

import java.util.List;
import java.util.Objects;

/**
 * The Redis commands fleetfix sends, with an example of each as sent: what an ACL user must be
 * allowed for the audit, data-safe restarts and benchmarks to work. The audit asks Redis (7.0+)
 * with {@code ACL DRYRUN} which of them its user may not run; the README's minimal ACL lists the
 * same commands.
 */
public final class NeededCommands {
    /**
     * One command.
     *
     * @param label as the ACL names it ({@code config|get}), for messages and the README
     * @param example argv of a representative call, for {@code ACL DRYRUN}
     * @param usedFor what fleetfix needs it for
     */
    public record Needed(String label, List<String> example, String usedFor) {
        public Needed {
            Objects.requireNonNull(label, "label");
            example = List.copyOf(example);
            Objects.requireNonNull(usedFor, "usedFor");
        }
    }

    public static final List<Needed> ALL = List.of(
            new Needed("ping", List.of("PING"), "health gates"),
            new Needed("info", List.of("INFO", "server"), "audit, restart, health gates"),
            new Needed("config|get", List.of("CONFIG", "GET", "save"), "audit (disable-thp, tcp-backlog), restart"),
            new Needed("bgsave", List.of("BGSAVE", "SCHEDULE"), "restart: save first; benchmark fork profile"),
            new Needed("bgrewriteaof", List.of("BGREWRITEAOF"), "restart: save first with AOF"),
            new Needed("lastsave", List.of("LASTSAVE"), "restart: see the save finish"),
            new Needed("failover", List.of("FAILOVER"), "restart: hand a primary over (6.2+)"),
            new Needed("config|rewrite", List.of("CONFIG", "REWRITE"), "restart: keep roles after FAILOVER"),
            new Needed("config|set", List.of("CONFIG", "SET", "replica-priority", "100"), "Sentinel failback"),
            new Needed("set", List.of("SET", "fleetfix:canary:x", "1"), "restart: data check canary; benchmark"),
            new Needed("get", List.of("GET", "fleetfix:canary:x"), "restart: data check canary; benchmark"),
            new Needed("del", List.of("DEL", "fleetfix:canary:x"), "restart: data check canary"),
            new Needed("cluster|nodes", List.of("CLUSTER", "NODES"), "Redis Cluster: topology"),
            new Needed("cluster|failover", List.of("CLUSTER", "FAILOVER"), "Redis Cluster: hand a primary over"));

    private NeededCommands() {}
}
