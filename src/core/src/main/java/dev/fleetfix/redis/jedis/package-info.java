/**
 * The Jedis adapter of {@code redis}'s and {@code redis/load}'s ports: the only importer of Jedis, with the limits
 * that keep a hostile server's replies bounded.
 */
package dev.fleetfix.redis.jedis;
