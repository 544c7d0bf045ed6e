package dev.fleetfix.redis.load;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Redis a builtin benchmark drives: load connections plus the few administrative calls the
 * profiles and the safety checks need. The {@code redis.jedis} package implements it; unit tests
 * use fakes. Failures to talk to Redis throw {@link dev.fleetfix.redis.RedisException}.
 */
public interface BenchTarget extends AutoCloseable {

    /** The inventory name of the host, for messages. */
    String hostName();

    /** Opens one more connection for a load thread. */
    BenchConnection connect();

    /**
     * Opens one more connection for a load thread with the TCP_NODELAY socket option as given (on:
     * Nagle's algorithm off, each small write leaves at once; off: the kernel may hold a small
     * write back until the previous one is acknowledged).
     *
     * @throws BenchmarkException when this target cannot set the option
     */
    default BenchConnection connect(boolean tcpNoDelay) {
        throw new BenchmarkException("host " + hostName() + ": this client cannot set TCP_NODELAY");
    }

    /** INFO of one section as key/value pairs. */
    Map<String, String> info(String section);

    /** CONFIG GET of one parameter; empty when Redis refuses or does not know it. */
    Optional<String> configGet(String parameter);

    /**
     * LATENCY LATEST: per event the latency monitor recorded, its latest and largest spike.
     *
     * @throws dev.fleetfix.redis.RedisException when Redis refuses (renamed, ACL, before 2.8.13)
     */
    List<RedisEvidence.LatencyEvent> latencyLatest();

    /**
     * LATENCY HISTORY of one event ({@code fork}), oldest first.
     *
     * @throws dev.fleetfix.redis.RedisException when Redis refuses
     */
    List<RedisEvidence.LatencySpike> latencyHistory(String event);

    /** Starts a BGSAVE; throws when Redis refuses (one already running, for instance). */
    void bgsave();

    /**
     * In Redis Cluster, a hash tag ({@code {7}}) whose slot this node serves: keys that carry it
     * stay on this node, all in one slot, so writes are not redirected and a multi-key UNLINK is
     * allowed. Empty outside cluster mode, and on a cluster replica (which takes no writes).
     *
     * @throws BenchmarkRefusedException when the node is a cluster primary that serves no slot
     */
    Optional<String> clusterHashTag();

    /**
     * How many keys start with {@code prefix}, by SCAN MATCH: it stops once {@code atMost} are
     * found, or after a bounded number of SCAN pages on a very large keyspace (then {@code
     * complete} is false and {@code found} is a lower bound).
     */
    KeyCount countByPrefix(String prefix, long atMost);

    /**
     * How many keys under {@code prefix} are an earlier run's ({@code prefix} + {@link RunKeys}'s run part), counted
     * as {@link #countByPrefix} counts.
     */
    KeyCount countEarlierRuns(String prefix, long atMost);

    /**
     * @param found keys seen under the prefix
     * @param complete whether SCAN went through the whole keyspace (or stopped at {@code atMost})
     */
    record KeyCount(long found, boolean complete) {}

    /**
     * Deletes every key that starts with {@code prefix} (SCAN, then UNLINK from Redis 4.0, DEL
     * before; SCAN again until a whole pass finds none); returns how many.
     *
     * @throws BenchmarkException when deleting stopped half-way; the message says how many keys
     *     under the prefix are left (the next benchmark on the host deletes them first)
     */
    long deleteByPrefix(String prefix);

    /**
     * Deletes the keys shaped as earlier runs' under {@code prefix} ({@code prefix} + {@link RunKeys}'s run part),
     * and nothing else under it; returns how many. A user's key can have that shape too: callers decide first
     * whether the prefix is the benchmark's ({@link EarlierRuns}).
     */
    long deleteEarlierRuns(String prefix);

    @Override
    void close();
}
