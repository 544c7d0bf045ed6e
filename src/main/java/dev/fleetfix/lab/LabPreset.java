package dev.fleetfix.lab;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** Ready-made fleets for {@code fleetfix lab up --preset}: hosts named {@code lab-1}, {@code lab-2}, ... */
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
    CLUSTER;

    /** {@code thp-always}: the name the CLI accepts. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static LabPreset parse(String text) {
        for (LabPreset preset : values()) {
            if (preset.cliName().equalsIgnoreCase(text) || preset.name().equalsIgnoreCase(text)) {
                return preset;
            }
        }
        throw new IllegalArgumentException("unknown lab preset '" + text + "'; expected one of "
                + Arrays.stream(values()).map(LabPreset::cliName).collect(Collectors.joining(", ")));
    }

    public List<LabHostSpec> specs(int hosts) {
        if (hosts < 1 || hosts > LabFleet.MAX_HOSTS) {
            throw new IllegalArgumentException("hosts must be 1.." + LabFleet.MAX_HOSTS + ", was " + hosts);
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
        LabHostSpec base = LabHostSpec.named("lab-" + index);
        return switch (this) {
            case THP_ALWAYS -> base;
            case REPLICATED -> index == 1 ? base : base.withReplicaOf("lab-1");
            case SENTINEL -> (index == 1 ? base : base.withReplicaOf("lab-1")).withSentinel();
            case CLUSTER -> index % 2 == 1
                    ? base.withCluster()
                    : base.withCluster().withReplicaOf("lab-" + (index - 1));
            case MIXED -> mixed(base, index);
        };
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
