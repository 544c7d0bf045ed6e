package dev.fleetfix.steps.restart;

import dev.fleetfix.checks.Container;
import dev.fleetfix.redis.RedisConfFile;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.RemoteShell;
import dev.fleetfix.transport.ShellQuote;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Reads whether a running Redis persists its data, from what can be read:
 *
 * <ol>
 *   <li>{@code aof_enabled} of INFO persistence: the running value, always readable;
 *   <li>{@code CONFIG GET save} when Redis allows it;
 *   <li>when CONFIG is refused: the config file Redis was started with ({@code config_file} of INFO
 *       server), read over SSH with its {@code include}s. A config file whose {@code rename-command}
 *       gives CONFIG a new name is asked under that name; one that disables CONFIG ({@code ""})
 *       holds the running {@code save}, since nothing can change it at runtime, unless the command
 *       line overrode it, which is read from the systemd unit that started this process.
 * </ol>
 *
 * For a Redis in a container, the files it names are paths inside the container: each is read where the container's
 * volume or bind mount puts it on the host, and one in the container's own layer is not read (the same path on the
 * host is another file); its command line is the process's own, read from {@code /proc} by its pid on the host.
 *
 * Anything else leaves the fact unknown, with the reason: an ACL user refused CONFIG may share Redis
 * with one that changed {@code save} at runtime, so the file then proves nothing.
 */
final class PersistenceReader {
    private static final Duration READ = Duration.ofSeconds(20);
    private static final int MAX_FILES = 16;

    private final RemoteShell shell;
    private final String unit;
    private final Optional<Container> container;
    private final OptionalLong hostPid;

    PersistenceReader(RemoteShell shell, String unit) {
        this(shell, unit, Optional.empty(), OptionalLong.empty());
    }

    /**
     * @param container the container Redis runs in, if any
     * @param hostPid Redis's pid on the host (for a container, not INFO's {@code process_id})
     */
    PersistenceReader(RemoteShell shell, String unit, Optional<Container> container, OptionalLong hostPid) {
        this.shell = shell;
        this.unit = unit;
        this.container = container;
        this.hostPid = hostPid;
    }

    Persistence read(RedisNode node, Map<String, String> persistence, Map<String, String> server) {
        Optional<Boolean> aof = flag(persistence.get("aof_enabled"));
        Rdb rdb;
        try {
            Optional<String> save = node.configGet("save");
            rdb = new Rdb(
                    save.map(points -> !points.isBlank()),
                    Persistence.CONFIG_GET,
                    save.isPresent() ? "" : "CONFIG GET save answered nothing");
        } catch (RedisException e) {
            if (!e.refused()) {
                throw e;
            }
            rdb = fromConfFile(node, server, "CONFIG GET save refused (" + refusalWords(e) + ")");
        }
        String why = Stream.of(rdb.why(), aof.isEmpty() ? "aof_enabled missing from INFO persistence" : "")
                .filter(w -> !w.isEmpty())
                .collect(Collectors.joining("; "));
        return new Persistence(rdb.saves(), aof, rdb.source(), why.isEmpty() ? Optional.empty() : Optional.of(why));
    }

    /** What was read of the RDB save points: whether there are any and where that was read, or why not. */
    private record Rdb(Optional<Boolean> saves, String source, String why) {
        static Rdb unknown(String why) {
            return new Rdb(Optional.empty(), "", why);
        }
    }

    /**
     * The save points from the config file Redis was started with, when CONFIG is {@code refused}: asked under the
     * name the file gives CONFIG, or read from the file itself when it disables CONFIG and the command line does not
     * override it.
     */
    private Rdb fromConfFile(RedisNode node, Map<String, String> server, String refused) {
        String file = server.getOrDefault("config_file", "").strip();
        if (file.isEmpty()) {
            return Rdb.unknown(refused + " and Redis runs without a config file (config_file is empty)");
        }
        RedisConfFile conf;
        try {
            conf = load(file);
        } catch (Unreadable e) {
            return Rdb.unknown(refused + " and " + e.getMessage());
        }
        String configName = conf.renamedCommands().get("CONFIG");
        if (configName == null) {
            return Rdb.unknown(refused + ", and " + file
                    + " does not disable CONFIG, so someone may have changed save at runtime");
        }
        if (!configName.isEmpty()) {
            return viaRenamed(node, configName, refused);
        }
        Optional<String> commandLine = commandLineOverride(server.get("process_id"));
        if (commandLine.isPresent()) {
            return Rdb.unknown(refused + "; " + commandLine.get());
        }
        String last = conf.lastSave()
                .map(d -> d.args().stream()
                        .map(arg -> arg.isEmpty() ? "\"\"" : arg)
                        .collect(Collectors.joining(" ", "save ", "")))
                .orElse("no save line: Redis's default save points");
        return new Rdb(
                Optional.of(conf.hasSavePoints()),
                "config file " + file + " (CONFIG is disabled there: " + last.strip() + ")",
                "");
    }

    /** "unknown command", "not permitted to this user (NOPERM)". */
    static String refusalWords(RedisException e) {
        return e.kind() == RedisException.Kind.NO_PERMISSION
                ? "not permitted to this user: NOPERM"
                : "unknown command: renamed away";
    }

