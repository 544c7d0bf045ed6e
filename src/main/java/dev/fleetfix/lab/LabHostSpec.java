package dev.fleetfix.lab;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * How one lab host boots: its THP files and its Redis configuration.
 *
 * @param name host name, also its inventory name ({@code lab-1})
 * @param thpEnabled boot mode of the THP {@code enabled} file
 * @param thpDefrag boot mode of the THP {@code defrag} file
 * @param rhel6Thp whether the host has only {@code /sys/kernel/mm/redhat_transparent_hugepage}, as RHEL 6 kernels
 * @param disableThp Redis {@code disable-thp}: whether Redis turns THP off for its own process
 * @param save Redis {@code save} ({@code "3600 1"}; empty for no snapshots)
 * @param appendonly Redis {@code appendonly}
 * @param replicaOf the lab host this host's Redis replicates from
 * @param requirepass Redis {@code requirepass}
 * @param sentinel whether the host also runs a Redis Sentinel monitoring the lab's primary
 * @param cluster whether the host's Redis is a Redis Cluster node; {@code replicaOf} then means
 *     {@code CLUSTER REPLICATE}
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
        boolean cluster) {

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
        if (requirepass.isPresent() && !PASSWORD.matcher(requirepass.get()).matches()) {
            throw new IllegalArgumentException("host " + name
                    + ": requirepass must be 1..128 of letters, digits and ._+- (it is written to config files)");
        }
        // Sentinel cannot monitor a cluster node, and a Sentinel beside one would suggest it does.
        if (sentinel && cluster) {
            throw new IllegalArgumentException("host " + name
                    + ": a host runs a Sentinel or a cluster node, not both (sentinel=true, cluster=true)");
        }
    }

    /** THP {@code always}/{@code madvise}, no RHEL 6 layout, Redis defaults but {@code disable-thp no}. */
    public static LabHostSpec named(String name) {
        return new LabHostSpec(
                name,
                LabThp.ALWAYS,
                LabThp.MADVISE,
                false,
                false,
                "3600 1",
                false,
                Optional.empty(),
                Optional.empty(),
                false,
                false);
    }

    public LabHostSpec withThp(LabThp enabled) {
        return new LabHostSpec(
                name,
                enabled,
                thpDefrag,
                rhel6Thp,
                disableThp,
                save,
                appendonly,
                replicaOf,
                requirepass,
                sentinel,
                cluster);
    }

    public LabHostSpec withThpDefrag(LabThp defrag) {
        return new LabHostSpec(
                name,
                thpEnabled,
                defrag,
                rhel6Thp,
                disableThp,
                save,
                appendonly,
                replicaOf,
                requirepass,
                sentinel,
                cluster);
    }

    public LabHostSpec withRhel6Thp() {
        return new LabHostSpec(
                name,
                thpEnabled,
                thpDefrag,
                true,
                disableThp,
                save,
                appendonly,
                replicaOf,
                requirepass,
                sentinel,
                cluster);
    }

    public LabHostSpec withDisableThp(boolean disable) {
        return new LabHostSpec(
                name,
                thpEnabled,
                thpDefrag,
                rhel6Thp,
                disable,
                save,
                appendonly,
                replicaOf,
                requirepass,
                sentinel,
                cluster);
    }

    public LabHostSpec withSave(String newSave) {
        return new LabHostSpec(
                name,
                thpEnabled,
                thpDefrag,
                rhel6Thp,
                disableThp,
                newSave,
                appendonly,
                replicaOf,
                requirepass,
                sentinel,
                cluster);
    }

    public LabHostSpec withAppendonly(boolean aof) {
        return new LabHostSpec(
                name,
                thpEnabled,
                thpDefrag,
                rhel6Thp,
                disableThp,
                save,
                aof,
                replicaOf,
                requirepass,
                sentinel,
                cluster);
    }

    /** Replicates from {@code hostName}: a {@code replicaof} directive, or CLUSTER REPLICATE for a cluster node. */
    public LabHostSpec withReplicaOf(String hostName) {
        return new LabHostSpec(
                name,
                thpEnabled,
                thpDefrag,
                rhel6Thp,
                disableThp,
                save,
                appendonly,
                Optional.of(hostName),
                requirepass,
                sentinel,
                cluster);
    }

    public LabHostSpec withPassword(String password) {
        return new LabHostSpec(
                name,
                thpEnabled,
                thpDefrag,
                rhel6Thp,
                disableThp,
                save,
                appendonly,
                replicaOf,
                Optional.of(password),
                sentinel,
                cluster);
    }

    /**
     * Also runs a Redis Sentinel (systemd unit {@code fleetfix-lab-sentinel}, port 26379 on the host's address)
     * that monitors the lab's primary, the one host others replicate from, under the master name
     * {@value LabFleet#SENTINEL_MASTER}.
     */
    public LabHostSpec withSentinel() {
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
                true,
                cluster);
    }

    /**
     * Runs Redis as a Redis Cluster node. The lab forms the cluster at start: cluster primaries (cluster hosts
     * without {@code replicaOf}) share the 16384 slots evenly, cluster replicas follow their primary.
     */
    public LabHostSpec withCluster() {
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
                true);
    }
}
