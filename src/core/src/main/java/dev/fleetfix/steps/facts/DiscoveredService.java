package dev.fleetfix.steps.facts;

import dev.fleetfix.checks.RedisSelf;
import dev.fleetfix.checks.RunningService;
import dev.fleetfix.checks.ServiceDiscovery;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.steps.model.HeldServices;
import dev.fleetfix.steps.model.StepContext;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What runs the host's Redis, discovered on the host ({@link ServiceDiscovery}) for the steps that restart it or
 * order a unit before it; the config file INFO server names, when Redis answers, helps find an init script.
 */
public final class DiscoveredService {
    private static final Duration ASK = Duration.ofSeconds(3);

    private DiscoveredService() {}

    /** The service of the host's own Redis port. */
    public static RunningService of(StepContext ctx) {
        return of(ctx, List.of(ctx.host().redis().port())).get(0);
    }

    /**
     * The services of {@code ports} at the host's Redis address (the instances of one machine): as the run read them,
     * when it holds them and nothing since can have changed them ({@link HeldServices}), else read on the host.
     */
    public static List<RunningService> of(StepContext ctx, List<Integer> ports) {
        HeldServices held = ctx.state().services();
        Optional<List<RunningService>> kept = held.of(ports);
        if (kept.isPresent()) {
            return kept.get();
        }
        List<RunningService> found =
                ServiceDiscovery.discover(ctx.shell(), ctx.host().redis().address(), ports, self(ctx));
        held.hold(ports, found);
        return found;
    }

    /** What the host's Redis says of itself (INFO server), or why it did not answer. */
    private static RedisSelf self(StepContext ctx) {
        int port = ctx.host().redis().port();
        try (RedisNode node = ctx.redis().open(ASK)) {
            Map<String, String> server = node.info("server");
            String pid = field(server, "process_id").orElse("");
            return new RedisSelf(
                    port,
                    field(server, "config_file"),
                    pid.matches("\\d{1,18}") ? OptionalLong.of(Long.parseLong(pid)) : OptionalLong.empty(),
                    field(server, "executable"),
                    Optional.empty());
        } catch (RedisException e) {
            return RedisSelf.unreachable(port, String.valueOf(e.getMessage()));
        }
    }

    private static Optional<String> field(Map<String, String> server, String name) {
        return Optional.ofNullable(server.get(name)).map(String::strip).filter(f -> !f.isEmpty());
    }

    /**
     * Why restart_redis cannot restart what was found, with what to do; empty when it can. Never a guessed name: a
     * Redis that nobody can be seen to run is named by the operator.
     */
    public static Optional<String> refusal(RunningService s) {
        String name = "name it with redis_service in the inventory, or give restart_redis unit: or command:";
        return switch (s.manager()) {
            case SYSTEMD, SYSV, SUPERVISORD -> Optional.empty();
            case CONTAINER -> s.restartable()
                    ? Optional.empty()
                    : Optional.of(s.describe() + ": " + s.why()
                            + "; fleetfix restarts a Docker or Podman container only when its runtime names it:"
                            + " restart the container yourself (THP is the host's, the restarted Redis takes the new"
                            + " mode), or give restart_redis command: (such as docker restart NAME)");
            case NONE -> Optional.of(s.describe() + ", so the service that runs it cannot be discovered (fleetfix"
                    + " never assumes redis-server): start it, or " + name);
            case UNKNOWN -> Optional.of(
                    "cannot tell which service runs redis on :" + s.port() + ": " + s.why() + "; " + name);
        };
    }
}
