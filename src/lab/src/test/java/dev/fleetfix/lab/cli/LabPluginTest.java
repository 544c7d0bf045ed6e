package dev.fleetfix.lab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.cli.CliRun;
import dev.fleetfix.cli.CommandPlugin;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;

/** With fleetfix-lab.jar on the class path, {@code fleetfix lab} is one of the commands, found as a plug-in. */
class LabPluginTest {

    @Test
    void theLabPluginAddsTheLabCommandToHelpAndCompletion() {
        CliRun help = CliRun.of("--help");
        CliRun completion = CliRun.of("completion");

        assertThat(help.exitCode()).as(help.toString()).isZero();
        assertThat(help.stdout()).as(help.toString()).containsPattern("(?m)^\\s+lab\\s+A throwaway fleet");
        assertThat(completion.stdout())
                .as(completion.toString())
                .contains("\"thp-always\" \"mixed\" \"replicated\"")
                .doesNotContain("\"THP_ALWAYS\"", "\"MIXED\"");
    }

    @Test
    void labHelpListsItsSubcommands() {
        CliRun run = CliRun.of("lab", "--help");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout()).as(run.toString()).contains("up", "status", "inventory", "reboot", "down");
    }

    @Test
    void fleetfixKnowsTheLabByItsWordSoItCanSayWhatToInstallWithoutIt() {
        String word = LabCommand.class.getAnnotation(Command.class).name();

        assertThat(CommandPlugin.known(word))
                .as("the lab's command word among the plug-ins fleetfix names when they are missing")
                .hasValueSatisfying(known -> assertThat(known.notInstalled()).contains("fleetfix-lab"));
    }
}
