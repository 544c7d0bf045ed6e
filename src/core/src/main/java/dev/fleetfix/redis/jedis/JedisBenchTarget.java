package dev.fleetfix.redis.jedis;

import dev.fleetfix.Secret;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.RedisEndpoint;
import dev.fleetfix.redis.ClusterNode;
import dev.fleetfix.redis.InfoParser;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisServer;
import dev.fleetfix.redis.load.BenchConnection;
import dev.fleetfix.redis.load.BenchOp;
import dev.fleetfix.redis.load.BenchTarget;
import dev.fleetfix.redis.load.BenchmarkException;
import dev.fleetfix.redis.load.BenchmarkRefusedException;
import dev.fleetfix.redis.load.RedisEvidence;
import dev.fleetfix.redis.load.RunKeys;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisSocketFactory;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.args.LatencyEvent;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * {@link BenchTarget} over Jedis: one plain connection per load thread (no pool: each thread owns
 * its connection for the whole run) and one shared administrative connection.
 */
public final class JedisBenchTarget implements BenchTarget {
    private static final int SCAN_COUNT = 1000;
    /** A pass that still deletes keys is followed by another; five without an empty one means something writes. */
    private static final int MAX_DELETE_PASSES = 5;

    private final String hostName;
    private final HostAndPort address;
    private final JedisClientConfig config;
    private final Jedis admin;

    private JedisBenchTarget(String hostName, HostAndPort address, JedisClientConfig config) {
        this.hostName = hostName;
        this.address = address;
        this.config = config;
        this.admin = call(() -> {
            Jedis jedis = new Jedis(BoundedSocket.factory(address, config), config);
            jedis.ping();
            return jedis;
        });
    }

    /**
     * Connects to a host's Redis.
     *
     * @param hostName the inventory name, for messages
     * @param endpoint address, port and TLS of the Redis
     * @param password the resolved password, when the endpoint has one
     * @param timeout connect and read timeout; a read that waits longer fails the benchmark
     */
    public static JedisBenchTarget connect(
            String hostName, RedisEndpoint endpoint, Optional<Secret> password, Duration timeout) {
        Objects.requireNonNull(hostName, "hostName");
        DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder()
                .timeoutMillis((int) Math.min(Integer.MAX_VALUE, timeout.toMillis()))
                .ssl(endpoint.tls())
                .sslParameters(RedisTls.verifyingName())
                .clientName("fleetfix-bench")
                // CLIENT SETINFO exists from 7.2 on; older servers would answer it with an error
                .clientSetInfoConfig(ClientSetInfoConfig.DISABLED);
        password.ifPresent(p -> config.password(p.reveal()));
        endpoint.auth().user().ifPresent(config::user);
        return new JedisBenchTarget(hostName, new HostAndPort(endpoint.address(), endpoint.port()), config.build());
    }

    /** Connects to a host's Redis as the inventory describes it, reading its password from where it says. */
    public static JedisBenchTarget connect(Host host, Duration timeout) {
        Optional<Secret> password = RedisPassword.resolve(host, System::getenv).map(Secret::of);
        return connect(host.name(), host.redis(), password, timeout);
    }

    @Override
    public String hostName() {
        return hostName;
    }

    @Override
    public BenchConnection connect() {
        Jedis jedis = call(() -> new Jedis(BoundedSocket.factory(address, config), config));
        return new Connection(jedis);
    }

    @Override
    public BenchConnection connect(boolean tcpNoDelay) {
        Jedis jedis = call(() -> new Jedis(socketFactory(address, config, tcpNoDelay), config));
        return new Connection(jedis);
    }

