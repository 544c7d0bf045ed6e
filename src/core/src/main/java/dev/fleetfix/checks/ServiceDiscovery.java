package dev.fleetfix.checks;

import dev.fleetfix.checks.RunningService.Manager;
import dev.fleetfix.inventory.UnitName;
import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.RemoteShell;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds what runs the Redis that listens on a port, starting from the listening process and never from a name: one
 * read-only root script ({@link #script}) prints what the host shows about that process as {@code key=value} lines
 * (its PID from the socket's inode, {@code ss -ltne} or {@code /proc/net/tcp*}, in the likely processes first; its
 * command line, cgroup, PID namespace and parents; its systemd unit's {@code Id}, {@code SourcePath}, {@code MainPID}
 * and {@code ExecStart}; supervisord's programs; the pid files and init scripts that name it), and {@link #decide}
 * reads them into a {@link RunningService}, without I/O. Every value the host prints is bounded there and checked
 * again here: a name that ends up in a restart command or a unit file must be a name.
 */
public final class ServiceDiscovery {
    /** The script's first line, so that a fake host can recognise it. */
    public static final String FIRST_LINE = "# fleetfix: which service runs the Redis on each port";

    static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final int MAX_LINES = 2000;
    private static final int MAX_LINE = 4096;
    private static final int MAX_PROCS = 17;
    private static final Pattern TITLE_PORT = Pattern.compile("^\\S*redis-server \\S*:(\\d{1,5})\\b");
    private static final Pattern PROGRAM = Pattern.compile("[A-Za-z0-9_.:-]{1,128}");
    private static final Pattern INIT_SCRIPT = Pattern.compile("/etc/(rc\\.d/)?init\\.d/([A-Za-z0-9_.@+-]{1,128})");
    private static final Pattern PATH = Pattern.compile("/[A-Za-z0-9_.@+=,/-]{1,1024}");
    private static final Pattern STATUS_PID = Pattern.compile("\\bpid (\\d{1,9}),");
    private static final Pattern CONTAINER = Pattern.compile(
            "(docker|libpod|cri-containerd|crio|containerd)(?:-payload)?[-:]([0-9a-f]{12,64})(\\.scope)?|/docker/([0-9a-f]{12,64})");
    private static final Set<String> SHIMS =
            Set.of("containerd-shim", "containerd-shim-runc-v2", "conmon", "docker-containerd-shim", "runc");

    private ServiceDiscovery() {}

    /** Runs the script as root on the host and {@link #read reads} what it gave. */
    public static List<RunningService> discover(
            RemoteShell shell, String address, List<Integer> ports, RedisSelf self) {
        return read(
                shell.exec(Command.of(script(address, ports, self)).asRoot().withTimeout(TIMEOUT)),
                address,
                ports,
                self);
    }

    /**
     * The service of each port (in order) from what the script gave; each port unknown, with the script's error, when
     * it failed before printing any.
     *
     * @param address the address Redis listens on: a listener at another IP is another host's (containers or lab
     *     hosts that share one network namespace) or another instance's; empty or a name counts every listener on the
     *     port, {@code localhost} the loopback one
     * @param self what Redis said of itself (its config file, process and executable), or why it could not be asked
     */
    static List<RunningService> read(ExecResult r, String address, List<Integer> ports, RedisSelf self) {
        if (!r.ok() && !r.stdout().contains("port=")) {
            String err = r.errorText().strip();
            return ports.stream()
                    .map(p -> RunningService.unknown(
                            p,
                            OptionalLong.empty(),
                            Optional.empty(),
                            "the discovery script failed (exit " + r.exitCode() + ")"
                                    + (err.isEmpty() ? "" : ": " + bounded(err, 200))))
                    .toList();
        }
        return decide(r.stdout(), address, ports, self.error());
    }

    /** The discovery script for {@code ports}: {@link DiscoveryScript#of}. */
    public static String script(String address, List<Integer> ports, RedisSelf self) {
        return DiscoveryScript.of(address, ports, self);
    }

    /**
     * The services of each port, from the script's output; a port the output does not cover is unknown. Only the
     * listeners at {@code address} count ({@link Listener#at}); {@code redisError} says why Redis did not answer, for a
     * port where nothing listens.
     */
    public static List<RunningService> decide(
            String output, String address, List<Integer> ports, Optional<String> redisError) {
        Map<String, String> global = new LinkedHashMap<>();
        Map<Integer, List<String[]>> blocks = new LinkedHashMap<>();
        List<String[]> current = null;
        int lines = 0;
        for (String line : output.split("\n", -1)) {
            if (++lines > MAX_LINES) {
                break;
            }
            if (line.length() > MAX_LINE) {
                continue;
            }
            int eq = line.indexOf('=');
            if (eq <= 0) {
                continue;
            }
            String key = line.substring(0, eq).strip();
            String value = line.substring(eq + 1).strip();
            if (key.equals("port")) {
                current = null;
                try {
                    int port = Integer.parseInt(value);
                    if (ports.contains(port) && !blocks.containsKey(port)) {
                        current = new ArrayList<>();
                        blocks.put(port, current);
                    }
                } catch (NumberFormatException e) {
                    // garbled: the lines that follow belong to no port
                }
            } else if (current != null) {
                current.add(new String[] {key, value});
            } else {
                global.putIfAbsent(key, value);
            }
        }
        List<RunningService> out = new ArrayList<>();
        for (int port : ports) {
            List<String[]> block = blocks.get(port);
            out.add(
                    block == null
                            ? RunningService.unknown(
                                    port,
                                    OptionalLong.empty(),
                                    Optional.empty(),
                                    "the discovery script printed nothing for this port")
                            : decidePort(port, address, redisError, global, block));
        }
        return out;
    }

    /** One process's lines. */
    private record Proc(long pid, Map<String, String> one, Map<String, List<String>> many) {
        String get(String key) {
            return one.getOrDefault(key, "");
        }

        List<String> all(String key) {
            return many.getOrDefault(key, List.of());
        }
    }

    private static RunningService decidePort(
            int port, String address, Optional<String> redisError, Map<String, String> global, List<String[]> block) {
        Map<String, List<String>> portLines = new LinkedHashMap<>();
        List<Proc> all = new ArrayList<>();
        Proc proc = null;
        for (String[] kv : block) {
            if (kv[0].equals("pid")) {
                OptionalLong pid = number(kv[1]);
                if (pid.isEmpty() || all.size() >= MAX_PROCS) {
                    proc = null;
                    continue;
                }
                proc = new Proc(pid.getAsLong(), new LinkedHashMap<>(), new LinkedHashMap<>());
                all.add(proc);
            } else if (proc != null) {
                proc.one().putIfAbsent(kv[0], kv[1]);
                proc.many().computeIfAbsent(kv[0], k -> new ArrayList<>()).add(kv[1]);
            } else {
                portLines.computeIfAbsent(kv[0], k -> new ArrayList<>()).add(kv[1]);
            }
        }
        Optional<String> infoConfig = path(global.getOrDefault("info.config", ""));
        Listeners listeners = Listeners.of(address, portLines);
        List<Proc> holders = all.stream().filter(p -> listeners.holds(p.pid())).toList();
        // root could not map the socket to its process: what Redis says of itself, if it is that process
        List<Proc> procs = holders.isEmpty() && listeners.sockets() > 0 ? selfReported(port, all, portLines) : holders;
        String where = listeners.where(address, port);
        if (procs.isEmpty()) {
            if (listeners.sockets() > 0) {
                return RunningService.unknown(
                        port,
                        OptionalLong.empty(),
                        infoConfig,
                        listeners.sockets() + " socket(s) listen on " + where
                                + " but no process of this host holds one (another PID namespace: a container,"
                                + " or the script could not run as root)");
            }
            return RunningService.none(
                    port,
                    "nothing listens on " + where + ": Redis is not running there"
                            + redisError
                                    .map(e -> " (connecting to it: " + bounded(e, 200) + ")")
                                    .orElse(""));
        }
        // a process that forked a child holding the same socket (a BGSAVE child of an old Redis): the parent
        List<Proc> roots = procs.stream()
                .filter(p ->
                        procs.stream().noneMatch(q -> q != p && ancestors(p).contains(q.pid())))
                .toList();
        List<RunningService> found =
                roots.stream().map(p -> decideProc(port, global, p, infoConfig)).toList();
        Set<String> distinct = new LinkedHashSet<>();
        found.forEach(f -> distinct.add(f.manager() + " " + f.name().orElse("?")));
        if (distinct.size() == 1) {
            return found.get(0);
        }
        List<String> each = new ArrayList<>();
        for (int i = 0; i < found.size(); i++) {
            RunningService f = found.get(i);
            each.add("pid " + roots.get(i).pid() + ": "
                    + f.name().map(n -> f.manager().word() + " " + n).orElse("unknown"));
        }
        return RunningService.unknown(
                port,
                OptionalLong.empty(),
                infoConfig,
                roots.size() + " processes listen on :" + port + " (" + String.join(", ", each)
                        + "): which one is this Redis cannot be told");
    }

    /**
     * The process INFO's {@code process_id} names, when it is a Redis: its command or executable is INFO's
     * {@code executable} or a redis-server's (a PID from another PID namespace may be anything here).
     */
    private static List<Proc> selfReported(int port, List<Proc> all, Map<String, List<String>> portLines) {
        OptionalLong pid =
                number(portLines.getOrDefault("info.pid", List.of("")).get(0));
        String exe = baseName(portLines.getOrDefault("info.exe", List.of("")).get(0));
        for (Proc p : all) {
            if (pid.isPresent() && p.pid() == pid.getAsLong()) {
                Set<String> names = new LinkedHashSet<>();
                names.add(p.get("pid.comm"));
                p.all("pid.arg").stream().findFirst().ifPresent(a -> names.add(baseName(a.split(" ", 2)[0])));
                boolean redis = (!exe.isEmpty() && names.contains(exe))
                        || names.stream().anyMatch(n -> n.startsWith("redis-server") || n.startsWith("valkey-server"));
                // its process title names its port ("redis-server 127.0.0.1:6380"): another port is another Redis
                Matcher title =
                        TITLE_PORT.matcher(p.all("pid.arg").stream().findFirst().orElse(""));
                redis &= !title.find() || title.group(1).equals(Integer.toString(port));
                if (redis && p.get("pid.exe").isEmpty() && !exe.isEmpty()) {
                    p.one().put("pid.exe", portLines.get("info.exe").get(0));
                }
                return redis ? List.of(p) : List.of();
            }
        }
        return List.of();
    }

    private static RunningService decideProc(int port, Map<String, String> global, Proc p, Optional<String> info) {
        OptionalLong pid = OptionalLong.of(p.pid());
        Optional<String> config = configOf(p).or(() -> info);
        List<Long> parents = ancestors(p);
        // another PID namespace than the script's shell, or a container runtime's shim above it: a container
        String selfNs = global.getOrDefault("self.pidns", "");
        String ns = p.get("pid.pidns");
        boolean otherNs = !selfNs.isEmpty() && !ns.isEmpty() && !ns.equals(selfNs);
        Optional<String> shim = p.all("parent").stream()
                .map(ServiceDiscovery::parentComm)
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
                number(p.get("supervisord")).stream().boxed().findFirst();
        if (supervisord.isPresent()) {
            return supervised(port, p, pid, config, parents, supervisord.get());
        }
        String pid1 = global.getOrDefault("pid1", "");
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
        Optional<String> conf = path(p.get("supervisord.conf"));
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
        long mainPid = number(p.get("unit.MainPID")).orElse(0);
        boolean main = mainPid == p.pid() || (mainPid > 1 && parents.contains(mainPid));
        // what the unit starts: the process's binary by any of its names (Debian's redis-server is a link to
        // redis-check-rdb), or a wrapper that is its main process (above)
        String exec = p.get("unit.ExecStart");
        Set<String> names = new LinkedHashSet<>();
        names.add(baseName(p.get("pid.exe").replace(" (deleted)", "")));
        names.add(p.get("pid.comm"));
        p.all("pid.arg").stream().findFirst().ifPresent(a -> names.add(baseName(a.split(" ", 2)[0])));
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
                .map(ServiceDiscovery::path)
                .flatMap(Optional::stream)
                .findFirst();
    }

    private static List<Long> ancestors(Proc p) {
        List<Long> out = new ArrayList<>();
        for (String line : p.all("parent")) {
            String first = line.split(" ", 2)[0];
            number(first).ifPresent(out::add);
        }
        return out;
    }

    private static String baseName(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
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
            Matcher m = Pattern.compile("(session-[A-Za-z0-9]{1,32}\\.scope)").matcher(line);
            if (m.find()) {
                return " (it is in login session " + m.group(1) + ")";
            }
        }
        return "";
    }

    private static Optional<String> path(String value) {
        return PATH.matcher(value).matches() && !value.contains("/../") ? Optional.of(value) : Optional.empty();
    }

    private static OptionalLong number(String value) {
        if (!value.matches("\\d{1,18}")) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(Long.parseLong(value));
    }

    private static String bounded(String text, int max) {
        String one = text.replaceAll("[\\p{Cntrl}]", " ");
        return one.length() <= max ? one : one.substring(0, max) + "...";
    }
}
