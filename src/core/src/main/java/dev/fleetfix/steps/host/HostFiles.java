package dev.fleetfix.steps.host;

import dev.fleetfix.steps.model.FileEdit;
import dev.fleetfix.steps.model.StepContext;
import dev.fleetfix.steps.model.StepFailure;
import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.ShellQuote;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Reads and edits files on a host, idempotently: a file is written only when its content differs,
 * and the first change of a run backs the old file up as {@code FILE.fleetfix-<run stamp>.bak}. In
 * check mode nothing is written and the edit is only computed.
 */
public final class HostFiles {
    private static final int MISSING = 44;

    private HostFiles() {}

    /** The file's content, or empty when it does not exist. */
    public static Optional<String> read(StepContext ctx, String path) {
        return read(ctx, path, false);
    }

    /**
     * The file's content, read as root when {@code asRoot} (a Redis config file is often readable only by
     * root and redis), or empty when it does not exist.
     */
    public static Optional<String> read(StepContext ctx, String path, boolean asRoot) {
        String p = ShellQuote.quote(path);
        String script = "if [ -e " + p + " ]; then cat " + p + "; else exit " + MISSING + "; fi";
        ExecResult r = asRoot ? Shell.readAsRoot(ctx, script) : Shell.read(ctx, script);
        if (r.exitCode() == MISSING) {
            return Optional.empty();
        }
        if (!r.ok()) {
            throw new StepFailure("cannot read " + path + ": " + r.errorText());
        }
        if (!r.complete()) {
            // only its head and tail were kept: editing that would cut the file
            throw new StepFailure("cannot read " + path + " whole: it is larger than fleetfix keeps of a command's"
                    + " output (" + r.dropped() + " bytes dropped); not edited");
        }
        return Optional.of(r.stdout());
    }

    public static boolean exists(StepContext ctx, String path) {
        return Shell.read(ctx, "test -e " + ShellQuote.quote(path)).ok();
    }

    /** Makes the file hold exactly {@code content}. */
    public static FileEdit ensureContent(StepContext ctx, String path, String content, int mode) {
        return edit(ctx, path, old -> content, mode);
    }

    /**
     * Applies {@code edit} to the file's content (null when it does not exist) and writes the
     * result when it differs.
     */
    public static FileEdit edit(StepContext ctx, String path, UnaryOperator<String> edit, int mode) {
        return edit(ctx, path, edit, mode, false);
    }

    /** As {@link #edit(StepContext, String, UnaryOperator, int)}, reading the file as root when {@code asRoot}. */
    public static FileEdit edit(StepContext ctx, String path, UnaryOperator<String> edit, int mode, boolean asRoot) {
        Optional<String> before = read(ctx, path, asRoot);
        String after = edit.apply(before.orElse(null));
        if (before.isPresent() && before.get().equals(after)) {
            return new FileEdit(path, before, after, Optional.empty());
        }
        Optional<String> backup = Optional.empty();
        if (!ctx.check()) {
            if (before.isPresent()) {
                String bak = path + ".fleetfix-" + ctx.run().stamp() + ".bak";
                String p = ShellQuote.quote(path);
                String b = ShellQuote.quote(bak);
                Shell.write(ctx, "[ -e " + b + " ] || cp -p " + p + " " + b);
                backup = Optional.of(bak);
            }
            ctx.shell().put(path, after.getBytes(StandardCharsets.UTF_8), mode, true);
        }
        return new FileEdit(path, before, after, backup);
    }

    /** Runs shell commands for steps: reads as the login user, writes as root. */
    public static final class Shell {
        private Shell() {}

        public static ExecResult read(StepContext ctx, String script) {
            return ctx.shell().exec(Command.of(script));
        }

        public static ExecResult readAsRoot(StepContext ctx, String script) {
            return ctx.shell().exec(Command.of(script).asRoot());
        }

        /** Runs a write as root; a non-zero exit fails the step. Never called in check mode. */
        public static ExecResult write(StepContext ctx, String script) {
            if (ctx.check()) {
                throw new IllegalStateException("write in check mode: " + script);
            }
            ExecResult r = ctx.shell().exec(Command.of(script).asRoot());
            if (!r.ok()) {
                throw new StepFailure("'" + script + "' exited " + r.exitCode() + ": " + r.errorText());
            }
            return r;
        }
    }
}
