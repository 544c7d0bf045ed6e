package dev.fleetfix.steps;

import dev.fleetfix.playbook.StepDoc;
import dev.fleetfix.playbook.StepSignature;
import dev.fleetfix.redis.RedisConfFile;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.redis.RedisVersion;
import dev.fleetfix.steps.facts.RestartNeed;
import dev.fleetfix.steps.host.HostFiles;
import dev.fleetfix.steps.host.HostFiles.Shell;
import dev.fleetfix.steps.model.FileEdit;
import dev.fleetfix.steps.model.StepArgs;
import dev.fleetfix.steps.model.StepContext;
import dev.fleetfix.steps.model.StepFailure;
import dev.fleetfix.steps.model.StepResult;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.ShellQuote;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code redis_config: {tcp-backlog: 1024, latency-monitor-threshold: 100}}: sets Redis parameters with
 * {@code CONFIG SET} and keeps them with {@code CONFIG REWRITE}. Where CONFIG cannot be used (renamed to ""
 * by {@code rename-command}, refused to the ACL user) or the parameter cannot change at run time
 * ({@code tcp-backlog} is read when Redis starts listening), it edits the config file Redis was started with
 * over SSH instead and says that a restart is needed, and why ({@code redis.restart_needed}). Each parameter's
 * value becomes a fact ({@link #fact}), so {@code assert: {that: "net.core.somaxconn >= redis.tcp_backlog"}}
 * can check it against the kernel's.
 */
final class RedisConfigStep implements StepType {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final Pattern PARAM = Pattern.compile("[a-z][a-z0-9\\-]*");

    /** Read only when Redis starts (CONFIG SET refuses them, or they act only on the next listen). */
    static final Set<String> AT_START = Set.of(
            "tcp-backlog",
            "databases",
            "daemonize",
            "supervised",
            "io-threads",
            "unixsocket",
            "pidfile",
            "cluster-enabled",
            "aclfile",
            "logfile",
            "syslog-enabled");

    /** Parameters that appeared in a known version: asking an older Redis for them is a clear refusal. */
    static final Map<String, RedisVersion> SINCE = Map.of(
            "disable-thp", new RedisVersion(6, 2, 0),
            "latency-tracking", new RedisVersion(7, 0, 0),
            "io-threads", new RedisVersion(6, 0, 0));

    @Override
    public StepSignature signature() {
        return StepSignature.of("redis_config", Set.of(StepSignature.ANY_ARG));
    }

    @Override
    public StepDoc doc() {
        return StepDoc.of(
                "Sets Redis parameters with CONFIG SET and CONFIG REWRITE, or in its config file when it must.",
                "- redis_config: {latency-monitor-threshold: 100}",
                new StepDoc.Arg(
                        "PARAMETER",
                        "text or number",
                        "none: give at least one parameter",
                        "- redis_config: {tcp-backlog: 1024}",
                        "A Redis parameter and its value. One read only at start (tcp-backlog), or a CONFIG that is"
                                + " renamed or refused, is written to the config file and sets redis.restart_needed."));
    }

    @Override
    public StepHandler prepare(StepArgs args) {
        List<Param> params = params(args);
        return ctx -> run(ctx, params);
    }

    /** One parameter and its wanted value. */
    record Param(String name, String value) {}

    /**
     * The fact a parameter's value is kept in once this step set it (in check mode: would set it,
     * restart pending or not): {@code tcp-backlog} is {@code redis.tcp_backlog}, as the audit calls
     * the value it reads.
     */
    static String fact(String param) {
        return "redis." + param.replace('-', '_');
    }

    static List<Param> params(StepArgs args) {
        if (args.raw().isEmpty()) {
            throw args.error("expected at least one PARAMETER: VALUE");
        }
        List<Param> params = new ArrayList<>();
        for (Map.Entry<String, Object> e : args.raw().entrySet()) {
            String name = e.getKey().strip().toLowerCase(Locale.ROOT);
            Object v = e.getValue();
            if (!PARAM.matcher(name).matches()) {
                throw args.error("'" + e.getKey() + "' is not a Redis parameter name");
            }
            if (v instanceof Map || v instanceof List) {
                throw args.error(name + ": expected a single value");
            }
            String value = v == null ? "" : v instanceof Boolean b ? (b ? "yes" : "no") : v.toString();
            if (value.contains("\n") || value.contains("\r") || value.contains("\"") || value.contains("'")) {
                throw args.error(name + ": the value may not hold line breaks or quotes");
            }
            if (name.equals("rename-command") || name.equals("include")) {
                throw args.error(name + " is not a parameter CONFIG SET knows; edit the file by hand");
            }
            params.add(new Param(name, value.strip().replaceAll("\\s+", " ")));
        }
        return params;
    }

    private static StepResult run(StepContext ctx, List<Param> params) {
        try (RedisNode node = ctx.redis().open(TIMEOUT)) {
            Map<String, String> server = node.info("server");
            Optional<RedisVersion> version = RedisVersion.find(server.getOrDefault("redis_version", ""));
            for (Param p : params) {
                RedisVersion since = SINCE.get(p.name());
                if (since != null && version.isPresent() && version.get().compareTo(since) < 0) {
                    return StepResult.failed("Redis " + server.get("redis_version") + " has no " + p.name()
                            + " (it exists from " + since.major() + "." + since.minor() + ")");
                }
            }
            String file = server.getOrDefault("config_file", "").strip();
            // a Redis in a container (the audit's facts): its file is the host's only where a mount puts it there
            Map<String, String> facts = ctx.state().facts();
            if ("container".equals(facts.get("redis.service.manager")) && !file.isEmpty()) {
                String onHost = facts.getOrDefault("redis.service.config_on_host", "");
                return new Run(ctx, node, onHost, onHost.isEmpty() ? Optional.of(file) : Optional.empty())
                        .apply(params);
            }
            return new Run(ctx, node, file, Optional.empty()).apply(params);
        }
    }

    /** One host's pass: how CONFIG can be reached, then each parameter. */
    private static final class Run {
        private final StepContext ctx;
        private final RedisNode node;
        private final String file;
        /** A config file inside a container, not mounted from the host: neither REWRITE nor an edit persists. */
        private final Optional<String> inContainer;

        private final StepResult.Builder result = new StepResult.Builder();
        private final List<String> notes = new ArrayList<>();
        private final List<Param> fileEdits = new ArrayList<>();
        private final List<String> restartReasons = new ArrayList<>();
        private boolean runningDiffers;
        private String configName = "CONFIG";
        private String unusable = "";
        private boolean rewrite;

        Run(StepContext ctx, RedisNode node, String file, Optional<String> inContainer) {
            this.ctx = ctx;
            this.node = node;
            this.file = file;
            this.inContainer = inContainer;
        }

        private String noFile() {
            return inContainer
                    .map(f -> "Redis runs in a container whose config file " + f + " is not mounted from the host")
                    .orElse("Redis runs without a config file (config_file in INFO server is empty)");
        }

        StepResult apply(List<Param> params) {
            for (Param p : params) {
                Optional<String> running = get(p.name());
                if (running.isPresent()
                        && running.get().strip().replaceAll("\\s+", " ").equals(p.value())) {
                    // running already; the file may still lack it (checked below with the others)
                    fileEdits.add(p);
                    continue;
                }
                if (unusable.isEmpty() && !AT_START.contains(p.name()) && set(p, running.orElse("?"))) {
                    if (inContainer.isPresent()) {
                        // set in the running Redis only: said "not persisted" with the file's edits
                        fileEdits.add(p);
                    }
                    continue;
                }
                fileEdits.add(p);
                runningDiffers |= running.isPresent();
                if (running.isPresent() || !unusable.isEmpty()) {
                    restartReasons.add(p.name()
                            + (unusable.isEmpty()
                                    ? " is read when Redis starts (" + running.orElse("?") + " now)"
                                    : ": " + unusable));
                }
            }
            if (rewrite && inContainer.isEmpty()) {
                rewrite();
            }
            boolean fileChanged = editFile();
            // a value Redis reads at start that differs now needs a restart even when an earlier run edited
            // the file; where CONFIG cannot tell the running value, only this run's edit says so
            boolean restart = !restartReasons.isEmpty() && (runningDiffers || fileChanged);
            if (restart) {
                notes.add("restart needed to apply: " + String.join("; ", restartReasons));
            }
            RestartNeed.record(ctx, result, restart, String.join("; ", restartReasons));
            for (Param p : params) {
                // what the step set, as the audit names it (redis.tcp_backlog), for an assert that follows
                result.fact(fact(p.name()), p.value());
            }
            StepResult built = result.build();
            String message = built.message() + (notes.isEmpty() ? "" : "; " + String.join("; ", notes));
            return new StepResult(
                    built.status(), message, built.changes(), built.diffs(), built.gates(), built.facts());
        }

        /** The running value, or empty where CONFIG cannot be used ({@link #unusable} says why). */
        private Optional<String> get(String param) {
            if (!unusable.isEmpty()) {
                return Optional.empty();
            }
            try {
                Optional<String> value = configName.equals("CONFIG")
                        ? node.configGet(param)
                        : pair(node.command(configName, "GET", param));
                if (value.isEmpty()) {
                    throw new StepFailure(
                            "Redis does not know the parameter " + param + " (CONFIG GET answered" + " nothing)");
                }
                return value;
            } catch (RedisException e) {
                if (!e.refused() || !configName.equals("CONFIG")) {
                    throw e;
                }
                findConfig(e);
                return get(param);
            }
        }

        private static Optional<String> pair(Object reply) {
            if (reply instanceof List<?> l && l.size() >= 2) {
                return Optional.of(String.valueOf(l.get(1)));
            }
            return Optional.empty();
        }

        /** CONFIG GET was refused: a renamed CONFIG is used under its new name, else the file is edited. */
        private void findConfig(RedisException e) {
            if (e.kind() == RedisException.Kind.NO_PERMISSION) {
                unusable = "CONFIG refused to this ACL user (NOPERM); the config file was edited instead";
                return;
            }
            Optional<RedisConfFile> conf = conf();
            String renamed = conf.map(c -> c.renamedCommands().get("CONFIG")).orElse(null);
            if (conf.isEmpty() && !file.isEmpty()) {
                unusable = "CONFIG is unknown to this Redis and its config file " + file + " could not be read";
            } else if (renamed == null) {
                unusable = "CONFIG is unknown to this Redis and "
                        + (file.isEmpty() ? "it has no config file" : file + " does not rename it");
            } else if (renamed.isEmpty()) {
                unusable = "CONFIG is disabled (rename-command CONFIG \"\" in " + file
                        + "); the config file was edited instead";
            } else {
                configName = renamed;
                notes.add("CONFIG used under the name rename-command gives it in " + file);
            }
        }

        private boolean set(Param p, String before) {
            if (ctx.check()) {
                result.change(p.name(), before, p.value());
                rewrite = true;
                return true;
            }
            try {
                node.command(configName, "SET", p.name(), p.value());
            } catch (RedisException e) {
                if (e.kind() == RedisException.Kind.ERROR_REPLY) {
                    return false; // immutable at run time: the file, then a restart
                }
                throw e;
            }
            result.change(p.name(), before, p.value());
            rewrite = true;
            return true;
        }

        private void rewrite() {
            if (ctx.check()) {
                return;
            }
            try {
                node.command(configName, "REWRITE");
            } catch (RedisException e) {
                notes.add("CONFIG REWRITE failed (" + e.detail() + "): the running values are set but not in "
                        + (file.isEmpty() ? "any file" : file) + ", which fleetfix now edits");
            }
        }

        /** Puts every parameter still missing from the file into it, keeping its owner and mode. */
        private boolean editFile() {
            if (fileEdits.isEmpty()) {
                return false;
            }
            if (file.isEmpty()) {
                if (!restartReasons.isEmpty()) {
                    // neither CONFIG nor a file can set these: saying "ok" would hide that nothing was done
                    throw new StepFailure("cannot set " + String.join("; ", restartReasons) + ", and " + noFile());
                }
                notes.add(noFile() + ": " + fileEdits.stream().map(Param::name).toList() + " not persisted");
                return false;
            }
            ExecResult st = Shell.readAsRoot(ctx, "stat -c '%a %u:%g' " + ShellQuote.quote(file));
            if (!st.ok()) {
                throw new StepFailure("cannot stat " + file + ": " + st.errorText());
            }
            String[] modeOwner = st.stdout().strip().split(" ");
            FileEdit edit = HostFiles.edit(
                    ctx,
                    file,
                    old -> {
                        if (old == null) {
                            throw new StepFailure("Redis names " + file + " as its config file, but it does not exist");
                        }
                        String text = old;
                        for (Param p : fileEdits) {
                            text = setDirective(text, p.name(), p.value());
                        }
                        return text;
                    },
                    Integer.parseInt(modeOwner[0], 8),
                    true);
            if (edit.changed() && !ctx.check()) {
                Shell.write(ctx, "chown " + ShellQuote.quote(modeOwner[1]) + " " + ShellQuote.quote(file));
            }
            result.file(edit);
            return edit.changed();
        }

        private Optional<RedisConfFile> conf() {
            if (file.isEmpty()) {
                return Optional.empty();
            }
            try {
                return HostFiles.read(ctx, file, true).map(RedisConfFile::parse);
            } catch (StepFailure | IllegalArgumentException e) {
                return Optional.empty();
            }
        }
    }

    /**
     * The config text with {@code name} set to {@code value}: its first line replaced, later lines of the same
     * directive dropped (the last would win), or a line appended. Unchanged when the file already says it.
     */
    static String setDirective(String text, String name, String value) {
        String line = name + " " + (value.isEmpty() ? "\"\"" : value);
        RedisConfFile conf = RedisConfFile.parse(text);
        List<RedisConfFile.Directive> same =
                conf.directives().stream().filter(d -> d.name().equals(name)).toList();
        if (same.size() == 1 && String.join(" ", same.get(0).args()).equals(value)) {
            return text;
        }
        Set<Integer> lines = new HashSet<>();
        same.forEach(d -> lines.add(d.line()));
        StringBuilder out = new StringBuilder();
        String[] all = text.split("\n", -1);
        boolean placed = false;
        for (int i = 0; i < all.length; i++) {
            if (i == all.length - 1 && all[i].isEmpty()) {
                break;
            }
            if (lines.contains(i + 1)) {
                if (!placed) {
                    out.append(line).append('\n');
                    placed = true;
                }
            } else {
                out.append(all[i]).append('\n');
            }
        }
        if (!placed) {
            out.append(line).append('\n');
        }
        return out.toString();
    }
}
