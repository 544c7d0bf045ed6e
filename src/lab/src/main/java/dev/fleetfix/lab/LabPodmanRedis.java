package dev.fleetfix.lab;

import java.time.Duration;
import java.util.Optional;

/**
 * A lab host whose Redis runs in a container run by Podman (issue 39), as on a Debian host with its {@code podman}
 * package: Podman inside the lab host itself (the lab image has it, storing with vfs), so {@code ss -ltnp}, {@code
 * /proc/PID/cgroup} ({@code machine.slice/libpod-ID.scope}) and {@code podman inspect} show what a Podman host shows.
 * Nothing is pulled: the image ({@value #IMAGE}) is made on the lab host with {@code podman import} from a root
 * filesystem of the lab host's own {@code redis-server} and the libraries it links. The host's own Redis unit is
 * disabled; the container binds the host's address and port on the host network, with {@code dir /data}.
 */
public final class LabPodmanRedis {
    /** The image made on the lab host. */
    public static final String IMAGE = "localhost/fleetfix-lab-redis:latest";
    /** The container's name on every lab host (each has its own Podman). */
    public static final String NAME = "redis";

    private static final String IMPORT = "set -e; r=$(mktemp -d); mkdir -p \"$r/data\" \"$r/tmp\" \"$r/etc\";"
            + " cp --parents /usr/bin/redis-server $(ldd /usr/bin/redis-server | grep -o '/[^ ]*') \"$r\";"
            + " echo 'root:x:0:0:root:/root:/bin/sh' > \"$r/etc/passwd\";"
            + " tar -C \"$r\" -c . | podman import --change 'CMD [\"redis-server\"]' - " + IMAGE + " >/dev/null;"
            + " rm -rf \"$r\"";

    /** How the operator runs the container. */
    public enum Shape {
        /**
         * {@code podman run -d --restart always} with a named volume on {@code /data}, brought back at boot by Debian's
         * {@code podman-restart.service}: restarted with {@code podman restart}.
         */
        RUN,
        /**
         * A unit from {@code podman generate systemd --new} ({@code container-redis.service}, enabled), a named volume
         * on {@code /data}: restarted with {@code systemctl restart}.
         */
        UNIT,
        /** As {@link #RUN}, without a volume: Redis's data lives in the container's own layer. */
        NO_VOLUME;

        /** The unit that runs the container, for {@link #UNIT}. */
        public String unit() {
            return "container-" + NAME + ".service";
        }
    }

    private LabPodmanRedis() {}

    /**
     * Moves the host's Redis into a Podman container of the given shape: disables its unit, makes the image, starts the
     * container. Returns when it answers.
     */
    public static void start(LabFleet fleet, String host, Shape shape) {
        LabHost h = fleet.host(host);
        checked(fleet, host, "command -v podman >/dev/null || { echo 'no podman in the lab image' >&2; exit 1; }");
        checked(fleet, host, "systemctl disable --now redis-server");
        checked(fleet, host, IMPORT);
        String volume = shape == Shape.NO_VOLUME ? "" : " -v " + NAME + "-data:/data";
        String redis = IMAGE + " redis-server --bind " + h.address() + " --port " + h.redisPort()
                + " --dir /data --save '3600 1 300 100 60 10000' --appendonly no --disable-thp yes"
                + " --enable-debug-command local --protected-mode no --daemonize no";
        if (shape == Shape.UNIT) {
            checked(
                    fleet,
                    host,
                    "podman create --name " + NAME + " --network host" + volume + " " + redis + " >/dev/null"
                            + " && cd /etc/systemd/system && podman generate systemd --new --name " + NAME
                            + " --files >/dev/null && podman rm " + NAME + " >/dev/null"
                            + " && systemctl daemon-reload && systemctl enable --now " + shape.unit());
        } else {
            checked(
                    fleet,
                    host,
                    "systemctl enable podman-restart.service && podman run -d --restart always --name " + NAME
                            + " --network host" + volume + " " + redis + " >/dev/null");
        }
        awaitRedis(h);
    }

    /** Waits until the container's Redis answers at the host's address (after a reboot of the host, say). */
    public static void awaitRedis(LabHost h) {
        LabWait.until(
                Duration.ofSeconds(60),
                "the Redis of " + h.name() + "'s Podman container to answer",
                () -> LabProbe.redisUp(h.address(), h.redisPort()) ? Optional.empty() : Optional.of("no answer"));
    }

    private static void checked(LabFleet fleet, String host, String command) {
        var r = fleet.rootExec(host, command);
        if (!r.ok()) {
            throw new LabException("lab host " + host + ": '" + command + "' failed: " + r.errorText());
        }
    }
}
