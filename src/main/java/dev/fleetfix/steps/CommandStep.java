package dev.fleetfix.steps;

import dev.fleetfix.health.Wait;
import dev.fleetfix.playbook.StepSignature;
import dev.fleetfix.steps.model.StepResult;
import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.ExecResult;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * {@code command: {cmd: "...", creates: /path, unless: "test ...", changed_when: false}}: the escape
 * hatch. Idempotence as in Ansible: skipped when {@code creates} exists or {@code unless} succeeds;
 * {@code changed_when: false} for commands that only read. Template values spliced into {@code cmd}
 * and {@code unless} are shell-quoted. In check mode the command does not run (the guards do).
 */
final class CommandStep implements StepType {
    @Override
    public StepSignature signature() {
        return new StepSignature(
                "command",
                Set.of("cmd", "creates", "unless", "changed_when", "become", "timeout"),
                Set.of("cmd", "unless"),
                Optional.of("cmd"));
    }

    @Override
    public StepHandler prepare(StepArgs args) {
        String cmd = args.text("cmd").orElseThrow(() -> args.error("cmd: the command to run is missing"));
        Optional<String> creates = args.text("creates");
        Optional<String> unless = args.text("unless");
        boolean changes = args.bool("changed_when", true);
        boolean become = args.bool("become", true);
        Duration timeout = args.duration("timeout", Command.DEFAULT_TIMEOUT);
        return ctx -> {
            if (creates.isPresent() && HostFiles.exists(ctx, creates.get())) {
                return StepResult.ok(creates.get() + " exists");
            }
            if (unless.isPresent() && HostFiles.Shell.read(ctx, unless.get()).ok()) {
                return StepResult.ok("'" + unless.get() + "' succeeded");
            }
            if (ctx.check()) {
                return changes
                        ? changed("would run: " + cmd, cmd)
                        : StepResult.skipped("not run in check mode: " + cmd);
            }
            if (Wait.noticeable(timeout)) {
                ctx.waits().waiting(Wait.upFront("'" + cmd + "' to finish", timeout));
            }
            Command command = Command.of(cmd).withTimeout(timeout);
            ExecResult r = ctx.shell().exec(become ? command.asRoot() : command);
            if (!r.ok()) {
                return StepResult.failed("exited " + r.exitCode() + ": " + r.errorText());
            }
            return changes ? changed("ran: " + cmd, cmd) : StepResult.ok(firstLine(r.stdout()));
        };
    }

    private static StepResult changed(String message, String cmd) {
        StepResult.Builder b =
                new StepResult.Builder().change("command", "not run", cmd).note(message);
        return b.build();
    }

    private static String firstLine(String text) {
        String s = text.strip();
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl) + " ...";
    }
}
