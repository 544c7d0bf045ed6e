package dev.fleetfix.lab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.cli.CliRun;
import dev.fleetfix.cli.CommandPlugin;
import dev.fleetfix.lab.LabPreset;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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

    @Test
    void upHelpListsEveryPresetOnALineOfItsOwn() {
        CliRun run = CliRun.of("lab", "up", "--help");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        for (LabPreset preset : LabPreset.values()) {
            assertThat(run.stdout())
                    .as(run.toString())
                    .containsPattern("(?m)^  " + preset.cliName() + " +"
                            + java.util.regex.Pattern.quote(preset.summary()) + "$");
        }
        assertThat(run.stdout()).containsPattern("(?m)^  operators +one host of each operator shape");
        assertThat(run.stdout()).contains("--vault-password-file");
    }

    @Test
    void anUnknownPresetIsExit2NamingTheValidOnesBeforeAnythingStarts(@TempDir Path home) {
        CliRun run = CliRun.of("lab", "up", "--preset", "sysv,container-ish", "--home", home.toString());

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(2);
        assertThat(run.stderr())
                .as(run.toString())
                .contains("unknown lab preset 'container-ish'", "sysv, supervisord, tuned", "or operators");
        assertThat(run.stdout()).isEmpty();
        assertThat(home).isEmptyDirectory();
    }

    @Test
    void aFleetPresetWithAShapeIsExit2() {
        CliRun run = CliRun.of("lab", "up", "--preset", "mixed", "--preset", "sysv");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(2);
        assertThat(run.stderr()).as(run.toString()).contains("stands alone");
    }
}
