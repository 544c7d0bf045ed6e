package dev.fleetfix.checks;

import dev.fleetfix.inventory.UnitName;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the {@code ctr.*} lines {@code discovery.sh} prints for a process in another container than its own shell's:
 * the runtime and id from the cgroup, then what {@code docker inspect} / {@code podman inspect} said, each value
 * quoted by Go's {@code %q}. A value with an escape in it (a newline, a quote) is dropped, and every name that could
 * reach a restart command is checked for being a name.
 */
final class ContainerInspect {
    private static final Pattern QUOTED = Pattern.compile("\"([^\"\\\\]{0,1024})\"");
    private static final Pattern LABEL = Pattern.compile("\"([^\"\\\\]{1,256})\"=\"([^\"\\\\]{0,1024})\"");
    private static final Pattern MOUNT =
            Pattern.compile("\"([a-z]{1,16})\" \"([^\"\\\\]{1,1024})\" \"([^\"\\\\]{0,1024})\"");
    private static final Pattern ID = Pattern.compile("[0-9a-f]{64}");
    /** Docker's and Podman's rule for a container's name. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,127}");
    /** Compose's rule for a project's name (lower case since v2), and a service's. */
    private static final Pattern PROJECT = Pattern.compile("[a-z0-9][a-z0-9_-]{0,127}");

