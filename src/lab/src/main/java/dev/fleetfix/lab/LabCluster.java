package dev.fleetfix.lab;

import dev.fleetfix.transport.ExecResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Forms the lab's Redis Cluster once its nodes are up, as an operator would with redis-cli: every node meets the
 * first, the primaries take even shares of the 16384 slots, each replica follows its primary. Returns when every
 * node reports {@code cluster_state:ok} and every replica's link is up.
 */
final class LabCluster {
    static final int SLOTS = 16384;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    /** Slots {@code first..last}, both included. */
    record SlotRange(int first, int last) {}

    private final LabFleet fleet;
    private final LabTopology topology;
    private final LabRedisCli cli;

    LabCluster(LabFleet fleet, LabTopology topology, LabRedisCli cli) {
        this.fleet = fleet;
        this.topology = topology;
        this.cli = cli;
    }

    /** {@code primaries} contiguous ranges covering every slot, sizes differing by one at most. */
    static List<SlotRange> slotRanges(int primaries) {
        if (primaries < 1 || primaries > SLOTS) {
            throw new IllegalArgumentException("primaries must be 1.." + SLOTS + ", was " + primaries);
        }
        List<SlotRange> ranges = new ArrayList<>();
        for (int i = 0; i < primaries; i++) {
            ranges.add(new SlotRange(i * SLOTS / primaries, (i + 1) * SLOTS / primaries - 1));
        }
        return ranges;
    }

    void form() {
        List<String> nodes = topology.clusterNodes();
        if (nodes.isEmpty()) {
            return;
        }
        Map<String, String> ids = new LinkedHashMap<>();
        for (String node : nodes) {
            ids.put(node, answer(node, "cluster myid"));
        }
        String first = nodes.get(0);
        for (String node : nodes.subList(1, nodes.size())) {
            LabHost other = fleet.host(node);
            expectOk(first, "cluster meet " + other.address() + " " + other.redisPort());
        }
        List<String> primaries = topology.clusterPrimaries();
        List<SlotRange> ranges = slotRanges(primaries.size());
        for (int i = 0; i < primaries.size(); i++) {
            expectOk(
                    primaries.get(i),
                    "cluster addslotsrange " + ranges.get(i).first() + " "
                            + ranges.get(i).last());
        }
        for (String replica : topology.clusterReplicas()) {
            String primary = topology.spec(replica).replicaOf().orElseThrow();
            // A node can follow only a node it has heard of: wait for the gossip that MEET started.
            LabWait.until(
                    TIMEOUT,
                    "cluster node " + replica + " to replicate from " + primary,
                    () -> replicate(replica, ids.get(primary)));
        }
        LabWait.until(
                TIMEOUT,
                "every cluster node (" + String.join(", ", nodes) + ") to report cluster_state:ok",
                () -> firstUnready(nodes));
    }

    private Optional<String> replicate(String replica, String primaryId) {
        ExecResult reply = cli.redis(replica, "cluster replicate " + primaryId);
        return reply.ok() && reply.stdout().strip().equals("OK")
                ? Optional.empty()
                : Optional.of(replica + ": CLUSTER REPLICATE " + primaryId + ": " + LabRedisCli.problem(reply));
    }

    private Optional<String> firstUnready(List<String> nodes) {
        for (String node : nodes) {
            ExecResult reply = cli.redis(node, "cluster info");
            Map<String, String> info = LabRedisCli.fields(reply.stdout());
            if (!"ok".equals(info.get("cluster_state"))
                    || !Integer.toString(nodes.size()).equals(info.get("cluster_known_nodes"))) {
                return Optional.of(node + ": cluster_state:" + info.get("cluster_state") + ", cluster_known_nodes:"
                        + info.get("cluster_known_nodes")
                        + (reply.ok() ? "" : " (" + LabRedisCli.problem(reply) + ")"));
            }
        }
        for (String replica : topology.clusterReplicas()) {
            Optional<String> problem = cli.linkProblem(replica);
            if (problem.isPresent()) {
                return problem;
            }
        }
        return Optional.empty();
    }

    private void expectOk(String node, String args) {
        String answer = answer(node, args);
        if (!answer.equals("OK")) {
            throw failed(node, args, answer);
        }
    }

    /** The node's one-line answer to {@code args}; an error reply fails the lab start. */
    private String answer(String node, String args) {
        ExecResult reply = cli.redis(node, args);
        String answer = reply.stdout().strip();
        if (!reply.ok() || answer.isEmpty() || answer.startsWith("ERR")) {
            throw failed(node, args, LabRedisCli.problem(reply));
        }
        return answer;
    }

    private static LabException failed(String node, String args, String answer) {
        return new LabException("forming the Redis cluster: " + node + " answered '" + args + "' with: " + answer);
    }
}
