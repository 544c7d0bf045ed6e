package dev.fleetfix.lab;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * A lab host whose Redis runs in a container, as on a Docker host (issue 39): a sibling container of the lab host,
 * made from the lab host's own image (which has redis-server: nothing is pulled), that shares the lab host's PID
 * namespace and the host network and binds the lab host's address. Inside the lab host, {@code ss -ltnp}, {@code
 * /proc/PID/cgroup} and the docker CLI then show what a real Docker host shows. The lab host needs {@link
 * LabHostSpec#dockerCli}: this machine's docker CLI (a bind mount, read-only) and its dockerd socket. Its own Redis
 * unit is disabled; a oneshot unit ({@value #UNIT}) starts the container at boot, since a container that joins
 * another's PID namespace dies with it when the lab host reboots.
 */
public final class LabRedisContainer implements AutoCloseable {
    static final String CLI = "/usr/local/bin/docker";
    static final String SOCKET = "/var/run/docker.sock";
    static final String UNIT = "lab-redis-container.service";
    /** On a Redis container beside a lab host and on its volume: the lab's id, so that the lab removes them. */
    static final String LABEL = "dev.fleetfix.lab.redis-container";

    private final LabFleet fleet;
    private final LabDocker docker;
    private final String host;
    private final String name;
    private final Optional<String> volume;

    private LabRedisContainer(LabFleet fleet, LabDocker docker, String host, String name, Optional<String> volume) {
        this.fleet = fleet;
        this.docker = docker;
        this.host = host;
        this.name = name;
        this.volume = volume;
    }

    /** This machine's dockerd socket, over the same path on the lab host. */
    static LabDocker.Mount socketMount() {
        return new LabDocker.Mount(Path.of(SOCKET), SOCKET, false);
    }

    /**
     * This machine's docker CLI, read-only over {@value #CLI}: the first {@code docker} on the PATH, by its real path.
     * The lab image is the same Debian as this machine, so a dynamically linked CLI finds its libraries there too.
     */
    static LabDocker.Mount cliMount() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
            Path cli = Path.of(dir, "docker");
            if (Files.isExecutable(cli)) {
                try {
                    return new LabDocker.Mount(cli.toRealPath(), CLI, true);
                } catch (java.io.IOException e) {
                    throw new LabException("cannot resolve " + cli + ": " + e.getMessage(), e);
                }
            }
        }
        throw new LabException("no docker CLI on this machine's PATH: a lab host with dockerCli needs one to mount");
    }

    /**
     * Moves the host's Redis into a container: disables its unit, then starts {@code redis-server} bound to the host's
     * address and port with {@code dir /data}, on a named volume when {@code withVolume}, else in the container's own
     * layer. Returns when it answers.
     */
    public static LabRedisContainer start(LabFleet fleet, String host, boolean withVolume) {
        LabHost h = fleet.host(host);
        if (!fleet.rootExec(host, "test -x " + CLI + " && test -S " + SOCKET).ok()) {
            throw new LabException("lab host " + host + " has no docker CLI and socket: build it with dockerCli(true)");
        }
        String name = "fleetfix-lab-" + fleet.id() + "-" + host + "-redis";
        Optional<String> volume = withVolume ? Optional.of(name + "-data") : Optional.empty();
        LabDocker docker = LabDocker.connect();
        String lab = LabBuilder.containerName(fleet.id(), host);
        checked(fleet, host, "systemctl disable --now redis-server");
        String redis = "mkdir -p /data && exec redis-server --bind " + h.address() + " --port " + h.redisPort()
                + " --dir /data --save '3600 1 300 100 60 10000' --appendonly no --disable-thp yes"
                + " --enable-debug-command local --protected-mode no --daemonize no";
        docker.createSibling(docker.imageOf(lab), name, lab, Map.of(LABEL, fleet.id()), volume, "sh", "-c", redis);
        checked(
                fleet,
                host,
                "printf '%s\\n' '[Unit]' 'Description=Redis in a container (lab)' 'After=network.target' '[Service]'"
                        + " 'Type=oneshot' 'RemainAfterExit=yes' 'ExecStart=" + CLI + " start " + name + "'"
                        + " '[Install]' 'WantedBy=multi-user.target' > /etc/systemd/system/" + UNIT
                        + " && systemctl daemon-reload && systemctl enable --now " + UNIT);
        LabRedisContainer started = new LabRedisContainer(fleet, docker, host, name, volume);
        started.awaitRedis();
        return started;
    }

    /** The container's name, as docker and the lab host's docker CLI know it. */
    public String name() {
        return name;
    }

    /** Waits until the container's Redis answers at the host's address (after a reboot of the host, say). */
    public void awaitRedis() {
        LabHost h = fleet.host(host);
        LabWait.until(
                Duration.ofSeconds(60),
                "the Redis of container " + name + " to answer",
                () -> LabProbe.redisUp(h.address(), h.redisPort()) ? Optional.empty() : Optional.of("no answer"));
    }

    @Override
    public void close() {
        docker.remove(name);
        volume.ifPresent(docker::removeVolume);
    }

    private static void checked(LabFleet fleet, String host, String command) {
        var r = fleet.rootExec(host, command);
        if (!r.ok()) {
            throw new LabException("lab host " + host + ": '" + command + "' failed: " + r.errorText());
        }
    }
}
