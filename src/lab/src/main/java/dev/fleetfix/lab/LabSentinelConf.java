package dev.fleetfix.lab;

import java.util.Optional;

/**
 * A lab host's Redis Sentinel: its config file and its systemd unit. Debian ships no redis-sentinel package in the
 * lab image; {@code redis-server <conf> --sentinel} is the same program.
 */
final class LabSentinelConf {
    /** Where the host keeps the config; Sentinel rewrites it (its id, the replicas and Sentinels it found). */
    static final String CONFIG_PATH = "/etc/redis/sentinel.conf";

    static final String UNIT = "fleetfix-lab-sentinel.service";
    static final int DOWN_AFTER_MILLIS = 3000;
    static final int FAILOVER_TIMEOUT_MILLIS = 15000;

    private LabSentinelConf() {}

    static String text(String address, int port, LabRedisConf.Primary primary, int quorum) {
        String master = LabFleet.SENTINEL_MASTER;
        StringBuilder conf = new StringBuilder();
        conf.append("# fleetfix lab: Redis Sentinel of this host\n");
        conf.append("bind ").append(address).append('\n');
        conf.append("port ").append(port).append('\n');
        conf.append("daemonize no\n");
        conf.append("dir /var/lib/redis\n");
        conf.append("logfile \"\"\n");
        conf.append("sentinel announce-ip ").append(address).append('\n');
        conf.append("sentinel monitor ")
                .append(master)
                .append(' ')
                .append(primary.address())
                .append(' ')
                .append(primary.port())
                .append(' ')
                .append(quorum)
                .append('\n');
        conf.append("sentinel down-after-milliseconds ")
                .append(master)
                .append(' ')
                .append(DOWN_AFTER_MILLIS)
                .append('\n');
        conf.append("sentinel failover-timeout ")
                .append(master)
                .append(' ')
                .append(FAILOVER_TIMEOUT_MILLIS)
                .append('\n');
        Optional<String> password = primary.password();
        password.ifPresent(p -> conf.append("sentinel auth-pass ")
                .append(master)
                .append(' ')
                .append(p)
                .append('\n'));
        return conf.toString();
    }

    /** Enabled at lab start, so the Sentinel comes back after a reboot as on a real host. */
    static String unit() {
        return """
                [Unit]
                Description=fleetfix lab: Redis Sentinel
                After=network.target redis-server.service

                [Service]
                Type=notify
                ExecStart=/usr/bin/redis-server %s --sentinel --supervised systemd --daemonize no
                User=redis
                Group=redis
                Restart=always
                RestartSec=1
                TimeoutStopSec=10

                [Install]
                WantedBy=multi-user.target
                """
                .formatted(CONFIG_PATH);
    }
}
