package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.inventory.ansible.vault.VaultCipher;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code -J}/{@code --ask-vault-pass}: asked once, on the terminal, for the default vault id's password, as {@code -K}
 * is; without a terminal, refused in one line before any file is read.
 */
class AskVaultPassTest {
    private static final String VAULT_PASSWORD = "typed-vault-pw-71d0";

    @TempDir
    Path dir;

    private Path inventory;
    private final PromptOptions.Terminal before = PromptOptions.terminal;
    private final List<String> prompts = new ArrayList<>();

    @BeforeEach
    void aWholeInventoryVaulted() throws Exception {
        String plain = "all:\n  hosts:\n    vaulted-1: {ansible_host: 127.0.0.1}\n";
        inventory = Files.writeString(
                dir.resolve("inventory.yml"),
                VaultCipher.encrypt(
                        plain.getBytes(StandardCharsets.UTF_8),
                        VAULT_PASSWORD.getBytes(StandardCharsets.UTF_8),
                        Optional.empty()));
    }

    @AfterEach
    void restoreTheTerminal() {
        PromptOptions.terminal = before;
    }

    private void typing(boolean present, String answer) {
        PromptOptions.terminal = new PromptOptions.Terminal() {
            @Override
            public boolean present() {
                return present;
            }

            @Override
            public char[] readSecret(String prompt) {
                prompts.add(prompt);
                return answer.toCharArray();
            }
        };
    }

    @Test
    void theTerminalIsAskedOnceAndItsAnswerOpensTheVault() {
        typing(true, VAULT_PASSWORD);

        CliRun run = CliRun.of("inventory", "-i", inventory.toString(), "--list", "-J");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout()).as(run.toString()).contains("\"vaulted-1\"");
        assertThat(prompts).containsExactly("Vault password: ");
        assertThat(run.stdout() + run.stderr()).doesNotContain(VAULT_PASSWORD);
    }

    @Test
    void aWrongAnswerIsNamedAsTheOneMinusJAskedFor() {
        typing(true, "not-the-vault-password");

        CliRun run = CliRun.of("inventory", "-i", inventory.toString(), "--list", "--ask-vault-pass");

        assertThat(run.exitCode()).as(run.toString()).isNotZero();
        assertThat(run.stderr()).as(run.toString()).contains("-J/--ask-vault-pass", "does not decrypt");
        assertThat(prompts).hasSize(1);
    }

    @Test
    void withoutATerminalMinusJIsRefusedInOneLineAndNothingIsAsked() {
        typing(false, VAULT_PASSWORD);

        for (List<String> command : List.of(List.of("inventory", "--list"), List.of("audit"))) {
            List<String> args = new ArrayList<>(command);
            args.addAll(List.of("-i", inventory.toString(), "-J"));
            CliRun run = CliRun.of(args.toArray(String[]::new));

            assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
            assertThat(run.stderr().lines())
                    .as(run.toString())
                    .containsExactly("fleetfix: " + PromptOptions.NO_TERMINAL_VAULT);
        }
        assertThat(prompts).isEmpty();
    }
}
