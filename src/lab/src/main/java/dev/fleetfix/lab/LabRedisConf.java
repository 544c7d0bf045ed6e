package dev.fleetfix.lab;

import java.util.Optional;

/**
 * The Redis directives the lab sets on a host. At first boot each one replaces the same directive in the
 * distribution's config file ({@code /etc/redis/redis.conf}, {@code /etc/valkey/valkey.conf}), so the host's config
 * file reads as if an operator had edited it. An old build gets a whole file of its era instead: Redis refuses to
 * start on a directive it does not know, and Debian's file is full of 7.0's.
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
        return spec.server().modernConfig()
                ? directives(spec, address, port, primary, hasReplicas)
                : oldBuild(spec, address, port, primary);
    }

    /**
     * Instance {@code port} of a host with several: its own port, pid, log, RDB and AOF names, in a copy of
     * Debian's file that the template unit {@code redis-server@PORT} reads.
     */
    static String instance(LabHostSpec spec, String address, int port) {
        return directives(spec, address, port, Optional.empty(), false)
                + "pidfile /run/redis-" + port + "/redis-server.pid\n"
                + "logfile /var/log/redis/redis-server-" + port + ".log\n"
                + "dbfilename dump-" + port + ".rdb\n"
                + "appenddirname appendonlydir-" + port + "\n";
    }

    private static String directives(
            LabHostSpec spec, String address, int port, Optional<Primary> primary, boolean hasReplicas) {
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
     * A whole config file for an old build, run in the foreground by systemd ({@code Type=simple}): only
     * directives its version knows (2.8 has no {@code replica-*} names, no {@code disable-thp}, one save point a
     * line).
     */
    private static String oldBuild(LabHostSpec spec, String address, int port, Optional<Primary> primary) {
        boolean since50 = spec.server().knowsReplicaNames();
        StringBuilder conf = new StringBuilder();
        conf.append("# Redis ").append(spec.server().versionPrefix()).append(" build, installed as ");
        conf.append(LabHostSetup.OLD_BUILD_BINARY).append(": a config file of its era\n");
        conf.append("daemonize no\n");
        conf.append("pidfile /run/redis/redis-server.pid\n");
        conf.append("bind ").append(address).append('\n');
        conf.append("port ").append(port).append('\n');
        conf.append("tcp-backlog 511\n");
        conf.append("timeout 0\n");
        conf.append("loglevel notice\n");
        conf.append("logfile /var/log/redis/redis-server.log\n");
        conf.append("databases 16\n");
        if (spec.save().isEmpty()) {
            conf.append("save \"\"\n");
        }
        String[] save = spec.save().isEmpty() ? new String[0] : spec.save().split(" ");
        for (int i = 0; i + 1 < save.length; i += 2) {
            conf.append("save ").append(save[i]).append(' ').append(save[i + 1]).append('\n');
        }
        conf.append("dbfilename dump.rdb\n");
        conf.append("dir /var/lib/redis\n");
        conf.append("appendonly ").append(yesNo(spec.appendonly())).append('\n');
        conf.append("appendfilename \"appendonly.aof\"\n");
        conf.append("appendfsync everysec\n");
        if (since50) {
            conf.append("replica-announce-ip ").append(address).append('\n');
        }
        if (spec.server().knowsDisableThp()) {
            conf.append("disable-thp ").append(yesNo(spec.disableThp())).append('\n');
        }
        spec.requirepass()
                .ifPresent(
                        password -> conf.append("requirepass ").append(password).append('\n'));
        primary.ifPresent(p -> conf.append(since50 ? "replicaof " : "slaveof ")
                .append(p.address())
                .append(' ')
                .append(p.port())
                .append('\n'));
        primary.flatMap(Primary::password)
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
