package dev.fleetfix.checks;

import dev.fleetfix.checks.DiscoveryOutput.Proc;
import dev.fleetfix.checks.RunningService.Manager;
import dev.fleetfix.inventory.UnitName;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Who manages one Redis process, and so how it can be restarted: a pure decision from what {@code discovery.sh}
 * printed of it (as {@code RestartDecision} is for a restart). In this order: a container (another PID namespace, a
 * runtime's shim above it, or a container's cgroup), a supervisord program, a systemd unit that starts it, an init
 * script that names its pid file or config on a host without systemd; else unknown, saying why. A name that ends up in
 * a restart command or a unit file must be a name.
 */
final class ManagerDecision {
    private static final Pattern PROGRAM = Pattern.compile("[A-Za-z0-9_.:-]{1,128}");
    private static final Pattern INIT_SCRIPT = Pattern.compile("/etc/(rc\\.d/)?init\\.d/([A-Za-z0-9_.@+-]{1,128})");
    private static final Pattern STATUS_PID = Pattern.compile("\\bpid (\\d{1,9}),");
    private static final Pattern CONTAINER = Pattern.compile(
            "(docker|libpod|cri-containerd|crio|containerd)(?:-payload)?[-:]([0-9a-f]{12,64})(\\.scope)?|/docker/([0-9a-f]{12,64})");
    private static final Pattern SESSION = Pattern.compile("(session-[A-Za-z0-9]{1,32}\\.scope)");
    private static final Set<String> SHIMS =
            Set.of("containerd-shim", "containerd-shim-runc-v2", "conmon", "docker-containerd-shim", "runc");

    private ManagerDecision() {}

    /**
     * The service of process {@code p} on {@code port}.
     *
     * @param host the host's lines ({@code pid1}, {@code self.pidns})
     * @param info the config file INFO named, when the command line names none
     */
    static RunningService of(int port, Map<String, String> host, Proc p, Optional<String> info) {
        OptionalLong pid = OptionalLong.of(p.pid());
        Optional<String> config = configOf(p).or(() -> info);
        List<Long> parents = p.ancestors();
        // another PID namespace than the script's shell, or a container runtime's shim above it: a container
        String selfNs = host.getOrDefault("self.pidns", "");
        String ns = p.get("pid.pidns");
        boolean otherNs = !selfNs.isEmpty() && !ns.isEmpty() && !ns.equals(selfNs);
        Optional<String> shim = p.all("parent").stream()
                .map(ManagerDecision::parentComm)
                .filter(c -> SHIMS.contains(c) || c.startsWith("containerd-shim"))
                .findFirst();
        Optional<String> containerId = containerOf(p.all("pid.cgroup"));
        boolean serviceInside = !noServiceInside(p.all("pid.cgroup"));
        // what the runtime said, for a container other than the shell's own (discovery.sh asks only then)
        Optional<Container> inspected = serviceInside ? Optional.empty() : ContainerInspect.read(p.one(), p.many());
        boolean cgroupOnly = ns.isEmpty() && containerId.isPresent() && !serviceInside;
        if (otherNs || shim.isPresent() || cgroupOnly || inspected.isPresent()) {
            String evidence = otherNs
                    ? "its own PID namespace"
                    : shim.map(s -> "started by " + s).orElse("cgroup");
            String id = containerId.orElse(shim.map(s -> "under " + s).orElse("of unknown id"));
            return ContainerInspect.service(port, pid, config, id, evidence, serviceInside, inspected);
        }
        // supervisord first: it may run under a systemd unit of its own (supervisor.service)
        Optional<Long> supervisord =
                DiscoveryOutput.number(p.get("supervisord")).stream().boxed().findFirst();
        if (supervisord.isPresent()) {
            return supervised(port, p, pid, config, parents, supervisord.get());
        }
        String pid1 = host.getOrDefault("pid1", "");
        String unit = p.get("unit");
        if (pid1.equals("systemd") && !unit.isEmpty()) {
            return systemdUnit(port, p, pid, config, parents, unit);
        }
        if (!pid1.equals("systemd")) {
            return initScript(port, p, pid, config);
        }
        return RunningService.unknown(
                port,
                pid,
                config,
                "pid " + p.pid() + " (" + p.get("pid.comm") + ") is in no systemd service"
                        + sessionOf(p.all("pid.cgroup")) + ": started by hand, not by a service");
    }

