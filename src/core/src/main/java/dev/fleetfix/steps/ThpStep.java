package dev.fleetfix.steps;

import dev.fleetfix.checks.ThpMode;
import dev.fleetfix.checks.ThpParser;
import dev.fleetfix.playbook.StepDoc;
import dev.fleetfix.playbook.StepSignature;
import dev.fleetfix.steps.facts.ShellFacts;
import dev.fleetfix.steps.host.HostFiles.Shell;
import dev.fleetfix.steps.model.StepArgs;
import dev.fleetfix.steps.model.StepContext;
import dev.fleetfix.steps.model.StepFailure;
import dev.fleetfix.steps.model.StepResult;
import dev.fleetfix.steps.restart.PendingRestart;
import dev.fleetfix.transport.ShellQuote;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code thp: {enabled: never, defrag: never}}: sets the running kernel's THP modes. Idempotent: a
 * file already in the wanted mode is not written. Reports before → after.
 */
final class ThpStep implements StepType {
    static final List<String> ENABLED = List.of("always", "madvise", "never");
    static final List<String> DEFRAG = List.of("always", "defer", "defer+madvise", "madvise", "never");

    @Override
    public StepSignature signature() {
        return StepSignature.of("thp", Set.of("enabled", "defrag"));
    }

    @Override
    public StepDoc doc() {
        return StepDoc.of(
                "Sets Transparent Huge Pages in the running kernel (/sys/kernel/mm/transparent_hugepage).",
                "- thp: {enabled: never, defrag: never}",
                new StepDoc.Arg(
                        "enabled",
                        "always|madvise|never",
                        "never",
                        "- thp: {enabled: madvise}",
                        "The THP mode written to enabled."),
                new StepDoc.Arg(
                        "defrag",
                        "always|defer|defer+madvise|madvise|never",
                        "never",
                        "- thp: {defrag: defer+madvise}",
                        "The defrag mode written to defrag."));
    }

    @Override
    public StepHandler prepare(StepArgs args) {
        String enabled = args.choice("enabled", "never", ENABLED);
        String defrag = args.choice("defrag", "never", DEFRAG);
        return ctx -> {
            String dir = thpDir(ctx).orElse(null);
            if (dir == null) {
                return StepResult.failed("no THP directory on this host (" + ShellFacts.THP_DIRS + ")");
            }
            StepResult.Builder result = new StepResult.Builder().fact("thp.path", dir);
            set(ctx, dir, "enabled", enabled, result);
            set(ctx, dir, "defrag", defrag, result);
            return result.build();
        };
    }

    static Optional<String> thpDir(StepContext ctx) {
        for (String dir : ShellFacts.THP_DIRS.split(" ")) {
            if (Shell.read(ctx, "test -d " + ShellQuote.quote(dir)).ok()) {
                return Optional.of(dir);
            }
        }
        return Optional.empty();
    }

    private static void set(StepContext ctx, String dir, String file, String wanted, StepResult.Builder result) {
        String path = dir + "/" + file;
        String current = read(ctx, path);
        if (current.equals(wanted)) {
            result.fact("thp." + file, current);
            return;
        }
        if (!ctx.check()) {
            // before the write: a run that dies after it still leaves the restart to do on the host
            PendingRestart.mark(ctx, "thp." + file + " " + current + " -> " + wanted);
            Shell.write(ctx, "echo " + ShellQuote.quote(wanted) + " > " + ShellQuote.quote(path));
            String now = read(ctx, path);
            if (!now.equals(wanted)) {
                throw new StepFailure(path + " still reads " + now + " after writing " + wanted);
            }
        }
        result.change("thp." + file, current, wanted).fact("thp." + file, wanted);
    }

    private static String read(StepContext ctx, String path) {
        var r = Shell.read(ctx, "cat " + ShellQuote.quote(path));
        if (!r.ok()) {
            throw new StepFailure("cannot read " + path + ": " + r.errorText());
        }
        return ThpParser.selected(r.stdout())
                .map(ThpMode::word)
                .orElse(r.stdout().strip());
    }
}