    private static final Pattern SERVICE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,127}");
    private static final Pattern PATH = Pattern.compile("/[A-Za-z0-9_.@+=,/-]{0,1023}");
    private static final Pattern RELATIVE = Pattern.compile("[A-Za-z0-9_.@+=-][A-Za-z0-9_.@+=/-]{0,1023}");
    private static final Pattern POLICY = Pattern.compile("[a-z-]{0,32}");
    private static final Pattern SERVICE_BEFORE = Pattern.compile(
            "/([A-Za-z0-9:_.@-]{1,250}\\.service)/(?:[^/]*/)*?(?:docker|libpod)(?:-payload)?[-/][0-9a-f]{64}");

    private ContainerInspect() {}

    /**
     * The service of a process found in a container: restartable through {@code inspected} when its runtime named it.
     *
     * @param id the container as its cgroup or shim names it ("docker 3f4e5d6c7b8a")
     * @param evidence what told it is a container
     * @param serviceInside whether a service manager inside the container runs Redis (the host cannot restart it)
     */
    static RunningService service(
            int port,
            OptionalLong pid,
            Optional<String> config,
            String id,
            String evidence,
            boolean serviceInside,
            Optional<Container> inspected) {
        String why = "Redis runs in a container on this host (" + evidence + ")"
                + (serviceInside ? ", under a service manager inside the container" : "")
                + inspected.flatMap(Container::error).map(e -> ": " + e).orElse("");
        return new RunningService(
                port,
                RunningService.Manager.CONTAINER,
                Optional.of(inspected.flatMap(Container::name).orElse(id)),
                pid,
                config,
                Optional.empty(),
                Optional.empty(),
                why,
                inspected.flatMap(ContainerInspect::bootUnit),
                inspected);
    }

    /**
     * What starts the container at boot: the unit that runs it, else the runtime's own service when its restart
     * policy brings it back ({@code docker.service}; Podman's {@code podman-restart.service}).
     */
    private static Optional<String> bootUnit(Container c) {
        if (c.unit().isPresent()) {
            return c.unit();
        }
        boolean back = c.restartPolicy()
                .filter(p -> p.equals("always") || p.equals("unless-stopped"))
                .isPresent();
        return back
                ? Optional.of(c.runtime().equals("podman") ? "podman-restart.service" : "docker.service")
                : Optional.empty();
    }

    /**
     * The container, when the script printed one for this process ({@code ctr.runtime} and {@code ctr.id}).
     *
     * @param one each key's first value
     * @param many each key's values, in order
     */
    static Optional<Container> read(Map<String, String> one, Map<String, List<String>> many) {
        String runtime = one.getOrDefault("ctr.runtime", "");
        String id = one.getOrDefault("ctr.id", "");
        if (!(runtime.equals("docker") || runtime.equals("podman"))
                || !ID.matcher(id).matches()) {
            return Optional.empty();
        }
        Optional<String> name = unquote(one.getOrDefault("ctr.name", ""))
                .map(n -> n.startsWith("/") ? n.substring(1) : n)
                .filter(n -> NAME.matcher(n).matches());
        Optional<String> policy = unquote(one.getOrDefault("ctr.restart", ""))
                .filter(p -> POLICY.matcher(p).matches())
                .map(p -> p.isEmpty() ? "no" : p);
        Map<String, String> labels = new LinkedHashMap<>();
        for (String line : many.getOrDefault("ctr.label", List.of())) {
            Matcher m = LABEL.matcher(line);
            if (m.matches()) {
                labels.putIfAbsent(m.group(1), m.group(2));
            }
        }
        List<Container.Mount> mounts = new ArrayList<>();
        for (String line : many.getOrDefault("ctr.mount", List.of())) {
            Matcher m = MOUNT.matcher(line);
            if (m.matches() && PATH.matcher(m.group(2)).matches() && !m.group(2).contains("/../")) {
                mounts.add(new Container.Mount(m.group(1), m.group(2), m.group(3)));
            }
        }
        Optional<String> error = Optional.ofNullable(one.get("ctr.error")).filter(e -> !e.isBlank());
        if (error.isEmpty() && name.isEmpty()) {
            error = Optional.of(runtime + " inspect gave no usable name");
        }
        return Optional.of(new Container(
                runtime,
                id,
                name,
                policy,
                compose(labels),
                unit(labels, many.getOrDefault("pid.cgroup", List.of()), one.getOrDefault("conmon.unit", "")),
                mounts,
                error));
    }

    private static Optional<Container.Compose> compose(Map<String, String> labels) {
        String project = labels.getOrDefault("com.docker.compose.project", "");
        String service = labels.getOrDefault("com.docker.compose.service", "");
        if (!PROJECT.matcher(project).matches() || !SERVICE.matcher(service).matches()) {
            return Optional.empty();
        }
        Optional<String> dir = Optional.ofNullable(labels.get("com.docker.compose.project.working_dir"))
                .filter(d -> PATH.matcher(d).matches() && !d.contains("/../"));
        List<String> files = new ArrayList<>();
        String listed = labels.getOrDefault("com.docker.compose.project.config_files", "");
        for (String f : listed.isEmpty() ? new String[0] : listed.split(",")) {
            // v1 (Debian's docker-compose) records a file as its command line gave it, often relative
            if (!(PATH.matcher(f).matches() || RELATIVE.matcher(f).matches()) || f.contains("..")) {
                // one unusable file: compose would not find the same project without it
                files.clear();
                break;
            }
            files.add(f);
        }
        return Optional.of(new Container.Compose(project, service, dir, files));
    }

    /**
     * The systemd unit that runs the container: a {@code .service} above the container in its cgroup (Quadlet, {@code
     * podman generate systemd --new}), the {@code PODMAN_SYSTEMD_UNIT} label they set, or the unit conmon runs in
     * ({@code podman generate systemd} without {@code --new}: the unit's main process is conmon).
     */
    private static Optional<String> unit(Map<String, String> labels, List<String> cgroups, String conmonUnit) {
        for (String line : cgroups) {
            Matcher m = SERVICE_BEFORE.matcher(line);
            if (m.find() && UnitName.problem(m.group(1)).isEmpty()) {
                return Optional.of(m.group(1));
            }
        }
        String label = labels.getOrDefault("PODMAN_SYSTEMD_UNIT", "");
        if (!label.isEmpty() && UnitName.problem(label).isEmpty()) {
            return Optional.of(label);
        }
        if (!conmonUnit.isEmpty() && UnitName.problem(conmonUnit).isEmpty()) {
            return Optional.of(conmonUnit);
        }
        return Optional.empty();
    }

    private static Optional<String> unquote(String value) {
        Matcher m = QUOTED.matcher(value);
        return m.matches() ? Optional.of(m.group(1)) : Optional.empty();
    }
}
