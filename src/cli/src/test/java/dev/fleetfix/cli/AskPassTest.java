package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.transport.SshOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code -k/--ask-pass}: asked once on a terminal, refused in one line without one, and the password never shown. */
class AskPassTest {
    private static final String PASSWORD = "typed-at-the-terminal-4711";

    @TempDir
    Path dir;

    /** A terminal that answers {@code answer}, and counts what it was asked. */
    private static final class FakeTerminal implements PromptOptions.Terminal {
        final List<String> prompts = new ArrayList<>();
        final boolean present;
        final String answer;

        FakeTerminal(boolean present, String answer) {
            this.present = present;
            this.answer = answer;
        }

        @Override
        public boolean present() {
            return present;
        }

        @Override
        public char[] readSecret(String prompt) {
            prompts.add(prompt);
            return answer == null ? null : answer.toCharArray();
        }
    }

    @AfterEach
    void systemTerminal() {
        PromptOptions.terminal = PromptOptions.Terminal.system();
    }

    private Path inventory() throws Exception {
        return Files.writeString(dir.resolve("hosts.yml"), "all:\n  hosts:\n    r1: {ansible_host: 10.0.0.1}\n");
    }

    @Test
    void withoutATerminalItIsRefusedInOneLineBeforeAnythingIsRead() throws Exception {
        FakeTerminal none = new FakeTerminal(false, null);
        PromptOptions.terminal = none;

        for (String flag : List.of("-k", "--ask-pass")) {
            CliRun run = CliRun.of("inventory", "-F", "none", "-i", inventory().toString(), "--list", flag);
            assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
            assertThat(run.stderr().lines()).as(run.toString()).hasSize(1);
            assertThat(run.stderr())
                    .contains("-k/--ask-pass: there is no terminal to ask for the SSH password on; set"
                            + " ansible_password");
            assertThat(run.stdout()).isEmpty();
        }
        assertThat(none.prompts).isEmpty();
    }

    @Test
    void onATerminalItIsAskedOnceAndTheRunGoesOnWithoutShowingIt() throws Exception {
        FakeTerminal terminal = new FakeTerminal(true, PASSWORD);
        PromptOptions.terminal = terminal;

        CliRun run = CliRun.of("inventory", "-F", "none", "-i", inventory().toString(), "--list", "-k", "-vvv");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(terminal.prompts).containsExactly("SSH password: ");
        assertThat(run.stdout() + run.stderr()).doesNotContain(PASSWORD);
        // the run is over: the next one asks again
        assertThat(PromptOptions.askedPassword()).isEmpty();

        PromptOptions.terminal = new FakeTerminal(true, null);
        CliRun nothing = CliRun.of("inventory", "-F", "none", "-i", inventory().toString(), "--list", "-k");
        assertThat(nothing.exitCode()).as(nothing.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(nothing.stderr()).contains("-k/--ask-pass: no SSH password was given");
    }

    @Command(name = "probe")
    static final class Probe implements Runnable {
        @Mixin
        InventoryOptions inventory;

        @Mixin
        SshOptionsMixin ssh;

        SshOptions options;

        @Override
        public void run() {
            options = ssh.toOptions();
        }
    }

    @Test
    void theAskedPasswordReachesTheSshOptionsOfTheRun() {
        PromptOptions.terminal = new FakeTerminal(true, PASSWORD);
        Probe probe = new Probe();
        CommandLine cmd = new CommandLine(probe);
        cmd.setExecutionStrategy(parsed -> {
            try {
                PromptOptions.refuseAsked(parsed);
                return new CommandLine.RunLast().execute(parsed);
            } finally {
                PromptOptions.forget();
            }
        });

        CliRun run = CliRun.of(cmd, "-k");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(probe.options.password())
                .hasValueSatisfying(p -> assertThat(p.reveal()).isEqualTo(PASSWORD));
        assertThat(probe.options.toString()).doesNotContain(PASSWORD);
        // on a terminal, an encrypted key's passphrase is asked for when a login needs it
        assertThat(probe.options.passphrasePrompt()).isPresent();
    }

    @Test
    void withoutATerminalNoPassphraseIsEverAskedFor() {
        PromptOptions.terminal = new FakeTerminal(false, null);
        Probe probe = new Probe();

        CliRun run = CliRun.of(new CommandLine(probe));

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(probe.options.passphrasePrompt()).isEmpty();
        assertThat(probe.options.password()).isEmpty();
    }
}
