package dev.fleetfix.redis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One line of {@code CLUSTER NODES}:
 * {@code <id> <ip:port@cport[,hostname]> <flags> <master-id|-> <ping> <pong> <epoch> <link> <slots...>}.
 *
 * @param id the node id
 * @param ip its announced address
 * @param port its client port
 * @param flags {@code myself}, {@code master}, {@code slave}, {@code fail?}, {@code fail}, ...
 * @param primaryId a replica's primary node id
 * @param connected the cluster bus link is {@code connected}
 * @param slots slot ranges it serves (primaries), inclusive
 */
public record ClusterNode(
        String id,
        String ip,
        int port,
        Set<String> flags,
        Optional<String> primaryId,
        boolean connected,
        List<ClusterNode.SlotRange> slots) {

    /** Slots {@code first..last}, inclusive. */
    public record SlotRange(int first, int last) {}

    public ClusterNode {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(ip, "ip");
        flags = Set.copyOf(flags);
        Objects.requireNonNull(primaryId, "primaryId");
        slots = List.copyOf(slots);
    }

    /** Parses one line; empty for a line that is not a node (blank, or too few fields). */
    public static Optional<ClusterNode> parse(String line) {
        String[] f = line.strip().split("\\s+");
        if (f.length < 8) {
            return Optional.empty();
        }
        String address = f[1];
        int at = address.indexOf('@');
        String hostPort = at >= 0 ? address.substring(0, at) : address.split(",")[0];
        int colon = hostPort.lastIndexOf(':');
        if (colon < 0) {
            return Optional.empty();
        }
        long port = number(hostPort.substring(colon + 1), -1);
        if (port < 0 || port > 65535) {
            return Optional.empty();
        }
        List<SlotRange> slots = new ArrayList<>();
        for (int i = 8; i < f.length; i++) {
            if (f[i].startsWith("[")) {
                continue; // a slot being migrated or imported
            }
            String[] range = f[i].split("-");
            long from = number(range[0], -1);
            long to = range.length > 1 ? number(range[1], -1) : from;
            if (from >= 0 && to >= from) {
                slots.add(new SlotRange((int) from, (int) to));
            }
        }
        return Optional.of(new ClusterNode(
                f[0],
                hostPort.substring(0, colon),
                (int) port,
                Set.copyOf(Arrays.asList(f[2].split(","))),
                f[3].equals("-") ? Optional.empty() : Optional.of(f[3]),
                f[7].equals("connected"),
                slots));
    }

    /** Every node of a {@code CLUSTER NODES} reply. */
    public static List<ClusterNode> parseAll(Object reply) {
        if (reply == null) {
            return List.of();
        }
        return String.valueOf(reply)
                .lines()
                .map(ClusterNode::parse)
                .flatMap(Optional::stream)
                .toList();
    }

    public boolean myself() {
        return flags.contains("myself");
    }

    public boolean primary() {
        return flags.contains("master");
    }

    /** Flagged {@code fail} or {@code fail?} by the cluster. */
    public boolean failing() {
        return flags.contains("fail") || flags.contains("fail?");
    }

    public int slotCount() {
        return slots.stream().mapToInt(r -> r.last() - r.first() + 1).sum();
    }

    public boolean serves(long slot) {
        return slots.stream().anyMatch(r -> slot >= r.first() && slot <= r.last());
    }

    /** "0-8191,8200" */
    public String slotText() {
        return String.join(
                ",",
                slots.stream()
                        .map(r -> r.first() == r.last() ? "" + r.first() : r.first() + "-" + r.last())
                        .toList());
    }

    public String address() {
        return ip + ":" + port;
    }

    private static long number(String text, long fallback) {
        try {
            return Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            return fallback;
        }
    }
}
