/**
 * The builtin load generator: connections that send a mix of operations through {@code redis/load}, its latency
 * histograms, client CPU meter and eviction watch, and the fork-under-load profile that runs BGSAVE under that load.
 * Imports {@code bench} and {@code bench.plan} (its specs and the safety guard), nothing of the other engines.
 */
package dev.fleetfix.bench.load;
