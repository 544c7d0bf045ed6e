package dev.fleetfix.lab;

import java.util.Optional;

/**
 * Which Redis server a lab host runs, and what comes with it: the image it runs on, the service and config file
 * an operator finds there, and, for a build Debian never packaged, where the lab takes it from.
 */
public enum LabServer {
    /** Debian 12's {@code redis-server} 7.0, as every lab host ran before there was a choice. */
    REDIS_7_0("redis", "7.0.", LabImage.Suite.BOOKWORM, Optional.empty()),
    /** Redis 2.8.19, the seeds' version: a real x86-64 build from a Maven Central jar, on Debian 12. */
    REDIS_2_8("redis", "2.8.19", LabImage.Suite.BOOKWORM, Optional.of(LabRedisBuild.REDIS_2_8_19)),
    /**
     * Redis 6.0.5 from a Maven Central jar, on Debian 12: no FAILOVER (6.2), so a primary is handed over by hand;
     * no {@code disable-thp} either.
     */
    REDIS_6_0("redis", "6.0.5", LabImage.Suite.BOOKWORM, Optional.of(LabRedisBuild.REDIS_6_0_5)),
    /** Redis 6.2 (the build reports 6.2.11) from a Maven Central jar, on Debian 12. */
    REDIS_6_2("redis", "6.2.", LabImage.Suite.BOOKWORM, Optional.of(LabRedisBuild.REDIS_6_2)),
    /** Debian 13's {@code redis-server} 8.0. */
    REDIS_8_0("redis", "8.0.", LabImage.Suite.TRIXIE, Optional.empty()),
    /** Debian 13's {@code valkey-server} 8.1: its own service, config file and CLI. */
    VALKEY_8_1("valkey", "8.1.", LabImage.Suite.TRIXIE, Optional.empty());

    private final String flavour;
    private final String versionPrefix;
    private final LabImage.Suite suite;
    private final Optional<LabRedisBuild> build;

    LabServer(String flavour, String versionPrefix, LabImage.Suite suite, Optional<LabRedisBuild> build) {
        this.flavour = flavour;
        this.versionPrefix = versionPrefix;
        this.suite = suite;
        this.build = build;
    }

    /** {@code redis} or {@code valkey}: what INFO's {@code server_name} says, or would say. */
    public String flavour() {
        return flavour;
    }

    /** The start of the version the server reports ({@code valkey_version} for Valkey): {@code 7.0.}. */
    public String versionPrefix() {
        return versionPrefix;
    }

    /** The systemd unit (and SysV script) that runs it: {@code redis-server} or {@code valkey-server}. */
    public String service() {
        return flavour + "-server";
    }

    /** Its config file: {@code /etc/redis/redis.conf} or {@code /etc/valkey/valkey.conf}. */
    public String configPath() {
        return "/etc/" + flavour + "/" + flavour + ".conf";
    }

    /** The command-line client an operator uses on the host. Old builds bring none: the image's redis-cli. */
    public String cli() {
        return flavour + "-cli";
    }

    /** Whether it is a build that Debian does not package, installed by the lab over Debian's 7.0. */
    public boolean oldBuild() {
        return build.isPresent();
    }

    /** Whether it knows {@code disable-thp} (6.2), with which Redis turns THP off for its own process. */
    boolean knowsDisableThp() {
        return this != REDIS_2_8 && this != REDIS_6_0;
    }

    /** Whether it knows {@code replicaof} and {@code replica-announce-ip} (5.0); 2.8 knows only {@code slaveof}. */
    boolean knowsReplicaNames() {
        return this != REDIS_2_8;
    }

    /** Whether it knows 7.0's directives ({@code enable-debug-command}, several save points on one line). */
    boolean modernConfig() {
        return this == REDIS_7_0 || this == REDIS_8_0 || this == VALKEY_8_1;
    }

    LabImage.Suite suite() {
        return suite;
    }

    Optional<LabRedisBuild> build() {
        return build;
    }
}
