/**
 * What Redis is, not how it is rolled out: replication links, Sentinel masters and Cluster nodes, discovered
 * through {@link dev.fleetfix.redis.RedisNode}.
 */
package dev.fleetfix.redis.topology;
