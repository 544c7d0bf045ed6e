package dev.fleetfix.report.model;

import java.util.List;

/**
 * What {@code fleetfix apply --list-hosts --format json} prints: each play's hosts, in inventory order; nothing is
 * contacted to make it. The batches a rollout takes come from Redis (replicas first): a {@code --check} run's
 * report has them.
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
     * @param pattern its {@code hosts:} pattern
     * @param hosts the hosts it selects, with {@code --limit}, in inventory order
     */
    public record PlayHosts(String name, String pattern, List<String> hosts) {
        public PlayHosts {
            hosts = List.copyOf(hosts);
        }
    }
}