    /** CONFIG under its new name: its answer is the running value. The name is not shown. */
    private static Rdb viaRenamed(RedisNode node, String configName, String refused) {
        try {
            Object reply = node.command(configName, "GET", "save");
            if (reply instanceof List<?> pair && pair.size() >= 2) {
                return new Rdb(
                        Optional.of(!String.valueOf(pair.get(1)).isBlank()),
                        "CONFIG GET save under the name rename-command gives it",
                        "");
            }
            return Rdb.unknown(refused + "; its renamed CONFIG answered " + reply);
        } catch (RedisException e) {
            // Redis's message would name the renamed command, which is a secret of sorts.
            return Rdb.unknown(refused + "; CONFIG under its renamed name failed too ("
                    + e.kind().name().toLowerCase(Locale.ROOT).replace('_', ' ') + ")");
        }
    }

    /**
     * Why the command line might override the file, or empty when it does not: the unit that runs
     * this pid starts Redis without {@code --save}, {@code --include} or {@code --rename-command}.
     */
    private Optional<String> commandLineOverride(String pid) {
        if (container.isPresent()) {
            return containerCommandLine();
        }
        String script = "systemctl show -p MainPID --value " + ShellQuote.quote(unit) + "; systemctl show -p"
                + " ExecStart --value " + ShellQuote.quote(unit);
        ExecResult r = shell.exec(Command.of(script).withTimeout(READ));
        String[] lines = r.stdout().strip().split("\n", 2);
        String mainPid = lines[0].strip();
        if (!r.ok() || pid == null || !mainPid.equals(pid.strip())) {
            return Optional.of("Redis (pid " + pid + ") was not started by unit " + unit
                    + (mainPid.isEmpty() ? "" : " (its MainPID is " + mainPid + ")")
                    + ", so whether its command line overrides save is unknown");
        }
        return unreadOption(lines.length > 1 ? lines[1] : "")
                .map(option -> "unit " + unit + " starts Redis with " + option
                        + " on its command line, which fleetfix does not read");
    }

    /**
     * Why the container's Redis command line might override its file, or empty when it does not: its {@code
     * /proc/PID/cmdline} on the host has no {@code --save}, {@code --include} or {@code --rename-command}.
     */
    private Optional<String> containerCommandLine() {
        String what = container
                .map(c -> c.runtime() + " container " + c.name().orElse(c.shortId()))
                .orElseThrow();
        if (hostPid.isEmpty()) {
            return Optional.of("the process of " + what + " was not found on the host, so whether its command line"
                    + " overrides save is unknown");
        }
        ExecResult r = shell.exec(Command.of("tr '\\0' ' ' < /proc/" + hostPid.getAsLong() + "/cmdline")
                .asRoot()
                .withTimeout(READ));
        if (!r.ok() || r.stdout().isBlank()) {
            return Optional.of("cannot read the command line of " + what + " (pid " + hostPid.getAsLong()
                    + "), so whether it overrides save is unknown");
        }
        return unreadOption(r.stdout())
                .map(option ->
                        what + " starts Redis with " + option + " on its command line, which fleetfix does not read");
    }

    /** The first option of {@code commandLine} that changes what the file says and that fleetfix does not read. */
    private static Optional<String> unreadOption(String commandLine) {
        return Stream.of("--save", "--include", "--rename-command")
                .filter(commandLine::contains)
                .findFirst();
    }

    /** The file and what it includes, spliced in place. */
    private RedisConfFile load(String file) {
        RedisConfFile conf = parse(file, cat(file));
        Deque<String> pending = new ArrayDeque<>(conf.includes());
        int files = 1;
        while (!pending.isEmpty()) {
            String include = pending.removeFirst();
            if (include.contains("*") || include.contains("?") || include.contains("[")) {
                throw new Unreadable(file + " includes " + include + ", a pattern fleetfix does not expand");
            }
            if (++files > MAX_FILES) {
                throw new Unreadable(file + " includes more than " + MAX_FILES + " files");
            }
            RedisConfFile included = parse(include, cat(include));
            pending.addAll(included.includes());
            conf = conf.splice(include, included);
        }
        return conf;
    }

    private static RedisConfFile parse(String file, String text) {
        try {
            return RedisConfFile.parse(text);
        } catch (IllegalArgumentException e) {
            throw new Unreadable("cannot parse " + file + ": " + e.getMessage());
        }
    }

    private String cat(String file) {
        String onHost = onHost(file);
        ExecResult r = shell.exec(
                Command.of("cat -- " + ShellQuote.quote(onHost)).asRoot().withTimeout(READ));
        if (!r.ok()) {
            throw new Unreadable("cannot read " + file + " over SSH (exit " + r.exitCode() + ": "
                    + r.errorText().strip() + ")");
        }
        return r.stdout();
    }

    /**
     * Where {@code file}, as Redis names it, is on the host: itself, or for a container the file under the mount
     * that holds it; one in the container's own layer cannot be read ({@link Unreadable}).
     */
    private String onHost(String file) {
        if (container.isEmpty()) {
            return file;
        }
        Container c = container.get();
        return c.hostPathOf(file)
                .orElseThrow(() -> new Unreadable(file + " is inside " + c.runtime() + " container "
                        + c.name().orElse(c.shortId()) + ", not mounted from the host, so fleetfix cannot read it"));
    }

    private static Optional<Boolean> flag(String value) {
        if ("1".equals(value)) {
            return Optional.of(true);
        }
        if ("0".equals(value)) {
            return Optional.of(false);
        }
        return Optional.empty();
    }

    /** A file the persistence facts depend on could not be read. */
    private static final class Unreadable extends RuntimeException {
        Unreadable(String message) {
            super(message);
        }
    }
}
