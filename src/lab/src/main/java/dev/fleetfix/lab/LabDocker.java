package dev.fleetfix.lab;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.AccessMode;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Volume;
import dev.fleetfix.transport.ExecResult;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.testcontainers.dockerclient.DockerClientProviderStrategy;
import org.testcontainers.dockerclient.TransportConfig;

/**
 * The few Docker calls the lab makes, on the Docker client that Testcontainers ships.
 *
 * <p>The client is built from {@code DOCKER_HOST} (default: the local socket) rather than through
 * {@code DockerClientFactory}: that one starts Testcontainers' resource reaper, which either pulls the Ryuk image
 * (impossible without a registry) or, with Ryuk disabled, removes the containers it knows of when the JVM exits.
 * Lab hosts started by {@code fleetfix lab up} must outlive the JVM, and the lab removes its containers itself.
 */
final class LabDocker {
    static final String LABEL_LAB = "dev.fleetfix.lab";
    static final String LABEL_HOST = "dev.fleetfix.lab.host";
    static final String LABEL_INDEX = "dev.fleetfix.lab.index";
    static final String LABEL_ADDRESS = "dev.fleetfix.lab.address";
    static final String LABEL_SSH_PORT = "dev.fleetfix.lab.ssh-port";
    static final String LABEL_REDIS_PORT = "dev.fleetfix.lab.redis-port";
    static final String LABEL_SENTINEL_PORT = "dev.fleetfix.lab.sentinel-port";
    static final String LABEL_DIR = "dev.fleetfix.lab.dir";
    static final String LABEL_REDIS_PORTS = "dev.fleetfix.lab.redis-ports";
    static final String LABEL_SERVER = "dev.fleetfix.lab.server";
    static final String LABEL_INIT = "dev.fleetfix.lab.init";
    static final String LABEL_SHAPE = "dev.fleetfix.lab.service-shape";
    /** Every address a scale lab's one container claims, comma-separated. */
    static final String LABEL_ADDRESSES = "dev.fleetfix.lab.addresses";

    /** PID 1 of a host without systemd, in the image (build-image.sh). */
    static final String SYSV_INIT = "/usr/local/sbin/sysv-init";

    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

    private final DockerClient client;
    private final URI host;

    private LabDocker(DockerClient client, URI host) {
        this.client = client;
        this.host = host;
    }

    static LabDocker connect() {
        String env = System.getenv("DOCKER_HOST");
        URI host = URI.create(env == null || env.isBlank() ? "unix:///var/run/docker.sock" : env);
        DockerClient client;
        try {
            client = DockerClientProviderStrategy.getClientForConfig(
                    TransportConfig.builder().dockerHost(host).build());
            client.pingCmd().exec();
        } catch (RuntimeException e) {
            throw new LabException(
                    "Docker does not answer at " + host + " (" + e.getMessage()
                            + "); the lab needs a running dockerd: run 'bash src/lab/src/lab/prepare.sh' as root, or start"
                            + " 'dockerd --iptables=false --bridge=none'",
                    e);
        }
        return new LabDocker(client, host);
    }

    URI host() {
        return host;
    }

    boolean imageExists(String tag) {
        try {
            client.inspectImageCmd(tag).exec();
            return true;
        } catch (NotFoundException e) {
            return false;
        }
    }

    /** A bind mount: host path over container path. */
    record Mount(Path hostPath, String containerPath, boolean readOnly) {}