    private static RunningService supervised(
            int port, Proc p, OptionalLong pid, Optional<String> config, List<Long> parents, long supervisord) {
        // the program's process is this one or one of its parents below supervisord (a wrapper script)
        Set<Long> chain = new LinkedHashSet<>();
        chain.add(p.pid());
        for (long parent : parents) {
            if (parent == supervisord) {
                break;
            }
            chain.add(parent);
        }
        List<String> programs = new ArrayList<>();
        for (String line : p.all("supervisor.status")) {
            String[] words = line.strip().split("\\s+");
            Matcher m = STATUS_PID.matcher(line);
            if (words.length >= 2 && words[1].equals("RUNNING") && m.find()) {
                long programPid = Long.parseLong(m.group(1));
                if (chain.contains(programPid) && PROGRAM.matcher(words[0]).matches()) {
                    programs.add(words[0]);
                }
            }
        }
        Optional<String> conf = DiscoveryOutput.path(p.get("supervisord.conf"));
        if (programs.size() == 1) {
            return new RunningService(
                    port,
                    Manager.SUPERVISORD,
                    Optional.of(programs.get(0)),
                    pid,
                    config,
                    Optional.empty(),
                    conf,
                    "supervisorctl status: pid " + p.pid(),
                    unitName(p.get("unit")),
                    Optional.empty());
        }
        return RunningService.unknown(
                port,
                pid,
                config,
                "run by supervisord (pid " + supervisord + "), but supervisorctl status names "
                        + (programs.isEmpty() ? "no program" : "several programs " + programs) + " with pid "
                        + p.pid() + " running");
    }

    private static RunningService systemdUnit(
            int port, Proc p, OptionalLong pid, Optional<String> config, List<Long> parents, String unit) {
        String id = p.get("unit.Id").isEmpty() ? unit : p.get("unit.Id");
        if (UnitName.problem(id).isPresent() || UnitName.problem(unit).isPresent()) {
            return RunningService.unknown(port, pid, config, "its systemd unit's name is not a unit name");
        }
        if (id.contains("@") && id.startsWith("user@")) {
            return RunningService.unknown(
                    port, pid, config, "pid " + p.pid() + " runs in a user's systemd manager (" + id + ")");
        }
        Optional<String> sysv = initPath(p.get("unit.SourcePath"));
        long mainPid = DiscoveryOutput.number(p.get("unit.MainPID")).orElse(0);
        boolean main = mainPid == p.pid() || (mainPid > 1 && parents.contains(mainPid));
        // what the unit starts: the process's binary by any of its names (Debian's redis-server is a link to
        // redis-check-rdb), or a wrapper that is its main process (above)
        String exec = p.get("unit.ExecStart");
        Set<String> names = new LinkedHashSet<>();
        names.add(DiscoveryOutput.baseName(p.get("pid.exe").replace(" (deleted)", "")));
        names.addAll(p.names());
        names.remove("");
        boolean startsIt = names.stream().anyMatch(n -> Pattern.compile("path=(\\S*/)?" + Pattern.quote(n) + "\\s")
                .matcher(exec)
                .find());
        String base = names.isEmpty() ? "" : names.iterator().next();
        if (!main && !startsIt && sysv.isEmpty() && !p.get("unit.MainPID").isEmpty()) {
            // cron.service, ssh.service: Redis started by hand inside a unit that runs something else
            return RunningService.unknown(
                    port,
                    pid,
                    config,
                    "pid " + p.pid() + " is in systemd unit " + id + ", whose main process is " + mainPid
                            + " and which does not start " + (base.isEmpty() ? "it" : base)
                            + ": started by hand inside that unit");
        }
        return new RunningService(
                port,
                Manager.SYSTEMD,
                Optional.of(id),
                pid,
                config,
                sysv,
                Optional.empty(),
                "cgroup of pid " + p.pid(),
                Optional.of(id),
                Optional.empty());
    }

