package dev.fleetfix.health;

import dev.fleetfix.Durations;
import dev.fleetfix.health.PollingGate.Observation;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The health gates of a rolling restart. Each polls with the target's clock and sleeper. */
public final class Gates {
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    private Gates() {}

    /** Redis answers PING with PONG. */
    public static HealthGate ping() {
        return new PollingGate("ping", DEFAULT_TIMEOUT, () -> (node, target) -> {
            String reply = node.ping();
            return "PONG".equalsIgnoreCase(reply)
                    ? Observation.pass("PONG")
                    : Observation.notYet("PING answered '" + reply + "'");
        });
    }

    /** INFO persistence reports {@code loading:0}: the dataset is in memory. */
    public static HealthGate loadingDone() {
        return new PollingGate("loading_done", DEFAULT_TIMEOUT, () -> (node, target) -> {
            String loading = node.info("persistence").getOrDefault("loading", "?");
            return "0".equals(loading) ? Observation.pass("loading:0") : Observation.notYet("loading:" + loading);
        });
    }

    /**
     * A gate that cannot be judged, failing at once with {@code why}: {@code role_unchanged} when no role was known
     * before (passing would call a role that moved "unchanged").
     */
    public static HealthGate unjudged(String name, String why) {
        return new Unjudged(name, why, DEFAULT_TIMEOUT);
    }

    private record Unjudged(String name, String why, Duration timeout) implements HealthGate {
        @Override
        public HealthGate withTimeout(Duration newTimeout) {
            return new Unjudged(name, why, newTimeout);
        }

        @Override
        public GateResult await(GateTarget target) {
            return lookOnce(target);
        }

        @Override
        public GateResult lookOnce(GateTarget target) {
            return GateResult.failed(name, why, Duration.ZERO);
        }
    }

    /** The role ({@code master}/{@code slave}) is the one seen before the restart. */
    public static HealthGate roleUnchanged(String roleBefore) {
        return new PollingGate("role_unchanged", DEFAULT_TIMEOUT, () -> (node, target) -> {
            String role = node.info("replication").getOrDefault("role", "?");
            return role.equals(roleBefore)
                    ? Observation.pass("role:" + role)
                    : Observation.notYet("role:" + role + ", was " + roleBefore + " before the restart");
        });
    }

    /**
     * On a replica: {@code master_link_status:up}, no sync in progress, and its offset has reached
     * the primary's {@code master_repl_offset} as first seen by this gate (a primary under writes
     * keeps moving, so "caught up" means "reached where the primary was"). A primary passes at once.
     * When the primary is not reachable from the inventory, the offset is not compared and the
     * detail says so.
     */
    public static HealthGate replicaSynced() {
        return new PollingGate("replica_synced", DEFAULT_TIMEOUT, ReplicaSynced::new);
    }

    /** PING answers within {@code bound}, measured with the target's clock. */
    public static HealthGate pingLatencyBelow(Duration bound) {
        validTimeout("ping_latency_below", bound);
        return new PollingGate("ping_latency_below", DEFAULT_TIMEOUT, () -> (node, target) -> {
            Instant before = target.clock().instant();
            node.ping();
            Duration took = Duration.between(before, target.clock().instant());
            String seen = "PING took " + Durations.seconds(took) + " (bound " + Durations.seconds(bound) + ")";
            return took.compareTo(bound) < 0 ? Observation.pass(seen) : Observation.notYet(seen);
        });
    }

    /** Every gate in turn; fails at the first that fails. Its timeout applies to each part. */
    public static HealthGate allOf(HealthGate... gates) {
        return new AllOf(List.of(gates), null);
    }

    public static HealthGate allOf(List<HealthGate> gates) {
        return new AllOf(List.copyOf(gates), null);
    }

