package dev.fleetfix.steps;

import dev.fleetfix.health.Wait;
import dev.fleetfix.playbook.StepDoc;
import dev.fleetfix.playbook.StepSignature;
import dev.fleetfix.steps.host.HostFiles;
import dev.fleetfix.steps.model.StepArgs;
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
    public StepDoc doc() {
        return StepDoc.of(
                "Runs a shell command on the host (as root with become); templates in it are shell-quoted.",
                "- command: {cmd: \"systemctl daemon-reload\", changed_when: false}",
                new StepDoc.Arg(
                        "cmd",
                        "shell text",
                        "none: required (a bare string fills it)",
                        "- command: \"systemctl daemon-reload\"",
                        "The command; a non-zero exit fails the step."),
                new StepDoc.Arg(
                        "creates",
                        "path",
                        "none",
                        "- command: {cmd: \"make-swap\", creates: /swapfile}",
                        "Skip the command when this path exists."),
                new StepDoc.Arg(
                        "unless",
                        "shell text",
                        "none",
                        "- command: {cmd: \"touch /etc/flag\", unless: \"test -e /etc/flag\"}",
                        "Skip the command when this one exits 0; it runs in --check too, so it must only read."),
                new StepDoc.Arg(
                        "changed_when",
                        "boolean",
                        "true",
                        "- command: {cmd: \"uptime\", changed_when: false}",
                        "Whether a run of the command counts as a change."),
                new StepDoc.Arg(
                        "become",
                        "boolean",
                        "true",
                        "- command: {cmd: \"id\", become: false}",
                        "Run as root (sudo); false runs it as the SSH user."),
                new StepDoc.Arg(
                        "timeout",
                        "duration",
                        "60s",
                        "- command: {cmd: \"apt-get -y upgrade\", timeout: 10m}",
                        "How long the command may run; it fails the step after that."));
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
                ctx.listeners().waits().waiting(Wait.upFront("'" + cmd + "' to finish", timeout));
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