    /**
     * Jedis's own sockets with their replies bounded, then TCP_NODELAY set as asked: Jedis always turns it on, and a client
     * that leaves Nagle's algorithm on is what the seeds' rumour is about.
     */
    static JedisSocketFactory socketFactory(HostAndPort address, JedisClientConfig config, boolean tcpNoDelay) {
        JedisSocketFactory plain = BoundedSocket.factory(address, config);
        return () -> {
            Socket socket = plain.createSocket();
            try {
                socket.setTcpNoDelay(tcpNoDelay);
            } catch (SocketException e) {
                closeQuietly(socket);
                throw new JedisConnectionException("setting TCP_NODELAY " + (tcpNoDelay ? "on" : "off") + ": " + e, e);
            }
            return socket;
        };
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // the socket is being given up on already
        }
    }

    @Override
    public synchronized Map<String, String> info(String section) {
        return InfoParser.parse(command("INFO", () -> admin.info(section)));
    }

    @Override
    public synchronized Optional<String> configGet(String parameter) {
        try {
            Map<String, String> values = admin.configGet(parameter);
            return Optional.ofNullable(values.get(parameter));
        } catch (JedisDataException e) {
            return Optional.empty(); // CONFIG renamed or refused by ACL
        } catch (JedisException e) {
            throw JedisErrors.map(
                    hostName,
                    address.toString(),
                    Duration.ofMillis(config.getSocketTimeoutMillis()),
                    "CONFIG GET " + parameter,
                    e);
        }
    }

    @Override
    public synchronized List<RedisEvidence.LatencyEvent> latencyLatest() {
        return command("LATENCY LATEST", () -> admin.latencyLatest().values().stream()
                .map(l -> new RedisEvidence.LatencyEvent(
                        l.getCommand(), l.getTimestamp(), l.getLastEventLatency(), l.getMaxEventLatency()))
                .toList());
    }

    @Override
    public synchronized List<RedisEvidence.LatencySpike> latencyHistory(String event) {
        LatencyEvent e =
                LatencyEvent.valueOf(event.toUpperCase(java.util.Locale.ROOT).replace('-', '_'));
        return command("LATENCY HISTORY " + event, () -> admin.latencyHistory(e).stream()
                .map(h -> new RedisEvidence.LatencySpike(h.getTimestamp(), h.getLatency()))
                .toList());
    }

    @Override
    public synchronized void bgsave() {
        command("BGSAVE", admin::bgsave);
    }

    @Override
    public synchronized Optional<String> clusterHashTag() {
        if (!"1".equals(info("cluster").get("cluster_enabled"))) {
            return Optional.empty();
        }
        Optional<ClusterNode> self = ClusterNode.parseAll(command("CLUSTER NODES", admin::clusterNodes)).stream()
                .filter(ClusterNode::myself)
                .findFirst();
        if (self.isEmpty() || !self.get().primary()) {
            return Optional.empty(); // a replica: the safety rules refuse it before any write
        }
        if (self.get().slotCount() == 0) {
            throw new BenchmarkRefusedException(
                    hostName, List.of("a cluster primary that serves no slot cannot take writes"), false);
        }
        for (int n = 0; ; n++) {
            if (self.get().serves(JedisClusterCRC16.getSlot(Integer.toString(n)))) {
                return Optional.of("{" + n + "}");
            }
        }
    }

    /** SCAN pages a key count reads at most: 10 million keys at COUNT 1000. */
    private static final int MAX_COUNT_PAGES = 10_000;

    @Override
    public synchronized KeyCount countByPrefix(String prefix, long atMost) {
        return countMatching(escapeGlob(prefix) + "*", atMost);
    }

    @Override
    public synchronized KeyCount countEarlierRuns(String prefix, long atMost) {
        return countMatching(escapeGlob(prefix) + RunKeys.EARLIER_RUN_GLOB + "*", atMost);
    }

    private KeyCount countMatching(String glob, long atMost) {
        ScanParams params = new ScanParams().match(glob).count(SCAN_COUNT);
        String cursor = ScanParams.SCAN_POINTER_START;
        long found = 0;
        for (int pages = 0; pages < MAX_COUNT_PAGES; pages++) {
            String from = cursor;
            ScanResult<String> page = call(() -> admin.scan(from, params));
            found += page.getResult().size();
            cursor = page.getCursor();
            if (cursor.equals(ScanParams.SCAN_POINTER_START) || found >= atMost) {
                return new KeyCount(found, true);
            }
        }
        return new KeyCount(found, false);
    }

    @Override
    public synchronized long deleteByPrefix(String prefix) {
        return deleteMatching(prefix, escapeGlob(prefix) + "*");
    }

    @Override
    public synchronized long deleteEarlierRuns(String prefix) {
        return deleteMatching(prefix, escapeGlob(prefix) + RunKeys.EARLIER_RUN_GLOB + "*");
    }

    /**
     * Deletes in SCAN order, pass after pass, until a whole pass finds nothing. One pass is not enough: before
     * Redis 4.0.10 and 5.0 a SCAN misses keys while the keyspace shrinks under it (redis/redis#4906), and
     * deleting most of a keyspace shrinks it mid-scan, so a 2.8 server kept a few benchmark keys after one pass.
     */
    private long deleteMatching(String prefix, String glob) {
        // UNLINK frees in the background from 4.0 on; 2.8 and 3.x only know DEL
        boolean unlink =
                RedisServer.fromInfo(info("server")).map(RedisServer::hasUnlink).orElse(false);
        ScanParams params = new ScanParams().match(glob).count(SCAN_COUNT);
        long deleted = 0;
        try {
            for (int pass = 1; pass <= MAX_DELETE_PASSES; pass++) {
                long inPass = deletePass(params, unlink);
                deleted += inPass;
                if (inPass == 0) {
                    return deleted;
                }
            }
        } catch (RedisException e) {
            throw new BenchmarkException(
                    "host " + hostName + ": deleting the benchmark's keys stopped after " + deleted + " ("
                            + e.getMessage() + "): " + left(prefix, params)
                            + " left; the next benchmark on this host deletes them first",
                    e);
        }
        throw new BenchmarkException("host " + hostName + ": deleted " + deleted + " benchmark keys in "
                + MAX_DELETE_PASSES + " SCAN passes and the last still found some: " + left(prefix, params)
                + " left (is something still writing under that prefix?); the next benchmark on this host"
                + " deletes them first");
    }

    /** One SCAN of the whole keyspace, deleting what matches; how many keys it deleted. */
    private long deletePass(ScanParams params, boolean unlink) {
        String cursor = ScanParams.SCAN_POINTER_START;
        long deleted = 0;
        do {
            String from = cursor;
            ScanResult<String> page = command("SCAN", () -> admin.scan(from, params));
            String[] keys = page.getResult().toArray(String[]::new);
            if (keys.length > 0) {
                deleted += command(unlink ? "UNLINK" : "DEL", () -> unlink ? admin.unlink(keys) : admin.del(keys));
            }
            cursor = page.getCursor();
        } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        return deleted;
    }

    /** "1234 keys under 'fleetfix:bench:'", counted again, or "an unknown number" when Redis does not answer. */
    private String left(String prefix, ScanParams params) {
        String under = " keys under '" + prefix + "'";
        try {
            long count = 0;
            String cursor = ScanParams.SCAN_POINTER_START;
            do {
                ScanResult<String> page = admin.scan(cursor, params);
                count += page.getResult().size();
                cursor = page.getCursor();
            } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
            return count + under;
        } catch (JedisException e) {
            return "an unknown number of" + under;
        }
    }

    @Override
    public synchronized void close() {
        admin.close();
    }

    /** SCAN MATCH is a glob: a prefix holding {@code * ? [ ] \} must match itself only. */
    static String escapeGlob(String prefix) {
        StringBuilder escaped = new StringBuilder();
        for (char c : prefix.toCharArray()) {
            if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
                escaped.append('\\');
            }
            escaped.append(c);
        }
        return escaped.toString();
    }

    private <T> T call(Supplier<T> action) {
        try {
            return action.get();
        } catch (JedisException e) {
            throw failure(address.toString(), e);
        }
    }

    /** One command on the admin connection: a failure after sending it is not a failure to connect. */
    private <T> T command(String label, Supplier<T> action) {
        try {
            return action.get();
        } catch (JedisException e) {
            throw JedisErrors.map(
                    hostName, address.toString(), Duration.ofMillis(config.getSocketTimeoutMillis()), label, e);
        }
    }

    private RedisException failure(String what, JedisException e) {
        return JedisErrors.map(hostName, what, Duration.ofMillis(config.getSocketTimeoutMillis()), e);
    }

    private final class Connection implements BenchConnection {
        private final Jedis jedis;

        Connection(Jedis jedis) {
            this.jedis = jedis;
        }

        @Override
        public int execute(List<BenchOp> ops) {
            return call(() -> {
                Pipeline pipeline = jedis.pipelined();
                for (BenchOp op : ops) {
                    byte[] key = op.key().getBytes(StandardCharsets.UTF_8);
                    switch (op.command()) {
                        case SET -> pipeline.set(key, op.value());
                        case GET -> pipeline.get(key);
                        case INCR -> pipeline.incr(key);
                        case LPUSH -> pipeline.lpush(key, op.value());
                    }
                }
                List<Object> replies = new ArrayList<>(pipeline.syncAndReturnAll());
                int errors = 0;
                for (Object reply : replies) {
                    if (reply instanceof Exception) {
                        errors++;
                    }
                }
                return errors;
            });
        }

        @Override
        public void close() {
            jedis.close();
        }
    }
}
