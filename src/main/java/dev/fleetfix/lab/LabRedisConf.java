package dev.fleetfix.lab;

import java.util.Optional;

/**
 * The Redis directives the lab sets on a host. At first boot each one replaces the same directive in Debian's
 * {@code /etc/redis/redis.conf}, so the host's config file reads as if an operator had edited it.
 */
final class LabRedisConf {
    /** Where a replica finds its primary. */
    record Primary(String address, int port, Optional<String> password) {}

    private LabRedisConf() {}

    static String text(LabHostSpec spec, String address, int port, Optional<Primary> primary) {
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
        primary.ifPresent(p -> {
            conf.append("replicaof ")
                    .append(p.address())
                    .append(' ')
                    .append(p.port())
                    .append('\n');
            p.password()
                    .ifPresent(password ->
                            conf.append("masterauth ").append(password).append('\n'));
        });
        return conf.toString();
    }

    private static String yesNo(boolean value) {
        return value ? "yes" : "no";
    }
}
