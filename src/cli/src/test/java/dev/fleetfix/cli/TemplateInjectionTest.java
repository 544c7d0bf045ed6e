package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * An inventory variable that tries to run a command, spliced into a playbook's {@code cmd} in every
 * quoting context, through {@code fleetfix -v apply} on a host with {@code ansible_connection: local}:
 * the real local shell transport runs each command with {@code sh -c} on this machine. Each command
 * must write the value back verbatim, and the file the value tries to create must never appear.
 */
class TemplateInjectionTest {
    @TempDir
    Path dir;

    @Test
    void aHostileVariableStaysInertInEveryContextOfARealShell() throws IOException {
        Path pwned = dir.resolve("pwned");
        String evil = "$(touch " + pwned + ")`touch " + pwned + "`'\"; touch " + pwned + "; \"'";
        Path inventory = dir.resolve("inventory.yaml");
        Files.writeString(
                inventory,
                "all:\n  hosts:\n    local-1:\n      ansible_connection: local\n      evil: '" + evil.replace("'", "''")
                        + "'\n");
        List<String> contexts = List.of(
                "printf '%s' {{ evil }}",
                "printf '%s' '{{ evil }}'",
                "printf '%s' \"{{ evil }}\"",
                "printf '%s' \"$(printf '%s' {{ evil }})\"",
                "printf '%s' \"`printf '%s' '{{ evil }}'`\"",
                "cat <<EOF\n{{ evil }}\nEOF",
                "cat <<'EOF'\n{{ evil }}\nEOF");
        StringBuilder playbook = new StringBuilder("- hosts: all\n  steps:\n");
        for (int i = 0; i < contexts.size(); i++) {
            String cmd = "out=" + dir.resolve("out-" + i) + "; { " + contexts.get(i) + "\n} > \"$out\"";
            playbook.append("    - command:\n        cmd: |\n");
            cmd.lines()
                    .forEach(line -> playbook.append("          ").append(line).append('\n'));
            playbook.append("        become: false\n");
        }
        Path play = dir.resolve("play.yaml");
        Files.writeString(play, playbook);

        CommandLine cmd = Main.commandLine(Adapters.builder()
                .runsHome(dir.resolve("runs"))
                .redis((host, timeout) -> {
                    throw new AssertionError("no Redis is needed for command steps");
                })
                .build());
        CliRun run = CliRun.of(cmd, "-v", "apply", play.toString(), "-i", inventory.toString(), "--no-color");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.OK);
        assertThat(pwned).as(run.toString()).doesNotExist();
        for (int i = 0; i < contexts.size(); i++) {
            String expected = contexts.get(i).startsWith("cat") ? evil + "\n" : evil;
            assertThat(dir.resolve("out-" + i)).as(contexts.get(i)).content().isEqualTo(expected);
        }
        // -v shows what was sent, every line of it
        assertThat(run.stderr()).contains("[local-1] > EOF");
    }
}