    private static RunningService initScript(int port, Proc p, OptionalLong pid, Optional<String> config) {
        Set<String> byPidfile = scripts(p.all("initd.pidfile"));
        Set<String> byConfig = scripts(p.all("initd.config"));
        Set<String> both = new LinkedHashSet<>(byPidfile);
        both.retainAll(byConfig);
        Set<String> pick = both.size() == 1
                ? both
                : byPidfile.size() == 1 ? byPidfile : byConfig.size() == 1 && byPidfile.isEmpty() ? byConfig : Set.of();
        if (pick.size() == 1) {
            String script = pick.iterator().next();
            Matcher m = INIT_SCRIPT.matcher(script);
            m.matches();
            return new RunningService(
                    port,
                    Manager.SYSV,
                    Optional.of(m.group(2)),
                    pid,
                    config,
                    Optional.of(script),
                    Optional.empty(),
                    byPidfile.contains(script)
                            ? "its pid file is named in " + script
                            : "its config is named in " + script,
                    Optional.empty(),
                    Optional.empty());
        }
        Set<String> all = new LinkedHashSet<>(byPidfile);
        all.addAll(byConfig);
        return RunningService.unknown(
                port,
                pid,
                config,
                all.isEmpty()
                        ? "no systemd, and no init script names its pid file or config file"
                        : "no systemd, and several init scripts could run it: " + String.join(", ", all));
    }

    private static Set<String> scripts(List<String> lines) {
        Set<String> out = new LinkedHashSet<>();
        for (String line : lines) {
            if (INIT_SCRIPT.matcher(line).matches() && !line.endsWith(".dpkg-old") && !line.endsWith("~")) {
                out.add(line);
            }
        }
        return out;
    }

    private static Optional<String> unitName(String unit) {
        return unit.isEmpty() || UnitName.problem(unit).isPresent() ? Optional.empty() : Optional.of(unit);
    }

    private static Optional<String> initPath(String sourcePath) {
        return INIT_SCRIPT.matcher(sourcePath).matches() ? Optional.of(sourcePath) : Optional.empty();
    }

    /** The config file on the command line: an argument that is an absolute path ending in .conf. */
    private static Optional<String> configOf(Proc p) {
        return p.all("pid.arg").stream()
                .skip(1)
                .filter(a -> a.endsWith(".conf"))
                .map(DiscoveryOutput::path)
                .flatMap(Optional::stream)
                .findFirst();
    }

    private static String parentComm(String line) {
        int space = line.indexOf(' ');
        return space < 0 ? "" : line.substring(space + 1).strip();
    }

    /** A container's id in a cgroup path: docker-ID.scope, libpod-ID.scope, cri-containerd-ID.scope, /docker/ID. */
    static Optional<String> containerOf(List<String> cgroups) {
        for (String line : cgroups) {
            Matcher m = CONTAINER.matcher(line);
            if (m.find()) {
                String runtime = m.group(1) != null ? m.group(1) : "docker";
                String id = m.group(2) != null ? m.group(2) : m.group(4);
                String shown =
                        runtime.equals("libpod") ? "podman" : runtime.equals("cri-containerd") ? "containerd" : runtime;
                return Optional.of(shown + " " + id.substring(0, 12));
            }
        }
        if (cgroups.stream().anyMatch(l -> l.contains("kubepods"))) {
            return Optional.of("a Kubernetes pod");
        }
        return Optional.empty();
    }

    /** True when no systemd service follows the container's part of the path (systemd inside it would start Redis). */
    private static boolean noServiceInside(List<String> cgroups) {
        for (String line : cgroups) {
            Matcher m = CONTAINER.matcher(line);
            if (m.find() && line.substring(m.end()).contains(".service")) {
                return false;
            }
        }
        return true;
    }

    private static String sessionOf(List<String> cgroups) {
        for (String line : cgroups) {
            Matcher m = SESSION.matcher(line);
            if (m.find()) {
                return " (it is in login session " + m.group(1) + ")";
            }
        }
        return "";
    }
}
