package dev.fleetfix.redis.topology;

import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.Inventory;
import dev.fleetfix.redis.RedisConnector;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The Redis Sentinels an inventory names (hosts of group {@code sentinel}), asked one after the
 * other until one answers: Sentinels share one view of their primaries, so any live one will do.
 * Only the failover itself is sent to a single Sentinel, which then leads it.
 */
public final class Sentinels {
    private static final Sentinels NONE = new Sentinels(List.of(), (host, timeout) -> {
        throw new IllegalStateException("no sentinels");
    });

    private final List<Host> sentinels;
    private final RedisConnector redis;

    private Sentinels(List<Host> sentinels, RedisConnector redis) {
        this.sentinels = List.copyOf(sentinels);
        this.redis = redis;
    }

    public static Sentinels none() {
        return NONE;
    }

    /** The inventory's Sentinels, reached through {@code redis} at their own endpoint. */
    public static Sentinels of(Inventory inventory, RedisConnector redis) {
        List<Host> hosts = inventory.sentinels();
        return hosts.isEmpty() ? NONE : new Sentinels(hosts, redis);
    }

    /** Whether the inventory names any Sentinel. */
    public boolean named() {
        return !sentinels.isEmpty();
    }

    /** "lab-1 (127.0.0.11:26379)" for each Sentinel. */
    public List<String> describe() {
        return sentinels.stream().map(h -> h.name() + " (" + h.redis() + ")").toList();
    }

    /** Something to ask one Sentinel. */
    @FunctionalInterface
    public interface Question<T> {
        T ask(RedisNode sentinel);
    }

    /** An answer, and the Sentinel that gave it. */
    public record Answer<T>(String sentinel, T value) {}

    /**
     * Asks each Sentinel in inventory order until one answers.
     *
     * @throws RedisException naming every Sentinel tried and why, when none answered
     */
    public <T> Answer<T> ask(Duration timeout, Question<T> question) {
        if (sentinels.isEmpty()) {
            throw new RedisException("sentinel", "the inventory names no sentinel (group sentinel)", null);
        }
        List<String> failures = new ArrayList<>();
        for (Host sentinel : sentinels) {
            try (RedisNode node = redis.connect(sentinel, timeout)) {
                return new Answer<>(sentinel.name() + " (" + sentinel.redis() + ")", question.ask(node));
            } catch (RedisException e) {
                failures.add(sentinel.name() + " " + e.detail());
            }
        }
        throw new RedisException("sentinels", "no sentinel answered (" + String.join("; ", failures) + ")", null);
    }

    /** {@code SENTINEL MASTERS}: every primary the first answering Sentinel monitors. */
    public Answer<List<SentinelMaster>> masters(Duration timeout) {
        return ask(timeout, node -> {
            Object reply = node.command("SENTINEL", "MASTERS");
            List<SentinelMaster> masters = new ArrayList<>();
            if (reply instanceof List<?> entries) {
                entries.forEach(e -> SentinelMaster.parse(e).ifPresent(masters::add));
            }
            return List.copyOf(masters);
        });
    }

    /** {@code SENTINEL GET-MASTER-ADDR-BY-NAME}: "ip:port" of the current primary of {@code name}. */
    public Optional<String> primaryAddress(String name, Duration timeout) {
        return ask(timeout, node -> {
                    Object reply = node.command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", name);
                    if (reply instanceof List<?> parts && parts.size() == 2) {
                        return Optional.of(parts.get(0) + ":" + parts.get(1));
                    }
                    return Optional.<String>empty();
                })
                .value();
    }
}
