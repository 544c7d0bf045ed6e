package dev.fleetfix.fake;

import dev.fleetfix.checks.HostAuditor;
import dev.fleetfix.checks.ServiceDiscovery;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.RemoteShell;
import dev.fleetfix.transport.TransportException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A simulated host: a directory standing in for its root file system (/etc, /sys, /run, /boot,
 * /proc/sys, /var/lib), with THP files, an os-release, fake {@code systemctl} / {@code update-grub} commands that log
 * their calls, and a {@link FakeRedis}. Its shell runs the engine's scripts with the real
 * {@code /bin/sh}, with absolute paths under those directories redirected into the sandbox, so
 * the steps' shell text is exercised as written.
 */
public final class FakeHost {
    /** How {@link dev.fleetfix.steps.restart.ServiceRestart}'s restart scripts begin. */
    private static final String RESTART_SCRIPT = dev.fleetfix.steps.restart.ServiceRestart.FIRST_LINE;

    // /proc/sys too: a sysctl step must write the simulated kernel's parameters, never this machine's
    private static final Pattern ROOTED = Pattern.compile("(?<=^|[\\s'\"=>;(])/(proc/sys|sys|etc|run|boot|var/lib)/");

    private final String name;
    private final Path root;
    private final FakeRedis redis;
    private final RecordingShell shell;
    private volatile Predicate<String> transientFailure = s -> false;
    private volatile boolean restartBreaksRedis;
    private volatile boolean transientAlways;
    private volatile Predicate<String> timeOut = s -> false;
    private volatile Predicate<String> breakAfterSending = s -> false;
    private volatile Predicate<String> crash = s -> false;
    private volatile Map<String, Object> vars = Map.of("redis_service", "redis-server");
    private volatile String runningUnit = "redis-server.service";
    private volatile List<String> initScripts = List.of();
    private volatile Optional<String> discovery = Optional.empty();
    private volatile boolean restartIsNoop;

