package dev.fleetfix.steps.restart;

import dev.fleetfix.checks.Container;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.steps.model.StepContext;
import dev.fleetfix.transport.ScriptResource;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * How a Redis in a container is restarted, through what manages it: the systemd unit that runs the container
 * ({@code podman generate systemd}, Quadlet) with {@code systemctl restart}; else its {@code docker compose} service,
 * restarted in the project's directory; else the runtime's own {@code docker restart} / {@code podman restart}. Only
 * the "how to restart" differs: the save, hand-over, canary and verification are {@link SafeRestart}'s, as for any
 * Redis.
 *
 * @param script the restart script, run as root
 * @param check check mode's script: exits 0 when the route exists on the host
 * @param state the script that prints the container's (or unit's) state in systemd's words
 * @param what what is restarted, for results
 * @param unit the unit that runs it, else the container's name: where {@link SafeRestart} reads its state from
 * @param container the container, whose mounts tell where Redis's files are on the host
 * @param pid Redis's process as the host numbers it, from discovery
 */
public record ContainerRoute(
        String script, String check, String state, String what, String unit, Container container, OptionalLong pid) {
    /** Seconds Redis has to save and exit on the runtime's stop before it is killed (the runtimes' default is 10). */
    static final int STOP_WAIT = 60;

    private static final Duration ASK = Duration.ofSeconds(3);

    /**
     * The route for a container its runtime named ({@link dev.fleetfix.checks.RunningService#restartable}).
     *
     * @param pid Redis's process on the host, as discovery found it
     */
    public static ContainerRoute of(Container c, OptionalLong pid) {
        String name = c.name().orElseThrow(() -> new IllegalArgumentException("a container without a name"));
        String container = c.runtime() + " container " + name;
        if (c.unit().isPresent()) {
            String unit = c.unit().get();
            return new ContainerRoute(
                    ServiceRestart.script(unit),
                    ServiceRestart.checkScript(unit),
                    ServiceRestart.stateScript(unit),
                    "systemd unit " + unit + " (" + container + ")",
                    unit,
                    c,
                    pid);
        }
        Optional<Container.Compose> compose =
                c.compose().filter(p -> p.workingDir().isPresent());
        String params = ScriptResource.assign("runtime", c.runtime())
                + ScriptResource.assign("name", name)
                + ScriptResource.assign(
                        "project", compose.map(Container.Compose::project).orElse(""))
                + ScriptResource.assign(
                        "service", compose.map(Container.Compose::service).orElse(""))
                + ScriptResource.assign(
                        "workdir",
                        compose.flatMap(Container.Compose::workingDir).orElse(""))
                + ScriptResource.assign(
                        "files",
                        compose.map(p -> String.join(",", p.configFiles())).orElse(""))
                + ScriptResource.assign("stop_wait", Integer.toString(STOP_WAIT));
        String what = compose.map(
                        p -> "compose service " + p.service() + " of project " + p.project() + " (" + container + ")")
                .orElse(container);
        return new ContainerRoute(
                ServiceRestart.FIRST_LINE + "\n" + ServiceRestart.laterSecond() + params + read("container-compose.sh")
                        + read("container-restart.sh"),
                params + read("container-compose.sh") + read("container-check.sh"),
                params + read("container-state.sh"),
                what,
                name,
                c,
                pid);
    }

    /**
     * How {@link SafeRestart} reads this container before it acts: a unit's state as any unit's; the runtime's
     * ({@code docker inspect}) as root, through the host's become path like the restart itself, since the runtime's
     * socket is root's; Redis's files through the container's mounts.
     */
    ServiceProbe probe() {
        return new ServiceProbe(unit, state, container.unit().isEmpty(), Optional.of(container), pid);
    }

    /**
     * Why restarting this container would lose Redis's data, or empty when its data outlives the container: Redis's
     * {@code dir} (where the save before the restart lands) must be on one of the container's volumes or bind mounts.
     *
     * @param dir Redis's {@code CONFIG GET dir}; empty when Redis did not say ({@code why})
     * @param answered whether Redis answers: one that is down holds no data in memory
     */
    public static Optional<String> dataRefusal(Container c, Optional<String> dir, String why, boolean answered) {
        if (!answered) {
            return Optional.empty();
        }
        String container = c.runtime() + " container " + c.name().orElse(c.shortId());
        if (dir.isEmpty()) {
            return Optional.of("cannot tell whether Redis's data outlives " + container + ": " + why
                    + " (allow_data_loss: true restarts it anyway)");
        }
        if (c.mountOf(dir.get()).isPresent()) {
            return Optional.empty();
        }
        return Optional.of("data would be lost with the container: " + dir.get() + " is not a volume (" + container
                + " mounts " + (c.mounts().isEmpty() ? "nothing" : mounts(c)) + "); give its data dir a volume or"
                + " bind mount");
    }

    /** {@link #dataRefusal} with Redis asked for its {@code dir}; nothing is changed. */
    public static Optional<String> dataRefusal(StepContext ctx, Container c) {
        try (RedisNode node = ctx.redis().open(ASK)) {
            Optional<String> dir = node.configGet("dir").map(String::strip).filter(d -> d.startsWith("/"));
            return dataRefusal(c, dir, "CONFIG GET dir answered nothing", true);
        } catch (RedisException e) {
            boolean down = e.kind() == RedisException.Kind.CONNECTION_REFUSED;
            return dataRefusal(c, Optional.empty(), "CONFIG GET dir failed (" + e.detail() + ")", !down);
        }
    }

    private static String mounts(Container c) {
        return String.join(
                ", ",
                c.mounts().stream().map(m -> m.type() + " " + m.destination()).toList());
    }

    private static String read(String resource) {
        return ScriptResource.read(ContainerRoute.class, resource);
    }
}
