package dev.fleetfix.lab;

import dev.fleetfix.Secret;
import dev.fleetfix.fake.TestHosts;
import dev.fleetfix.inventory.RedisAuth;
import dev.fleetfix.inventory.RedisEndpoint;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.redis.jedis.JedisConnector;
import dev.fleetfix.transport.ExecResult;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * redis-cli on a lab host, as the tests ask it: what {@code redis-cli -h ADDRESS -p PORT ARGS} prints to a pipe there.
 *
 * <p>A plain command (a command and its words, no redis-cli option, quoting or shell) is sent from this JVM instead:
 * the lab hosts share this machine's network, so the host's address and port answer here as they do on the host,
 * and the reply is printed as redis-cli prints it to a pipe ({@link #printed}). A {@code docker exec} of redis-cli
 * costs the busy test machine about 50 ms of CPU (runc, its shim and the command), and the tests' checks, many of
 * them polled every 250 ms, ran about 2,600 of them a build. Anything else ({@code -c}, {@code --scan}, a pipe,
 * quoted words) runs the host's own redis-cli through {@link LabFleet#rootExec}. {@code LabFleetIT} compares the two.
 */
public final class LabCli {
    private static final Pattern WORD = Pattern.compile("[A-Za-z0-9_.:,=/@+%-]+");
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private LabCli() {}

    /** {@code args} against {@code port} on {@code host}'s address, with {@code password} when given. */
    public static ExecResult run(LabFleet fleet, String host, int port, Optional<String> password, String args) {
        String address = fleet.host(host).address();
        Optional<List<String>> words = plain(args);
        if (words.isPresent()) {
            return direct(address, port, password, words.get());
        }
        return fleet.rootExec(host, LabRedisCli.command(address, port, password, args));
    }

    /** {@code args} against the host's own Redis, without a password. */
    public static ExecResult redis(LabFleet fleet, String host, String args) {
        return run(fleet, host, fleet.host(host).redisPort(), Optional.empty(), args);
    }

    /** The words of {@code args} when it is a plain command; empty when it needs the host's redis-cli. */
    static Optional<List<String>> plain(String args) {
        List<String> words = Arrays.asList(args.strip().split("\\s+"));
        boolean plain =
                !args.isBlank() && words.stream().allMatch(w -> WORD.matcher(w).matches() && !w.startsWith("-"));
        return plain ? Optional.of(words) : Optional.empty();
    }

    /**
     * What redis-cli gives for {@code words}, sent from here: exit 0 and the reply (a Redis error reply too, as
     * redis-cli prints it); exit 1 and nothing on stdout when no Redis answers, refuses the login, or the connection
     * breaks.
     */
    static ExecResult direct(String address, int port, Optional<String> password, List<String> words) {
        long started = System.nanoTime();
        String[] rest = words.subList(1, words.size()).toArray(String[]::new);
        try (RedisNode node = connect(address, port, password)) {
            return result(0, printed(words, raw(node.command(words.get(0), rest))), "", started);
        } catch (RedisException e) {
            if (e.command().isPresent() && e.kind() != RedisException.Kind.LOST) {
                // Redis answered the command with an error (NOAUTH, ERR, LOADING...): redis-cli prints it to stdout,
                // as an error reply's raw form (its text and a newline), and exits 0
                return result(0, printed(words, serverText(e) + "\n"), "", started);
            }
            return result(1, "", "Could not talk to Redis at " + address + ":" + port + ": " + e.detail(), started);
        }
    }

    /** Logged in with {@code password}; without it when Redis refuses it, as redis-cli goes on after a failed AUTH. */
    private static RedisNode connect(String address, int port, Optional<String> password) {
        try {
            return connectAs(address, port, password);
        } catch (RedisException e) {
            if (password.isPresent() && e.kind() == RedisException.Kind.AUTH) {
                return connectAs(address, port, Optional.empty());
            }
            throw e;
        }
    }

    private static RedisNode connectAs(String address, int port, Optional<String> password) {
        RedisAuth auth = new RedisAuth(Optional.empty(), Optional.empty(), password.map(Secret::of));
        var target = TestHosts.named("lab-cli")
                .address(address)
                .become(false)
                .redis(new RedisEndpoint(address, port, auth, false, "redis-server"))
                .build();
        return new JedisConnector(name -> null).connect(target, TIMEOUT);
    }

    /**
     * What redis-cli writes for a reply whose raw form is {@code raw}: that and a newline, but nothing more for the
     * commands whose text it prints as it is (INFO, CLIENT LIST, CLUSTER NODES... as redis-cli 7.0 lists them).
     */
    static String printed(List<String> words, String raw) {
        String command = words.get(0).toLowerCase(Locale.ROOT);
        String sub = words.size() > 1 ? words.get(1).toLowerCase(Locale.ROOT) : "";
        int argc = words.size();
        boolean asIs = command.equals("info")
                || command.equals("lolwut")
                || command.equals("debug")
                        && Set.of("htstats", "htstats-key", "client-eviction").contains(sub)
                || command.equals("memory") && Set.of("malloc-stats", "doctor").contains(sub)
                || command.equals("cluster")
                        && argc == 2
                        && Set.of("nodes", "info").contains(sub)
                || command.equals("client") && Set.of("list", "info").contains(sub)
                || command.equals("latency") && (argc == 3 && sub.equals("graph") || argc == 2 && sub.equals("doctor"));
        return asIs ? raw : raw + "\n";
    }

    /**
     * A reply as redis-cli prints it to a pipe, before its closing newline: a string or status as it is, an integer
     * in decimal, nothing for nil, an array's elements (nested ones likewise) one a line.
     */
    static String raw(Object reply) {
        if (reply == null) {
            return "";
        }
        if (reply instanceof List<?> list) {
            StringBuilder out = new StringBuilder();
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) {
                    out.append('\n');
                }
                out.append(raw(list.get(i)));
            }
            return out.toString();
        }
        return String.valueOf(reply);
    }

    /** Redis's own words for an error reply ("ERR unknown command ..."), which the port's message wraps. */
    private static String serverText(RedisException e) {
        Throwable cause = e.getCause();
        return cause != null && cause.getMessage() != null ? cause.getMessage() : e.detail();
    }

    private static ExecResult result(int exit, String stdout, String stderr, long started) {
        return new ExecResult(exit, stdout, stderr, Duration.ofNanos(System.nanoTime() - started));
    }
}