    /**
     * Creates (does not start) a lab host container. {@code etcHosts} ("name:address") go to its /etc/hosts, so
     * the host resolves its own name (sudo wants it) and its fleet mates', as DNS would on a real fleet.
     * {@code init} chooses its PID 1: the image's systemd, or the SysV-style init script.
     */
    String create(
            String image,
            String name,
            String hostname,
            Map<String, String> labels,
            List<Mount> mounts,
            List<String> etcHosts,
            LabInit init) {
        List<Bind> binds = new ArrayList<>();
        // systemd as PID 1 needs the cgroup tree and its own /run; it runs without --privileged.
        binds.add(new Bind("/sys/fs/cgroup", new Volume("/sys/fs/cgroup"), AccessMode.rw));
        for (Mount mount : mounts) {
            binds.add(new Bind(
                    mount.hostPath().toString(),
                    new Volume(mount.containerPath()),
                    mount.readOnly() ? AccessMode.ro : AccessMode.rw));
        }
        HostConfig hostConfig = HostConfig.newHostConfig()
                .withNetworkMode("host")
                // SYS_PTRACE: root reads /proc/PID/exe of other users' processes, as on a real host; SysV scripts
                // find the daemon they stop that way (start-stop-daemon --exec)
                .withCapAdd(Capability.SYS_ADMIN, Capability.SYS_PTRACE)
                .withSecurityOpts(List.of("seccomp=unconfined"))
                .withTmpFs(Map.of("/run", "", "/run/lock", ""))
                .withExtraHosts(etcHosts.toArray(String[]::new))
                .withBinds(binds);
        var create = client.createContainerCmd(image)
                .withName(name)
                .withHostName(hostname)
                .withEnv("container=docker")
                .withLabels(labels)
                .withHostConfig(hostConfig);
        if (init == LabInit.NONE) {
            // the scale lab: its start script is PID 1 and stops its daemons on SIGTERM
            create.withCmd("bash", "/etc/fleetfix-lab/start.sh").withStopSignal("SIGTERM");
        } else if (init == LabInit.SYSV) {
            // the init script runs the stop scripts on SIGTERM, as SysV init does on 'telinit 0'
            create.withCmd(SYSV_INIT).withStopSignal("SIGTERM");
        } else {
            // systemd halts on SIGRTMIN+3 and ignores docker's default SIGTERM as PID 1
            create.withStopSignal("SIGRTMIN+3");
        }
        return create.exec().getId();
    }

    /**
     * Creates (does not start) a container that shares {@code pidOf}'s PID namespace and the host network, running
     * {@code command} in {@code image}; {@code volume} (a named volume, made if missing) over {@code /data} when given.
     */
    String createSibling(
            String image,
            String name,
            String pidOf,
            Map<String, String> labels,
            Optional<String> volume,
            String... command) {
        HostConfig hostConfig = HostConfig.newHostConfig()
                .withNetworkMode("host")
                .withPidMode("container:" + pidOf)
                .withBinds(volume.stream()
                        .map(v -> new Bind(v, new Volume("/data"), AccessMode.rw))
                        .toList());
        return client.createContainerCmd(image)
                .withName(name)
                .withLabels(labels)
                .withHostConfig(hostConfig)
                .withCmd(command)
                .exec()
                .getId();
    }

    /** The image a container was made from. */
    String imageOf(String id) {
        return client.inspectContainerCmd(id).exec().getImageId();
    }

    void removeVolume(String name) {
        try {
            client.removeVolumeCmd(name).exec();
        } catch (NotFoundException e) {
            // already gone
        }
    }

    void start(String id) {
        client.startContainerCmd(id).exec();
    }

    void restart(String id) {
        client.restartContainerCmd(id)
                .withTimeout((int) STOP_TIMEOUT.toSeconds())
                .exec();
    }

    void stop(String id) {
        client.stopContainerCmd(id).withTimeout((int) STOP_TIMEOUT.toSeconds()).exec();
    }

    void remove(String id) {
        try {
            client.removeContainerCmd(id)
                    .withForce(true)
                    .withRemoveVolumes(true)
                    .exec();
        } catch (NotFoundException e) {
            // already gone: what remove was for
        }
    }

    boolean running(String id) {
        try {
            return Boolean.TRUE.equals(
                    client.inspectContainerCmd(id).exec().getState().getRunning());
        } catch (NotFoundException e) {
            return false;
        }
    }

