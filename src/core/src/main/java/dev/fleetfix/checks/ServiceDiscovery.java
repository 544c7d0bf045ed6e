package dev.fleetfix.checks;

import dev.fleetfix.checks.DiscoveryOutput.Proc;
import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.RemoteShell;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
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
 * turns them into a {@link RunningService}, without I/O: {@link DiscoveryOutput} reads and bounds the lines, this class
 * decides which process is the port's Redis, and {@link ManagerDecision} who manages that process. Every value the
 * host prints is bounded there and checked again here: a name that ends up in a restart command or a unit file must be
 * a name.
 */
public final class ServiceDiscovery {
    /** The script's first line, so that a fake host can recognise it. */
    public static final String FIRST_LINE = "# fleetfix: which service runs the Redis on each port";

    static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Pattern TITLE_PORT = Pattern.compile("^\\S*redis-server \\S*:(\\d{1,5})\\b");

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
        DiscoveryOutput read = DiscoveryOutput.read(output, ports);
        List<RunningService> out = new ArrayList<>();
        for (int port : ports) {
            DiscoveryOutput.Port block = read.ports().get(port);
            out.add(
                    block == null
                            ? RunningService.unknown(
                                    port,
                                    OptionalLong.empty(),
                                    Optional.empty(),
                                    "the discovery script printed nothing for this port")
                            : decidePort(port, address, redisError, read, block));
        }
        return out;
    }

    /**
     * Which process of those the script detailed is the Redis on {@code port}: one that holds a listener at the
     * address (else the one Redis names itself, where root could not map a socket to its process), counting a forked
     * child as its parent; then who manages it ({@link ManagerDecision}). Several that different services run are not
     * guessed between.
     */
    private static RunningService decidePort(
            int port, String address, Optional<String> redisError, DiscoveryOutput read, DiscoveryOutput.Port block) {
        Optional<String> infoConfig = read.infoConfig();
        Listeners listeners = Listeners.of(address, block.lines());
        List<Proc> holders =
                block.procs().stream().filter(p -> listeners.holds(p.pid())).toList();
        // root could not map the socket to its process: what Redis says of itself, if it is that process
        List<Proc> procs = holders.isEmpty() && listeners.sockets() > 0 ? selfReported(port, block) : holders;
        if (procs.isEmpty()) {
            return nobody(port, listeners.where(address, port), listeners.sockets(), redisError, infoConfig);
        }
        // a process that forked a child holding the same socket (a BGSAVE child of an old Redis): the parent
        List<Proc> roots = procs.stream()
                .filter(p ->
                        procs.stream().noneMatch(q -> q != p && p.ancestors().contains(q.pid())))
                .toList();
        List<RunningService> found = roots.stream()
                .map(p -> ManagerDecision.of(port, read.host(), p, infoConfig))
                .toList();
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

    /** No process of this host holds a listener at {@code where}: none listens, or one in another PID namespace. */
    private static RunningService nobody(
            int port, String where, int sockets, Optional<String> redisError, Optional<String> infoConfig) {
        if (sockets > 0) {
            return RunningService.unknown(
                    port,
                    OptionalLong.empty(),
                    infoConfig,
                    sockets + " socket(s) listen on " + where
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

    /**
     * The process INFO's {@code process_id} names, when it is a Redis: its command or executable is INFO's
     * {@code executable} or a redis-server's (a PID from another PID namespace may be anything here).
     */
    private static List<Proc> selfReported(int port, DiscoveryOutput.Port block) {
        OptionalLong pid = DiscoveryOutput.number(block.first("info.pid"));
        String exe = DiscoveryOutput.baseName(block.first("info.exe"));
        for (Proc p : block.procs()) {
            if (pid.isPresent() && p.pid() == pid.getAsLong()) {
                Set<String> names = p.names();
                boolean redis = (!exe.isEmpty() && names.contains(exe))
                        || names.stream().anyMatch(n -> n.startsWith("redis-server") || n.startsWith("valkey-server"));
                // its process title names its port ("redis-server 127.0.0.1:6380"): another port is another Redis
                Matcher title = TITLE_PORT.matcher(p.command());
                redis &= !title.find() || title.group(1).equals(Integer.toString(port));
                if (redis && p.get("pid.exe").isEmpty() && !exe.isEmpty()) {
                    p.one().put("pid.exe", block.first("info.exe"));
                }
                return redis ? List.of(p) : List.of();
            }
        }
        return List.of();
    }

    private static String bounded(String text, int max) {
        String one = text.replaceAll("[\\p{Cntrl}]", " ");
        return one.length() <= max ? one : one.substring(0, max) + "...";
    }
}
