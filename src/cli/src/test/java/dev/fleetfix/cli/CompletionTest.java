package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/** The completion script offers the words the help documents ({@code table}, {@code thp-always}). */
class CompletionTest {

    @Test
    void completionOffersTheDocumentedLowercaseWords() {
        CliRun run = CliRun.of("completion");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout())
                .contains("FORMAT_option_args=(\"table\" \"json\" \"openmetrics\")")
                .doesNotContain("\"TABLE\"", "\"JSON\"", "\"OPENMETRICS\"");
    }

    @Test
    void everyEnumOptionCompletesWithLowercaseWords() {
        List<String> enumOptions = new ArrayList<>();
        visit(Main.commandLine(), enumOptions);

        assertThat(enumOptions).as("the enum options found").isNotEmpty();
        assertThat(enumOptions).allSatisfy(option -> assertThat(option).doesNotContainPattern("[A-Z]"));
    }

    /** Each enum option as {@code command --option=word,word}, its completion words. */
    private static void visit(CommandLine cmd, List<String> found) {
        CommandSpec spec = cmd.getCommandSpec();
        for (OptionSpec option : spec.options()) {
            if (option.type().isEnum()) {
                assertThat(option.completionCandidates())
                        .as(spec.qualifiedName() + " " + option.longestName() + " completion candidates")
                        .isNotNull();
                List<String> words = new ArrayList<>();
                option.completionCandidates().forEach(words::add);
                assertThat(words).as(option.longestName()).hasSize(option.type().getEnumConstants().length);
                found.add(spec.qualifiedName().toLowerCase(java.util.Locale.ROOT) + " " + option.longestName() + "="
                        + String.join(",", words));
            }
        }
        cmd.getSubcommands().values().forEach(sub -> visit(sub, found));
    }
}
