package dev.fleetfix.report.model;

import java.util.List;

/**
 * What {@code fleetfix apply --list-hosts --format json} prints: each play's hosts and batches, as the run would
 * take them; nothing is contacted to make it.
 *
 * @param schemaVersion {@code schema_version}: the same as {@link FleetReport#SCHEMA_VERSION}
 * @param plays the plays in order
 */
public record HostListReport(int schemaVersion, List<PlayHosts> plays) {
    public static final int SCHEMA_VERSION = FleetReport.SCHEMA_VERSION;

    public HostListReport {
        plays = List.copyOf(plays);
    }

    /**
     * One play.
     *
     * @param name the play's name
     * @param hosts its hosts, in the order the run takes them
     * @param batches the hosts batch by batch ({@code serial})
     * @param notes what the batching says about itself (a canary, a reordering by topology)
     */
    public record PlayHosts(String name, List<String> hosts, List<List<String>> batches, List<String> notes) {
        public PlayHosts {
            hosts = List.copyOf(hosts);
            batches = batches.stream().map(List::copyOf).toList();
            notes = List.copyOf(notes);
        }
    }
}
