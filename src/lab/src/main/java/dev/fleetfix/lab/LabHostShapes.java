package dev.fleetfix.lab;

import java.util.Optional;

/**
 * The combinations of server, instances and init the lab can boot. What it cannot is refused when the spec is
 * built, naming the host and the settings, rather than found out as a host that never comes up.
 */
final class LabHostShapes {
    private LabHostShapes() {}

    static void check(
            String name,
            LabServer server,
            int instances,
            LabInit init,
            boolean disableThp,
            Optional<String> replicaOf,
            boolean sentinel,
            boolean cluster) {
        String shape = "host " + name + " (" + server + ", " + instances + " instance(s), " + init + "): ";
        if (!server.knowsDisableThp() && disableThp) {
            throw new IllegalArgumentException(
                    shape + "Redis " + server.versionPrefix() + " has no disable-thp (it came in 6.2)");
        }
        // Sentinels run the image's Redis 7.0 and clusters are formed with its redis-cli; 2.8 also lacks
        // replica-announce-ip, without which a lab replica shows up at 127.0.0.1.
        if ((sentinel || cluster) && server != LabServer.REDIS_7_0) {
            throw new IllegalArgumentException(shape + "Sentinel and Redis Cluster hosts run Redis 7.0 only");
        }
        if (replicaOf.isPresent() && server == LabServer.REDIS_2_8) {
            throw new IllegalArgumentException(shape + "a Redis 2.8 host cannot be a lab replica");
        }
        if (instances > 1 && (server != LabServer.REDIS_7_0 || init != LabInit.SYSTEMD)) {
            throw new IllegalArgumentException(
                    shape + "several instances need Debian 12's redis-server@ template unit (Redis 7.0, systemd)");
        }
        if (instances > 1 && (replicaOf.isPresent() || sentinel || cluster)) {
            throw new IllegalArgumentException(
                    shape + "a host with several instances is a plain primary: no replicaOf, Sentinel or cluster");
        }
        if (init == LabInit.SYSV && (server != LabServer.REDIS_7_0 || sentinel || cluster)) {
            throw new IllegalArgumentException(shape + "a host without systemd runs Debian 12's"
                    + " /etc/init.d/redis-server (Redis 7.0), without Sentinel or cluster");
        }
    }

    /**
     * The operator-built shapes and tuned run Debian 12's packages (its Redis 7.0, supervisor, tuned) under
     * systemd: sysv-generator makes {@code redis_PORT.service}, supervisord and tuned are systemd units.
     */
    static void checkOperatorShape(
            String name,
            LabServer server,
            int instances,
            LabInit init,
            LabServiceShape serviceShape,
            boolean tunedThp,
            boolean rhel6Thp) {
        String shape = "host " + name + " (" + server + ", " + instances + " instance(s), " + init + ", " + serviceShape
                + (tunedThp ? ", tuned" : "") + "): ";
        boolean debian12Systemd = server == LabServer.REDIS_7_0 && init == LabInit.SYSTEMD;
        if (serviceShape != LabServiceShape.DEBIAN_UNIT && (!debian12Systemd || instances != 1)) {
            throw new IllegalArgumentException(shape + serviceShape
                    + " runs one instance of Debian 12's Redis 7.0 under systemd (server REDIS_7_0, instances 1,"
                    + " init SYSTEMD)");
        }
        if (tunedThp && (!debian12Systemd || rhel6Thp)) {
            throw new IllegalArgumentException(shape + "tuned runs on Debian 12 hosts with systemd"
                    + " (server REDIS_7_0, init SYSTEMD) and writes /sys/kernel/mm/transparent_hugepage:"
                    + " not with the RHEL 6 THP layout");
        }
    }
}
