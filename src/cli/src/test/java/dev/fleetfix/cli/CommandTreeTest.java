package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** A command line builds only the subcommand it invokes, and answers as the whole tree would. */
class CommandTreeTest {

    private static final List<String> ALL =
            List.of("audit", "apply", "bench", "report", "inventory", "connections", "completion", "doc", "thp-demo");

    @Test
    void aSubcommandIsBuiltAlone() {
        assertThat(built("audit", "-i", "inventory.yaml")).containsExactly("audit");
        assertThat(built("-v", "-F", "none", "inventory", "--list")).containsExactly("inventory");
        assertThat(built("--ssh-config=none", "-vv", "report", "show", "run.json"))
                .containsExactly("report");
        assertThat(built("thp-demo", "--help")).containsExactly("thp-demo");
    }

    @Test
    void versionIsAnsweredByTheRootAlone() {
        assertThat(built("--version")).isEmpty();
        assertThat(built("-v", "-V")).isEmpty();
    }

    @Test
    void helpCompletionAndUnknownWordsGetTheWholeTreeInTheHelpsOrder() {
        assertThat(built()).containsExactlyElementsOf(ALL);
        assertThat(built("--help")).containsExactlyElementsOf(ALL);
        assertThat(built("-v")).containsExactlyElementsOf(ALL);
        assertThat(built("--version", "--frobnicate")).containsExactlyElementsOf(ALL);
        assertThat(built("completion")).containsExactlyElementsOf(ALL);
        assertThat(built("audti", "-i", "inventory.yaml")).containsExactlyElementsOf(ALL);
        assertThat(built("-vF", "none", "audit")).containsExactlyElementsOf(ALL);
    }

    @Test
    void theAdaptersAreBuiltOnlyWhenACommandTakesThem() {
        AtomicInteger made = new AtomicInteger();
        Supplier<Adapters> adapters = () -> {
            made.incrementAndGet();
            return Adapters.system();
        };

        CliRun.of(commandLine(adapters, "--version"), "--version").expectExit(ExitCode.OK);
        CliRun.of(commandLine(adapters, "doc", "--help"), "doc", "--help").expectExit(ExitCode.OK);
        assertThat(made).as("adapters built for --version and doc --help").hasValue(0);

        commandLine(adapters, "--help");
        assertThat(made).as("adapters built once for the whole tree").hasValue(1);
    }

    @Test
    void theBuildsTreeIsTheRootWithEveryBuiltin() {
        CommandLine tree = new CommandLine(new CommandTree(), Adapters.Factory.lazy(Adapters::system));

        assertThat(tree.getCommandName()).isEqualTo("fleetfix");
        assertThat(tree.getSubcommands().keySet()).containsExactlyElementsOf(ALL);
        assertThat(tree.getCommandSpec().findOption("--ssh-config")).isNotNull();
    }

    @Test
    void whatAUserSeesIsTheWholeTreesOutput() {
        List<List<String>> lines = List.of(
                List.of("--version"),
                List.of("-v", "--version"),
                List.of("--help"),
                List.of("audit", "--help"),
                List.of("apply", "--help"),
                List.of("bench", "--help"),
                List.of("report", "--help"),
                List.of("report", "merge", "--help"),
                List.of("inventory", "--help"),
                List.of("doc", "--help"),
                List.of("thp-demo", "run", "--help"),
                List.of("-F", "none", "audit", "--frobnicate"),
                List.of("audit", "-i", "no-such-inventory.yaml"),
                List.of("audti"),
                List.of("lab", "status"),
                List.of("inventory", "--list", "-i", "inventory.example.yaml"),
                List.of("completion"));
        for (List<String> line : lines) {
            String[] args = line.toArray(String[]::new);
            CliRun alone = CliRun.of(args);
            CliRun whole = CliRun.of(Main.commandLine(), args);

            assertThat(alone).as("built alone vs the whole tree").isEqualTo(whole);
        }
    }

    private static List<String> built(String... args) {
        return List.copyOf(commandLine(Adapters::system, args).getSubcommands().keySet());
    }

    private static CommandLine commandLine(Supplier<Adapters> adapters, String... args) {
        return Main.commandLine(AnsibleSettings.none(), adapters, Main.Invocation.of(args));
    }
}
