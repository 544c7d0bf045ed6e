package dev.fleetfix.bench.load;

import dev.fleetfix.redis.load.BenchConnection;
import dev.fleetfix.redis.load.BenchTarget;
import dev.fleetfix.redis.load.RedisEvidence;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A view of a target whose load connections carry the TCP_NODELAY setting of a plan; everything
 * else, and the admin connection, is the target's own. Closing the view leaves the target open:
 * the host's other rounds still use it.
 */
public final class TcpNoDelayTarget implements BenchTarget {
    private final BenchTarget target;
    private final boolean tcpNoDelay;

    TcpNoDelayTarget(BenchTarget target, boolean tcpNoDelay) {
        this.target = target;
        this.tcpNoDelay = tcpNoDelay;
    }

    /** The target as the plan wants its load connections. */
    public static BenchTarget of(BenchTarget target, Optional<Boolean> tcpNoDelay) {
        return tcpNoDelay
                .<BenchTarget>map(on -> new TcpNoDelayTarget(target, on))
                .orElse(target);
    }

    @Override
    public String hostName() {
        return target.hostName();
    }

    @Override
    public BenchConnection connect() {
        return target.connect(tcpNoDelay);
    }

    @Override
    public BenchConnection connect(boolean on) {
        return target.connect(on);
    }

    @Override
    public Map<String, String> info(String section) {
        return target.info(section);
    }

    @Override
    public Optional<String> configGet(String parameter) {
        return target.configGet(parameter);
    }

    @Override
    public List<RedisEvidence.LatencyEvent> latencyLatest() {
        return target.latencyLatest();
    }

    @Override
    public List<RedisEvidence.LatencySpike> latencyHistory(String event) {
        return target.latencyHistory(event);
    }

    @Override
    public void bgsave() {
        target.bgsave();
    }

    @Override
    public Optional<String> clusterHashTag() {
        return target.clusterHashTag();
    }

    @Override
    public KeyCount countByPrefix(String prefix, long atMost) {
        return target.countByPrefix(prefix, atMost);
    }

    @Override
    public KeyCount countEarlierRuns(String prefix, long atMost) {
        return target.countEarlierRuns(prefix, atMost);
    }

    @Override
    public long deleteByPrefix(String prefix) {
        return target.deleteByPrefix(prefix);
    }

    @Override
    public long deleteEarlierRuns(String prefix) {
        return target.deleteEarlierRuns(prefix);
    }

    @Override
    public void close() {
        // the host's target stays open for its other rounds
    }
}
