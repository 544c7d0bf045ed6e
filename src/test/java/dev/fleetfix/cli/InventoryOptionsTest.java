package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.inventory.Connection;
import dev.fleetfix.inventory.Host;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

class InventoryOptionsTest {
    private static final String FLEET =
            Path.of("src/test/resources/inventory/fleet.yaml").toString();

    /** A command shaped like the real ones: check listHosts() first, print names, connect to nothing. */
    @Command(name = "probe")
    static final class Probe implements Runnable {
        @Mixin
        InventoryOptions inventory;

        List<Host> selected;

        @picocli.CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public void run() {
            selected = inventory.selectHosts();
            if (inventory.listHosts()) {
                selected.forEach(h -> spec.commandLine().getOut().println(h.name()));
            }
        }
    }

    record Run(int exitCode, String out, String err, Probe probe) {}

    private static Run run(String... args) {
        Probe probe = new Probe();
        CommandLine cmd = new CommandLine(probe);
        cmd.setExecutionExceptionHandler(new ErrorHandler());
        cmd.setParameterExceptionHandler(new ErrorHandler.UsageHandler());
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cmd.setOut(new PrintWriter(out));
        cmd.setErr(new PrintWriter(err));
        int code = cmd.execute(args);
        return new Run(code, out.toString(), err.toString(), probe);
    }

    @Test
    void listHostsPrintsTheSelectedHostsOnePerLine() {
        Run run = run("-i", FLEET, "--limit", "redis:!redis_primary", "--list-hosts");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out().lines()).containsExactly("redis-2", "redis-3");
    }

    @Test
    void withoutInventoryTheHostIsTheImplicitLocalhost() {
        Run run = run();

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.probe().selected).singleElement().satisfies(h -> {
            assertThat(h.name()).isEqualTo("localhost");
            assertThat(h.connection()).isEqualTo(Connection.LOCAL);
        });
    }

    @Test
    void aLimitThatMatchesNothingExitsTwoWithAnsiblesWords() {
        Run run = run("-i", FLEET, "--limit", "nosuchgroup", "--list-hosts");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err())
                .isEqualTo("fleetfix: Could not match supplied host pattern: nosuchgroup" + System.lineSeparator());
        assertThat(run.out()).isEmpty();
    }

    @Test
    void aBrokenInventoryExitsTwoNamingFileAndLine() {
        Run run = run("-i", "src/test/resources/inventory/missing.yaml");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err()).contains("missing.yaml: no such file");
    }
}