    /** Containers carrying {@code label=value}, running or not. */
    List<Container> withLabel(String label, String value) {
        return client.listContainersCmd()
                .withShowAll(true)
                .withLabelFilter(Map.of(label, value))
                .exec();
    }

    /**
     * Removes lab {@code id}'s containers (found by label, so only these), then the Redis containers beside its hosts
     * ({@link LabRedisContainer}, {@link LabComposeRedis}: labelled {@value LabRedisContainer#LABEL}) and their volumes.
     */
    void removeLab(String id) {
        for (Container container : withLabel(LABEL_LAB, id)) {
            remove(container.getId());
        }
        for (Container container : withLabel(LabRedisContainer.LABEL, id)) {
            remove(container.getId());
        }
        client.listVolumesCmd()
                .withFilter("label", List.of(LabRedisContainer.LABEL + "=" + id))
                .exec()
                .getVolumes()
                .forEach(volume -> removeVolume(volume.getName()));
    }

    /** The loopback addresses the containers of every lab, running or not, claim by their labels. */
    Set<String> claimedAddresses() {
        return client.listContainersCmd().withShowAll(true).withLabelFilter(List.of(LABEL_LAB)).exec().stream()
                .flatMap(c -> LabHostLabels.addresses(c.getLabels()).stream())
                .collect(Collectors.toSet());
    }

    /** The last lines the container's PID 1 wrote: why a container stopped on its own. */
    String logTail(String id, int lines) {
        StringBuilder text = new StringBuilder();
        try (ResultCallback.Adapter<Frame> callback = new ResultCallback.Adapter<>() {
            @Override
            public void onNext(Frame frame) {
                text.append(new String(frame.getPayload(), StandardCharsets.UTF_8));
            }
        }) {
            client.logContainerCmd(id)
                    .withStdOut(true)
                    .withStdErr(true)
                    .withTail(lines)
                    .exec(callback)
                    .awaitCompletion(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.io.IOException | RuntimeException e) {
            text.append("(no logs: ").append(e.getMessage()).append(')');
        }
        return text.toString();
    }

    /** Copies a file of this machine into a directory of the container (for tests that install something there). */
    void copyInto(String id, Path file, String containerDir) {
        try {
            client.copyArchiveToContainerCmd(id)
                    .withHostResource(file.toString())
                    .withRemotePath(containerDir)
                    .exec();
        } catch (RuntimeException e) {
            throw new LabException("cannot copy " + file + " into " + containerDir + ": " + e.getMessage(), e);
        }
    }

    /** Runs {@code command} as root in the container and waits for it. */
    ExecResult exec(String id, Duration timeout, String... command) {
        long started = System.nanoTime();
        String execId = client.execCreateCmd(id)
                .withCmd(command)
                .withUser("root")
                .withAttachStdout(true)
                .withAttachStderr(true)
                .exec()
                .getId();
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        try (ResultCallback.Adapter<Frame> callback = new ResultCallback.Adapter<>() {
            @Override
            public void onNext(Frame frame) {
                switch (frame.getStreamType()) {
                    case STDOUT, RAW -> stdout.writeBytes(frame.getPayload());
                    case STDERR -> stderr.writeBytes(frame.getPayload());
                    default -> {}
                }
            }
        }) {
            client.execStartCmd(execId).exec(callback);
            if (!callback.awaitCompletion(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new LabException("command did not finish within " + dev.fleetfix.Durations.typed(timeout) + ": "
                        + String.join(" ", command));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LabException("interrupted while running: " + String.join(" ", command), e);
        } catch (java.io.IOException e) {
            throw new LabException("docker exec failed: " + e.getMessage(), e);
        }
        Long exit = client.inspectExecCmd(execId).exec().getExitCodeLong();
        return new ExecResult(
                exit == null ? -1 : exit.intValue(),
                stdout.toString(StandardCharsets.UTF_8),
                stderr.toString(StandardCharsets.UTF_8),
                Duration.ofNanos(System.nanoTime() - started));
    }
}
