package dev.fleetfix.lab;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * How one lab host boots: its THP files, its Redis server and configuration, and its init. Build one with
 * {@link #builder(String)}; {@link #named(String)} and the {@code with...} methods are shortcuts over it.
 *
 * @param name host name, also its inventory name ({@code lab-1})
 * @param thpEnabled boot mode of the THP {@code enabled} file
 * @param thpDefrag boot mode of the THP {@code defrag} file
 * @param rhel6Thp whether the host has only {@code /sys/kernel/mm/redhat_transparent_hugepage}, as RHEL 6 kernels
 * @param disableThp Redis {@code disable-thp}: whether Redis turns THP off for its own process (6.2 and later)
 * @param save Redis {@code save} ({@code "3600 1"}; empty for no snapshots)
 * @param appendonly Redis {@code appendonly}
 * @param replicaOf the lab host this host's Redis replicates from
 * @param requirepass Redis {@code requirepass}
 * @param sentinel whether the host also runs a Redis Sentinel monitoring the lab's primary
 * @param cluster whether the host's Redis is a Redis Cluster node; {@code replicaOf} then means
 *     {@code CLUSTER REPLICATE}
 * @param server the Redis server the host runs (and so the image it boots)
 * @param instances how many Redis instances the host runs: 1 is Debian's {@code redis-server} unit; more are
 *     instances of Debian's template unit, {@code redis-server@PORT} reading {@code /etc/redis/redis-PORT.conf},
 *     on consecutive ports
 * @param init what runs as PID 1
 * @param grub whether the host has {@code /etc/default/grub}, whose kernel command line its boot honours
 * @param serviceShape what starts its Redis: Debian's units, install_server.sh's SysV script, supervisord
 * @param tunedThp whether tuned runs with an active profile that sets {@code transparent_hugepages=always}
 *     ({@code /etc/tuned/redis-thp}, activated with {@code tuned-adm}): it writes the host's THP file whenever
 *     tuned starts, at every boot
 * @param serviceInInventory whether the lab's inventory names the host's Redis service ({@code redis_service},
 *     the units of {@code redis_instances}); without, fleetfix has to find it
 * @param sudoPassword the host is logged into as {@value #OPS} (the lab's key), a user with this password whose sudo
 *     asks for it (sudoers without NOPASSWD); the inventory gives it as {@code ansible_become_password}
 * @param rootPassword root has this password, for {@code su}; the host is logged into as {@value #OPS}, and without a
 *     {@code sudoPassword} the inventory says {@code ansible_become_method: su} with this password
 * @param dockerCli the host has this machine's docker CLI and socket ({@link LabRedisContainer}): its root sees and
 *     drives the containers of this machine's dockerd, as on a Docker host
 * @param sshCertificates the host is trusted through the lab's SSH CA ({@link LabSshCa}): its sshd presents a host
 *     certificate and takes the lab user's certificate, and no plain key of it or for it is trusted anywhere
 */
public record LabHostSpec(
        String name,
        LabThp thpEnabled,
        LabThp thpDefrag,
        boolean rhel6Thp,
        boolean disableThp,
        String save,
        boolean appendonly,
        Optional<String> replicaOf,
        Optional<String> requirepass,
        boolean sentinel,
        boolean cluster,
        LabServer server,
        int instances,
        LabInit init,
        boolean grub,
        LabServiceShape serviceShape,
        boolean tunedThp,
        boolean serviceInInventory,
        Optional<String> sudoPassword,
        Optional<String> rootPassword,
        boolean dockerCli,
        boolean sshCertificates) {

    /** The login user of a host whose sudo or su asks for a password. */
    public static final String OPS = "ops";

    /** Ports 6379..6382: more instances would crowd the second-choice ports other hosts fall back to. */
    public static final int MAX_INSTANCES = 4;

    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,39}");
    private static final Pattern SAVE = Pattern.compile("(\\d+ \\d+)( \\d+ \\d+)*");
    private static final Pattern PASSWORD = Pattern.compile("[A-Za-z0-9._+-]{1,128}");

    public LabHostSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(thpEnabled, "thpEnabled");
        Objects.requireNonNull(thpDefrag, "thpDefrag");
        Objects.requireNonNull(save, "save");
        Objects.requireNonNull(replicaOf, "replicaOf");
        Objects.requireNonNull(requirepass, "requirepass");
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(init, "init");
        Objects.requireNonNull(serviceShape, "serviceShape");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    "lab host name must be lower-case letters, digits and '-', at most 40, was '" + name + "'");
        }
        if (!save.isEmpty() && !SAVE.matcher(save).matches()) {
            throw new IllegalArgumentException("host " + name
                    + ": save must be pairs of seconds and changes (\"3600 1 300 100\") or empty, was '" + save + "'");
        }
        if (replicaOf.filter(name::equals).isPresent()) {
            throw new IllegalArgumentException("host " + name + ": replicaOf must name another host, was itself");
        }
        for (Optional<String> password : List.of(sudoPassword, rootPassword)) {
            if (password.isPresent() && !PASSWORD.matcher(password.get()).matches()) {
                throw new IllegalArgumentException("host " + name
                        + ": a sudo or root password must be 1..128 of letters, digits and ._+- (it is written to a"
                        + " script)");
            }
        }
        if (sshCertificates && (sudoPassword.isPresent() || rootPassword.isPresent())) {
            throw new IllegalArgumentException("host " + name + ": the lab's user certificate is for " + LabBuilder.USER
                    + ", not for " + OPS + ": a host trusted through the SSH CA has no become password");
        }
        if (requirepass.isPresent() && !PASSWORD.matcher(requirepass.get()).matches()) {
            throw new IllegalArgumentException("host " + name
                    + ": requirepass must be 1..128 of letters, digits and ._+- (it is written to config files)");
        }
        // Sentinel cannot monitor a cluster node, and a Sentinel beside one would suggest it does.
        if (sentinel && cluster) {
            throw new IllegalArgumentException("host " + name
                    + ": a host runs a Sentinel or a cluster node, not both (sentinel=true, cluster=true)");
        }
        if (instances < 1 || instances > MAX_INSTANCES) {
            throw new IllegalArgumentException(
                    "host " + name + ": instances must be 1.." + MAX_INSTANCES + ", was " + instances);
        }
        LabHostShapes.check(name, server, instances, init, disableThp, replicaOf, sentinel, cluster);
        LabHostShapes.checkOperatorShape(name, server, instances, init, serviceShape, tunedThp, rhel6Thp);
        if (serviceShape == LabServiceShape.COMPOSE
                && (!dockerCli || requirepass.isPresent() || replicaOf.isPresent())) {
            throw new IllegalArgumentException("host " + name + ": a compose project's Redis needs dockerCli, and has"
                    + " neither requirepass nor replicaOf (its command line is the lab's)");
        }
    }

    /** THP {@code always}/{@code madvise}, no RHEL 6 layout, Debian's Redis 7.0 but {@code disable-thp no}. */
    public static LabHostSpec named(String name) {
        return builder(name).build();
    }

    /** A builder starting from {@link #named(String)}'s defaults. */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** A builder holding this spec's values. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    public LabHostSpec withThp(LabThp enabled) {
        return toBuilder().thp(enabled).build();
    }

    public LabHostSpec withThpDefrag(LabThp defrag) {
        return toBuilder().thpDefrag(defrag).build();
    }

    public LabHostSpec withRhel6Thp() {
        return toBuilder().rhel6Thp(true).build();
    }

    public LabHostSpec withDisableThp(boolean disable) {
        return toBuilder().disableThp(disable).build();
    }

    public LabHostSpec withSave(String newSave) {
        return toBuilder().save(newSave).build();
    }

    public LabHostSpec withAppendonly(boolean aof) {
        return toBuilder().appendonly(aof).build();
    }

    /** Replicates from {@code hostName}: a {@code replicaof} directive, or CLUSTER REPLICATE for a cluster node. */
    public LabHostSpec withReplicaOf(String hostName) {
        return toBuilder().replicaOf(hostName).build();
    }

    public LabHostSpec withPassword(String password) {
        return toBuilder().requirepass(password).build();
    }

    /**
     * Also runs a Redis Sentinel (systemd unit {@code fleetfix-lab-sentinel}, port 26379 on the host's address)
     * that monitors the lab's primary, the one host others replicate from, under the master name
     * {@value LabFleet#SENTINEL_MASTER}.
     */
    public LabHostSpec withSentinel() {
        return toBuilder().sentinel(true).build();
    }

    /**
     * Runs Redis as a Redis Cluster node. The lab forms the cluster at start: cluster primaries (cluster hosts
     * without {@code replicaOf}) share the 16384 slots evenly, cluster replicas follow their primary.
     */
    public LabHostSpec withCluster() {
        return toBuilder().cluster(true).build();
    }

    /** Collects a host's settings; {@link #build()} validates them all at once. */
    public static final class Builder {
        private final String name;
        private LabThp thpEnabled = LabThp.ALWAYS;
        private LabThp thpDefrag = LabThp.MADVISE;
        private boolean rhel6Thp;
        private boolean disableThp;
        private String save = "3600 1";
        private boolean appendonly;
        private Optional<String> replicaOf = Optional.empty();
        private Optional<String> requirepass = Optional.empty();
        private boolean sentinel;
        private boolean cluster;
        private LabServer server = LabServer.REDIS_7_0;
        private int instances = 1;
        private LabInit init = LabInit.SYSTEMD;
        private boolean grub;
        private LabServiceShape serviceShape = LabServiceShape.DEBIAN_UNIT;
        private boolean tunedThp;
        private boolean serviceInInventory = true;
        private Optional<String> sudoPassword = Optional.empty();
        private Optional<String> rootPassword = Optional.empty();
        private boolean dockerCli;
        private boolean sshCertificates;

        private Builder(String name) {
            this.name = name;
        }

        private Builder(LabHostSpec spec) {
            this.name = spec.name;
            this.thpEnabled = spec.thpEnabled;
            this.thpDefrag = spec.thpDefrag;
            this.rhel6Thp = spec.rhel6Thp;
            this.disableThp = spec.disableThp;
            this.save = spec.save;
            this.appendonly = spec.appendonly;
            this.replicaOf = spec.replicaOf;
            this.requirepass = spec.requirepass;
            this.sentinel = spec.sentinel;
            this.cluster = spec.cluster;
            this.server = spec.server;
            this.instances = spec.instances;
            this.init = spec.init;
            this.grub = spec.grub;
            this.serviceShape = spec.serviceShape;
            this.tunedThp = spec.tunedThp;
            this.serviceInInventory = spec.serviceInInventory;
            this.sudoPassword = spec.sudoPassword;
            this.rootPassword = spec.rootPassword;
            this.dockerCli = spec.dockerCli;
            this.sshCertificates = spec.sshCertificates;
        }

        /** Logged into as {@value LabHostSpec#OPS}, whose sudo asks for {@code password}. */
        public Builder sudoPassword(String password) {
            this.sudoPassword = Optional.of(password);
            return this;
        }

        /** root's password is {@code password}, for su; logged into as {@value LabHostSpec#OPS}. */
        public Builder rootPassword(String password) {
            this.rootPassword = Optional.of(password);
            return this;
        }

        public Builder thp(LabThp enabled) {
            this.thpEnabled = enabled;
            return this;
        }

        public Builder thpDefrag(LabThp defrag) {
            this.thpDefrag = defrag;
            return this;
        }

        public Builder rhel6Thp(boolean rhel6) {
            this.rhel6Thp = rhel6;
            return this;
        }

        public Builder disableThp(boolean disable) {
            this.disableThp = disable;
            return this;
        }

        public Builder save(String newSave) {
            this.save = newSave;
            return this;
        }

        public Builder appendonly(boolean aof) {
            this.appendonly = aof;
            return this;
        }

        public Builder replicaOf(String hostName) {
            this.replicaOf = Optional.of(hostName);
            return this;
        }

        public Builder requirepass(String password) {
            this.requirepass = Optional.of(password);
            return this;
        }

        public Builder sentinel(boolean runs) {
            this.sentinel = runs;
            return this;
        }

        public Builder cluster(boolean node) {
            this.cluster = node;
            return this;
        }

        public Builder server(LabServer newServer) {
            this.server = newServer;
            return this;
        }

        public Builder instances(int count) {
            this.instances = count;
            return this;
        }

        public Builder init(LabInit newInit) {
            this.init = newInit;
            return this;
        }

        public Builder grub(boolean has) {
            this.grub = has;
            return this;
        }

        public Builder serviceShape(LabServiceShape shape) {
            this.serviceShape = shape;
            return this;
        }

        public Builder tunedThp(boolean active) {
            this.tunedThp = active;
            return this;
        }

        /** {@code false}: the inventory names no service for the host, as inventories written for hosts fleetfix did not build. */
        public Builder serviceInInventory(boolean named) {
            this.serviceInInventory = named;
            return this;
        }

        /** {@code true}: the host gets this machine's docker CLI and socket, for a Redis in a sibling container. */
        public Builder dockerCli(boolean has) {
            this.dockerCli = has;
            return this;
        }

        /** {@code true}: the host is trusted through the lab's SSH CA, by certificates only. */
        public Builder sshCertificates(boolean trusted) {
            this.sshCertificates = trusted;
            return this;
        }

        public LabHostSpec build() {
            return new LabHostSpec(
                    name,
                    thpEnabled,
                    thpDefrag,
                    rhel6Thp,
                    disableThp,
                    save,
                    appendonly,
                    replicaOf,
                    requirepass,
                    sentinel,
                    cluster,
                    server,
                    instances,
                    init,
                    grub,
                    serviceShape,
                    tunedThp,
                    serviceInInventory,
                    sudoPassword,
                    rootPassword,
                    dockerCli,
                    sshCertificates);
        }
    }
}
