package dev.fleetfix.fake;

import dev.fleetfix.inventory.Host;
import dev.fleetfix.redis.RedisConnector;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A Redis that answers from maps: INFO server and replication, keys (db 0), persistence settings,
 * CONFIG. After {@link #restart(boolean)} it refuses connections for a few polls, then reports
 * loading, then is healthy (or stays down); its keys survive the restart when persistence is on.
 *
 * <p>It is also a {@link RedisConnector}: one fake can stand for the Redis of every host a test
 * connects to (an audit's, say), each connection taking the connecting host's name.
 */
public final class FakeRedis implements RedisConnector {
    private final String host;
    private final Map<String, String> replication =
            new ConcurrentHashMap<>(Map.of("role", "master", "master_repl_offset", "0"));
    private final Map<String, String> data = new ConcurrentHashMap<>();
    private final Set<String> expiring = ConcurrentHashMap.newKeySet();
    private final List<String> commands = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger downFor = new AtomicInteger();
    private final AtomicInteger loadingFor = new AtomicInteger();
    private final AtomicInteger restarts = new AtomicInteger();
    private final AtomicInteger saves = new AtomicInteger();
    private volatile boolean dead;
    private volatile Map<String, String> server = Map.of("redis_version", "7.0.15");
    private final AtomicInteger busyFor = new AtomicInteger();
    private volatile String save = "3600 1";
    private volatile boolean aof;
    private volatile boolean losesDataOnRestart;
    private volatile Function<List<String>, Object> failover = args -> {
        throw new RedisException("fake", "ERR FAILOVER: no replica in this fake", null);
    };

    private final Map<String, Function<List<String>, Object>> handlers = new ConcurrentHashMap<>();
    private final Map<String, String> config =
            new ConcurrentHashMap<>(Map.of("min-slaves-to-write", "0", "min-slaves-max-lag", "10"));

    private volatile String refusal;
    private volatile RedisException.Kind refusalKind = RedisException.Kind.CONNECTION_REFUSED;
    /** CONFIG's name as rename-command gives it: "CONFIG", another word, or "" (renamed away). */
    private volatile String configName = "CONFIG";
    /** Commands (as ACL labels, "config|get") ACL DRYRUN says the user may not run; ACL DRYRUN itself is allowed. */
    private final Set<String> notPermitted = ConcurrentHashMap.newKeySet();

    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger closes = new AtomicInteger();

    FakeRedis(String host) {
        this.host = host;
    }

    /** Redis 7.0.15, master, disable-thp yes, tcp-backlog 511, pid 4242. */
    public static FakeRedis redis7() {
        FakeRedis redis = named("redis").server(Map.of("redis_version", "7.0.15", "process_id", "4242"));
        return redis.config("disable-thp", "yes").config("tcp-backlog", "511");
    }

    /** Redis 5.0.14: no disable-thp. */
    public static FakeRedis redis5() {
        FakeRedis redis = redis7().server(Map.of("redis_version", "5.0.14", "process_id", "4242"));
        redis.config.remove("disable-thp");
        return redis;
    }

    /** What a real server printed: INFO server (and its role) from a test resource; CONFIG as the test sets. */
    public static FakeRedis fromInfo(Map<String, String> info) {
        FakeRedis redis = named("redis").server(info).role(info.getOrDefault("role", "master"));
        return redis.config("tcp-backlog", "511");
    }

    /** Nothing listens: every {@link #connect(Host, Duration)} fails the way the Jedis adapter reports it. */
    public static FakeRedis refusing(String reason) {
        FakeRedis redis = named("redis");
        redis.refusal = reason;
        return redis;
    }

    /** Answers, but refuses the credentials, as Jedis reports it at connect time. */
    public static FakeRedis refusingCredentials(String reason) {
        FakeRedis redis = refusing(reason);
        redis.refusalKind = RedisException.Kind.AUTH;
        return redis;
    }

    /** From now on refuses the credentials at connect time (a wrong redis_password), as Jedis reports it. */
    public FakeRedis refuseCredentials(String reason) {
        refusalKind = RedisException.Kind.AUTH;
        refusal = reason;
        return this;
    }

    /** CONFIG is not in the ACL user's rights: CONFIG GET, SET and REWRITE get NOPERM, and so says ACL DRYRUN. */
    public FakeRedis withoutConfigRights() {
        notPermitted.addAll(List.of("config|get", "config|set", "config|rewrite"));
        return this;
    }

    /** {@code rename-command CONFIG ""}: CONFIG is an unknown command. */
    public FakeRedis configRenamedAway() {
        return configRenamedTo("");
    }

    /**
     * {@code rename-command CONFIG name}: CONFIG is an unknown command, and {@code name} does what it
     * did ({@code name GET p} answers the pair, {@code name SET p v} sets it).
     */
    public FakeRedis configRenamedTo(String name) {
        this.configName = name;
        return this;
    }

    /** What CONFIG GET answers for {@code parameter} ({@code save} is {@link #persistence}). */
    public FakeRedis config(String parameter, String value) {
        config.put(parameter, value);
        return this;
    }

    /** INFO replication's role ("master", "slave"). */
    public FakeRedis role(String role) {
        replication.put("role", role);
        return this;
    }

    /** Connections opened through {@link #connect(Host, Duration)}. */
    public int connections() {
        return connections.get();
    }

    /** Connections closed, however opened. */
    public int closes() {
        return closes.get();
    }

    /** The users ACL DRYRUN was asked about, in order. */
    public List<String> aclDryrunUsers() {
        return commands().stream()
                .filter(c -> c.startsWith("ACL DRYRUN "))
                .map(c -> c.split(" ")[2])
                .toList();
    }

    private volatile boolean cluster;

    /** Runs in cluster mode ({@code cluster_enabled:1}); its CLUSTER answers come from {@link #on}. */
    public FakeRedis clusterEnabled() {
        this.cluster = true;
        return this;
    }

    /** A standalone fake, not tied to a fake host (a Sentinel, say). */
    public static FakeRedis named(String host) {
        return new FakeRedis(host);
    }

    /** What a command ({@code SENTINEL}, {@code CLUSTER}...) answers, given its arguments. */
    public FakeRedis on(String command, Function<List<String>, Object> handler) {
        handlers.put(command.toUpperCase(java.util.Locale.ROOT), handler);
        return this;
    }

    /** Runs this Redis version: commands it does not have yet are refused as that version would. */
    public FakeRedis version(String redisVersion) {
        this.server = Map.of("redis_version", redisVersion);
        return this;
    }

    /** INFO server as given (a real server's text, say). */
    public FakeRedis server(Map<String, String> info) {
        this.server = Map.copyOf(info);
        return this;
    }

    /** The next {@code times} BGSAVEs are refused because an AOF rewrite runs. */
    public FakeRedis rewritingFor(int times) {
        busyFor.set(times);
        return this;
    }

    public int restarts() {
        return restarts.get();
    }

    public void restart(boolean breaks) {
        restarts.incrementAndGet();
        downFor.set(2);
        loadingFor.set(1);
        dead = breaks;
        if (losesDataOnRestart || (save.isBlank() && !aof && !"slave".equals(replication.get("role")))) {
            data.clear();
            expiring.clear();
        }
    }

    public void kill() {
        dead = true;
    }

    public void replicaOf(String primaryHost, int port, long offset, String link) {
        replication.put("role", "slave");
        replication.put("master_host", primaryHost);
        replication.put("master_port", Integer.toString(port));
        replication.put("master_link_status", link);
        replication.put("master_sync_in_progress", "0");
        replication.put("slave_repl_offset", Long.toString(offset));
    }

    public void set(String key, String value) {
        replication.put(key, value);
    }

    public Map<String, String> replication() {
        return replication;
    }

    /** {@code save} ("" for none) and {@code appendonly}. */
    public FakeRedis persistence(String newSave, boolean appendonly) {
        this.save = newSave;
        this.aof = appendonly;
        return this;
    }

    /** The restart comes back empty even with persistence on (a broken dump file, say). */
    public FakeRedis losesDataOnRestart() {
        this.losesDataOnRestart = true;
        return this;
    }

    /** What FAILOVER does (the test links fakes); the default refuses. */
    public FakeRedis onFailover(Function<List<String>, Object> handler) {
        this.failover = handler;
        return this;
    }

    private volatile Runnable beforeInfo = () -> {};

    /** Runs before every INFO answer: a test's way to let state move on as it is read (a replica coming online). */
    public FakeRedis beforeInfo(Runnable hook) {
        this.beforeInfo = hook;
        return this;
    }

    /** Runs this fake's FAILOVER handler, as a Sentinel fake promoting its replica would. */
    public Object runFailover(List<String> args) {
        return failover.apply(args);
    }

    public Map<String, String> data() {
        return data;
    }

    /** Every command sent, as "NAME arg arg". */
    public List<String> commands() {
        synchronized (commands) {
            return List.copyOf(commands);
        }
    }

    public int saves() {
        return saves.get();
    }

    /** A connection, as a RedisConnector would open it. */
    public RedisNode connect() {
        if (refusal != null && refusalKind == RedisException.Kind.AUTH) {
            throw new RedisException(host, refusalKind, Optional.empty(), refusal, null);
        }
        refuseWhileDown();
        return new Node(host);
    }

    private void refuseWhileDown() {
        if (dead || downFor.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new RedisException(
                    host, RedisException.Kind.CONNECTION_REFUSED, Optional.empty(), "connection refused (fake)", null);
        }
    }

    /** A connection to {@code host}'s Redis, named after that host; refused as {@link #refusing} says. */
    @Override
    public RedisNode connect(Host host, Duration timeout) {
        connections.incrementAndGet();
        if (refusal != null) {
            throw new RedisException(host.name(), refusalKind, Optional.empty(), host.redis() + ": " + refusal, null);
        }
        refuseWhileDown();
        return new Node(host.name());
    }

    /** CONFIG SET values (and the min-slaves defaults); {@code save} is {@link #persistence}. */
    public Map<String, String> config() {
        return config;
    }

    private final class Node implements RedisNode {
        private final String name;
        private List<String[]> queued;

        Node(String name) {
            this.name = name;
        }

        @Override
        public String hostName() {
            return name;
        }

        @Override
        public String ping() {
            return "PONG";
        }

        @Override
        public Map<String, String> info(String section) {
            beforeInfo.run();
            return switch (section) {
                case "replication" -> Map.copyOf(replication);
                case "persistence" -> persistenceInfo();
                case "server" -> withRunId();
                case "keyspace" -> data.isEmpty()
                        ? Map.of()
                        : Map.of("db0", "keys=" + data.size() + ",expires=" + expiring.size() + ",avg_ttl=0");
                case "cluster" -> cluster ? Map.of("cluster_enabled", "1") : Map.of("cluster_enabled", "0");
                default -> Map.of();
            };
        }

        /** INFO server with a run_id that each restart changes, unless the test gave one. */
        private Map<String, String> withRunId() {
            if (server.containsKey("run_id")) {
                return server;
            }
            Map<String, String> s = new LinkedHashMap<>(server);
            s.put("run_id", String.format("%040x", 0xf1ee7L * 1000 + restarts.get()));
            return s;
        }

        private Map<String, String> persistenceInfo() {
            Map<String, String> p = new LinkedHashMap<>();
            p.put("loading", loadingFor.getAndUpdate(n -> Math.max(0, n - 1)) > 0 ? "1" : "0");
            p.put("rdb_bgsave_in_progress", "0");
            p.put("rdb_last_bgsave_status", "ok");
            p.put("rdb_saves", Integer.toString(saves.get()));
            p.put("aof_enabled", aof ? "1" : "0");
            p.put("aof_rewrite_in_progress", "0");
            p.put("aof_rewrite_scheduled", "0");
            p.put("aof_last_bgrewrite_status", "ok");
            p.put("aof_rewrites", Integer.toString(saves.get()));
            return p;
        }

        @Override
        public Optional<String> configGet(String parameter) {
            if (!configName.equals("CONFIG")) {
                throw new RedisException(
                        name,
                        RedisException.Kind.UNKNOWN_COMMAND,
                        Optional.of("CONFIG GET"),
                        "CONFIG GET refused, unknown command (renamed away or too old): ERR unknown command 'CONFIG'",
                        null);
            }
            if (notPermitted.contains("config|get")) {
                throw new RedisException(
                        name,
                        RedisException.Kind.NO_PERMISSION,
                        Optional.of("CONFIG GET"),
                        "CONFIG GET refused by ACL: NOPERM User ops has no permissions to run the 'config|get'"
                                + " command",
                        null);
            }
            return configValue(parameter);
        }

        private Optional<String> configValue(String parameter) {
            return parameter.equals("save") ? Optional.of(save) : Optional.ofNullable(config.get(parameter));
        }

        @Override
        public Object command(String name, String... args) {
            if (queued != null && !name.equalsIgnoreCase("EXEC")) {
                commands.add((name + " " + String.join(" ", args)).strip());
                queued.add(java.util.stream.Stream.concat(
                                java.util.stream.Stream.of(name), java.util.stream.Stream.of(args))
                        .toArray(String[]::new));
                return "QUEUED";
            }
            if (name.equalsIgnoreCase("EXEC")) {
                commands.add("EXEC");
                List<String[]> batch = queued;
                queued = null;
                List<Object> replies = new ArrayList<>();
                for (String[] c : batch) {
                    try {
                        replies.add(run(c[0], java.util.Arrays.copyOfRange(c, 1, c.length)));
                    } catch (RedisException e) {
                        replies.add(e);
                    }
                }
                return replies;
            }
            commands.add((name + " " + String.join(" ", args)).strip());
            return run(name, args);
        }

        private Object run(String name, String... args) {
            List<String> a = List.of(args);
            Function<List<String>, Object> handler = handlers.get(name.toUpperCase(java.util.Locale.ROOT));
            if (handler != null) {
                return handler.apply(a);
            }
            refuseUnknown(name.toUpperCase(java.util.Locale.ROOT), a);
            String command = name.toUpperCase(java.util.Locale.ROOT);
            if (command.equals("CONFIG") || (!configName.isEmpty() && name.equalsIgnoreCase(configName))) {
                return config(name, a);
            }
            return switch (command) {
                case "SET" -> {
                    if ("slave".equals(replication.get("role"))) {
                        throw new RedisException(host, "READONLY You can't write against a read only replica.", null);
                    }
                    data.put(a.get(0), a.get(1));
                    if (a.size() > 2) {
                        expiring.add(a.get(0));
                    } else {
                        expiring.remove(a.get(0));
                    }
                    yield "OK";
                }
                case "GET" -> data.get(a.get(0));
                case "DEL" -> {
                    expiring.remove(a.get(0));
                    yield data.remove(a.get(0)) == null ? 0L : 1L;
                }
                case "BGSAVE", "BGREWRITEAOF" -> {
                    if (name.equalsIgnoreCase("BGSAVE") && busyFor.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                        throw new RedisException(host, "ERR Can't BGSAVE while AOF log rewriting is in progress", null);
                    }
                    saves.incrementAndGet();
                    yield "Background saving started";
                }
                case "LASTSAVE" -> 1_700_000_000L + saves.get();
                case "MULTI" -> {
                    queued = new ArrayList<>();
                    yield "OK";
                }
                case "INFO" -> {
                    StringBuilder text = new StringBuilder("# " + a.get(0) + "\r\n");
                    info(a.get(0))
                            .forEach((k, v) ->
                                    text.append(k).append(':').append(v).append("\r\n"));
                    yield text.toString();
                }
                case "SLAVEOF", "REPLICAOF" -> {
                    if (a.get(0).equalsIgnoreCase("NO")) {
                        replication.keySet().removeIf(k -> k.startsWith("master_") || k.startsWith("slave"));
                        replication.put("role", "master");
                        replication.put("master_repl_offset", "0");
                    } else {
                        replication.keySet().removeIf(k -> k.startsWith("slave"));
                        replicaOf(a.get(0), Integer.parseInt(a.get(1)), 0, "up");
                    }
                    yield "OK";
                }
                case "FAILOVER" -> failover.apply(a);
                case "ACL" -> aclDryrun(a);
                default -> "OK";
            };
        }

        /** CONFIG, or what rename-command made of it: refused as Redis would, else GET, SET and REWRITE. */
        private Object config(String typed, List<String> a) {
            if (!typed.equalsIgnoreCase(configName)) {
                throw new RedisException(
                        name,
                        RedisException.Kind.UNKNOWN_COMMAND,
                        Optional.of(typed + " " + a.get(0)),
                        "ERR unknown command '" + typed + "'",
                        null);
            }
            String label = "config|" + a.get(0).toLowerCase(java.util.Locale.ROOT);
            if (notPermitted.contains(label)) {
                throw new RedisException(
                        name,
                        RedisException.Kind.NO_PERMISSION,
                        Optional.of(typed + " " + a.get(0)),
                        "NOPERM User ops has no permissions to run the '" + label + "' command",
                        null);
            }
            if (a.get(0).equalsIgnoreCase("SET")) {
                config.put(a.get(1), a.get(2));
            } else if (a.get(0).equalsIgnoreCase("GET")) {
                return configValue(a.get(1))
                        .<List<Object>>map(v -> List.of(a.get(1), v))
                        .orElse(List.of());
            }
            return "OK";
        }

        /** ACL DRYRUN user command [subcommand]: OK, or why the user may not run it. */
        private Object aclDryrun(List<String> a) {
            if (a.size() < 3 || !a.get(0).equalsIgnoreCase("DRYRUN")) {
                return "OK";
            }
            String command = a.get(2);
            String label = command.toLowerCase(java.util.Locale.ROOT)
                    + (a.size() > 3 && (command.equals("CONFIG") || command.equals("CLUSTER"))
                            ? "|" + a.get(3).toLowerCase(java.util.Locale.ROOT)
                            : "");
            return notPermitted.contains(label)
                    ? "User " + a.get(1) + " has no permissions to run the '" + label + "' command"
                    : "OK";
        }

        @Override
        public void close() {
            closes.incrementAndGet();
        }

        /** What a Redis of this version answers to a command it does not have yet. */
        private void refuseUnknown(String name, List<String> a) {
            String v = server.getOrDefault("redis_version", "0.0");
            String[] parts = v.split("\\.");
            int version = Integer.parseInt(parts[0]) * 100 + Integer.parseInt(parts[1]);
            boolean missing =
                    switch (name) {
                        case "UNLINK" -> version < 400;
                        case "REPLICAOF" -> version < 500;
                        case "FAILOVER" -> version < 602;
                        case "CLIENT" -> !a.isEmpty()
                                && a.get(0).equalsIgnoreCase("PAUSE")
                                && (version < 300 || (a.size() > 2 && version < 602));
                        default -> false;
                    };
            if (missing) {
                throw new RedisException(
                        host, "ERR unknown command '" + name.toLowerCase(java.util.Locale.ROOT) + "'", null);
            }
            if (name.equals("BGSAVE") && !a.isEmpty() && version < 602) {
                throw new RedisException(host, "ERR wrong number of arguments for 'bgsave' command", null);
            }
        }
    }

    /** Keys by value, for tests that seed data. */
    public Map<String, String> snapshot() {
        return new HashMap<>(data);
    }
}
