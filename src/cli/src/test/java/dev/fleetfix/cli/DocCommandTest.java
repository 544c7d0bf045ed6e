package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.playbook.StepDoc;
import dev.fleetfix.report.manual.PlaybookManual;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code fleetfix doc}: the steps a playbook can use, and one step's arguments, without the README. */
class DocCommandTest {

    @Test
    void listsEveryStepWithItsSummary() {
        CliRun run = CliRun.of("doc").expectExit(ExitCode.OK);

        assertThat(run.stdout())
                .containsPattern("(?m)^  restart_redis +Restarts Redis without losing data")
                .contains("  audit ", "  thp ", "  persist_thp ", "  sysctl ", "  redis_config ", "  wait_healthy ")
                .contains("  command ", "  assert ", "  benchmark ");
    }

    @Test
    void aStepGivesEveryArgumentWithTypeDefaultAndExample() {
        CliRun run = CliRun.of("doc", "restart_redis").expectExit(ExitCode.OK);

        assertThat(run.stdout())
                .startsWith("restart_redis: Restarts Redis")
                .contains("Example:\n  - restart_redis: {failover: auto, timeout: 120s}\n")
                .contains(
                        "  timeout  (duration)\n",
                        "      default: 90s\n",
                        "      example: - restart_redis: {timeout: 120s}\n")
                .contains("  failover  (auto|never|manual)\n")
                .contains("allow_data_loss", "data_check", "failback", "topology", "unit", "command", "always");
    }

    @Test
    void thePlaybookManPageHasEveryStepAndArgumentOfTheCatalogue() {
        Map<String, StepDoc> docs = DocCommand.docs();
        String page = PlaybookManual.render(docs, "test");

        assertThat(docs).hasSize(10);
        docs.forEach((name, doc) -> {
            assertThat(page).contains("=== " + name + "\n", doc.example());
            doc.args().forEach(arg -> assertThat(page).contains("*pass:c[" + arg.name() + "]*::"));
        });
    }

    @Test
    void anUnknownStepIsExit2WithTheNearestName() {
        CliRun run = CliRun.of("doc", "restart_redi").expectExit(ExitCode.USAGE);

        assertThat(run.stderr()).contains("unknown step 'restart_redi'; did you mean restart_redis?");
        assertThat(run.stdout()).isEmpty();
    }

    @Test
    void aNameFarFromAnyStepListsThemAll() {
        CliRun run = CliRun.of("doc", "reboot_everything").expectExit(ExitCode.USAGE);

        assertThat(run.stderr())
                .contains("unknown step 'reboot_everything' (fleetfix doc lists the steps: audit, thp")
                .doesNotContain("did you mean");
    }

    /** The verdict words are defined once: what the command prints is what the docs quote. */
    @Test
    void docVerdictsPrintsTheWordsTheDocsQuote() throws Exception {
        CliRun run = CliRun.of("doc", "verdicts").expectExit(ExitCode.OK);
        assertThat(run.stdout())
                .startsWith("Benchmark verdicts: one meaning per word")
                .contains("\nimproved, regressed\n", "\nno change detected\n", "\ninconclusive\n")
                .contains("too few hosts for a fleet interval");
        String docs = java.nio.file.Files.readString(java.nio.file.Path.of("docs", "benchmarks-and-verdicts.md"));
        assertThat(docs).contains("```\n" + run.stdout() + "```\n");
    }
}
