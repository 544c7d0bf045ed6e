/**
 * The {@link dev.fleetfix.redis.RedisNode} port and what Redis says: versions, INFO and CONFIG replies, redis.conf
 * files, the commands fleetfix sends and the ACL rights they need. No Jedis here; imports {@code inventory} and
 * the root package.
 */
package dev.fleetfix.redis;
