package dev.fleetfix.checks;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A container that runs Redis on a host, as its cgroup and its runtime ({@code docker inspect}, {@code podman
 * inspect}) describe it: what {@code restart_redis} restarts it through, and where its data can live.
 *
 * @param runtime {@code docker}, {@code podman} or {@code containerd} (which fleetfix does not ask)
 * @param id the container's full id, from its cgroup
 * @param name the container's name as its runtime gave it; empty when the runtime was not asked or did not answer
 * @param restartPolicy the runtime's restart policy ({@code no}, {@code always}, {@code unless-stopped}...), or empty
 * @param compose the {@code docker compose} project that made it, from its labels
 * @param unit the systemd unit that runs it ({@code podman generate systemd}, Quadlet): its cgroup, conmon's, or the
 *     {@code PODMAN_SYSTEMD_UNIT} label
 * @param mounts the volumes and bind mounts, as the runtime lists them
 * @param error why the runtime could not tell more (no CLI, inspect failed), or empty
 */
public record Container(
        String runtime,
        String id,
        Optional<String> name,
        Optional<String> restartPolicy,
        Optional<Compose> compose,
        Optional<String> unit,
        List<Mount> mounts,
        Optional<String> error) {

    /**
     * The labels {@code docker compose} (v2, and v1's {@code docker-compose}) puts on the containers it makes.
     *
     * @param configFiles the project's files ({@code com.docker.compose.project.config_files}): absolute paths (v2), or
     *     as v1's command line gave them, which may be relative to where it ran
     */
    public record Compose(String project, String service, Optional<String> workingDir, List<String> configFiles) {
        public Compose {
            Objects.requireNonNull(project, "project");
            Objects.requireNonNull(service, "service");
            Objects.requireNonNull(workingDir, "workingDir");
            configFiles = List.copyOf(configFiles);
        }
    }

    /**
     * A volume or bind mount.
     *
     * @param type {@code volume}, {@code bind} or {@code tmpfs}
     * @param destination the path inside the container
     * @param source the path on the host (a volume's directory under the runtime's root), or empty
     */
    public record Mount(String type, String destination, String source) {
        /** Whether what Redis writes under {@code dir} (inside the container) outlives the container. */
        public boolean keeps(String dir) {
            boolean lasting = type.equals("volume") || type.equals("bind");
            String dest = destination.endsWith("/") && destination.length() > 1
                    ? destination.substring(0, destination.length() - 1)
                    : destination;
            return lasting && (dir.equals(dest) || dir.startsWith(dest.equals("/") ? "/" : dest + "/"));
        }
    }

    public Container {
        Objects.requireNonNull(runtime, "runtime");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(restartPolicy, "restartPolicy");
        Objects.requireNonNull(compose, "compose");
        Objects.requireNonNull(unit, "unit");
        mounts = List.copyOf(mounts);
        Objects.requireNonNull(error, "error");
    }

    /** The id as the runtimes show it: its first 12 characters. */
    public String shortId() {
        return id.length() > 12 ? id.substring(0, 12) : id;
    }

    /** The mount whose files outlive the container and hold {@code path} (inside it), if any. */
    public Optional<Mount> mountOf(String path) {
        return mounts.stream()
                .filter(m -> m.keeps(path))
                .max((a, b) -> Integer.compare(
                        a.destination().length(), b.destination().length()));
    }

    /**
     * Where {@code path} (inside the container) is on the host: under the source of the volume or bind mount that
     * holds it; empty when it lives in the container's own layer.
     */
    public Optional<String> hostPathOf(String path) {
        return mountOf(path)
                .filter(m -> m.source().startsWith("/"))
                .map(m -> m.source()
                        + path.substring(Math.min(
                                path.length(),
                                m.destination().replaceAll("/$", "").length())));
    }

    /**
     * "docker container redis-1 (2b609bb5b36f), compose project demo service cache, restart policy unless-stopped".
     */
    public String describe() {
        List<String> more = new ArrayList<>();
        compose.ifPresent(c -> more.add("compose project " + c.project() + " service " + c.service()));
        unit.ifPresent(u -> more.add("systemd unit " + u));
        restartPolicy.filter(p -> !p.isEmpty()).ifPresent(p -> more.add("restart policy " + p));
        error.ifPresent(more::add);
        return runtime + " container "
                + name.map(n -> n + " (" + shortId() + ")").orElse(shortId())
                + (more.isEmpty() ? "" : ", " + String.join(", ", more));
    }

    /** Under {@code redis.service.}: runtime, container, container_id, compose_*, container_unit, mounts. */
    Map<String, String> facts() {
        Map<String, String> facts = new java.util.LinkedHashMap<>();
        facts.put("redis.service.runtime", runtime);
        name.ifPresent(n -> facts.put("redis.service.container", n));
        facts.put("redis.service.container_id", id);
        restartPolicy.ifPresent(p -> facts.put("redis.service.restart_policy", p));
        compose.ifPresent(c -> {
            facts.put("redis.service.compose_project", c.project());
            facts.put("redis.service.compose_service", c.service());
            c.workingDir().ifPresent(d -> facts.put("redis.service.compose_dir", d));
            if (!c.configFiles().isEmpty()) {
                facts.put("redis.service.compose_files", String.join(",", c.configFiles()));
            }
        });
        unit.ifPresent(u -> facts.put("redis.service.container_unit", u));
        facts.put(
                "redis.service.mounts",
                String.join(
                        ",",
                        mounts.stream()
                                .map(m -> m.type() + ":" + m.destination())
                                .toList()));
        return facts;
    }
}