    public FakeHost(String name, Path dir) {
        this.name = name;
        this.root = dir.resolve(name);
        this.redis = new FakeRedis(name);
        this.shell = RecordingShell.answering(name, this::answer).onPut(this::put);
        try {
            Files.createDirectories(root.resolve("sys/kernel/mm/transparent_hugepage"));
            Files.createDirectories(root.resolve("etc/systemd/system"));
            Files.createDirectories(root.resolve("etc/default"));
            Files.createDirectories(root.resolve("run/systemd/system"));
            Files.createDirectories(root.resolve("bin"));
            Files.createDirectories(root.resolve("var/enabled"));
            write("/proc/1/comm", "systemd\n");
            // Linux's defaults since 5.4
            write("/proc/sys/vm/overcommit_memory", "0\n");
            write("/proc/sys/net/core/somaxconn", "4096\n");
            write("/sys/kernel/mm/transparent_hugepage/enabled", "[always] madvise never\n");
            write("/sys/kernel/mm/transparent_hugepage/defrag", "[always] defer defer+madvise madvise never\n");
            write("/etc/os-release", "ID=debian\nVERSION_ID=\"12\"\n");
            write(
                    "/etc/default/grub",
                    "GRUB_DEFAULT=0\nGRUB_CMDLINE_LINUX_DEFAULT=\"quiet\"\nGRUB_CMDLINE_LINUX=\"\"\n");
            tool(
                    "systemctl",
                    "echo \"systemctl $*\" >> \"$FAKE_ROOT/calls.log\"\n"
                            + "case \"$1\" in\n"
                            + "  cat) u=\"$2\"; [ \"$u\" = -- ] && u=\"$3\"; if [ -e \"$FAKE_ROOT/var/missing/$u\" ];"
                            + " then echo \"No files found for $u.\" >&2; exit 1; fi;;\n"
                            + "  is-enabled) if [ -e \"$FAKE_ROOT/var/enabled/$2\" ]; then echo enabled; else echo disabled; exit 1; fi;;\n"
                            + "  enable) touch \"$FAKE_ROOT/var/enabled/$2\";;\n"
                            + "  restart) if [ -e \"$FAKE_ROOT/var/missing/$2\" ]; then"
                            + " echo \"Failed to restart $2.service: Unit $2.service not found.\" >&2; exit 5; fi;"
                            + " if [ -e \"$FAKE_ROOT/fail-restart\" ]; then echo 'Job failed' >&2; exit 1; fi;"
                            + " rm -f \"$FAKE_ROOT/var/redis-stopped\";;\n"
                            + "  show) if [ -e \"$FAKE_ROOT/var/redis-stopped\" ]; then echo inactive; else echo active; fi;;\n"
                            + "  is-active) if [ -e \"$FAKE_ROOT/var/active/$2\" ]; then echo active; else echo inactive;"
                            + " exit 3; fi;;\n"
                            + "esac\n");
            // no Redis process of this machine may count as the simulated host's
            tool("ps", "exit 0\n");
            tool("update-grub", "echo update-grub >> \"$FAKE_ROOT/calls.log\"\n");
            // ss -ltnH: Redis listens on 6379 unless stopped; another instance, at another address, always
            tool(
                    "ss",
                    "echo 'LISTEN 0 511 127.0.0.99:6379 0.0.0.0:*'\n"
                            + "[ -e \"$FAKE_ROOT/var/redis-stopped\" ] || echo 'LISTEN 0 511 127.0.0.1:6379 0.0.0.0:*'\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String name() {
        return name;
    }

    public FakeRedis redis() {
        return redis;
    }

    public Host host() {
        return TestHosts.named(name).groups("all", "redis").vars(vars).build();
    }

    /** An instance of {@code machine}'s {@code redis_instances}: shares its changes and never its batch. */
    public FakeHost instanceOf(String machine) {
        Map<String, Object> more = new java.util.LinkedHashMap<>(vars);
        more.put("redis_instance_of", machine);
        vars = Map.copyOf(more);
        return this;
    }

    /** The inventory names no {@code redis_service}: fleetfix picks the unit. */
    public FakeHost withoutNamedService() {
        vars = Map.of();
        return this;
    }

    /** The systemd unit the host shows running its Redis ({@code redis-server.service} by default). */
    public FakeHost runs(String unit) {
        runningUnit = unit;
        return this;
    }

    /** What the service discovery script prints on this host, as given (a supervisord or container host, say). */
    public FakeHost discovers(String output) {
        discovery = Optional.of(output);
        return this;
    }

    /** A restart command that exits 0 without restarting Redis (a SysV script whose stop fails silently). */
    public FakeHost restartDoesNothing() {
        restartIsNoop = true;
        return this;
    }

    /** A command on the host's PATH, a shell script (a fake {@code supervisorctl}, say). */
    public FakeHost command(String name, String body) {
        try {
            tool(name, body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** A file of the simulated host, by its absolute path there. */
    public Path path(String absolute) {
        return root.resolve(absolute.substring(1));
    }

    public Optional<String> read(String absolute) {
        Path p = path(absolute);
        try {
            return Files.exists(p) ? Optional.of(Files.readString(p)) : Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public void write(String absolute, String content) {
        try {
            Path p = path(absolute);
            Files.createDirectories(p.getParent());
            Files.writeString(p, content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public void delete(String absolute) {
        try {
            Files.deleteIfExists(path(absolute));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The selected THP mode of a file ("enabled" or "defrag"), in either sysfs shape. */
    public String thp(String file) {
        String text =
                read("/sys/kernel/mm/transparent_hugepage/" + file).orElse("").strip();
        Matcher m = Pattern.compile("\\[([a-z+]+)]").matcher(text);
        return m.find() ? m.group(1) : text;
    }

    /** Calls of systemctl / update-grub, one per line. */
    public List<String> calls() {
        return read("/calls.log").map(s -> List.of(s.split("\n"))).orElse(List.of());
    }

    public List<String> scripts() {
        return shell.scripts();
    }

    /** Every command sent, with whether it asked for root. */
    public List<Command> commands() {
        return shell.commands();
    }

    /** Every file under the simulated root with its content, to prove check mode writes nothing. */
    public Map<String, String> snapshot() {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile)
                    .filter(p -> !p.getFileName().toString().equals("calls.log"))
                    .collect(java.util.stream.Collectors.toMap(
                            p -> root.relativize(p).toString(),
                            p -> {
                                try {
                                    return Files.readString(p);
                                } catch (IOException e) {
                                    throw new UncheckedIOException(e);
                                }
                            },
                            (a, b) -> a,
                            java.util.TreeMap::new));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * tuned installed and enabled, applying {@code profile} (in /etc/tuned, with {@code vm} settings {@code vm}), running
     * or not; a fake {@code tuned-adm profile NAME} logs its call and makes NAME the active profile.
     */
    public void withTuned(String profile, String vm, boolean running) {
        write("/etc/tuned/" + profile + "/tuned.conf", "[main]\nsummary=test\n\n[vm]\n" + vm + "\n");
        write("/etc/tuned/active_profile", profile + "\n");
        try {
            Files.createDirectories(root.resolve("var/active"));
            // systemctl takes the unit with or without its suffix
            for (String unit : List.of("tuned", "tuned.service")) {
                Files.writeString(root.resolve("var/enabled/" + unit), "");
                if (running) {
                    Files.writeString(root.resolve("var/active/" + unit), "");
                }
            }
            tool(
                    "tuned-adm",
                    "echo \"tuned-adm $*\" >> \"$FAKE_ROOT/calls.log\"\n"
                            + "[ \"$1\" = profile ] && echo \"$2\" > \"$FAKE_ROOT/etc/tuned/active_profile\"\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public void removeSystemd() {
        write("/proc/1/comm", "init\n");
        try {
            Files.delete(path("/run/systemd/system"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Redis is stopped: its unit inactive, nothing listening, connections refused (until a restart). */
    public void stopRedis() {
        write("/var/redis-stopped", "");
        redis.kill();
    }

    /**
     * A host without systemd: PID 1 is SysV {@code init}, no systemctl, and {@code
     * /etc/init.d/<service>} scripts that log their calls.
     */
    public FakeHost sysv(String... services) {
        write("/proc/1/comm", "init\n");
        try {
            Files.deleteIfExists(root.resolve("bin/systemctl"));
            Files.deleteIfExists(root.resolve("run/systemd/system"));
            for (String service : services) {
                initScripts = List.of(services);
                Path script = path("/etc/init.d/" + service);
                Files.createDirectories(script.getParent());
                Files.writeString(
                        script,
                        "#!/bin/sh\necho \"init.d " + service + " $*\" >> \"$FAKE_ROOT/calls.log\"\n"
                                // LSB status: 3 when not running
                                + "if [ \"$1\" = status ]; then [ -e \"$FAKE_ROOT/var/redis-stopped\" ] && exit 3;"
                                + " exit 0; fi\n"
                                + "if [ -e \"$FAKE_ROOT/fail-restart\" ]; then exit 1; fi\n"
                                + "rm -f \"$FAKE_ROOT/var/redis-stopped\"\n");
                Files.setPosixFilePermissions(script, perms(0755));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** systemd knows no unit {@code unit}: {@code systemctl cat} and {@code systemctl restart} say so. */
    public FakeHost missingUnit(String unit) {
        write("/var/missing/" + unit, "");
        return this;
    }

    /** Makes {@code systemctl restart} fail. */
    public void failRestarts() {
        write("/fail-restart", "");
    }

    /** After a restart, Redis never answers again. */
    public void restartBreaksRedis() {
        restartBreaksRedis = true;
    }

    /** Scripts matching this throw a transient TransportException (once per matching call). */
    public void failTransiently(Predicate<String> which) {
        transientFailure = which;
    }

    /**
     * Scripts matching this are sent and then time out, as a command that outlives its timeout:
     * logged as sent, and the shell throws what a real one throws then.
     */
    public void timeOut(Predicate<String> which) {
        timeOut = which;
    }

    /**
     * Scripts matching this are sent, and then their connection breaks (the connection holder killed while they run):
     * the shell throws what {@code HeldShell} throws then.
     */
    public void breakAfterSending(Predicate<String> which) {
        breakAfterSending = which;
    }

    /**
     * Scripts matching this throw a {@link StackOverflowError}, as a library does that parses what a
     * hostile peer sent by recursion.
     */
    public void crashOn(Predicate<String> which) {
        crash = which;
    }

    /** Every command throws a transient TransportException: the host is gone. */
    public void failTransientlyAlways() {
        transientAlways = true;
    }

    public RemoteShell shell() {
        return shell;
    }

    private void tool(String name, String body) throws IOException {
        Path p = root.resolve("bin").resolve(name);
        Files.writeString(p, "#!/bin/sh\n" + body);
        Files.setPosixFilePermissions(
                p,
                EnumSet.of(
                        PosixFilePermission.OWNER_READ,
                        PosixFilePermission.OWNER_WRITE,
                        PosixFilePermission.OWNER_EXECUTE));
    }

    /** Runs a script the way the host would; the shell has recorded it already. */
    private ExecResult answer(Command command) {
        String script = command.script();
        if (transientAlways) {
            throw new TransportException(name, TransportException.Kind.TIMEOUT, "timed out (fake)", null);
        }
        if (crash.test(script)) {
            throw new StackOverflowError();
        }
        if (timeOut.test(script)) {
            throw TransportException.afterSending(
                    name,
                    TransportException.Kind.TIMEOUT,
                    "command timed out after " + command.timeout().toSeconds() + "s: " + script,
                    null);
        }
        if (breakAfterSending.test(script)) {
            throw TransportException.afterSending(
                    name,
                    TransportException.Kind.BROKEN,
                    "the connection holder went away while '"
                            + script.lines().findFirst().orElse("") + "' ran: Broken pipe",
                    null);
        }
        if (transientFailure.test(script)) {
            transientFailure = s -> false;
            throw new TransportException(name, TransportException.Kind.BROKEN, "connection reset (fake)", null);
        }
        if (script.startsWith(HostAuditor.FIRST_LINE)) {
            // the one-trip audit: the fact script as it is, then what discovery would print here
            String marker = "\necho '" + HostAuditor.SERVICES_MARKER + "'\n";
            int split = script.indexOf(marker);
            String facts = script.substring(script.indexOf("\n(\n") + 3, split - 2);
            String discovery = script.substring(split + marker.length());
            ExecResult read = answer(Command.of(facts).asRoot().withTimeout(command.timeout()));
            String services = discovery.isEmpty() ? "" : discovery.substring(2);
            return new ExecResult(
                    0,
                    read.stdout() + HostAuditor.SERVICES_MARKER + "\n"
                            + this.discovery.orElseGet(() -> discoveryOutput(services)),
                    read.stderr(),
                    Duration.ZERO);
        }
        if (script.startsWith(ServiceDiscovery.FIRST_LINE)) {
            return new ExecResult(0, discovery.orElseGet(() -> discoveryOutput(script)), "", Duration.ZERO);
        }
        String rooted = ROOTED.matcher(script)
                .replaceAll(Matcher.quoteReplacement(root.toString()) + "/$1/")
                .replace("/proc/1/comm", root.resolve("proc/1/comm").toString());
        ExecResult result = sh(rooted);
        boolean restarts = script.startsWith("systemctl restart") || script.startsWith(RESTART_SCRIPT);
        if (restarts && result.ok() && !restartIsNoop) {
            redis.restart(restartBreaksRedis);
        }
        return result;
    }

    /**
     * What the discovery script would print here: for each port it asks about, nothing listening while Redis is
     * stopped; else pid 4242 in {@link #runs}'s unit under systemd, or started by the first {@link #sysv} script.
     */
    private String discoveryOutput(String script) {
        String pid1 = read("/proc/1/comm").orElse("").strip();
        StringBuilder out = new StringBuilder("self.pidns=pid:[1]\npid1=" + pid1 + "\ninfo.config=\n");
        Matcher list = Pattern.compile("(?m)^fx_ports='?([0-9 ]*)'?$").matcher(script);
        List<String> ports = list.find() ? List.of(list.group(1).strip().split(" +")) : List.of();
        for (String port : ports) {
            out.append("port=").append(port).append('\n');
            if (path("/var/redis-stopped").toFile().exists()) {
                out.append("sockets=0\n");
                continue;
            }
            out.append("sockets=1\npid=4242\npid.comm=redis-server\npid.exe=/usr/bin/redis-server\n")
                    .append("pid.pidns=pid:[1]\npid.arg=/usr/bin/redis-server 127.0.0.1:6379\n");
            if (pid1.equals("systemd")) {
                out.append("pid.cgroup=0::/system.slice/" + runningUnit + "\nparent=1 systemd\nunit=" + runningUnit
                        + "\nunit.Id=" + runningUnit + "\nunit.MainPID=4242\n");
            } else {
                out.append("pid.cgroup=0::/\nparent=1 init\n");
                if (!initScripts.isEmpty()) {
                    out.append("pidfile=/run/redis.pid\ninitd.pidfile=/etc/init.d/" + initScripts.get(0) + "\n");
                }
            }
        }
        return out.append("end=1\n").toString();
    }

    private void put(String remotePath, byte[] content, int mode, boolean become) {
        try {
            Path p = path(remotePath);
            Files.createDirectories(p.getParent());
            Files.write(p, content);
            Files.setPosixFilePermissions(p, perms(mode));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private ExecResult sh(String script) {
        try {
            ProcessBuilder pb = new ProcessBuilder("sh", "-c", script);
            pb.environment().put("PATH", root.resolve("bin") + ":/usr/bin:/bin");
            pb.environment().put("FAKE_ROOT", root.toString());
            Process p = pb.start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes();
            byte[] err = p.getErrorStream().readAllBytes();
            p.waitFor(30, TimeUnit.SECONDS);
            return new ExecResult(
                    p.exitValue(),
                    new String(out, StandardCharsets.UTF_8),
                    new String(err, StandardCharsets.UTF_8),
                    Duration.ZERO);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Set<PosixFilePermission> perms(int mode) {
        Set<PosixFilePermission> perms = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] order = {
            PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
            PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ
        };
        for (int i = 0; i < order.length; i++) {
            if ((mode & (1 << i)) != 0) {
                perms.add(order[i]);
            }
        }
        perms.add(PosixFilePermission.OWNER_WRITE);
        return perms;
    }
}
