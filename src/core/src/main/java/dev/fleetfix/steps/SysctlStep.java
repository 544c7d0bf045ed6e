package dev.fleetfix.steps;

import dev.fleetfix.playbook.StepDoc;
import dev.fleetfix.playbook.StepSignature;
import dev.fleetfix.steps.facts.RestartNeed;
import dev.fleetfix.steps.host.HostFiles;
import dev.fleetfix.steps.host.HostFiles.Shell;
import dev.fleetfix.steps.model.FileEdit;
import dev.fleetfix.steps.model.StepArgs;
import dev.fleetfix.steps.model.StepContext;
import dev.fleetfix.steps.model.StepFailure;
import dev.fleetfix.steps.model.StepResult;
import dev.fleetfix.steps.persist.SysctlBoot;
import dev.fleetfix.steps.persist.SysctlKey;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.ShellQuote;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code sysctl: {vm.overcommit_memory: 1, net.core.somaxconn: 1024}}: sets the running kernel parameters and
 * persists them in {@link #FILE}, a file fleetfix owns (other lines in it are kept). Idempotent: nothing is
 * written where the running value and the file already agree. Reports any file that a boot reads after
 * fleetfix's and that sets the same key to another value ({@link SysctlBoot}): that file wins at boot.
 */
final class SysctlStep implements StepType {
    static final String FILE = "/etc/sysctl.d/90-fleetfix-redis.conf";
    private static final String HEADER = "# fleetfix: kernel parameters for Redis (playbook step sysctl).\n"
            + "# fleetfix rewrites only the lines of the keys it sets; other lines are kept.\n";

    @Override
    public StepSignature signature() {
        return StepSignature.of("sysctl", Set.of(StepSignature.ANY_ARG));
    }

    @Override
    public StepDoc doc() {
        return StepDoc.of(
                "Sets kernel parameters now (/proc/sys) and at boot (/etc/sysctl.d/90-fleetfix-redis.conf).",
                "- sysctl: {vm.overcommit_memory: 1, net.core.somaxconn: {at_least: 4096}}",
                new StepDoc.Arg(
                        "KEY",
                        "number, text, or {at_least: N}",
                        "none: give at least one key",
                        "- sysctl: {net.core.somaxconn: {at_least: 4096}}",
                        "A sysctl name and its value; {at_least: N} keeps a value that is already higher. Each key"
                                + " becomes a fact, and redis.restart_needed is set."));
    }

    @Override
    public StepHandler prepare(StepArgs args) {
        List<SysctlKey> keys = keys(args);
        return ctx -> run(ctx, keys);
    }

    /** The keys of a step, checked: a bad name or value is an input error naming the step's line. */
    static List<SysctlKey> keys(StepArgs args) {
        if (args.raw().isEmpty()) {
            throw args.error("expected at least one KEY: VALUE");
        }
        List<SysctlKey> keys = new ArrayList<>();
        for (Map.Entry<String, Object> e : args.raw().entrySet()) {
            Object v = e.getValue();
            boolean atLeast = false;
            if (v instanceof Map<?, ?> m && m.size() == 1 && m.containsKey("at_least")) {
                if (!SysctlKey.numeric(e.getKey())) {
                    throw args.error(e.getKey() + ": at_least needs a parameter the kernel reads as one number");
                }
                atLeast = true;
                v = m.get("at_least");
            }
            if (v instanceof Map || v instanceof List || v == null) {
                throw args.error(e.getKey() + ": expected a single value or {at_least: N}");
            }
            String value = v instanceof Boolean b ? (b ? "1" : "0") : v.toString();
            SysctlKey.problem(e.getKey(), value).ifPresent(p -> {
                throw args.error(p);
            });
            keys.add(new SysctlKey(e.getKey(), value, atLeast));
        }
        return keys;
    }

    private static StepResult run(StepContext ctx, List<SysctlKey> asked) {
        StepResult.Builder result = new StepResult.Builder();
        List<String> notes = new ArrayList<>();
        boolean backlogRaised = false;
        List<SysctlKey> keys = new ArrayList<>();
        for (SysctlKey wanted : asked) {
            String running = readRunning(ctx, wanted);
            SysctlKey key = wanted.against(running);
            keys.add(key);
            if (!key.holds(running)) {
                if (!ctx.check()) {
                    Shell.write(
                            ctx,
                            "printf '%s\\n' " + ShellQuote.quote(key.value()) + " > "
                                    + ShellQuote.quote(key.procPath()));
                    String now = readRunning(ctx, key);
                    if (!key.holds(now)) {
                        throw new StepFailure(key.procPath() + " reads " + now.strip() + " after writing " + key.value()
                                + ": the kernel refused the value");
                    }
                }
                result.change(key.name(), running.strip().replaceAll("\\s+", " "), key.value());
                backlogRaised |= key.name().equals("net.core.somaxconn") && raised(running, key.value());
            }
            result.fact(key.name(), key.value());
            if (key.perNetworkNamespace()) {
                notes.add(key.name() + " is per network namespace: this sets the host's; a Redis in a container"
                        + " has its own");
            }
        }
        FileEdit edit = HostFiles.edit(ctx, FILE, old -> merge(old, keys), 0644);
        result.file(edit);
        notes.addAll(bootWinners(ctx, keys));
        RestartNeed.record(
                ctx,
                result,
                backlogRaised,
                "net.core.somaxconn changed: a listening socket keeps the backlog it got at listen time");
        return withNotes(result, notes);
    }

    private static StepResult withNotes(StepResult.Builder result, List<String> notes) {
        StepResult built = result.build();
        if (notes.isEmpty()) {
            return built;
        }
        return new StepResult(
                        built.status(),
                        built.message() + "; " + String.join("; ", notes),
                        built.changes(),
                        built.diffs(),
                        built.gates(),
                        built.facts())
                .withPredicted(built.predicted());
    }

    private static boolean raised(String before, String after) {
        try {
            return Long.parseLong(after.strip()) > Long.parseLong(before.strip());
        } catch (NumberFormatException e) {
            return true;
        }
    }

    private static String readRunning(StepContext ctx, SysctlKey key) {
        ExecResult r = Shell.read(ctx, "cat " + ShellQuote.quote(key.procPath()));
        if (!r.ok()) {
            throw new StepFailure("cannot read " + key.name() + " (" + key.procPath() + "): " + r.errorText());
        }
        return r.stdout();
    }

    /** Files a boot reads after ours that set one of our keys to another value: they win at boot. */
    private static List<String> bootWinners(StepContext ctx, List<SysctlKey> keys) {
        ExecResult r = Shell.readAsRoot(ctx, SysctlBoot.listScript());
        List<SysctlBoot.ConfFile> listed = new ArrayList<>(SysctlBoot.parse(r.stdout()));
        if (ctx.check()) {
            // the file as apply would leave it, so the forecast names the same winners
            listed.removeIf(f -> f.path().equals(FILE));
            String ours = merge(HostFiles.read(ctx, FILE).orElse(null), keys);
            listed.add(new SysctlBoot.ConfFile(FILE, FILE, ours));
        }
        return overriddenAtBoot(listed, keys);
    }

    /** Notes for every key whose boot-time winner is another file with another value. */
    static List<String> overriddenAtBoot(List<SysctlBoot.ConfFile> listed, List<SysctlKey> keys) {
        List<SysctlBoot.ConfFile> order = SysctlBoot.bootOrder(listed);
        List<String> notes = new ArrayList<>();
        for (SysctlKey key : keys) {
            Optional<SysctlBoot.Assignment> winner = SysctlBoot.winner(order, key.name());
            winner.filter(a -> !a.file().equals(FILE) && !key.holds(a.value()))
                    .ifPresent(a -> notes.add("warning: " + a.where() + " sets " + a.key() + " = " + a.value()
                            + " and wins at boot over " + FILE + " (read later)"));
        }
        return notes;
    }

    /** The file's content with {@code keys} set: their lines replaced in place, missing ones appended. */
    static String merge(String old, List<SysctlKey> keys) {
        Map<String, SysctlKey> wanted = new LinkedHashMap<>();
        keys.forEach(k -> wanted.put(k.name(), k));
        StringBuilder out = new StringBuilder(old == null ? HEADER : "");
        Set<String> written = new HashSet<>();
        if (old != null) {
            for (String line : old.split("\n", -1)) {
                String s = line.strip();
                int eq = s.indexOf('=');
                String name = eq > 0 && !s.startsWith("#")
                        ? SysctlKey.dotted(s.substring(0, eq).strip())
                        : null;
                if (name != null && wanted.containsKey(name)) {
                    if (written.add(name)) {
                        out.append(line(wanted.get(name))).append('\n');
                    }
                } else {
                    out.append(line).append('\n');
                }
            }
            // split(-1) gave one empty piece after the last newline
            out.setLength(out.length() - 1);
            if (out.length() > 0 && out.charAt(out.length() - 1) != '\n') {
                out.append('\n');
            }
        }
        for (SysctlKey k : wanted.values()) {
            if (!written.contains(k.name())) {
                out.append(line(k)).append('\n');
            }
        }
        return out.toString();
    }

    private static String line(SysctlKey k) {
        return k.name() + " = " + k.value();
    }
}
