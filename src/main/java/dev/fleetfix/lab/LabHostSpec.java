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
        Optional<String> requirepass) {

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
    }

    /** THP {@code always}/{@code madvise}, no RHEL 6 layout, Redis defaults but {@code disable-thp no}. */
    public static LabHostSpec named(String name) {
        return new LabHostSpec(
                name, LabThp.ALWAYS, LabThp.MADVISE, false, false, "3600 1", false, Optional.empty(), Optional.empty());
    }

    public LabHostSpec withThp(LabThp enabled) {
        return new LabHostSpec(
                name, enabled, thpDefrag, rhel6Thp, disableThp, save, appendonly, replicaOf, requirepass);
    }

    public LabHostSpec withThpDefrag(LabThp defrag) {
        return new LabHostSpec(
                name, thpEnabled, defrag, rhel6Thp, disableThp, save, appendonly, replicaOf, requirepass);
    }

    public LabHostSpec withRhel6Thp() {
        return new LabHostSpec(name, thpEnabled, thpDefrag, true, disableThp, save, appendonly, replicaOf, requirepass);
    }

    public LabHostSpec withDisableThp(boolean disable) {
        return new LabHostSpec(
                name, thpEnabled, thpDefrag, rhel6Thp, disable, save, appendonly, replicaOf, requirepass);
    }

    public LabHostSpec withSave(String newSave) {
        return new LabHostSpec(
                name, thpEnabled, thpDefrag, rhel6Thp, disableThp, newSave, appendonly, replicaOf, requirepass);
    }

    public LabHostSpec withAppendonly(boolean aof) {
        return new LabHostSpec(name, thpEnabled, thpDefrag, rhel6Thp, disableThp, save, aof, replicaOf, requirepass);
    }

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
                requirepass);
    }

    public LabHostSpec withPassword(String password) {
        return new LabHostSpec(
                name, thpEnabled, thpDefrag, rhel6Thp, disableThp, save, appendonly, replicaOf, Optional.of(password));
    }
}
