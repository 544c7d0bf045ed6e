/**
 * {@code --shard K/N} and {@code inventory --shards N}: a selection cut into shards that keep replication groups
 * whole ({@code Sharding}), and the conflicts between the inventory's groups and what replication says ({@code
 * GroupConflict}), on which no shard is cut.
 */
package dev.fleetfix.rollout.shard;
