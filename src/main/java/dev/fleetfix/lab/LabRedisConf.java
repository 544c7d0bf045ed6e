package dev.fleetfix.lab;

import java.util.Optional;

/**
 * The Redis directives the lab sets on a host. At first boot each one replaces the same directive in Debian's
 * {@code /etc/redis/redis.conf}, so the host's config file reads as if an operator had edited it.
 */
final class LabRedisConf {
    /** Where a replica finds its primary. */
    record Primary(String address, int port, Optional<String> password) {}

    static final int CLUSTER_NODE_TIMEOUT_MILLIS = 3000;

    private LabRedisConf() {}

    /**
     * @param primary where the host replicates from, when it is a replica (for a cluster node: the primary it
     *     follows through CLUSTER REPLICATE at lab start, not a directive)
     * @param hasReplicas whether other hosts replicate from this one
     */
    static String text(LabHostSpec spec, String address, int port, Optional<Primary> primary, boolean hasReplicas) {
        StringBuilder conf = new StringBuilder();
        conf.append("bind ").append(address).append('\n');
        conf.append("port ").append(port).append('\n');
        // Lab hosts reach each other from 127.0.0.1: without this a primary would list every replica at that
        // address, and Sentinel would look for them there.
        conf.append("replica-announce-ip ").append(address).append('\n');
        conf.append("disable-thp ").append(yesNo(spec.disableThp())).append('\n');
        conf.append("save ")
                .append(spec.save().isEmpty() ? "\"\"" : spec.save())
                .append('\n');
        conf.append("appendonly ").append(yesNo(spec.appendonly())).append('\n');
        // DEBUG lets tests fill a host with keys quickly (DEBUG POPULATE); Redis 7 refuses it otherwise.
        conf.append("enable-debug-command local\n");
        spec.requirepass()
                .ifPresent(
                        password -> conf.append("requirepass ").append(password).append('\n'));
        if (spec.cluster()) {
            conf.append("cluster-enabled yes\n");
            conf.append("cluster-config-file nodes-").append(port).append(".conf\n");
            conf.append("cluster-node-timeout ")
                    .append(CLUSTER_NODE_TIMEOUT_MILLIS)
                    .append('\n');
            conf.append("cluster-announce-ip ").append(address).append('\n');
        }
        if (!spec.cluster()) {
            primary.ifPresent(p -> conf.append("replicaof ")
                    .append(p.address())
                    .append(' ')
                    .append(p.port())
                    .append('\n'));
        }
        masterauth(spec, primary, hasReplicas)
                .ifPresent(
                        password -> conf.append("masterauth ").append(password).append('\n'));
        return conf.toString();
    }

    /**
     * A replica authenticates with its primary's password. A primary that has replicas, and any cluster node, gets
     * its own: after a failover it follows one of its replicas, which share its password.
     */
    private static Optional<String> masterauth(LabHostSpec spec, Optional<Primary> primary, boolean hasReplicas) {
        if (primary.isPresent()) {
            return primary.get().password();
        }
        return hasReplicas || spec.cluster() ? spec.requirepass() : Optional.empty();
    }

    private static String yesNo(boolean value) {
        return value ? "yes" : "no";
    }
}
