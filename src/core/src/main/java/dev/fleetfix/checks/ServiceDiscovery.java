package dev.fleetfix.checks;

import dev.fleetfix.checks.RunningService.Manager;
import dev.fleetfix.inventory.UnitName;
import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.RemoteShell;
import dev.fleetfix.transport.ShellQuote;
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
 * (its PID from {@code ss -ltnp}, else from {@code /proc/net/tcp*} and the processes' socket inodes; its command
 * line, cgroup, PID namespace and parents; its systemd unit's {@code Id}, {@code SourcePath}, {@code MainPID} and
 * {@code ExecStart}; supervisord's programs; the pid files and init scripts that name it), and {@link #decide}
 * reads them into a {@link RunningService}, without I/O. Every value the host prints is bounded there and checked
 * again here: a name that ends up in a restart command or a unit file must be a name.
 */
public final class ServiceDiscovery {
    /** The script's first line, so that a fake host can recognise it. */
    public static final String FIRST_LINE = "# fleetfix: which service runs the Redis on each port";

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final int MAX_LINES = 2000;
    private static final int MAX_LINE = 4096;
    private static final Pattern PROGRAM = Pattern.compile("[A-Za-z0-9_.:-]{1,128}");
    private static final Pattern INIT_SCRIPT = Pattern.compile("/etc/(rc\\.d/)?init\\.d/([A-Za-z0-9_.@+-]{1,128})");
    private static final Pattern PATH = Pattern.compile("/[A-Za-z0-9_.@+=,/-]{1,1024}");
    private static final Pattern STATUS_PID = Pattern.compile("\\bpid (\\d{1,9}),");
    private static final Pattern CONTAINER = Pattern.compile(
            "(docker|libpod|cri-containerd|crio|containerd)[-:]([0-9a-f]{12,64})(\\.scope)?|/docker/([0-9a-f]{12,64})");
    private static final Set<String> SHIMS =
            Set.of("containerd-shim", "containerd-shim-runc-v2", "conmon", "docker-containerd-shim", "runc");

    private ServiceDiscovery() {}

    /**
     * Runs the script as root on the host and decides for each port (in order).
     *
     * @param address the address Redis listens on: a listener at another IP is another host's (containers that
     *     share the network) or another instance's; empty or a name counts every listener on the port
     * @param config the config file INFO server's {@code config_file} names, when Redis answered
     */
    public static List<RunningService> discover(
            RemoteShell shell, String address, List<Integer> ports, Optional<String> config) {
        ExecResult r =
                shell.exec(Command.of(script(address, ports, config)).asRoot().withTimeout(TIMEOUT));
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
        return decide(r.stdout(), ports);
    }

    /** The script: read-only, as root; bounded output for each port. */
    public static String script(String address, List<Integer> ports, Optional<String> config) {
        // the implicit localhost connects to Redis by name: its listener is the loopback one, not every one on the
        // port (a machine that runs containers with host networking has many)
        String named = address.equalsIgnoreCase("localhost") ? "127.0.0.1" : address;
        String ip = named.matches("[0-9.]+|[0-9a-fA-F:]+") ? named : "";
        StringBuilder s = new StringBuilder(FIRST_LINE).append('\n');
        s.append("fx_addr=").append(ShellQuote.quote(ip)).append('\n');
        s.append("fx_conf=")
                .append(ShellQuote.quote(
                        config.filter(c -> PATH.matcher(c).matches()).orElse("")))
                .append('\n');
        s.append(String.join(
                "\n",
                "fx_to() { if command -v timeout >/dev/null 2>&1; then timeout 10 \"$@\"; else \"$@\"; fi; }",
                "fx_p() { tr -cd '[:print:]' | head -c 1024; }",
                "echo \"self.pidns=$(readlink /proc/$$/ns/pid 2>/dev/null | fx_p)\"",
                "echo \"pid1=$(head -c 64 /proc/1/comm 2>/dev/null | fx_p)\"",
                "echo \"info.config=$fx_conf\"",
                "fx_has_systemctl=0; command -v systemctl >/dev/null 2>&1 && fx_has_systemctl=1",
                "fx_port() {",
                "  port=$1; echo \"port=$port\"",
                "  pids=''; n=0",
                "  if command -v ss >/dev/null 2>&1; then",
                "    out=$(fx_to ss -ltnpH 2>/dev/null | head -n 2000 | awk -v a=\"$fx_addr\" -v p=\"$port\" '"
                        + "{ l = $4; sub(/%[^:]*/, \"\", l); n = split(l, x, \":\"); if (x[n] != p) next;"
                        + " h = substr(l, 1, length(l) - length(p) - 1); gsub(/^\\[|\\]$/, \"\", h);"
                        + " if (a != \"\" && h != a && h != \"0.0.0.0\" && h != \"*\" && h != \"::\" && h != \"::ffff:\" a)"
                        + " next; c++; s = $0;"
                        + " while (match(s, /pid=[0-9]+/)) { print substr(s, RSTART + 4, RLENGTH - 4);"
                        + " s = substr(s, RSTART + RLENGTH) } } END { print \"sockets=\" c + 0 }')",
                "    echo \"$out\" | grep '^sockets=' | head -n 1",
                "    pids=$(echo \"$out\" | grep -v '^sockets=' | sort -un | head -n 8)",
                "  fi",
                "  if [ -z \"$pids\" ]; then",
                // no ss, or no -p: the listening sockets' inodes, then the processes that hold them
                "    hp=$(printf '%04X' \"$port\")",
                "    inodes=$(cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk -v hp=\"$hp\" '$4 == \"0A\""
                        + " { n = split($2, a, \":\"); if (a[n] == hp) print $10 }' | sort -u | head -n 16)",
                "    echo \"proc.sockets=$(echo $inodes | wc -w)\"",
                "    for i in $inodes; do",
                "      case \"$i\" in ''|*[!0-9]*) continue;; esac",
                "      pids=\"$pids $(fx_to find /proc/[0-9]*/fd -maxdepth 1 -lname \"socket:\\[$i\\]\" 2>/dev/null"
                        + " | head -n 8 | cut -d/ -f3)\"",
                "    done",
                "    pids=$(for p in $pids; do echo \"$p\"; done | sort -un | head -n 8)",
                "  fi",
                "  for pid in $pids; do",
                "    case \"$pid\" in ''|*[!0-9]*) continue;; esac",
                "    echo \"pid=$pid\"",
                "    echo \"pid.comm=$(head -c 64 /proc/$pid/comm 2>/dev/null | fx_p)\"",
                "    echo \"pid.exe=$(readlink /proc/$pid/exe 2>/dev/null | fx_p)\"",
                "    echo \"pid.pidns=$(readlink /proc/$pid/ns/pid 2>/dev/null | fx_p)\"",
                "    head -c 2048 /proc/$pid/cmdline 2>/dev/null | tr '\\000' '\\n' | head -n 32"
                        + " | while IFS= read -r a || [ -n \"$a\" ]; do [ -n \"$a\" ] && echo \"pid.arg=$(printf '%s' \"$a\" | fx_p)\";"
                        + " done",
                "    head -c 4096 /proc/$pid/cgroup 2>/dev/null | head -n 32 | tr -cd '[:print:]\\n'"
                        + " | sed 's/^/pid.cgroup=/'",
                "    p=$pid; k=0; sv=''",
                "    while [ $k -lt 16 ]; do",
                "      p=$(awk '/^PPid:/ { print $2; exit }' /proc/$p/status 2>/dev/null)",
                "      case \"$p\" in ''|0|*[!0-9]*) break;; esac",
                "      c=$(head -c 64 /proc/$p/comm 2>/dev/null | fx_p)",
                "      echo \"parent=$p $c\"",
                "      [ \"$c\" = supervisord ] && [ -z \"$sv\" ] && sv=$p",
                "      k=$((k + 1))",
                "    done",
                "    unit=$(sed -n 's#^[^:]*:[^:]*:##p' /proc/$pid/cgroup 2>/dev/null | head -n 32 | tr '/' '\\n'"
                        + " | grep '\\.service$' | tail -n 1 | head -c 256)",
                "    case \"$unit\" in *[!A-Za-z0-9:_.@-]*|-*) unit='';; esac",
                "    if [ -n \"$unit\" ] && [ $fx_has_systemctl = 1 ]; then",
                "      echo \"unit=$unit\"",
                "      fx_to systemctl show -p Id -p SourcePath -p FragmentPath -p MainPID -p ExecStart -- \"$unit\""
                        + " 2>/dev/null | head -n 8 | cut -c 1-1024 | tr -cd '[:print:]\\n' | sed 's/^/unit./'",
                "    fi",
                "    if [ -n \"$sv\" ]; then",
                "      conf=$(head -c 4096 /proc/$sv/cmdline 2>/dev/null | tr '\\000' '\\n' | awk"
                        + " 'f { print; exit } $0 == \"-c\" || $0 == \"--configuration\" { f = 1 }"
                        + " /^--configuration=/ { sub(/^--configuration=/, \"\"); print; exit }' | fx_p)",
                "      echo \"supervisord=$sv\"",
                "      echo \"supervisord.conf=$conf\"",
                "      if command -v supervisorctl >/dev/null 2>&1; then",
                "        if [ -n \"$conf\" ]; then fx_to supervisorctl -c \"$conf\" status 2>&1;"
                        + " else fx_to supervisorctl status 2>&1; fi | head -n 200 | cut -c 1-512"
                        + " | tr -cd '[:print:]\\n' | sed 's/^/supervisor.status=/'",
                "      fi",
                "    fi",
                "    if [ \"$(head -c 64 /proc/1/comm 2>/dev/null)\" != systemd ] || [ -z \"$unit\" ]; then",
                // without systemd: the init script that names the pid file holding this PID, or the config file
                "      for f in /run/*.pid /run/*/*.pid /var/run/*.pid /var/run/*/*.pid; do",
                "        [ -f \"$f\" ] && [ \"$(head -c 32 \"$f\" | tr -cd 0-9)\" = \"$pid\" ] && echo \"$f\"",
                "      done 2>/dev/null | head -n 8 | while IFS= read -r f; do",
                "        echo \"pidfile=$(printf '%s' \"$f\" | fx_p)\"",
                "        b=$(basename \"$f\")",
                "        grep -l -F -e \"$b\" /etc/init.d/* /etc/rc.d/init.d/* 2>/dev/null | head -n 8"
                        + " | sed 's/^/initd.pidfile=/'",
                "      done",
                "      cf=$fx_conf",
                "      [ -z \"$cf\" ] && cf=$(head -c 2048 /proc/$pid/cmdline 2>/dev/null | tr '\\000' '\\n'"
                        + " | grep '^/.*\\.conf$' | head -n 1)",
                "      if [ -n \"$cf\" ]; then",
                "        grep -l -F -e \"$cf\" /etc/init.d/* /etc/rc.d/init.d/* 2>/dev/null | head -n 8"
                        + " | sed 's/^/initd.config=/'",
                "      fi",
                "    fi",
                "  done",
                "}"));
        s.append('\n');
        for (int port : ports) {
            s.append("fx_port ").append(port).append('\n');
        }
        s.append("echo end=1\n");
        return s.toString();
    }

    /** The services of each port, from the script's output; a port the output does not cover is unknown. */
    public static List<RunningService> decide(String output, List<Integer> ports) {
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
                            : decidePort(port, global, block));
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

    private static RunningService decidePort(int port, Map<String, String> global, List<String[]> block) {
        Map<String, String> portLines = new LinkedHashMap<>();
        List<Proc> procs = new ArrayList<>();
        Proc proc = null;
        for (String[] kv : block) {
            if (kv[0].equals("pid")) {
                OptionalLong pid = number(kv[1]);
                if (pid.isEmpty() || procs.size() >= 8) {
                    proc = null;
                    continue;
                }
                proc = new Proc(pid.getAsLong(), new LinkedHashMap<>(), new LinkedHashMap<>());
                procs.add(proc);
            } else if (proc != null) {
                proc.one().putIfAbsent(kv[0], kv[1]);
                proc.many().computeIfAbsent(kv[0], k -> new ArrayList<>()).add(kv[1]);
            } else {
                portLines.putIfAbsent(kv[0], kv[1]);
            }
        }
        Optional<String> infoConfig = path(global.getOrDefault("info.config", ""));
        if (procs.isEmpty()) {
            long sockets = Math.max(
                    number(portLines.getOrDefault("sockets", "")).orElse(0),
                    number(portLines.getOrDefault("proc.sockets", "")).orElse(0));
            if (sockets > 0) {
                return RunningService.unknown(
                        port,
                        OptionalLong.empty(),
                        infoConfig,
                        sockets + " socket(s) listen on :" + port
                                + " but no process of this host holds one (another PID namespace: a container,"
                                + " or the script could not run as root)");
            }
            return RunningService.none(port, "nothing listens on :" + port + ": Redis is not running there");
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
        boolean cgroupOnly = ns.isEmpty() && containerId.isPresent() && noServiceInside(p.all("pid.cgroup"));
        if (otherNs || shim.isPresent() || cgroupOnly) {
            String id = containerId.orElse(shim.map(s -> "under " + s).orElse("of unknown id"));
            String evidence = otherNs
                    ? "its own PID namespace"
                    : shim.map(s -> "started by " + s).orElse("cgroup");
            return new RunningService(
                    port,
                    Manager.CONTAINER,
                    Optional.of(id),
                    pid,
                    config,
                    Optional.empty(),
                    Optional.empty(),
                    "Redis runs in a container on this host (" + evidence + ")",
                    Optional.empty());
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
                    unitName(p.get("unit")));
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
                Optional.of(id));
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