    static Duration validTimeout(String gate, Duration timeout) {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException(gate + ": timeout must be positive, was " + timeout);
        }
        return timeout;
    }

    private static final class ReplicaSynced implements PollingGate.Check {
        private long primaryOffsetToReach = -1;

        @Override
        public Observation look(RedisNode node, GateTarget target) {
            Map<String, String> repl = node.info("replication");
            String role = repl.getOrDefault("role", "?");
            if (!role.equals("slave")) {
                return Observation.pass("role:" + role + ", nothing to sync");
            }
            String link = repl.getOrDefault("master_link_status", "?");
            String syncing = repl.getOrDefault("master_sync_in_progress", "?");
            if (!link.equals("up") || !syncing.equals("0")) {
                return Observation.notYet("master_link_status:" + link + " master_sync_in_progress:" + syncing);
            }
            long offset = parseLong(repl.get("slave_repl_offset"), parseLong(repl.get("master_repl_offset"), -1));
            if (primaryOffsetToReach < 0) {
                Optional<Long> primary = primaryOffset(repl, target);
                if (primary.isEmpty()) {
                    return Observation.pass(
                            "link up, offset " + offset + " (primary not in the inventory: offset not compared)");
                }
                primaryOffsetToReach = primary.get();
            }
            String seen = "link up, offset " + offset + "/" + primaryOffsetToReach;
            return offset >= primaryOffsetToReach ? Observation.pass(seen) : Observation.notYet(seen);
        }

        private static Optional<Long> primaryOffset(Map<String, String> repl, GateTarget target) {
            String host = repl.get("master_host");
            long port = parseLong(repl.get("master_port"), -1);
            if (host == null || port < 1) {
                return Optional.empty();
            }
            try {
                Optional<RedisNode> primary = target.primaries().open(host, (int) port, Duration.ofSeconds(2));
                if (primary.isEmpty()) {
                    return Optional.empty();
                }
                try (RedisNode p = primary.get()) {
                    return Optional.of(parseLong(p.info("replication").get("master_repl_offset"), 0));
                }
            } catch (RedisException e) {
                return Optional.empty();
            }
        }

        private static long parseLong(String text, long fallback) {
            try {
                return text == null ? fallback : Long.parseLong(text.strip());
            } catch (NumberFormatException e) {
                return fallback;
            }
        }
    }

    private record AllOf(List<HealthGate> gates, Duration timeoutOrNull) implements HealthGate {
        AllOf {
            if (gates.isEmpty()) {
                throw new IllegalArgumentException("all_of: needs at least one gate");
            }
        }

        @Override
        public String name() {
            return "all_of";
        }

        @Override
        public Duration timeout() {
            return gates.stream().map(HealthGate::timeout).reduce(Duration.ZERO, Duration::plus);
        }

        @Override
        public HealthGate withTimeout(Duration timeout) {
            validTimeout("all_of", timeout);
            return new AllOf(gates.stream().map(g -> g.withTimeout(timeout)).toList(), timeout);
        }

        @Override
        public GateResult lookOnce(GateTarget target) {
            Instant start = target.clock().instant();
            List<GateResult> parts = new ArrayList<>();
            for (HealthGate gate : gates) {
                parts.add(gate.lookOnce(target));
            }
            // "ping, loading_done: connection refused": one Redis that does not answer fails them all alike
            Map<String, List<String>> byDetail = new LinkedHashMap<>();
            parts.stream().filter(p -> !p.passed()).forEach(p -> byDetail.computeIfAbsent(
                            p.detail(), d -> new ArrayList<>())
                    .add(p.gate()));
            List<String> notYet = new ArrayList<>();
            byDetail.forEach((detail, names) -> notYet.add(String.join(", ", names) + ": " + detail));
            return new GateResult(
                    name(),
                    notYet.isEmpty(),
                    notYet.isEmpty() ? "all pass now" : String.join("; ", notYet),
                    Duration.between(start, target.clock().instant()),
                    parts);
        }

        @Override
        public GateResult await(GateTarget target) throws InterruptedException {
            Instant start = target.clock().instant();
            List<GateResult> parts = new ArrayList<>();
            for (HealthGate gate : gates) {
                GateResult part = gate.await(target);
                parts.add(part);
                if (!part.passed()) {
                    return new GateResult(
                            name(),
                            false,
                            part.gate() + ": " + part.detail(),
                            Duration.between(start, target.clock().instant()),
                            parts);
                }
            }
            return new GateResult(
                    name(),
                    true,
                    "all passed",
                    Duration.between(start, target.clock().instant()),
                    parts);
        }
    }
}
