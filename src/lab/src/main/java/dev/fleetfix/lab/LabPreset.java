package dev.fleetfix.lab;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Ready-made labs for {@code fleetfix lab up --preset}. A fleet preset ({@link #THP_ALWAYS} to {@link #SCALE}) lays
 * out hosts named {@code lab-1}, {@code lab-2}, ... and stands alone; an operator shape ({@link #SYSV} onwards) is one
 * host built the way operators build it, named after the shape ({@code sysv-1}), whose inventory names no service:
 * shapes combine ({@code --preset sysv,supervisord}), and {@link LabPresets#OPERATORS} is one host of each.
 */
public enum LabPreset {
    /** Every host as an untuned Debian box: THP {@code always}, Redis with {@code disable-thp no}. */
    THP_ALWAYS,
    /**
     * A fleet half remediated: THP modes cycle always, madvise, never; every fourth host has a RHEL 6 THP
     * layout; Redis {@code disable-thp} alternates; one host has a password and AOF.
     */
    MIXED,
    /** {@code lab-1} is the primary, every other host replicates from it; THP {@code always} everywhere. */
    REPLICATED,
    /**
     * As {@link #REPLICATED}, and every host also runs a Sentinel monitoring {@code lab-1} as master
     * {@value LabFleet#SENTINEL_MASTER}. Needs 2 hosts at least; 3 give a quorum that outlives one host.
     */
    SENTINEL,
    /**
     * A Redis Cluster of pairs: {@code lab-1} a primary with {@code lab-2} its replica, {@code lab-3} with
     * {@code lab-4}, ...; an odd last host is a primary without replica. The primaries share the slots evenly.
     */
    CLUSTER,
    /**
     * One host of each era and shape, THP {@code always} everywhere: {@code lab-1} Redis 2.8.19, {@code lab-2}
     * Redis 6.2, {@code lab-3} Redis 7.0, {@code lab-4} Redis 8.0, {@code lab-5} Valkey 8.1, {@code lab-6} three
     * Redis 7.0 instances ({@code redis-server@6379..6381}), {@code lab-7} Redis 7.0 without systemd (SysV init,
     * {@code /etc/rc.local}). Every host has an {@code /etc/default/grub} whose kernel command line its boot
     * honours. More hosts repeat the cycle.
     */
    ERAS,
    /**
     * Hundreds of cheap hosts in one container, to measure the control node (see {@link LabScale}): each has its own
     * loopback address, sshd and Redis INFO, but no init, no PAM session, and a Redis shared with up to 15 others.
     * Audit and read-only work only.
     */
    SCALE,
    /**
     * Redis from source, as {@code make install} and {@code utils/install_server.sh} leave it: {@code
     * /etc/init.d/redis_6379} (whose status always exits 0), {@code /etc/redis/6379.conf}, no {@code redis-server} unit.
     */
    SYSV,
    /** supervisord's {@code [program:redis]} runs Redis; Debian's {@code redis-server} unit is disabled. */
    SUPERVISORD,
    /** Debian's unit, and an active tuned profile that sets THP {@code always} at every boot (boot mode madvise). */
    TUNED,
    /** One instance of Debian's template unit, {@code redis-server@main}, reading {@code /etc/redis/redis-main.conf}. */
    TEMPLATE_UNIT,
    /** Logged into as {@value LabHostSpec#OPS}, whose sudo asks for a password; the password is in the lab's vault. */
    SUDO_PASSWORD,
    /** Logged into as {@value LabHostSpec#OPS}; root has a password, for {@code become_method: su}, in the vault. */
    SU_PASSWORD,
    /**
     * Redis in a container on the host: a {@code docker compose} project in {@value LabComposeRedis#DIR}, its data on a
     * named volume, brought up at boot by Debian's {@code docker-compose} ({@link LabComposeRedis}).
     */
    CONTAINER,
    /**
     * Trusted through an SSH CA made at {@code lab up} ({@link LabSshCa}): sshd presents a host certificate and takes
     * the user's; the inventory gives a known_hosts of one {@code @cert-authority} line and the key with its
     * {@code -cert.pub}.
     */
    SSH_CERT;

    /** The most hosts a scale lab starts: far below what 127.0.1.0-127.0.255.255 holds, above any bench. */
    public static final int MAX_SCALE_HOSTS = 1000;

    /** The seven shapes of {@link #ERAS}, in host order. */
    private static final int ERAS_SHAPES = 7;

    /** {@code thp-always}: the name the CLI accepts. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Whether this is one host of an operator-built shape, which combines with others, rather than a fleet. */
    public boolean operatorShape() {
        return compareTo(SYSV) >= 0;
    }

    /** The preset in one line, for {@code lab up --help} and docs/lab.md: at most 62 characters, for 80 columns. */
    public String summary() {
        return switch (this) {
            case THP_ALWAYS -> "every host untuned: THP always, Redis disable-thp no";
            case MIXED -> "THP always/madvise/never, a RHEL 6 layout, a password and AOF";
            case REPLICATED -> "lab-1 primary, the others its replicas";
            case SENTINEL -> "replicated, and a Sentinel on every host (master 'lab')";
            case CLUSTER -> "a Redis Cluster of primary/replica pairs";
            case ERAS -> "Redis 2.8 to 8.0, Valkey, 3 instances, no systemd: 7 hosts";
            case SCALE -> "up to 1000 sshd-only hosts in one container: audit only";
            case SYSV -> "Redis from source, install_server.sh's /etc/init.d/redis_6379";
            case SUPERVISORD -> "supervisord's program 'redis' runs Redis, its unit disabled";
            case TUNED -> "an active tuned profile sets THP always at every boot";
            case TEMPLATE_UNIT -> "one instance of Debian's template unit, redis-server@main";
            case SUDO_PASSWORD -> "login user ops, whose sudo asks a password (vaulted)";
            case SU_PASSWORD -> "login user ops, su with root's password (vaulted)";
            case CONTAINER -> "Redis in a docker compose project, its data on a volume";
            case SSH_CERT -> "an SSH CA: host and user certificates, no plain key trusted";
        };
    }

    /**
     * How many hosts {@code lab up --preset} starts without {@code --hosts}: one of each shape for eras, one host of
     * an operator shape.
     */
    public int defaultHosts() {
        if (operatorShape()) {
            return 1;
        }
        return switch (this) {
            case ERAS -> ERAS_SHAPES;
            case SCALE -> 100;
            default -> 3;
        };
    }

    /** How many hosts the preset can start: a scale lab's hosts are processes, a full lab's are containers. */
    public int maxHosts() {
        return this == SCALE ? MAX_SCALE_HOSTS : LabFleet.MAX_HOSTS;
    }

    public static LabPreset parse(String text) {
        for (LabPreset preset : values()) {
            if (preset.cliName().equalsIgnoreCase(text) || preset.name().equalsIgnoreCase(text)) {
                return preset;
            }
        }
        throw new IllegalArgumentException("unknown lab preset '" + text + "'; expected one of "
                + Arrays.stream(values()).map(LabPreset::cliName).collect(Collectors.joining(", ")) + " or "
                + LabPresets.OPERATORS);
    }

    public List<LabHostSpec> specs(int hosts) {
        if (hosts < 1 || hosts > maxHosts()) {
            throw new IllegalArgumentException("hosts must be 1.." + maxHosts() + ", was " + hosts);
        }
        if (this == SENTINEL && hosts < 2) {
            throw new IllegalArgumentException("the sentinel preset needs 2 hosts at least (a primary and a replica to"
                    + " fail over to; 3 for a quorum that outlives one host), was " + hosts);
        }
        List<LabHostSpec> specs = new ArrayList<>();
        for (int i = 1; i <= hosts; i++) {
            specs.add(spec(i));
        }
        return specs;
    }

    private LabHostSpec spec(int index) {
        if (operatorShape()) {
            return shape(LabHostSpec.builder(cliName() + "-" + index).serviceInInventory(false));
        }
        LabHostSpec base = LabHostSpec.named("lab-" + index);
        return switch (this) {
            case THP_ALWAYS, SCALE -> base;
            case REPLICATED -> index == 1 ? base : base.withReplicaOf("lab-1");
            case SENTINEL -> (index == 1 ? base : base.withReplicaOf("lab-1")).withSentinel();
            case CLUSTER -> index % 2 == 1
                    ? base.withCluster()
                    : base.withCluster().withReplicaOf("lab-" + (index - 1));
            case MIXED -> mixed(base, index);
            case ERAS -> era(base, index);
            default -> throw new IllegalStateException(this + " is an operator shape");
        };
    }

    /** One host of an operator shape; a password is new at each lab, and goes only to the host and the vault. */
    private LabHostSpec shape(LabHostSpec.Builder spec) {
        return switch (this) {
            case SYSV -> spec.serviceShape(LabServiceShape.INSTALL_SERVER).build();
            case SUPERVISORD -> spec.serviceShape(LabServiceShape.SUPERVISORD).build();
            case TUNED -> spec.tunedThp(true).thp(LabThp.MADVISE).build();
            case TEMPLATE_UNIT -> spec.serviceShape(LabServiceShape.DEBIAN_INSTANCE)
                    .build();
            case SUDO_PASSWORD -> spec.sudoPassword(LabVault.newPassword()).build();
            case SU_PASSWORD -> spec.rootPassword(LabVault.newPassword()).build();
            case CONTAINER -> spec.serviceShape(LabServiceShape.COMPOSE)
                    .dockerCli(true)
                    .build();
            case SSH_CERT -> spec.sshCertificates(true).build();
            default -> throw new IllegalStateException(this + " is a fleet preset");
        };
    }

    private static LabHostSpec era(LabHostSpec base, int index) {
        // Every Debian host has /etc/default/grub; here its kernel command line is honoured at each boot.
        LabHostSpec.Builder spec = base.toBuilder().grub(true);
        switch ((index - 1) % ERAS_SHAPES) {
            case 0 -> spec.server(LabServer.REDIS_2_8);
            case 1 -> spec.server(LabServer.REDIS_6_2);
            case 2 -> spec.server(LabServer.REDIS_7_0);
            case 3 -> spec.server(LabServer.REDIS_8_0);
            case 4 -> spec.server(LabServer.VALKEY_8_1);
            case 5 -> spec.instances(3);
            default -> spec.init(LabInit.SYSV);
        }
        return spec.build();
    }

    private static LabHostSpec mixed(LabHostSpec base, int index) {
        LabThp[] modes = LabThp.values();
        LabHostSpec spec = base.withThp(modes[(index - 1) % modes.length]).withDisableThp(index % 2 == 0);
        if (index % 4 == 0) {
            spec = spec.withRhel6Thp();
        }
        if (index == 2) {
            spec = spec.withPassword("lab-secret-2").withAppendonly(true);
        }
        return spec;
    }
}
