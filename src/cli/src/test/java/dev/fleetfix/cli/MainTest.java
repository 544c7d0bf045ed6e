package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The root command as a user first meets it: help, version, completion, bad options. */
class MainTest {

    @Test
    void helpListsEveryWorkingSubcommandAndTheExitCodes() {
        CliRun run = CliRun.of("--help").expectExit(ExitCode.OK);

        assertThat(run.stdout())
                .as(run.toString())
                .contains("audit", "apply", "bench", "report", "completion")
                .contains("Exit codes:", "3  --check: changes are pending");
    }

    @Test
    void theOperatorsCommandHasNoLabWithoutItsPlugin() {
        // fleetfix-cli's class path is the operator's jar: no fleetfix-lab.jar, so no 'lab' and no Docker client
        CliRun run = CliRun.of("--help").expectExit(ExitCode.OK);

        assertThat(run.stdout()).as(run.toString()).doesNotContainPattern("(?m)^\\s+lab\\s");
        CliRun lab = CliRun.of("lab", "status");
        assertThat(lab.exitCode()).as(lab.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(lab.stderr()).as(lab.toString()).contains("the lab plug-in, which is not installed", "fleetfix-lab");
    }

    @Test
    void checksHelpSaysItStillRunsTheCommandStepsGuardsOnTheHosts() {
        CliRun run = CliRun.of("apply", "--help").expectExit(ExitCode.OK);

        // one line per option in the help: join the wrapped description back
        String help = run.stdout().replaceAll("\\s+", " ");
        assertThat(help)
                .as(run.toString())
                .contains("--check Change nothing; report what would change. It still runs commands on the hosts")
                .contains("'unless:' command as written")
                .contains("Write guards that only read.");
    }

    @Test
    void versionNamesTheToolAndTheJava() {
        CliRun run = CliRun.of("--version").expectExit(ExitCode.OK);

        assertThat(run.stdout()).as(run.toString()).startsWith("fleetfix ").contains("Java 17");
    }

    @Test
    void completionPrintsABashScriptForEverySubcommand() {
        CliRun run = CliRun.of("completion").expectExit(ExitCode.OK);

        assertThat(run.stdout())
                .as(run.toString())
                .startsWith("#!/usr/bin/env bash")
                .contains("complete -F _complete_fleetfix", "_picocli_fleetfix_audit", "_picocli_fleetfix_apply");
    }

    @Test
    void anUnknownOptionIsOneLineAndExitTwo() {
        CliRun run = CliRun.of("audit", "--frobnicate").expectExit(ExitCode.USAGE);

        assertThat(run.stderr()).as(run.toString()).contains("Unknown option: '--frobnicate'");
        assertThat(run.stderr()).doesNotContain("Exception", "\tat ");
        assertThat(run.stdout()).isEmpty();
    }

    @Test
    void aMissingInventoryNamesTheFileAndExitsTwo() {
        CliRun run = CliRun.of("audit", "-i", "no-such-inventory.yaml").expectExit(ExitCode.USAGE);

        assertThat(run.stderr()).as(run.toString()).contains("no-such-inventory.yaml");
        assertThat(run.stderr()).doesNotContain("\tat ");
    }
}
